"""Game records: one JSON object per line in ``games.jsonl``; the one place the record
format is defined, encoded and checked. It imports nothing above it: reading a run's log
is :mod:`simcli.tournament.gamelog`, replaying a record through the rules
:mod:`simcli.verify`.

- :class:`Record` lists the keys in the order every record is written;
  :func:`new_record` starts one with every key in that order (play and lost games fill it).
- :func:`dumps` encodes a record as a line; :func:`problem` and :func:`check` are the one
  validation of a record, wherever it comes from (a log line, the report API).

The JSON Schema ``simcli/schema/record.schema.json`` describes the same format (a test
checks it against the definitions here); ``docs/records.md`` explains it.
"""

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from simcli.errors import RecordError
from simcli.jsonline import one_shot
from simcli.moves import is_plain_move
from simcli.plugins import SOURCE_KEYS

SCHEMA_VERSION = 1
#: The JSON Schema of a record line (shipped with the package).
SCHEMA_PATH = Path(__file__).parent / "schema" / "record.schema.json"
TERMINATIONS = ("normal", "move_limit", "forfeit", "error")
#: File names of a run folder's game log (plain, or gzip-compressed by the user).
LOG_NAMES = ("games.jsonl", "games.jsonl.gz")


class Record(TypedDict):
    """One game record; the keys in the order they are written (see docs/records.md)."""

    schema: int
    game: str
    options: dict[str, Any]
    variant: NotRequired[str]  # only in runs with variants
    index: int
    seed: int
    seats: list[str]
    setup: dict[str, Any] | None
    moves: list[Any]
    scores: list[float] | None
    winners: list[int]
    termination: str
    final_hash: str | None
    detail: NotRequired[dict[str, Any]]  # forfeit and error
    game_source: NotRequired[dict[str, Any]]  # plug-in games only


#: Every key, in the written order.
KEYS = tuple(Record.__annotations__)
REQUIRED_KEYS = tuple(k for k in KEYS if k in Record.__required_keys__)


def new_record(
    game: str,
    options: dict[str, Any],
    index: int,
    seed: int,
    seats: Sequence[str],
    variant: str | None = None,
) -> Record:
    """The record of a game about to be played: every required key in the written order,
    nothing played yet (no setup, no moves, no outcome: an ``error`` until filled in).
    Updating a key keeps its place, so the line's key order is fixed here."""
    # one literal (a game's record is made once per game: the cheapest way in Python)
    record: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "game": game,
        "options": options,
        "index": index,
        "seed": seed,
        "seats": list(seats),
        "setup": None,
        "moves": [],
        "scores": None,
        "winners": [],
        "termination": "error",
        "final_hash": None,
    }
    if variant is not None:  # its place is right after the options
        items = list(record.items())
        record = dict(items[:3]) | {"variant": variant} | dict(items[3:])
    return record  # type: ignore[return-value]


# Records are trees of plain values: no cycle check (a few microseconds per game).
_LINE_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


#: ``_LINE_ENCODER.encode``, with its C encoder built once (see ``jsonline.py``).
_encode = one_shot(_LINE_ENCODER)


def dumps(record: Record | dict[str, Any]) -> str:
    """One compact line (no trailing newline). Key order is the record's own order."""
    return _encode(record)


# ----------------------------------------------------------------------------- checks


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _is_finite(x: Any) -> bool:
    return _is_number(x) and math.isfinite(x)


_NONE = object()


def _is_entry(entry: Any) -> bool:
    """A ``moves`` entry: a plain move, or a chance event whose value holds no NaN or
    infinity (JSON has neither)."""
    if type(entry) is dict:
        return entry.keys() == {"chance"} and _json_safe(entry["chance"])
    return is_plain_move(entry)


def _json_safe(value: Any) -> bool:
    if type(value) is float:
        return math.isfinite(value)
    if type(value) is list:
        return all(map(_json_safe, value))
    if type(value) is dict:
        return all(map(_json_safe, value.values()))
    return True


def problem(value: Any) -> str | None:
    """What keeps ``value`` from being a game record of this schema, or None. The one
    validation of a record, wherever it comes from (a log line, the report API)."""
    if not isinstance(value, dict):
        return f"a game record must be a JSON object, not a JSON {_json_type(value)}"
    missing = [k for k in REQUIRED_KEYS if k not in value]
    if missing:
        return f"not a game record (missing {', '.join(missing)})"
    if value["schema"] != SCHEMA_VERSION:
        schema = value["schema"]
        return f"unknown record schema {schema!r} (this simcli reads schema {SCHEMA_VERSION})"
    seats = value["seats"]
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        return "'seats' must be a non-empty list of strategy names"
    n = len(seats)
    if not isinstance(value["game"], str):
        return "'game' must be a text"
    if not isinstance(value["options"], dict):
        return "'options' must be an object"
    if not _is_int(value["index"]) or not _is_int(value["seed"]):
        return "'index' and 'seed' must be whole numbers"
    if not isinstance(value["moves"], list):
        return "'moves' must be a list"
    bad_move = next((m for m in value["moves"] if not _is_entry(m)), _NONE)
    if bad_move is not _NONE:
        return (
            f"'moves' holds {json.dumps(bad_move)[:80]}: an entry is a move (integers, "
            'texts and lists of them) or a chance event {"chance": ...}'
        )
    if value["setup"] is not None and not isinstance(value["setup"], dict):
        return "'setup' must be an object"
    scores = value["scores"]
    if scores is not None and (
        not isinstance(scores, list) or len(scores) != n or not all(map(_is_finite, scores))
    ):
        return f"'scores' must be null or a list of {n} finite numbers"
    winners = value["winners"]
    if (
        not isinstance(winners, list)
        or not all(_is_int(w) and 0 <= w < n for w in winners)
        or len(set(winners)) != len(winners)
    ):
        return f"'winners' must be a list of distinct seats 0..{n - 1}"
    if value["termination"] not in TERMINATIONS:
        return (
            f"unknown termination {value['termination']!r} "
            f"(expected one of {', '.join(TERMINATIONS)})"
        )
    final_hash = value["final_hash"]
    if final_hash is not None and not isinstance(final_hash, str):
        return "'final_hash' must be a text or null"
    if final_hash is None and value["termination"] in ("normal", "move_limit"):
        return f"'final_hash' is null in a game that ended {value['termination']!r}"
    if "variant" in value and not isinstance(value["variant"], str):
        return "'variant' must be a text"
    if "detail" in value and not isinstance(value["detail"], dict):
        return "'detail' must be an object"
    source = value.get("game_source")
    if source is not None and not (
        isinstance(source, dict) and all(isinstance(source.get(k), str) for k in SOURCE_KEYS)
    ):
        return f"'game_source' must be an object with {', '.join(SOURCE_KEYS)}"
    return None


def check(value: Any, where: str) -> Record:
    """``value`` as a record, or :class:`RecordError` saying (after ``where``) what is wrong."""
    why = problem(value)
    if why is not None:
        raise RecordError(f"{where}: {why}")
    return value


def _json_type(value: Any) -> str:
    names = {list: "list", str: "text", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")


__all__ = [
    "KEYS",
    "LOG_NAMES",
    "REQUIRED_KEYS",
    "SCHEMA_PATH",
    "SCHEMA_VERSION",
    "TERMINATIONS",
    "Record",
    "check",
    "dumps",
    "new_record",
    "problem",
]
