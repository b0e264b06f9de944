"""What `validate` and `run` say before playing: the smallest seat effect the planned
games can detect and the estimated run time (from a short timing probe)."""

from __future__ import annotations

import os

from simcli.config import Config
from simcli.tournament.schedule import PairedSchedule, Schedule

ALPHA = 0.05  # the report's level


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 20 s``, ``2 h 05 min``."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{max(seconds, 1)} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def seat_power_line(config: Config, schedule: Schedule | PairedSchedule) -> str | None:
    """The smallest seat effect the planned games per variant detect at 80% power (None
    for a solitaire game or a gate's paired schedule)."""
    from simcli.stats.power import POWER, seat_detectable, share_to_elo

    if config.players < 2 or not isinstance(schedule, Schedule):
        return None
    games = schedule.games_per_variant
    share = seat_detectable(games, config.players, ALPHA)
    even = 1 / config.players
    where = " per variant" if config.variants else ""
    if share >= 1:
        effect = "no seat effect at all (too few games)"
    else:
        effect = f"seat 0 winning {share:.1%} of the decisive games (even: {even:.1%}"
        if config.players == 2:
            effect += f"; {share_to_elo(share):+.0f} Elo between equal strategies"
        effect += ")"
    return (
        f"power: {games} games{where} detect ({POWER:.0%} power, alpha {ALPHA:g}) {effect} "
        f"if every game is decisive; `simcli power` gives the games for a smaller effect"
    )


def time_line(
    config: Config, schedule: Schedule | PairedSchedule, probe_games: int, games: int | None = None
) -> str | None:
    """The estimated time of ``games`` (default: all) games, from a timing probe."""
    from simcli.tournament.probe import parallelism, probe

    result = probe(config, schedule, probe_games)
    if result is None:
        return None
    games = schedule.total if games is None else games
    head = f"timing probe: {result.games} game(s) at {result.per_game:.3g} s each"
    if config.executor != "local":
        return f"{head} here; the run time depends on the {config.executor} cluster"
    parallel = parallelism(config)
    busy = ""
    cpus = os.cpu_count() or 1
    if parallel < min(config.workers, cpus):
        busy = f" (other jobs leave {parallel} of {cpus} CPUs free)"
    return (
        f"{head}; estimated run time about "
        f"{duration(result.estimate(games, parallel))} for {games} games on {parallel} "
        f"process(es){busy}"
    )


def plan(
    config: Config,
    schedule: Schedule | PairedSchedule,
    probe_games: int,
    echo,
    games: int | None = None,
) -> None:
    """Echo the power and time lines that apply."""
    for line in (
        seat_power_line(config, schedule),
        time_line(config, schedule, probe_games, games),
    ):
        if line is not None:
            echo(line)
