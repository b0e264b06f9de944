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
    from simcli.errors import SimcliError
    from simcli.games import game_ids, get_game, installed_games, load_game

    click.echo("games:")
    for game_id in game_ids():
        _game_lines(game_id, get_game(game_id))
    for name, info in sorted(installed_games().items()):
        origin = f"installed by {info.package}" if info.package else f"entry point {info.value}"
        if name in game_ids():
            click.echo(f"  {name:<14} ({origin}: hidden by the built-in game of that name)")
            continue
        try:
            _game_lines(name, load_game(name), f" [{origin}]")
        except SimcliError as exc:
            click.echo(f"  {name:<14} ({origin}) cannot be loaded: {exc}")


def _game_lines(name: str, game, origin: str = "") -> None:
    counts = "/".join(map(str, game.player_counts))
    click.echo(f"  {name:<14} {counts:>5} players  {game.title}: {game.description}{origin}")
    for option, opt in game.options.items():
        values = (
            "|".join(map(str, opt.choices))
            if opt.choices
            else (opt.kind.__name__ if opt.kind else "value")
        )
        click.echo(f"      {option} = {opt.default}  ({values}) {opt.doc}")


def _strategies() -> None:
    from simcli.errors import SimcliError
    from simcli.plugins import STRATEGY_GROUP, entry_points
    from strategies import BUILTIN
    from strategies.loader import load_strategy_class

    click.echo("strategies:")
    for name in sorted(BUILTIN):
        _strategy_line(name, load_strategy_class(name))
    for name, info in sorted(entry_points(STRATEGY_GROUP).items()):
        origin = f"installed by {info.package}" if info.package else f"entry point {info.value}"
        if name in BUILTIN:
            click.echo(f"  {name:<20} ({origin}: hidden by the built-in strategy of that name)")
            continue
        try:
            _strategy_line(name, load_strategy_class(name), f" ({origin})")
        except SimcliError as exc:
            click.echo(f"  {name:<20} ({origin}) cannot be loaded: {exc}")


def _strategy_line(name: str, cls, origin: str = "") -> None:
    games = ", ".join(cls.games) if cls.games else "any game"
    click.echo(f"  {name:<20} {cls.description} [{games}]{origin}")
