"""The game log of a run (``games.jsonl``): the one reader, used by resume, report, replay
and the statistics. Each line is decoded into a record (:mod:`simcli.records`, the format
and its checks) or a :class:`BadLine`, and checked against the run's schedule
(:mod:`simcli.tournament.identity`).

Bad lines, one policy: a line that is not a game record (not JSON, not an object, a
missing key, a wrong type) is a :class:`BadLine` naming its line number; a record of
another schema version stops the reading (:class:`RecordError`); a log without any record
is not a game log. Readers that only need good records (:meth:`GameLog.records`: report,
statistics) stop at the first bad line; ``replay`` names every bad line, checks the others
and exits 2; ``--resume`` drops an unterminated last line (an interrupted write) and
stops at any other bad line.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from simcli.errors import RecordError
from simcli.records import LOG_NAMES, Record, problem
from simcli.run_info import RUN_INFO, read_run_info
from simcli.tournament.identity import RunIdentity

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

    def __init__(self, path: str | Path, identity: RunIdentity | None = None):
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

    def _run(self) -> tuple[int | None, RunIdentity | None]:
        """What ``run.json`` beside the log says of the run: its number of games and the
        identity of each (the schedule of its config); the identity given to the reader
        (``--resume``: the config it resumes with) wins. A run.json that cannot be read
        is the report's business (it names it); here it only means no checks from it."""
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
        whole = isinstance(total, int) and not isinstance(total, bool)
        return (total if whole else None), identity

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


__all__ = [
    "MAX_LINE_BYTES",
    "BadLine",
    "GameLog",
    "LogLine",
    "decode",
    "read_log",
    "read_records",
]
