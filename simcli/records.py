"""Game records: one JSON object per line in ``games.jsonl``; the one place the record is
defined, encoded, decoded, checked and read.

- :class:`Record` lists the keys in the order every record is written;
  :func:`new_record` starts one with every key in that order (play and lost games fill it).
- :func:`dumps` encodes a record as a line; :func:`decode` turns a line back into a record
  or a :class:`BadLine`, with the one set of checks (:func:`problem`).
- :class:`GameLog` is the one reader (used by resume, report, replay and the statistics);
  it checks each record against the run's schedule (``simcli.tournament.identity``).

The JSON Schema ``simcli/schema/record.schema.json`` describes the same format (a test
checks it against the definitions here); ``docs/records.md`` explains it.

Bad lines, one policy: a line that is not a game record (not JSON, not an object, a
missing key, a wrong type) is a :class:`BadLine` naming its line number; a record of
another schema version stops the reading (:class:`RecordError`); a log without any record
is not a game log. Readers that only need good records (:meth:`GameLog.records`: report,
statistics) stop at the first bad line; ``replay`` names every bad line, checks the others
and exits 2; ``--resume`` drops an unterminated last line (an interrupted write) and
stops at any other bad line.
"""

import gzip
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NotRequired, TypedDict

from simcli.errors import RecordError
from simcli.moves import is_plain_move

if TYPE_CHECKING:
    from simcli.tournament.identity import RunIdentity

SCHEMA_VERSION = 1
#: The JSON Schema of a record line (shipped with the package).
SCHEMA_PATH = Path(__file__).parent / "schema" / "record.schema.json"
TERMINATIONS = ("normal", "move_limit", "forfeit", "error")
#: Required keys of ``game_source``, the origin of a plug-in game (absent for built-ins).
SOURCE_KEYS = ("kind", "use", "fingerprint")
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
    record: dict[str, Any] = {"schema": SCHEMA_VERSION, "game": game, "options": options}
    if variant is not None:
        record["variant"] = variant
    record.update(
        index=index,
        seed=seed,
        seats=list(seats),
        setup=None,
        moves=[],
        scores=None,
        winners=[],
        termination="error",
        final_hash=None,
    )
    return record  # type: ignore[return-value]


# Records are trees of plain values: no cycle check (a few microseconds per game).
_LINE_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def dumps(record: Record | dict[str, Any]) -> str:
    """One compact line (no trailing newline). Key order is the record's own order."""
    return _LINE_ENCODER.encode(record)


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


# ----------------------------------------------------------------------------- lines


#: The longest line a log may hold (the longest real record is a few hundred KiB).
MAX_LINE_BYTES = 64 << 20


@dataclass
class BadLine:
    """A line of a log that is not a game record."""

    lineno: int
    message: str  # "line N: what is wrong"
    truncated: bool = False  # the last line, cut short (no newline): an interrupted write


