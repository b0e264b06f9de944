"""``simcli bench``: engine vs run-path throughput, per game."""

from __future__ import annotations

import click


@click.command()
@click.option(
    "--games",
    type=click.IntRange(min=10),
    default=2000,
    show_default=True,
    help="Games per measurement.",
)
@click.option("--game", "game_ids", multiple=True, help="Only this game (repeatable).")
@click.option(
    "--repeats",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Interleaved rounds; the best of each measurement is kept (more: steadier on a busy "
    "machine).",
)
@click.option(
    "--dask/--no-dask",
    default=False,
    show_default=True,
    help="Also measure the Dask executor on a local cluster.",
)
@click.option(
    "--isolation/--no-isolation",
    default=False,
    show_default=True,
    help="Also measure strategies out of process (isolation: process, an external command) "
    "against in-process: random self-play, and mcts at 200 iterations (decisions of about "
    "a millisecond or more) on a fiftieth of the games.",
)
def bench(games, game_ids, repeats, dask, isolation) -> None:
    """Random self-play games per second: bare engine, full run path with 1 worker and
    with every core (and Dask), with their ratios measured in this one run."""
    from simcli.bench import bench_game, bench_isolation
    from simcli.games import game_ids as all_games
    from simcli.games import get_game
    from simcli.native import active_path, notice

    click.echo(f"engines: {active_path()}")  # compiled or pure Python (docs/running.md)
    if line := notice():
        click.echo(line)
    for game_id in game_ids or all_games():
        get_game(game_id)  # unknown ids fail here, before any measurement
        row = bench_game(game_id, games, dask=dask, repeats=repeats)
        click.echo("\n".join(row.lines()))
        if isolation:
            for use, params, count in (
                ("random", "", games),
                ("mcts", "{iterations: 200}", max(10, games // 50)),
            ):
                iso = bench_isolation(game_id, count, use, params, repeats=repeats)
                click.echo("\n".join(iso.lines()))
