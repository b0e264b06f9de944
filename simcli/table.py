"""The tidy table of a run: one row per game and seat, for ``simcli export`` and
:func:`simcli.load_run`.

Columns (see ``docs/analysis.md``): the game (``game_index``, ``game``, ``variant``,
``seed``, ``players``, ``decisive``, ``termination``, ``moves``, ``margin``, the
forfeit's ``forfeit_seat``, ``forfeit_kind`` and ``forfeit_message``, one
``option_NAME`` per scalar game option), the seat (``seat``, ``strategy``, ``points``,
``rank``, ``win``, ``draw``, ``win_share``, ``score``, ``forfeited``) and, with
``parts=True`` (which replays every game), the game's own figures: its length in its
natural unit (``rounds``, ``turns``) and ``part_NAME`` score parts per seat.

``win_share`` and ``score`` are the report's: their means per strategy are its win rate
and score rate, and ``win_share``'s mean per seat its "win share of all games"
(``tests/test_analysis_docs.py`` recomputes the report's tables from them).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simcli.errors import RecordError
from simcli.game import Facts
from simcli.stats import records as R

COLUMNS = (
    "game_index",
    "game",
    "variant",
    "seed",
    "players",
    "seat",
    "strategy",
    "points",
    "rank",
    "win",
    "draw",
    "decisive",
    "win_share",
    "score",
    "forfeited",
    "termination",
    "forfeit_seat",
    "forfeit_kind",
    "forfeit_message",
    "moves",
    "margin",
)
PART_PREFIX = "part_"
OPTION_PREFIX = "option_"


def game_rows(record: dict[str, Any], facts: Facts | None = None) -> list[dict[str, Any]]:
    """The rows of one game record, seat 0 first."""
    seats = record["seats"]
    n = len(seats)
    winners = record["winners"]
    scores = record["scores"]
    termination = record["termination"]
    error = termination == "error"
    forfeit = termination == "forfeit"
    forfeit_seat = R.forfeit_seat(record) if forfeit else None
    draw = not error and R.is_draw(n, winners)
    ranks = None if error else R.finishing_ranks(n, winners, scores)
    score = None if error else R.seat_scores(n, winners)
    shares = None if error else win_shares(n, winners)
    game = {
        "game_index": record["index"],  # not "index": a DataFrame has one of its own
        "game": record["game"],
        "variant": record.get("variant"),
        "seed": record["seed"],
        "players": n,
    }
    tail = {
        "termination": termination,
        "forfeit_seat": forfeit_seat,
        "forfeit_kind": R.forfeit_kind(record) if forfeit else None,
        "forfeit_message": R.detail_message(record) if forfeit else None,
        "moves": R.game_length(record["moves"]),
        "margin": R.margin(scores),
    }
    options = {
        OPTION_PREFIX + name: value
        for name, value in (record.get("options") or {}).items()
        if value is None or isinstance(value, str | int | float | bool)
    }
    rows = []
    for seat, strategy in enumerate(seats):
        row = {
            **game,
            "seat": seat,
            "strategy": strategy,
            "points": None if scores is None else scores[seat],
            "rank": None if ranks is None else ranks[seat] + 1,
            "win": not error and not draw and seat in winners,
            "draw": draw,
            "decisive": not error and n > 1 and len(winners) == 1,
            "win_share": None if shares is None else shares[seat],
            "score": None if score is None else score[seat],
            "forfeited": forfeit_seat == seat,
            **tail,
            **options,
        }
        if facts is not None:
            row.update(facts.game)
            if seat < len(facts.seats):
                row.update({PART_PREFIX + k: v for k, v in facts.seats[seat].items()})
        rows.append(row)
    return rows


def win_shares(n: int, winners: list[int]) -> list[float]:
    """The report's win share per seat: 1/k for each of k winners, 0 for every seat of a
    draw (no winner, or every seat a winner); solitaire: 1 for a success."""
    if R.is_draw(n, winners):
        return [0.0] * n
    return R.seat_scores(n, winners)


def replayed_facts(record: dict[str, Any]) -> Facts:
    """Replay ``record`` through its rules and ask the game for its figures. Raises
    :class:`RecordError` when the record does not replay."""
    from simcli.games import record_game
    from simcli.verify import replay

    final: list = [None]

    def keep(ply: int, entry: Any, state: Any, seat: int | None) -> None:
        final[0] = state

    problems = replay(record, on_state=keep)
    if problems or final[0] is None:
        what = problems[0] if problems else f"game {record['index']}: nothing to replay"
        raise RecordError(f"{what} (check the log with `simcli replay LOG --verify`)")
    return record_game(record)[0].facts(final[0])


def iter_rows(path: str | Path, *, parts: bool = False) -> Iterator[dict[str, Any]]:
    """Stream the table's rows from a run folder or a ``games.jsonl``. A line that is
    not a game record raises :class:`RecordError` naming it."""
    from simcli.tournament.gamelog import BadLine, read_log

    for _lineno, item in read_log(Path(path)):
        if isinstance(item, BadLine):
            raise RecordError(f"{path}: {item.message}")
        yield from game_rows(item, replayed_facts(item) if parts else None)


def columns_of(rows: list[dict[str, Any]]) -> list[str]:
    """The fixed columns, then options, game figures and parts in order of appearance."""
    extra: dict[str, None] = {}
    for row in rows:
        for key in row:
            if key not in extra:
                extra[key] = None
    return [*COLUMNS, *(k for k in extra if k not in COLUMNS)]


def load_run(path: str | Path, *, parts: bool = False) -> Any:
    """The run's table, one row per game and seat: a ``pandas.DataFrame`` when pandas is
    installed (``pip install 'simcli[analysis]'``), else a list of dicts. ``path`` is a
    run folder or a ``games.jsonl``; ``parts=True`` replays every game to add the game's
    own figures (rounds or turns, score parts). See ``docs/analysis.md``."""
    rows = list(iter_rows(path, parts=parts))
    try:
        import pandas as pd
    except ImportError:
        return rows
    return pd.DataFrame(rows, columns=columns_of(rows))
