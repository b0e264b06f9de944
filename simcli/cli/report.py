"""``simcli report``: statistics and plots from a run's game records.

Registered by the CLI group with ``cli.add_command(report)``. Nothing heavy is imported
at module level, so ``simcli --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path

import click

# Literal copies (checked by a test) so that building the command needs no scipy import.
FORMATS = ("text", "markdown", "json", "csv")
#: What --format takes: the formats above, and html (simcli.report.api.PRINT_FORMATS).
PRINT_FORMATS = (*FORMATS, "html")
CI_METHODS = ("wilson", "wilsoncc", "exact")
CORRECTIONS = ("bh", "by", "holm", "bonferroni", "none")


@click.command("report")
@click.argument("source", metavar="RUN_DIR_OR_LOG", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(PRINT_FORMATS),
    default="text",
    show_default=True,
    help="What to print. summary.json, report.md and report.html are always written; "
    "csv also writes summary.csv; html prints the path of report.html.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for summary.json, report.md, report.html and the plots "
    "[default: the run folder, or the folder of the log].",
)
@click.option("--plots/--no-plots", default=True, show_default=True, help="Draw the PNG plots.")
@click.option(
    "--ci-method",
    type=click.Choice(CI_METHODS),
    default="wilson",
    show_default=True,
    help="Interval for rates (scipy.stats.binomtest(...).proportion_ci method).",
)
@click.option(
    "--confidence",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="Confidence level of every interval.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Significance level of the findings (applied to adjusted p-values).",
)
@click.option(
    "--correction",
    type=click.Choice(CORRECTIONS),
    default="bh",
    show_default=True,
    help="Multiple-comparison correction over all p-values of the report "
    "(bh/by: scipy.stats.false_discovery_control).",
)
@click.option(
    "--junit",
    "junit_path",
    type=click.Path(dir_okay=False),
    help="Write the run config's asserts as JUnit XML to this file.",
)
def report(
    source: Path,
    fmt: str,
    out: Path | None,
    plots: bool,
    ci_method: str,
    confidence: float,
    alpha: float,
    correction: str,
    junit_path: str | None,
) -> None:
    """Report win rates, ratings, seat bias and distributions of a finished (or
    running) tournament, computed from its game records alone.

    RUN_DIR_OR_LOG is a run folder (holding games.jsonl and optionally run.json) or
    a games .jsonl file. The log is read once, line by line, so any size fits in
    memory.
    """
    from simcli.report.api import produce_report
    from simcli.report.io import open_source
    from simcli.tournament.gamelog import read_records
    from simcli.tournament.lock import note_if_running
    from simcli.tournament.think import think_of

    src = open_source(source)
    note_if_running(src.folder)
    report = produce_report(
        _noting_game_sources(read_records(src.log)),
        out if out is not None else src.folder,
        run_info=src.run_info,
        plots=plots,
        formats=("csv",) if fmt == "csv" else (),
        print_format=fmt,
        ci_method=ci_method,
        confidence=confidence,
        alpha=alpha,
        correction=correction,
        source=str(src.log),
        validate=False,  # read_records checked every line
        think_time=think_of(src.folder),  # the run's timing.json (docs/running.md)
        run_dir=src.folder,  # the games report.html lists get a viewer page
    )
    click.echo(report.text, nl=False)
    _check_asserts(src.run_info, report.summary, junit_path)


def _noting_game_sources(records):
    """Pass records through; once per plug-in game source, warn on stderr when its rules
    cannot be loaded or changed since the log was written (the report needs only the
    records, so it goes on)."""
    import json

    from simcli.games import source_note

    seen: set[str] = set()
    for record in records:
        source = record.get("game_source")
        if source is not None:
            key = json.dumps(source, sort_keys=True)
            if key not in seen:
                seen.add(key)
                note = source_note(record)
                if note:
                    click.echo(f"warning: {note}; the report uses the records only", err=True)
        yield record


def _check_asserts(run_info: dict | None, summary: dict, junit_path: str | None) -> None:
    """Check the run config's ``asserts:`` on the report just made; exit 1 on a fail."""
    from simcli.gating.asserts import from_stored, report_assertions

    stored = ((run_info or {}).get("config") or {}).get("asserts")
    assertions = from_stored(stored)
    if not assertions:
        return
    click.echo()
    if report_assertions(assertions, summary, junit_path, click.echo):
        raise SystemExit(1)
