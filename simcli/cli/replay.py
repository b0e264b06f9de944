"""``simcli replay LOG``: list, select, sort, show or verify logged games."""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterator

import click

from simcli.query import SORT_KEYS

SHOW_HELP = "Print the board after every move (see --ply and --final for one board)."


@click.command()
@click.argument("log_path", metavar="LOG", type=click.Path())
@click.option("--game", "game_index", type=int, help="Only the game with this index.")
@click.option(
    "--where",
    "where",
    multiple=True,
    metavar="KEY=VALUE",
    help="Only games where KEY is VALUE; KEY: strategy, seat, result (win, loss, draw, "
    "forfeit), variant, termination, game. Seat keys hold for one seat together; "
    "repeat a key for alternatives.",
)
@click.option(
    "--sort",
    "sort",
    type=click.Choice(SORT_KEYS),
    help="Order by score margin (best minus second best points) or length (player "
    "moves), largest first, each shown at the end of its line; games without one "
    "(forfeits have no margin) last.",
)
@click.option("--ascending", is_flag=True, help="With --sort: smallest first.")
@click.option("--top", type=click.IntRange(min=1), help="Only the first N selected games.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one JSON object per line (per game; with --show, per board).",
)
@click.option(
    "--verify",
    is_flag=True,
    help="Re-apply every move through the rules; check legality, scores, winners and final_hash.",
)
@click.option("--show", is_flag=True, help=SHOW_HELP)
@click.option(
    "--ply",
    type=click.IntRange(min=0),
    help="With --show: only the board after ply N (0 = the setup, 1 = after the first entry "
    "of moves, chance events included).",
)
@click.option("--final", is_flag=True, help="With --show: only the final board.")
def replay(
    log_path, game_index, where, sort, ascending, top, fmt, verify, show, ply, final
) -> None:
    """Re-play the games of LOG (a games.jsonl file or a run folder).

    Without options, prints one line per game (a forfeit names the seat, its strategy and
    the reason). Exit code 1 if --verify finds a mismatch, 2 if the log has lines that
    are not game records (the other lines are still checked).

    \b
    simcli replay results/quickstart --where strategy=greedy --where result=loss
    simcli replay results/quickstart --sort margin --top 5
    simcli replay results/quickstart --where termination=forfeit --format json
    simcli replay results/quickstart --game 12 --show --final
    """
    from pathlib import Path

    from simcli.errors import RecordError
    from simcli.query import Where
    from simcli.tournament.gamelog import BadLine, read_log

    if (ply is not None or final) and not show:
        raise click.UsageError("--ply and --final go with --show")
    from simcli.tournament.lock import note_if_running

    running = Path(log_path).exists() and note_if_running(Path(log_path))
    if ply is not None and final:
        raise click.UsageError("--ply and --final exclude each other")
    if ascending and not sort:
        raise click.UsageError("--ascending goes with --sort")
    selection = Where.parse(where)
    bad_lines = 0
    counts = {"checked": 0, "failed": 0}
    warned: set[str] = set()
    found = False

    def selected() -> Iterator[tuple[int, dict]]:
        nonlocal bad_lines, found
        for lineno, item in read_log(Path(log_path)):
            if isinstance(item, BadLine):
                if running and item.truncated:  # the line being written right now
                    continue
                bad_lines += 1
                click.echo(f"{log_path}: {item.message}", err=True)
                continue
            if game_index is not None and item.get("index") != game_index:
                continue
            found = True
            if selection.matches(item):
                yield lineno, item

    games = _ordered(selected(), sort, ascending, top)
    for lineno, item in games:
        if show or verify:
            _warn_changed(item, warned)
        if show:
            _show(item, fmt, ply, final)
        if verify:
            _verify(item, lineno, fmt, counts)
        elif not show:
            click.echo(json.dumps(summary(item)) if fmt == "json" else summary_line(item, sort))
    if game_index is not None and not found:
        raise RecordError(f"{log_path}: no game with index {game_index}")
    if verify and fmt == "text":
        verdict = "all match" if not counts["failed"] else f"{counts['failed']} with mismatches"
        click.echo(f"verified {counts['checked']} game(s): {verdict}")
    if bad_lines:
        click.echo(f"{bad_lines} line(s) could not be read", err=True)
        raise SystemExit(2)
    if counts["failed"]:
        raise SystemExit(1)


