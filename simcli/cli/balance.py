"""``simcli balance CONFIG``: seat balance up a ladder of skill, and the fair compensation."""

from __future__ import annotations

import click

from simcli.cli.options import repeat_command, verbosity


@click.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    help="Output folder (default: the config's 'output', results/<name>).",
)
@click.option("--workers", type=click.IntRange(min=0), help="Worker processes (0: this one).")
@click.option("--seed", type=click.IntRange(min=0), help="Root seed (default: config 'seed').")
@click.option("--force", is_flag=True, help="Replace the run in a non-empty output folder.")
@click.option("--resume", is_flag=True, help="Continue an interrupted balance exactly.")
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    help="Where games are played (default: config 'executor', else local).",
)
@click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler address for --executor dask.")
@click.option("--plots/--no-plots", default=True, show_default=True, help="Draw the plots.")
@verbosity
def balance(
    config_path, out, workers, seed, force, resume, executor, scheduler, plots, quiet, verbose
) -> None:
    """Measure seat bias up a ladder of skill (the config's `balance:` section), with
    game-quality metrics, and with `tune:` find the value of a game option that makes
    the seats even.

    Each rung plays self-play games on fresh seeds until every seat's 95% interval of
    its share of decisive games is at most `precision` wide on each side, or
    `max_games` or `max_seconds` runs out. Writes OUT/games.jsonl (standard records),
    OUT/balance.json, OUT/balance.md and the standard report. Same config and seed, same
    games, for any --workers (a rung stopped by max_seconds excepted).

    Exit codes: 0 done; 1 a game ended in an error of the rules; 2 bad input; 4 the
    output folder already holds files (--force or --resume); 130 interrupted (continue
    with --resume).
    """
    import simcli

    echo = None if quiet else (lambda text: click.echo(text, err=True))
    outcome = simcli.balance(
        config_path,
        out=out,
        workers=workers,
        seed=seed,
        force=force,
        resume=resume,
        quiet=quiet,
        verbose=verbose,
        plots=plots,
        notify=echo,
        overrides={"executor": executor, "scheduler": scheduler},
    )
    if outcome.interrupted:
        head = ["simcli", "balance", config_path, "--resume", "--out", str(outcome.out)]
        again = repeat_command(click.get_current_context(), head, ("out", "force", "resume"))
        click.echo(f"interrupted; to continue:\n  {again}", err=True)
        raise SystemExit(130)
    click.echo(outcome.text)
    if not quiet:
        click.echo(
            f"games: {outcome.out / 'games.jsonl'}; balance: {outcome.out / 'balance.json'}; "
            f"report: {outcome.out / 'balance.md'}, {outcome.out / 'report.html'}"
        )
    if outcome.errors:
        click.echo(
            f"{outcome.errors} game(s) ended in an error of the rules; tracebacks in "
            f"{outcome.out / 'parts'}/*/run.log",
            err=True,
        )
    raise SystemExit(outcome.exit_code)
