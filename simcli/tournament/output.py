"""The run folder: refuse to overwrite without --force, write files atomically."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from simcli.errors import OutputExistsError, OutputPathError
from simcli.tournament.lock import LOCK_NAME

#: Files and folders a run writes; --force removes exactly these.
RUN_FILES = (
    "games.jsonl",
    "run.json",
    "run.log",
    "summary.json",
    "report.md",
    "report.html",
    "view",
    "plots",
    "gate.json",
    "summary.csv",
    "report.txt",
    "timing.json",
)


def check_output(out: Path, force: bool) -> None:
    """Raise :class:`OutputExistsError` unless ``out`` is absent, empty, or ``force``."""
    if out.exists() and not out.is_dir():
        raise OutputPathError(f"{out}: exists and is not a folder")
    # the lock, and a run.json.tmp of a run killed while writing its first run.json
    leftovers = (LOCK_NAME, "run.json.tmp")
    if out.is_dir() and any(p.name not in leftovers for p in out.iterdir()) and not force:
        raise OutputExistsError(
            f"{out}: output folder already holds files; --force replaces its run, "
            f"--resume continues it, --out chooses another folder"
        )


def prepare_output(out: Path, force: bool) -> None:
    """Create ``out`` (the caller checked it with :func:`check_output`); with ``force``
    remove the files of an earlier run."""
    out.mkdir(parents=True, exist_ok=True)
    if force:
        for name in RUN_FILES:
            target = out / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
