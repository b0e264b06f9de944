"""``simcli run CONFIG``: play a tournament into a results folder."""

from __future__ import annotations

from pathlib import Path

import click

from simcli.cli.options import PROBE_OPTION, config_overrides, repeat_command, verbosity


@click.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@config_overrides
@click.option("--force", is_flag=True, help="Replace the run in a non-empty output folder.")
@click.option(
    "--resume",
    is_flag=True,
    help="Continue an interrupted run in the output folder: play only the missing games.",
)
@click.option(
    "--truncate-at-bad-line",
    "truncate",
    is_flag=True,
    help="With --resume: cut the log at its first bad line (not a record of this run, or "
    "not replaying) and play the games from there again, instead of stopping.",
)
@click.option(
    "--move-time-limit",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Seconds per move; a strategy that takes longer forfeits (timeout).",
)
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    help="Where games are played (default: config 'executor', else local).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Dask scheduler address for --executor dask, e.g. tcp://10.0.0.5:8786.",
)
@click.option(
    "--junit",
    "junit_path",
    type=click.Path(dir_okay=False),
    help="Write the config's asserts as JUnit XML to this file.",
)
@click.option(
    "--plots/--no-plots",
    default=True,
    show_default=True,
    help="Draw the report's PNG plots into OUT/plots.",
)
@PROBE_OPTION
@click.option(
    "--check-determinism",
    "check_games",
    type=click.IntRange(min=1),
    is_flag=False,
    flag_value=10,
    default=None,
    metavar="[N]",
    help="After the run, play N of its games (default 10, spread over the run) again "
    "with fresh strategy instances and name any strategy whose moves differ (exit 1).",
)
@verbosity
def run(
    config_path,
    out,
    workers,
    seed,
    games,
    isolation,
    force,
    resume,
    truncate,
    move_time_limit,
    executor,
    scheduler,
    junit_path,
    plots,
    probe_games,
    check_games,
    quiet,
    verbose,
) -> None:
    """Play the tournament described by CONFIG (a YAML file).

    Writes OUT/games.jsonl (one replayable record per game), OUT/run.json and OUT/run.log,
    then the report (OUT/summary.json, OUT/report.md, OUT/report.html with the board
    viewer's pages of the games it lists in OUT/view/, OUT/plots/) and prints it.

    Exit codes: 0 done; 1 a game ended in an error of a rules module or a lost worker,
    an assert failed, or --check-determinism found a strategy that does not reproduce its
    moves; 2 bad input; 4 the output folder already holds files (--force replaces it,
    --resume continues it); 130 interrupted (resume with --resume).
    """
    import simcli
    from simcli.configfile import load_config

    if resume and force:
        raise click.UsageError("--resume continues a run, --force replaces it: choose one")
    if truncate and not resume:
        raise click.UsageError("--truncate-at-bad-line goes with --resume")
    config = load_config(
        config_path,
        {
            "seed": seed,
            "games": games,
            "isolation": isolation,
            "workers": workers,
            "move_time_limit": move_time_limit,
            "executor": executor,
            "scheduler": scheduler,
        },
    )
    target = Path(out) if out else Path(config.output)
    echo_err = None if quiet else (lambda text: click.echo(text, err=True))
    outcome = simcli.run(
        config,
        out=target,
        force=force,
        resume=resume,
        truncate=truncate,
        quiet=quiet,
        verbose=verbose,
        plots=plots,
        junit=junit_path,
        check_determinism=check_games,
        probe_games=probe_games,
        notify=echo_err,
    )
    say_outcome(outcome, config_path, quiet)
    raise SystemExit(outcome.exit_code)


def say_outcome(outcome, config_path: str, quiet: bool) -> None:
    """Print what the run did: the report and timing (unless ``quiet``), the asserts,
    lost games, how to resume, the determinism check and rules errors."""
    result, target = outcome.result, outcome.out
    if result.resumed_from and not quiet:
        if result.resumed_from >= result.total:
            click.echo(f"{target}: the run is already complete; nothing to play", err=True)
        else:
            click.echo(f"resumed after {result.resumed_from} games already played", err=True)
    if not quiet:
        click.echo(outcome.report.text)
        played = result.tally.games - result.resumed_from
        rate = played / result.seconds if result.seconds else 0.0
        click.echo(
            f"{result.seconds:.1f} s, {rate:.0f} games/s; games: {target / 'games.jsonl'}"
            f"; report: {target / 'report.md'}, {target / 'report.html'}"
        )
    for line in outcome.assert_lines:
        click.echo(line, err=line.startswith("the config has no asserts"))
    if result.affected:
        click.echo(
            f"{len(result.affected)} game(s) affected by failing workers "
            f"(details in {target / 'run.log'}):",
            err=True,
        )
        for index, what in result.affected[:10]:
            click.echo(f"  game {index}: {what}", err=True)
    for index, why in result.void[:10]:  # error games too: the run exits 1
        click.echo(f"game {index}: {why}", err=True)
    if outcome.interrupted:
        # the same command with --resume and every flag given but --force
        head = ["simcli", "run", config_path, "--resume", "--out", str(target)]
        again = repeat_command(
            click.get_current_context(), head, ("out", "force", "resume", "truncate")
        )
        click.echo(
            f"interrupted after {result.tally.games} of {result.total} games; to continue:"
            f"\n  {again}",
            err=True,
        )
    for line in outcome.determinism_lines:
        click.echo(line, err=outcome.determinism_failed)
    if result.errors and not outcome.interrupted:
        click.echo(
            f"{result.errors} game(s) ended in an error; tracebacks in {target / 'run.log'}",
            err=True,
        )
