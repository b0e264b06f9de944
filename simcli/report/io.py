"""Reading a run folder or a game log for the report (streaming, line by line)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcli.errors import RecordError, SimcliError
from simcli.records import LOG_NAMES
from simcli.run_info import read_run_info


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
    return RunSource(log=log, run_info=read_run_info(folder), folder=folder)


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
