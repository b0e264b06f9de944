"""Reports from game records: ``summary.json``, ``report.md``, text/CSV and plots.

The package root is cheap to import; numpy, scipy and matplotlib load on first call.

Entry points (see :mod:`simcli.report.api`):

- ``write_report(records, out_dir, *, run_info=None, plots=True, formats=("json",
  "markdown"), print_format="text", ci_method="wilson", confidence=0.95, alpha=0.05,
  correction="bh", source=None) -> str``
- ``build_summary(records, *, run_info=None, ...) -> Summary`` (:mod:`simcli.stats.summary`;
  ``summary.json`` is its ``to_dict()``)
- ``render(summary, fmt) -> str`` with fmt in text, markdown, json, csv
- ``open_source(path) -> RunSource`` (:mod:`simcli.report.io`); the records themselves
  come from :func:`simcli.tournament.gamelog.read_records`
"""

from __future__ import annotations

from typing import Any


def write_report(*args: Any, **kwargs: Any) -> str:
    from simcli.report.api import write_report as _write_report

    return _write_report(*args, **kwargs)


def build_summary(*args: Any, **kwargs: Any) -> Any:
    from simcli.report.api import build_summary as _build_summary

    return _build_summary(*args, **kwargs)


def render(summary: Any, fmt: str, **kwargs: Any) -> str:
    from simcli.report.render import render as _render

    return _render(summary, fmt, **kwargs)


__all__ = ["build_summary", "render", "write_report"]
