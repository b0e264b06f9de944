"""``simcli list [games|strategies]``."""

from __future__ import annotations

import click


@click.command("list")
@click.argument("what", type=click.Choice(["games", "strategies", "all"]), default="all")
def list_cmd(what) -> None:
    """List the registered games (player counts, options) and strategies."""
    if what in ("games", "all"):
        _games()
    if what == "all":
        click.echo()
    if what in ("strategies", "all"):
        _strategies()


def _games() -> None:
    from simcli.games import game_ids, get_game

    click.echo("games:")
    for game_id in game_ids():
        game = get_game(game_id)
        counts = "/".join(map(str, game.player_counts))
        click.echo(f"  {game_id:<14} {counts:>5} players  {game.title}: {game.description}")
        for name, opt in game.options.items():
            values = (
                "|".join(map(str, opt.choices))
                if opt.choices
                else (opt.kind.__name__ if opt.kind else "value")
            )
            click.echo(f"      {name} = {opt.default}  ({values}) {opt.doc}")


def _strategies() -> None:
    from strategies import BUILTIN
    from strategies.loader import load_strategy_class

    click.echo("strategies:")
    for name in sorted(BUILTIN):
        cls = load_strategy_class(name)
        games = ", ".join(cls.games) if cls.games else "any game"
        click.echo(f"  {name:<20} {cls.description} [{games}]")