def decode(raw: bytes, lineno: int, last: bool = False) -> Record | BadLine:
    """One line of a log (``last``: the file's last line) as a record or a :class:`BadLine`.
    A record of another schema version raises :class:`RecordError` (the caller adds the
    file name)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return BadLine(lineno, f"line {lineno}: not UTF-8 text ({exc.reason})")
    if len(raw) > MAX_LINE_BYTES:
        return BadLine(lineno, f"line {lineno}: longer than {MAX_LINE_BYTES} bytes")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        truncated = last and not text.endswith("\n")
        what = "truncated last line" if truncated else f"not JSON ({exc.msg} at column {exc.colno})"
        return BadLine(lineno, f"line {lineno}: {what}", truncated)
    except RecursionError:
        return BadLine(lineno, f"line {lineno}: JSON nested too deeply")
    except ValueError as exc:  # e.g. an integer of thousands of digits
        return BadLine(lineno, f"line {lineno}: not a usable JSON value ({exc})"[:300])
    try:
        why = problem(value)
    except RecursionError:
        why = "nested too deeply"
    if why is None:
        return value
    if why.startswith("unknown record schema"):
        raise RecordError(f"line {lineno}: {why}")
    return BadLine(lineno, f"line {lineno}: {why}")


# ----------------------------------------------------------------------------- reader


@dataclass
class LogLine:
    """One non-blank line of a log: its number, the byte offset just after it, whether it
    ends with a newline (only an interrupted write leaves a last line without), and what
    it holds."""

    lineno: int
    end: int
    terminated: bool
    item: Record | BadLine


class GameLog:
    """The game log of a run: ``games.jsonl`` (or ``.jsonl.gz``), given as the file or the
    run folder holding it. Blank lines are skipped; every other line is decoded once
    (:func:`decode`) and checked against the run (:meth:`checked`): the run is the one
    ``identity`` describes, else the one of ``run.json`` beside the log (if any)."""

    def __init__(self, path: str | Path, identity: "RunIdentity | None" = None):
        path = Path(path)
        if path.is_dir():
            path = next((path / n for n in LOG_NAMES if (path / n).is_file()), path / LOG_NAMES[0])
        if not path.is_file():
            raise RecordError(f"{path}: no such game log")
        self.path = path
        self._given_identity = identity

    def _open(self) -> IO[bytes]:
        try:
            if self.path.suffix == ".gz":
                return gzip.open(self.path, "rb")
            return self.path.open("rb")
        except OSError as exc:
            raise RecordError(f"{self.path}: cannot open ({exc.strerror or exc})") from exc

    def lines(self) -> Iterator[LogLine]:
        """Every non-blank line, decoded (a log without any line yields nothing)."""
        with self._open() as handle:
            lineno = end = 0
            pending: tuple[int, int, bytes] | None = None
            try:
                for raw in handle:
                    lineno += 1
                    end += len(raw)
                    if pending is not None:
                        yield self._line(*pending, last=False)
                        pending = None
                    if raw.strip():
                        pending = (lineno, end, raw)
            except (OSError, EOFError) as exc:
                raise RecordError(f"{self.path}: read error after line {lineno} ({exc})") from None
            if pending is not None:
                yield self._line(*pending, last=True)

    def _line(self, lineno: int, end: int, raw: bytes, last: bool) -> LogLine:
        try:
            return LogLine(lineno, end, raw.endswith(b"\n"), decode(raw, lineno, last))
        except RecordError as exc:
            raise RecordError(f"{self.path}: {exc}") from None

    def _run(self) -> "tuple[int | None, RunIdentity | None]":
        """What ``run.json`` beside the log says of the run: its number of games and the
        identity of each (the schedule of its config); the identity given to the reader
        (``--resume``: the config it resumes with) wins. A run.json that cannot be read
        is the report's business (it names it); here it only means no checks from it."""
        from simcli.run_info import RUN_INFO, read_run_info
        from simcli.tournament.identity import RunIdentity

        try:
            info = read_run_info(self.path.parent) or {}
        except RecordError:
            info = {}
        identity = self._given_identity or RunIdentity.of_stored(
            info.get("config"), str(self.path.parent / RUN_INFO)
        )
        total = info.get("games")
        if identity is not None:
            total = identity.total
        return (total if _is_int(total) else None), identity

    def checked(self) -> Iterator[LogLine]:
        """Every non-blank line (:meth:`lines`), with the checks across lines: indexes
        must rise from line to line (a log is written in schedule order; a subset of one
        may skip games) and stay below the run's game count, and each record must be the
        game the run's schedule has at its index (:mod:`simcli.tournament.identity`). A
        record that fails is replaced by a :class:`BadLine` naming its line."""
        total, identity = self._run()
        last: tuple[int, int] | None = None  # (index, line) of the last record
        for line in self.lines():
            item = line.item
            if not isinstance(item, BadLine):
                index = item["index"]
                why = None
                if last is not None and index <= last[0]:
                    what = (
                        f"appears twice (first on line {last[1]})"
                        if index == last[0]
                        else f"comes after game {last[0]}"
                    )
                    why = f"game index {index} {what}: not one run's log in schedule order"
                elif total is not None and index >= total:
                    why = f"game index {index} is beyond the run's {total} games"
                elif identity is not None:
                    why = identity.mismatch(item)
                if why is None:
                    last = (index, line.lineno)
                else:
                    line.item = BadLine(line.lineno, f"line {line.lineno}: {why}")
            yield line

    def __iter__(self) -> Iterator[tuple[int, Record | BadLine]]:
        """``(line number, record or BadLine)`` per line, checked (:meth:`checked`).
        :class:`RecordError` when the log holds no game record at all (five bad lines in
        a row at its start suffice)."""
        good = bad = 0
        for line in self.checked():
            if isinstance(line.item, BadLine):
                bad += 1
                if not good and bad >= 5:
                    why = line.item.message
                    raise RecordError(f"{self.path}: not a JSON-lines game log ({why})")
            else:
                good += 1
            yield line.lineno, line.item
        if not good:
            if bad:
                raise RecordError(f"{self.path}: not a JSON-lines game log")
            raise RecordError(f"{self.path}: holds no game records")

    def records(self) -> Iterator[Record]:
        """The records; the first bad line raises :class:`RecordError` naming it."""
        for _, item in self:
            if isinstance(item, BadLine):
                raise RecordError(f"{self.path}: {item.message}")
            yield item


def read_log(path: str | Path) -> Iterator[tuple[int, Record | BadLine]]:
    """``(line number, record or BadLine)`` for each line of the log at ``path`` (a file
    or a run folder); see :class:`GameLog`."""
    return iter(GameLog(path))


def read_records(path: str | Path) -> Iterator[Record]:
    """The records of the log at ``path``, stopping at the first bad line (RecordError)."""
    return GameLog(path).records()


# Replaying a record through the rules (it needs the games) lives in simcli.verify.
from simcli.verify import Mismatch, replay  # noqa: E402

__all__ = [
    "KEYS",
    "LOG_NAMES",
    "REQUIRED_KEYS",
    "SCHEMA_PATH",
    "SCHEMA_VERSION",
    "SOURCE_KEYS",
    "TERMINATIONS",
    "BadLine",
    "GameLog",
    "LogLine",
    "Mismatch",
    "Record",
    "check",
    "decode",
    "dumps",
    "new_record",
    "problem",
    "read_log",
    "read_records",
    "replay",
]
