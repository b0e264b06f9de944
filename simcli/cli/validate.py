"""``simcli validate CONFIG``: check a config without running it."""

from __future__ import annotations

import click


@click.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@click.option(
    "--strict",
    is_flag=True,
    help="Treat warnings as errors (a gate whose max_games cannot reach a decision).",
)
def validate(config_path, strict) -> None:
    """Check CONFIG without playing a game, and say what it would play.

    Reads the YAML file and checks every key, the game and its options, the variants,
    the strategies and their params (a typo is named with its line and a close match);
    loads every strategy once. Strategies that run in their own process (isolation:
    process, cmd: programs) are started once and must complete the protocol handshake.
    Prints the number of games the run would play; with a `gate:` section, also sizes
    the SPRT: games to a decision and what the max_games cap costs.

    Exit codes: 0 the config is usable; 2 it is not (the message names file, key and
    line), or with --strict it has a warning.

    \b
    simcli validate configs/quickstart.yaml
    configs/quickstart.yaml: ok — libraria, 2 players, format round_robin, 3 strategies,
    3 table(s) x 1000 games = 3000 games
    """
    from simcli.config import load_config
    from simcli.tournament.worker import check_strategy_processes

    config = load_config(config_path)
    schedule = config.schedule()
    check_strategy_processes(config)  # out-of-process strategies: start and handshake
    click.echo(
        f"{config_path}: ok — {config.game}"
        + (f" (from {config.game_use})" if config.game_use not in (None, config.game) else "")
        + (" (installed)" if config.game_use == config.game else "")
        + f", {config.players} players, format "
        f"{config.format}, {len(config.strategies)} strategies, {len(schedule.tables)} "
        f"table(s) x {config.games} games"
        + (f" x {len(config.variants)} variants" if config.variants else "")
        + f" = {schedule.total} games"
    )
    if config.gate is not None:
        from simcli.gate.sizing import check_gate

        check_gate(config_path, config.gate, config.players, strict=strict, echo=click.echo)
