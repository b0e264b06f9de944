"""The report entry points used by ``simcli report`` and at the end of ``simcli run``."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcli.report.io import ReportError, strategy_order
from simcli.report.render import FORMATS, render
from simcli.stats.aggregate import DEFAULT_MAX_PENDING, Aggregator
from simcli.stats.analysis import summarize
from simcli.stats.summary import PlotFile, Summary, ThinkTime

log = logging.getLogger(__name__)

#: Files written by :func:`write_report` per format.
FILE_NAMES = {
    "json": "summary.json",
    "markdown": "report.md",
    "csv": "summary.csv",
    "text": "report.txt",
}
#: The HTML report, written beside report.md (:mod:`simcli.report.html`).
HTML_NAME = "report.html"
#: Print formats besides :data:`simcli.report.render.FORMATS`: html prints the page's path.
PRINT_FORMATS = (*FORMATS, "html")


def build_summary(
    records: Iterable[Mapping[str, Any]],
    *,
    run_info: Mapping[str, Any] | None = None,
    source: str | None = None,
    ci_method: str = "wilson",
    confidence: float = 0.95,
    alpha: float = 0.05,
    correction: str = "bh",
    max_pending: int = DEFAULT_MAX_PENDING,
    validate: bool = True,
    natural: bool = True,
) -> Summary:
    """Stream ``records`` once and return the summary (``summary.json`` is its
    ``to_dict()``).

    ``validate=False`` skips the per-record check when the records come from
    :func:`simcli.tournament.gamelog.read_records`, which already checked them.
    ``natural``: replay the first games of each group for their length in the game's
    natural unit (rounds, turns; :func:`natural_length`)."""
    agg = Aggregator(
        strategy_order=strategy_order(dict(run_info) if run_info else None),
        max_pending=max_pending,
        natural_length=natural_length if natural else None,
    )
    for rec in records:
        agg.add(rec, validate=validate)  # type: ignore[arg-type]
    return summarize(
        agg,
        ci_method=ci_method,
        confidence=confidence,
        alpha=alpha,
        correction=correction,
        run_info=run_info,
        source=source,
    )


def natural_length(record: dict) -> tuple[str, float] | None:
    """The recorded game's length in its game's natural unit: the first figure of
    :meth:`simcli.game.Game.facts` of the replayed game (e.g. ``("rounds", 9)``), or
    ``None`` when the game declares none (or the record cannot be replayed here)."""
    from simcli.table import replayed_facts

    try:
        figures = replayed_facts(record).game
    except Exception:  # noqa: BLE001 - a record that does not replay here has no length
        return None
    for unit, value in figures.items():
        return unit, float(value)
    return None


@dataclass
class Report:
    """A report just written: its summary (typed, in memory; ``summary.json`` is its
    ``to_dict()``) and its text in the requested print format."""

    summary: Summary
    text: str


def write_report(records: Iterable[Mapping[str, Any]], out_dir: str | Path, **options: Any) -> str:
    """:func:`produce_report` (same options), returning the printed text only."""
    return produce_report(records, out_dir, **options).text


def produce_report(
    records: Iterable[Mapping[str, Any]],
    out_dir: str | Path,
    *,
    run_info: Mapping[str, Any] | None = None,
    plots: bool = True,
    formats: Sequence[str] = ("json", "markdown"),
    print_format: str = "text",
    ci_method: str = "wilson",
    confidence: float = 0.95,
    alpha: float = 0.05,
    correction: str = "bh",
    source: str | None = None,
    max_pending: int = DEFAULT_MAX_PENDING,
    validate: bool = True,
    think_time: Sequence[Mapping[str, Any]] | None = None,
    run_dir: str | Path | None = None,
) -> Report:
    """Compute the report from ``records`` (one pass) and write it into ``out_dir``.

    Always writes ``summary.json``, ``report.md`` and ``report.html``; the games the page
    lists get a viewer page (``out_dir/view/game-N.html``) when ``run_dir``, the run
    folder the records come from, is given. ``formats`` may add ``"csv"``
    (``summary.csv``) and ``"text"`` (``report.txt``). With ``plots`` the PNG files are
    written too and linked from ``report.md``. Returns the summary and the report
    rendered in ``print_format`` (text, markdown, json or csv; html: the page's path)
    for printing.
    ``think_time``: one row per strategy (``strategy``, ``moves``, ``mean``, ``p95``,
    ``max``, seconds per move; a run's ``timing.json``), reported as they are.

    Raises :class:`~simcli.errors.RecordError` for bad records and
    :class:`~simcli.report.io.ReportError` when ``out_dir`` cannot be written.
    """
    if print_format not in PRINT_FORMATS:
        raise ValueError(f"unknown format {print_format!r}")
    unknown = set(formats) - set(FILE_NAMES)
    if unknown:
        raise ValueError(f"unknown report file format(s): {', '.join(sorted(unknown))}")
    from simcli.report.picks import GamePicker

    picker = GamePicker()
    summary = build_summary(
        picker.watch(records),
        run_info=run_info,
        source=source,
        ci_method=ci_method,
        confidence=confidence,
        alpha=alpha,
        correction=correction,
        max_pending=max_pending,
        validate=validate,
    )
    if think_time:
        summary.think_time = [ThinkTime(**row) for row in think_time]
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(
            f"{out}: cannot create the report folder ({exc.strerror or exc})"
        ) from exc
    summary.plots = []
    if plots:
        try:
            summary.plots = make_plots_safe(summary, out)
        except OSError as exc:
            raise ReportError(f"{out}: cannot write plots ({exc.strerror or exc})") from exc
    wanted = dict.fromkeys(["json", "markdown", *formats])
    for fmt in wanted:
        _write(out / FILE_NAMES[fmt], render(summary, fmt))
    page = write_html(summary, picker, out, Path(run_dir) if run_dir is not None else None)
    if print_format == "html":
        return Report(summary, f"{page}\n")
    return Report(summary, render(summary, print_format, detail=print_format != "text"))


def write_html(summary: Summary, picker: Any, out: Path, run_dir: Path | None) -> Path:
    """Write ``report.html`` into ``out`` with its games to look at (each with a viewer
    page when ``run_dir`` is known); return its path."""
    from simcli.report.html import build_html, read_balance
    from simcli.report.views import write_views

    picks = picker.lists(summary)
    write_views(picks, run_dir, out)
    path = out / HTML_NAME
    _write(path, build_html(summary, picks, balance=read_balance(out)))
    return path


def make_plots_safe(summary: Summary, out: Path) -> list[PlotFile]:
    """Plots, where a plotting failure becomes a note instead of losing the report."""
    from simcli.report.plots import make_plots

    try:
        return make_plots(summary, out)
    except OSError:
        raise
    except Exception as exc:  # noqa: BLE001 - a plot bug must not lose a long run's report
        log.warning("plots failed: %s", exc)
        summary.notes.append(f"plots could not be drawn: {type(exc).__name__}: {exc}")
        return []


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise ReportError(f"{path}: cannot write ({exc.strerror or exc})") from exc


def report_run_folder(
    out_dir: str | Path,
    *,
    plots: bool = True,
    think_time: Sequence[Mapping[str, Any]] | None = None,
) -> Report:
    """Write ``summary.json``, ``report.md``, ``report.html`` (and plots) for the run in
    ``out_dir`` from its ``games.jsonl`` and ``run.json``; return it (summary and compact
    text). Used at the end of ``simcli run`` (also after an interruption: the report then
    covers the games played)."""
    from simcli.run_info import read_run_info
    from simcli.tournament.gamelog import read_records

    out = Path(out_dir)
    return produce_report(
        read_records(out / "games.jsonl"),
        out,
        run_info=read_run_info(out),
        plots=plots,
        validate=False,
        source=str(out / "games.jsonl"),
        think_time=think_time,
        run_dir=out,
    )
