"""``simcli view RUN``: write the board viewer page of one logged game."""

from __future__ import annotations

import click


@click.command()
@click.argument("run_path", metavar="RUN", type=click.Path())
@click.option(
    "--game",
    "game_index",
    type=int,
    help="The game with this index (as in `simcli replay --game`); default: the first game.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    help="Write the page here instead of RUN/view/game-N.html.",
)
def view(run_path: str, game_index: int | None, out: str | None) -> None:
    """Write a page that draws a logged game's board at every ply, and print its path.

    RUN is a run folder or a games.jsonl file. The page is one self-contained HTML file:
    open it in a browser from disk. A record that fails verification still gets a page,
    which says at which ply it fails.

    \b
    simcli view results/quickstart                 the first game
    simcli view results/quickstart --game 12 --out game12.html
    """
    from pathlib import Path

    from simcli.viewer import write_view

    click.echo(write_view(Path(run_path), game_index, Path(out) if out else None))
