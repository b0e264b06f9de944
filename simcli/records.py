"""Game records: one JSON object per line in ``games.jsonl``.

See ``docs/records.md`` for the format and ``simcli/schema/record.schema.json`` for the
JSON Schema. This module writes lines, reads logs (reporting bad lines by number), and
replays a record through the rules to verify it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcli.errors import RecordError, SimcliError

SCHEMA_VERSION = 1
#: The JSON Schema of a record line (shipped with the package).
SCHEMA_PATH = Path(__file__).parent / "schema" / "record.schema.json"
REQUIRED_KEYS = (
    "schema",
    "game",
    "options",
    "index",
    "seed",
    "seats",
    "setup",
    "moves",
    "scores",
    "winners",
    "termination",
    "final_hash",
)
TERMINATIONS = ("normal", "move_limit", "forfeit", "error")
#: Required keys of ``game_source``, the origin of a plug-in game (absent for built-ins).
SOURCE_KEYS = ("kind", "use", "fingerprint")


# Records are trees of plain values: no cycle check (a few microseconds per game).
_LINE_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def dumps(record: dict[str, Any]) -> str:
    """One compact line (no trailing newline). Key order is the record's own order."""
    return _LINE_ENCODER.encode(record)


@dataclass
class BadLine:
    lineno: int
    message: str


def read_log(path: Path) -> Iterator[tuple[int, dict[str, Any] | BadLine]]:
    """Yield ``(line number, record)`` for each line, or a :class:`BadLine` for a line
    that is not a JSON object (a truncated last line is named as such). Raises
    :class:`RecordError` when the file cannot be read or holds no JSON line at all."""
    path = Path(path)
    if path.is_dir():
        path = path / "games.jsonl"
    if not path.is_file():
        raise RecordError(f"{path}: no such game log")
    good = bad = 0
    with path.open("rb") as handle:
        data_iter = iter(handle)
        lineno = 0
        pending: tuple[int, bytes] | None = None
        for raw in data_iter:
            lineno += 1
            if pending is not None:
                item = _parse_in(path, *pending, last=False)
                good, bad = (good + 1, bad) if isinstance(item, dict) else (good, bad + 1)
                if bad and not good and bad >= 5:
                    raise RecordError(f"{path}: not a JSON-lines game log ({item.message})")
                yield pending[0], item
            pending = (lineno, raw)
        if pending is not None:
            item = _parse_in(path, *pending, last=True)
            good, bad = (good + 1, bad) if isinstance(item, dict) else (good, bad + 1)
            if not good:
                raise RecordError(f"{path}: not a JSON-lines game log ({item.message})")
            yield pending[0], item
        elif lineno == 0:
            raise RecordError(f"{path}: the game log is empty")


def _parse_in(path: Path, lineno: int, raw: bytes, last: bool) -> dict[str, Any] | BadLine:
    try:
        return _parse(lineno, raw, last)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def _parse(lineno: int, raw: bytes, last: bool) -> dict[str, Any] | BadLine:
    """One line: a record, a :class:`BadLine`, or :class:`RecordError` for a schema this
    version cannot read (the caller adds the file name)."""
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        return BadLine(lineno, f"line {lineno}: empty line")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        truncated = last and not text.endswith("\n")
        what = "truncated last line" if truncated else f"not JSON ({exc.msg} at column {exc.colno})"
        return BadLine(lineno, f"line {lineno}: {what}")
    if not isinstance(value, dict):
        return BadLine(lineno, f"line {lineno}: a JSON {type(value).__name__}, not a game record")
    missing = [k for k in REQUIRED_KEYS if k not in value]
    if missing:
        return BadLine(lineno, f"line {lineno}: not a game record (missing {', '.join(missing)})")
    if value["schema"] != SCHEMA_VERSION:
        raise RecordError(
            f"line {lineno}: record schema {value['schema']!r} is not supported "
            f"(this simcli reads schema {SCHEMA_VERSION})"
        )
    problem = shape_problem(value)
    if problem:
        return BadLine(lineno, f"line {lineno}: not a valid game record ({problem})")
    return value


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def shape_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with the types of a record's fields (see the JSON Schema), or None."""
    seats = record["seats"]
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        return "seats must be a non-empty list of strategy names"
    n = len(seats)
    if not isinstance(record["game"], str):
        return "game must be a text"
    if not isinstance(record["options"], dict):
        return "options must be an object"
    if not _is_int(record["index"]) or not _is_int(record["seed"]):
        return "index and seed must be whole numbers"
    if not isinstance(record["moves"], list):
        return "moves must be a list"
    if record["setup"] is not None and not isinstance(record["setup"], dict):
        return "setup must be an object"
    scores = record["scores"]
    if scores is not None and (
        not isinstance(scores, list)
        or len(scores) != n
        or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in scores)
    ):
        return f"scores must be null or {n} numbers"
    winners = record["winners"]
    if not isinstance(winners, list) or not all(_is_int(w) and 0 <= w < n for w in winners):
        return f"winners must list seats 0..{n - 1}"
    if record["termination"] not in TERMINATIONS:
        return f"termination must be one of {', '.join(TERMINATIONS)}"
    if "detail" in record and not isinstance(record["detail"], dict):
        return "detail must be an object"
    if record["final_hash"] is not None and not isinstance(record["final_hash"], str):
        return "final_hash must be a text or null"
    source = record.get("game_source")
    if source is not None and not (
        isinstance(source, dict) and all(isinstance(source.get(k), str) for k in SOURCE_KEYS)
    ):
        return f"game_source must be an object with {', '.join(SOURCE_KEYS)}"
    return None


