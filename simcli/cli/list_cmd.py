"""``simcli list [games|strategies]``."""

from __future__ import annotations

import click


@click.command("list")
@click.argument("what", type=click.Choice(["games", "strategies", "all"]), default="all")
def list_cmd(what) -> None:
    """List the games and strategies a config can name.

    Games: id, player counts, title, and every option with its default, its accepted
    values and what it does (the `options:` of a config). Strategies: the names a
    config's `use:` accepts, with their params. Games and strategies of installed
    packages (entry points) are listed too, with the package they come from.

    \b
    simcli list                  games and strategies
    simcli list games            only the games and their options
    simcli list strategies       only the strategies and their params
    """
    from simcli.native import notice

    if line := notice():  # the engines run pure Python, and why
        click.echo(line, err=True)
    if what in ("games", "all"):
        _games()
    if what == "all":
        click.echo()
    if what in ("strategies", "all"):
        _strategies()


def _games() -> None:
    from simcli.games import game_ids, get_game, installed_games, load_game

    click.echo("games:")
    for game_id in game_ids():
        _game_lines(game_id, get_game(game_id))
    _installed(
        "game", installed_games(), game_ids(), 14, lambda n, o: _game_lines(n, load_game(n), o)
    )


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
    from simcli.plugins import STRATEGY_GROUP, entry_points
    from simcli.strategy import BUILTIN, load_strategy_class

    click.echo("strategies:")
    for name in sorted(BUILTIN):
        _strategy_line(name, load_strategy_class(name))
    _installed(
        "strategy",
        entry_points(STRATEGY_GROUP),
        BUILTIN,
        20,
        lambda n, o: _strategy_line(n, load_strategy_class(n), o),
    )


def _strategy_line(name: str, cls, origin: str = "") -> None:
    games = ", ".join(cls.games) if cls.games else "any game"
    click.echo(f"  {name:<20} {cls.description} [{games}]{origin}")


def _installed(what: str, entries: dict, builtin, width: int, show) -> None:
    """Entry points after the built-ins: shown by ``show(name, origin)``, or why not."""
    from simcli.errors import SimcliError

    for name, info in sorted(entries.items()):
        origin = f"installed by {info.package}" if info.package else f"entry point {info.value}"
        if name in builtin:
            click.echo(f"  {name:<{width}} ({origin}: hidden by the built-in {what} of that name)")
            continue
        try:
            show(name, f" [{origin}]")
        except SimcliError as exc:
            click.echo(f"  {name:<{width}} ({origin}) cannot be loaded: {exc}")
