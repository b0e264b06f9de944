"""``run.json``, what a run folder says about its run (the resolved config, status,
versions, timings, results): written by the runner, read here for resume and reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simcli.errors import RecordError

RUN_INFO = "run.json"


def read_run_info(folder: str | Path) -> dict[str, Any] | None:
    """The ``run.json`` of ``folder`` (None when there is none); :class:`RecordError` for
    one that cannot be read or is not a simcli run.json (an object with a ``config``
    object)."""
    path = Path(folder) / RUN_INFO
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: not a readable run.json ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("config", {}), dict):
        raise RecordError(f"{path}: not a simcli run.json (a JSON object with a config)")
    return data