@dataclass
class Mismatch:
    index: Any
    ply: int | None
    message: str

    def __str__(self) -> str:
        where = f"game {self.index}" + (f", ply {self.ply}" if self.ply is not None else "")
        return f"{where}: {self.message}"


def replay(record: dict[str, Any], on_state=None) -> list[Mismatch]:
    """Re-apply setup and moves through the rules; check every move's legality and the
    scores, winners, termination and final hash. ``on_state(ply, entry, state, seat)``
    is called after the setup (ply 0, entry None) and after every entry (``seat`` is the
    seat that moved, or ``CHANCE``)."""
    from simcli.game import CHANCE
    from simcli.games import record_game

    index = record.get("index")
    try:
        game = record_game(record)[0]
    except SimcliError as exc:
        raise RecordError(f"game {index}: {exc}") from None
    problems: list[Mismatch] = []
    try:
        options = game.resolve_options(record["options"])
        players = len(record["seats"])
        game.check_players(players)
        state = game.new_state(players, options, record["setup"])
    except (SimcliError, ValueError, TypeError, KeyError) as exc:
        return [Mismatch(index, 0, f"setup cannot be rebuilt: {exc}")]
    if on_state:
        on_state(0, None, state, None)
    for ply, entry in enumerate(record["moves"], start=1):
        if state.is_terminal():
            return [*problems, Mismatch(index, ply, "move after the end of the game")]
        seat = state.current_player
        try:
            if isinstance(entry, dict):
                if seat != CHANCE or set(entry) != {"chance"}:
                    who = "a chance event" if seat == CHANCE else f"seat {seat}"
                    return [*problems, Mismatch(index, ply, f"expected {who}, found {entry!r}")]
                state.apply(entry["chance"])
            else:
                if seat == CHANCE:
                    return [
                        *problems,
                        Mismatch(index, ply, f"expected a chance event, found {entry!r}"),
                    ]
                if entry not in state.legal_moves():
                    return [
                        *problems,
                        Mismatch(index, ply, f"move {entry!r} of seat {seat} is not legal"),
                    ]
                state.apply(entry)
        except ValueError as exc:
            return [*problems, Mismatch(index, ply, f"{entry!r} refused: {exc}")]
        if on_state:
            on_state(ply, entry, state, seat)
    termination = record["termination"]
    if termination in ("normal", "move_limit"):
        if not state.is_terminal():
            problems.append(Mismatch(index, None, "the moves do not end the game"))
        else:
            outcome = state.outcome()
            expected = {
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "termination": outcome.termination,
            }
            for key, value in expected.items():
                if record[key] != value:
                    problems.append(
                        Mismatch(
                            index, None, f"{key}: record has {record[key]!r}, rules give {value!r}"
                        )
                    )
    elif termination == "forfeit":
        detail = record.get("detail") or {}
        if record["scores"] is not None:
            problems.append(Mismatch(index, None, "a forfeit has no scores (null)"))
        seat = detail.get("seat")
        if state.is_terminal() or state.current_player != seat:
            problems.append(
                Mismatch(index, None, f"forfeit by seat {seat!r}, but it was not that seat's turn")
            )
        others = [s for s in range(len(record["seats"])) if s != seat]
        if record["winners"] != others:
            problems.append(
                Mismatch(
                    index,
                    None,
                    f"winners: record has {record['winners']!r}, a forfeit gives {others!r}",
                )
            )
    elif termination == "error":
        if record["scores"] is not None or record["winners"]:
            problems.append(Mismatch(index, None, "an error record has no scores and no winners"))
        if state.is_terminal() and _outcome_or_none(state) is not None:
            problems.append(
                Mismatch(index, None, "termination 'error', but the rules end the game normally")
            )
    else:
        problems.append(Mismatch(index, None, f"unknown termination {termination!r}"))
    actual = state.final_hash()
    if record["final_hash"] is None and termination != "error":
        problems.append(Mismatch(index, None, "final_hash is missing"))
    elif record["final_hash"] is not None and record["final_hash"] != actual:
        problems.append(
            Mismatch(
                index, None, f"final_hash: record has {record['final_hash']}, replay gives {actual}"
            )
        )
    return problems


def _outcome_or_none(state):
    try:
        return state.outcome()
    except Exception:  # the rules failed here when the game was played, too
        return None
