"""``simcli compare RUN_A RUN_B``: per-strategy and per-seat differences between two runs."""

from __future__ import annotations

import json

import click


@click.command("compare")
@click.argument("run_a", metavar="RUN_A", type=click.Path())
@click.argument("run_b", metavar="RUN_B", type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("text", "json")),
    default="text",
    show_default=True,
    help="A table, or the figures as JSON.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse (exit 2) runs that differ in more than the figures compared: options, "
    "strategies, a strategy's definition or opponents, lineups.",
)
def compare(run_a, run_b, fmt, strict) -> None:
    """Compare two runs of one game (run folders or game logs): each strategy's win rate
    and each seat's share of decisive games in A and in B, the difference B - A with a
    95% interval, and Fisher's exact test, adjusted together (Benjamini-Hochberg).

    \b
    Example: has a rules variant changed the seat bias, or a new strategy version its
    win rate against the same field?
      simcli compare results/ladder-v1 results/ladder-v2

    A WARNING names every other way the runs differ (options, strategies only one run
    has or defines differently, a strategy's opponents, the lineups); the rows it makes
    incomparable are marked ! and not tested. Runs of different games or seat counts,
    a log that is not one run (an index twice: logs concatenated by hand), and with
    --strict runs that differ at all, are refused with exit code 2."""
    from simcli.report.compare import compare_runs, render_text

    comparison = compare_runs(run_a, run_b, strict=strict)
    if fmt == "json":
        for text in comparison.warnings:  # the JSON holds them too; say so where seen
            click.echo(f"warning: {text}", err=True)
        click.echo(json.dumps(comparison.to_json(), indent=2))
    else:
        click.echo(render_text(comparison))