def _ordered(games, sort: str | None, ascending: bool, top: int | None):
    """The selected games in log order, or sorted by ``sort`` (games without a value
    last, ties in log order); at most ``top`` of them. Sorting with ``--top`` keeps only
    ``top`` records in memory."""
    from itertools import islice

    from simcli.query import sort_key

    if not sort:
        return islice(games, top)

    def key(pair):
        value = sort_key(pair[1], sort)
        missing = value is None
        value = 0 if missing else (value if ascending else -value)
        return (missing, value, pair[0])

    if top is not None:
        return heapq.nsmallest(top, games, key=key)
    return sorted(games, key=key)


def _verify(record: dict, lineno: int, fmt: str, counts: dict) -> None:
    from simcli.verify import replay as replay_record

    counts["checked"] += 1
    problems = replay_record(record)
    if problems:
        counts["failed"] += 1
    if fmt == "json":
        click.echo(
            json.dumps(
                {"index": record["index"], "line": lineno, "mismatches": [str(p) for p in problems]}
            )
        )
        return
    for problem in problems:
        click.echo(f"MISMATCH line {lineno}, {problem}")


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


def summary(record: dict) -> dict:
    """The ``--format json`` line of a game: its record without setup and moves, plus
    length, margin and who forfeited why (``forfeit``: seat, strategy, kind, message)."""
    from simcli.stats import records as R

    out = {
        "index": record["index"],
        "game": record["game"],
        "variant": record.get("variant"),
        "seed": record["seed"],
        "seats": record["seats"],
        "scores": record["scores"],
        "winners": record["winners"],
        "termination": record["termination"],
        "length": R.game_length(record["moves"]),
        "margin": R.margin(record["scores"]),
        "forfeit": None,
        "error": None,
    }
    reason = {"kind": R.forfeit_kind(record), "message": R.detail_message(record)}
    if record["termination"] == "forfeit":
        seat = R.forfeit_seat(record)
        strategy = None if seat is None else record["seats"][seat]
        out["forfeit"] = {"seat": seat, "strategy": strategy, **reason}
    elif record["termination"] == "error":
        out["error"] = reason
    return out


def summary_line(record: dict, sort: str | None = None) -> str:
    """One game in a line; ``sort`` (margin, length): the figure the games are sorted by
    is shown at the end of the line."""
    from simcli.query import forfeit_text, sort_key

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
    why = forfeit_text(record)
    if why is not None:
        extra = f" [{why}]"
    else:
        extra = "" if record["termination"] == "normal" else f" [{record['termination']}]"
    variant = f" ({record['variant']})" if record.get("variant") is not None else ""
    shown = ""
    if sort is not None:
        value = sort_key(record, sort)
        if sort == "margin":
            shown = " margin n/a (no scores)" if value is None else f" margin {value:g}"
        else:
            shown = f" length {value:g} moves" if value is not None else " length n/a"
        shown = f" [{shown.strip()}]"
    return f"game {record['index']}{variant}: {seats}: {result}{score_text}{extra}{shown}"


def _show(record: dict, fmt: str, only_ply: int | None, final: bool) -> None:
    from simcli.errors import RecordError
    from simcli.verify import replay as replay_record

    seats = record["seats"]
    if fmt == "text":
        click.echo(f"=== game {record['index']}: {' vs '.join(seats)} (seed {record['seed']})")
    last: list = []

    def heading(ply, entry, seat) -> str:
        if ply == 0:
            return "setup:"
        if isinstance(entry, dict):
            return f"ply {ply}: chance {json.dumps(entry['chance'])}"
        return f"ply {ply}: seat {seat} ({seats[seat]}) plays {json.dumps(entry)}"

    def emit(ply, entry, state, seat) -> None:
        if fmt == "json":
            who = None if ply == 0 or isinstance(entry, dict) else seat
            line = {"index": record["index"], "ply": ply, "seat": who, "entry": entry}
            click.echo(json.dumps({**line, "state": state.snapshot()}))
            return
        click.echo(
            ("" if ply == 0 or only_ply is not None or final else "\n") + heading(ply, entry, seat)
        )
        click.echo(state.render())

    def on_state(ply, entry, state, seat) -> None:
        if final:
            last[:] = [ply, entry, state, seat]
        elif only_ply is None or ply == only_ply:
            emit(ply, entry, state, seat)

    problems = replay_record(record, on_state=on_state)
    if final and last:
        emit(*last)
    plies = len(record["moves"])
    if only_ply is not None and only_ply > plies:
        raise RecordError(
            f"game {record['index']} has {plies} plies; --ply {only_ply} is past its end"
        )
    if fmt == "text":
        click.echo(summary_line(record))
    for problem in problems:
        click.echo(f"MISMATCH {problem}", err=fmt == "json")
