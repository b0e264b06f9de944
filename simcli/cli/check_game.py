"""``simcli check-game GAME``: check a game (built-in or plug-in) against the game contract."""

from __future__ import annotations

import click


@click.command("check-game")
@click.argument("game_use", metavar="GAME")
@click.option(
    "--players",
    "players",
    type=int,
    multiple=True,
    help="Only this player count (repeatable) [default: every count the game allows].",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Random playouts per player count.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Seed of the first playout; playout k uses seed + k.",
)
def check_game(game_use: str, players: tuple[int, ...], games: int, seed: int) -> None:
    """Play seeded random games of GAME and check the game contract: one line per check,
    with the seed and ply of its first failure and the command that reproduces it.

    GAME is a built-in id, an installed game's name, package.module:Class or
    path/to/rules.py:Class. Exit code 0 when every check passes, 1 when one fails, 2 when
    the game cannot be loaded or the arguments are wrong.
    """
    from simcli.conformance import check_game as run_checks
    from simcli.games import load_game

    game = load_game(game_use)
    for n in players:
        game.check_players(n)
    counts = players or game.player_counts
    click.echo(
        f"check-game {game.id} ({game.title}): {', '.join(map(str, counts))} player(s), "
        f"{games} game(s) each, seeds {seed}..{seed + games - 1}"
    )
    report = run_checks(game, players=counts, games=games, seed=seed)
    for line in report.lines(game_use):
        click.echo(line)
    failed = report.failed()
    click.echo("all checks pass" if not failed else f"{len(failed)} check(s) fail")
    if failed:
        raise SystemExit(1)
