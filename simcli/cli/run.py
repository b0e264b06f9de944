"""``simcli run CONFIG``: play a tournament into a results folder."""

from __future__ import annotations

from pathlib import Path

import click

from simcli.cli.options import config_overrides, verbosity


@click.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@config_overrides
@click.option("--force", is_flag=True, help="Replace the run in a non-empty output folder.")
@verbosity
def run(config_path, out, workers, seed, games, force, quiet, verbose) -> None:
    """Play the tournament described by CONFIG (a YAML file).

    Writes OUT/games.jsonl (one replayable record per game), OUT/run.json and OUT/run.log,
    then prints a summary. Exit code 0 when done, 1 if any game ended in an error of the
    rules module, 2 for bad input.
    """
    from simcli.config import load_config
    from simcli.tournament.output import check_output
    from simcli.tournament.runner import run_tournament

    config = load_config(config_path, {"seed": seed, "games": games, "workers": workers})
    target = Path(out) if out else Path(config.output)
    check_output(target, force)  # before anything is written
    total = config.schedule().total
    if not quiet:
        click.echo(
            f"{config.name}: {total} games of {config.game} ({config.format}, "
            f"{len(config.strategies)} strategies, {config.workers} workers) -> {target}",
            err=True,
        )
    result = run_tournament(config, target, force=force, quiet=quiet, verbose=verbose)
    if not quiet:
        click.echo(result.tally.table(config.players, [s.name for s in config.strategies]))
        rate = result.tally.games / result.seconds if result.seconds else 0.0
        click.echo(f"{result.seconds:.1f} s, {rate:.0f} games/s; log: {target / 'games.jsonl'}")
    if result.errors:
        click.echo(
            f"{result.errors} game(s) ended in an error of the rules module; "
            f"tracebacks in {target / 'run.log'}",
            err=True,
        )
        raise SystemExit(1)
