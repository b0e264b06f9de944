"""Reading a run folder or a game log for the report (streaming, line by line)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcli.errors import RecordError, SimcliError
from simcli.stats.records import validate

LOG_NAMES = ("games.jsonl", "games.jsonl.gz")


class ReportError(SimcliError):
    """The report cannot be written (output folder not writable, ...)."""


@dataclass
class RunSource:
    """Where the records come from: the log file, the optional ``run.json`` content and
    the folder the report files go to by default."""

    log: Path
    run_info: dict[str, Any] | None
    folder: Path


def open_source(path: str | Path) -> RunSource:
    """Resolve ``RUN_DIR_OR_LOG``: a run folder (with ``games.jsonl``) or a ``.jsonl``
    file. ``run.json`` beside the log is read if present (it is optional)."""
    p = Path(path)
    if not p.exists():
        raise RecordError(f"{p}: no such run folder or game log")
    if p.is_dir():
        for name in LOG_NAMES:
            if (p / name).is_file():
                log = p / name
                break
        else:
            raise RecordError(f"{p}: no games.jsonl in this folder (is it a run folder?)")
        folder = p
    else:
        log = p
        folder = p.parent
    run_json = folder / "run.json"
    return RunSource(log=log, run_info=read_run_info(run_json), folder=folder)


def read_run_info(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: not a readable run.json ({exc})") from exc
    if not isinstance(data, dict):
        raise RecordError(f"{path}: run.json must hold a JSON object")
    return data


def iter_records(log: str | Path) -> Iterator[dict]:
    """Yield the game records of a JSON-lines log one by one, validated. Blank lines
    are skipped; a bad line raises :class:`RecordError` naming the file and line."""
    log = Path(log)
    opener = gzip.open if log.suffix == ".gz" else open
    try:
        fh = opener(log, "rt", encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{log}: cannot open ({exc.strerror or exc})") from exc
    with fh:
        lineno = 0
        try:
            for lineno, line in enumerate(fh, start=1):  # noqa: B007
                if not line.strip():
                    continue
                where = f"{log} line {lineno}"
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RecordError(
                        f"{where}: not a JSON line ({exc.msg} at column {exc.colno})"
                    ) from None
                validate(rec, where)
                yield rec
        except UnicodeDecodeError as exc:
            raise RecordError(f"{log} line {lineno + 1}: not UTF-8 text ({exc.reason})") from None
        except (OSError, EOFError) as exc:
            raise RecordError(f"{log}: read error after line {lineno} ({exc})") from None


def strategy_order(run_info: dict | None) -> list[str] | None:
    """Strategy names in config order, from ``run.json`` (``None`` if unknown)."""
    if not run_info:
        return None
    config = run_info.get("config") or {}
    names = [
        s.get("name")
        for s in config.get("strategies", []) or []
        if isinstance(s, dict) and isinstance(s.get("name"), str)
    ]
    return names or None
