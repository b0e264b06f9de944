"""``simcli validate CONFIG``: check a config without running it."""

from __future__ import annotations

import click

from simcli.cli.options import PROBE_OPTION

EPILOG = """\b
Exit codes: 0 the config is usable; 2 it is not (the message names the file, key and
line, with a close match for a typo), or with --strict it has a warning.

\b
Example:
  $ simcli validate configs/quickstart.yaml
  configs/quickstart.yaml: ok — libraria, 2 players, format round_robin, 3 strategies,
  3 table(s) x 1000 games = 3000 games
  power: 3000 games detect (80% power, alpha 0.05) seat 0 winning 52.6% of the
  decisive games (even: 50.0%; +18 Elo between equal strategies) if every game is
  decisive; `simcli power` gives the games for a smaller effect
  timing probe: 3 game(s) at 0.00633 s each; estimated run time about 9 s for 3000
  games on 2 process(es)
"""


@click.command(epilog=EPILOG)
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@click.option(
    "--strict",
    is_flag=True,
    help="Treat warnings as errors (a gate whose max_games cannot reach a decision).",
)
@PROBE_OPTION
def validate(config_path, strict, probe_games) -> None:
    """Check CONFIG (keys, game, options, strategies and their params) without playing.
    Strategies that run in their own process (isolation: process, cmd: programs) are
    started once and must complete the protocol handshake. With a `gate:` section, also
    size the SPRT: games to a decision and what the max_games cap costs. Then the
    smallest seat effect the planned games detect at 80% power and the estimated run
    time, from a few games played in a child process (--probe)."""
    from simcli.configfile import load_config
    from simcli.tournament.schedule import schedule_for
    from simcli.tournament.worker import check_strategy_processes

    config = load_config(config_path)
    schedule = schedule_for(config)
    check_strategy_processes(config)  # out-of-process strategies: start and handshake
    if config.gate is not None:
        _describe_gate(config_path, config)
    if config.balance is not None:  # what `simcli balance` plays decides as it goes
        click.echo(f"{config_path}: ok — {describe_balance(config)}")
        return
    click.echo(
        ("  `simcli run` instead plays: " if config.gate is not None else "")
        + (f"{config_path}: ok — " if config.gate is None else "")
        + f"{config.game}"
        + (f" (from {config.game_use})" if config.game_use not in (None, config.game) else "")
        + (" (installed)" if config.game_use == config.game else "")
        + f", {config.players} players, format "
        f"{config.format}, {len(config.strategies)} strategies, {len(schedule.tables)} "
        f"table(s) x {config.games} games"
        + (f" x {len(config.variants)} variants" if config.variants else "")
        + f" = {schedule.total} games"
    )
    from simcli.app.plan import plan

    if config.gate is None:  # a gate's length is sequential: its sizing follows instead
        plan(config, schedule, probe_games, click.echo)
    else:
        from simcli.gating.sizing import check_gate

        check_gate(config_path, config.gate, config.players, strict=strict, echo=click.echo)


def describe_balance(config) -> str:
    """One line of what ``simcli balance`` plays."""
    spec = config.balance
    line = (
        f"{config.game}, {config.players} players, balance: self-play up the rungs "
        f"{', '.join(spec.ladder)}, each until every seat's share of decisive games is "
        f"within ±{spec.precision:.1%} (95%) or {spec.max_games} games"
        + (f" or {spec.max_seconds:g} s" if spec.max_seconds else "")
    )
    if spec.skill_check:
        line += f"; skill checks of {spec.skill_games} games"
    tune = spec.tune
    if tune is not None and tune.variants:
        line += f"; a race of {', '.join(tune.variants)} at {tune.at}"
    elif tune is not None:
        line += (
            f"; the fair {tune.option} in [{tune.low:g}, {tune.high:g}] at {tune.at} "
            f"(probes of {tune.probe_games} games, at most {tune.max_games})"
        )
    return line


def _describe_gate(config_path: str, config) -> None:
    """A gate config is validated as what `simcli gate` plays: the SPRT on pairs."""
    spec = config.gate
    if config.players == 2:
        unit = "seat-swapped pairs of games on shared seeds (pentanomial)"
    else:
        unit = (
            "pairs of games per seed, candidate then baseline in the same seat "
            "against the same field (better/equal/worse per seed)"
        )
    click.echo(
        f"{config_path}: ok — {config.game}, {config.players} players, gate: SPRT of "
        f"{spec.candidate} against {spec.baseline} (elo0 {spec.elo0:g}, elo1 {spec.elo1:g}, "
        f"alpha {spec.alpha:g}, beta {spec.beta:g}) on {unit}, looked at every "
        f"{spec.batch} {'pairs' if config.players == 2 else 'seeds'}, at most "
        f"{spec.max_games} games"
    )
