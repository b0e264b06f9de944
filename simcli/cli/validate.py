"""``simcli validate CONFIG``: check a config without running it."""

from __future__ import annotations

import click


@click.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
def validate(config_path) -> None:
    """Check CONFIG (keys, game, options, strategies and their params) without playing."""
    from simcli.config import load_config

    config = load_config(config_path)
    schedule = config.schedule()
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
