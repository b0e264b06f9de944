"""``simcli gate CONFIG``: a sequential test of a candidate strategy against a baseline."""

from __future__ import annotations

import click

from simcli.cli.options import config_overrides, repeat_command, verbosity


@click.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@config_overrides
@click.option("--force", is_flag=True, help="Replace the run in a non-empty output folder.")
@click.option(
    "--resume",
    is_flag=True,
    help="Continue an interrupted gate in the output folder: the games kept are counted "
    "again and the test goes on from there.",
)
@click.option(
    "--junit",
    "junit_path",
    type=click.Path(dir_okay=False),
    help="Write the verdict as JUnit XML to this file.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse to start when max_games cannot reach a decision (see gate sizing).",
)
@verbosity
def gate(
    config_path,
    out,
    workers,
    seed,
    games,
    isolation,
    force,
    resume,
    junit_path,
    strict,
    quiet,
    verbose,
) -> None:
    """Play CANDIDATE against BASELINE (the config's `gate:` section) until the SPRT
    decides.

    Two-player games are played in seat-swapped pairs on shared seeds and counted as
    pentanomial pair outcomes; other games compare the two strategies seed by seed in the
    same seat against the same field. The test is evaluated on the games in schedule
    order, so the games played and the verdict depend on the config and seed alone (not
    on --workers). Exit codes: 0 passed (H1 accepted), 1 regression (H0 accepted), 3 no
    decision within max_games, 2 bad input, 4 the output folder already holds files
    (--force replaces, --resume continues), 130 interrupted (continue with --resume).
    """
    import simcli
    from simcli.configfile import load_config
    from simcli.errors import SimcliError

    if games is not None:
        raise SimcliError(
            "--games does not apply to a gate: it plays pairs until the SPRT decides, "
            "at most gate.max_games (set that in the config)"
        )
    if resume and force:
        raise SimcliError("--resume continues a gate, --force replaces it: choose one")
    config = load_config(config_path, {"seed": seed, "workers": workers, "isolation": isolation})
    outcome = simcli.gate(
        config,
        out=out,
        force=force,
        resume=resume,
        strict=strict,
        quiet=quiet,
        verbose=verbose,
        junit=junit_path,
        notify=lambda text: click.echo(text, err=True),
    )
    # a max_games too small for the test is said in outcome.text when the gate did not
    # decide (simcli.gating.verdict.sizing_advice): a gate that decided needs no warning
    if outcome.result.resumed_from and not quiet:
        click.echo(f"resumed after {outcome.result.resumed_from} games already played", err=True)
    click.echo(outcome.text)
    for index, why in outcome.result.void[:10]:  # a tampered game fails the gate
        click.echo(f"game {index}: {why}", err=True)
    if outcome.result.void and not outcome.interrupted:
        raise SystemExit(1)
    if outcome.interrupted:
        head = ["simcli", "gate", config_path, "--resume", "--out", str(outcome.out)]
        again = repeat_command(click.get_current_context(), head, ("out", "force", "resume"))
        click.echo(f"to continue:\n  {again}", err=True)
    raise SystemExit(outcome.exit_code)


#: The options shared with `run` whose help says something else for a gate.
GATE_HELP = {
    "out": "Output folder (default: the config's 'output' with -gate added once, "
    "results/<name>-gate).",
    "quiet": "No header, sizing or progress bar; the counts, Elo and verdict lines are "
    "still printed (and the exit code says the verdict).",
}

for _param in gate.params:
    if _param.name == "games":  # shared with `run`, refused here: keep it out of --help
        _param.hidden = True
    elif _param.name in GATE_HELP:
        _param.help = GATE_HELP[_param.name]
