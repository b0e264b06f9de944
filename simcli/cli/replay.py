"""``simcli replay LOG``: list, show or verify logged games."""

from __future__ import annotations

import click


@click.command()
@click.argument("log_path", metavar="LOG", type=click.Path())
@click.option("--game", "game_index", type=int, help="Only the game with this index.")
@click.option(
    "--verify",
    is_flag=True,
    help="Re-apply every move through the rules; check legality, scores, winners and final_hash.",
)
@click.option("--show", is_flag=True, help="Print the board after every move.")
def replay(log_path, game_index, verify, show) -> None:
    """Re-play the games of LOG (a games.jsonl file or a run folder).

    Without options, prints one line per game. Exit code 1 if --verify finds a mismatch,
    2 if the log has lines that are not game records (the other lines are still checked).
    """
    from pathlib import Path

    from simcli.errors import RecordError
    from simcli.records import BadLine, read_log
    from simcli.records import replay as replay_record

    bad_lines = 0
    warned: set[str] = set()
    checked = 0
    failed = 0
    found = False
    for lineno, item in read_log(Path(log_path)):
        if isinstance(item, BadLine):
            bad_lines += 1
            click.echo(f"{log_path}: {item.message}", err=True)
            continue
        if game_index is not None and item.get("index") != game_index:
            continue
        found = True
        if show or verify:
            _warn_changed(item, warned)
        if show:
            _show(item)
            if not verify:
                continue
        if verify:
            checked += 1
            problems = replay_record(item)
            if problems:
                failed += 1
                for problem in problems:
                    click.echo(f"MISMATCH line {lineno}, {problem}")
        else:
            click.echo(_summary_line(item))
    if game_index is not None and not found:
        raise RecordError(f"{log_path}: no game with index {game_index}")
    if verify:
        verdict = "all match" if not failed else f"{failed} with mismatches"
        click.echo(f"verified {checked} game(s): {verdict}")
    if bad_lines:
        click.echo(f"{bad_lines} line(s) could not be read", err=True)
        raise SystemExit(2)
    if failed:
        raise SystemExit(1)


def _warn_changed(record: dict, warned: set[str]) -> None:
    """Once per plug-in game: say that its rules changed since the log was written (a
    game that cannot be loaded at all stops the replay with exit code 2)."""
    from simcli.errors import RecordError, SimcliError
    from simcli.games import record_game

    try:
        note = record_game(record)[1]
    except SimcliError as exc:
        raise RecordError(f"game {record.get('index')}: {exc}") from None
    if note and note not in warned:
        warned.add(note)
        click.echo(f"warning: {note}", err=True)


def _summary_line(record: dict) -> str:
    seats = " vs ".join(record["seats"])
    winners = record["winners"]
    if record["termination"] == "error":
        result = "error"
    elif not winners:
        result = "draw"
    else:
        result = "won by " + ", ".join(f"seat {w} ({record['seats'][w]})" for w in winners)
    scores = record["scores"]
    score_text = "" if scores is None else " (scores " + ", ".join(f"{s:g}" for s in scores) + ")"
    extra = "" if record["termination"] in ("normal",) else f" [{record['termination']}]"
    return f"game {record['index']}: {seats}: {result}{score_text}{extra}"


def _show(record: dict) -> None:
    import json

    from simcli.records import replay as replay_record

    click.echo(
        f"=== game {record['index']}: {' vs '.join(record['seats'])} (seed {record['seed']})"
    )

    def on_state(ply, entry, state, seat):
        if ply == 0:
            click.echo("setup:")
        elif isinstance(entry, dict):
            click.echo(f"\nply {ply}: chance {json.dumps(entry['chance'])}")
        else:
            click.echo(
                f"\nply {ply}: seat {seat} ({record['seats'][seat]}) plays {json.dumps(entry)}"
            )
        click.echo(state.render())

    problems = replay_record(record, on_state=on_state)
    click.echo(_summary_line(record))
    for problem in problems:
        click.echo(f"MISMATCH {problem}")
