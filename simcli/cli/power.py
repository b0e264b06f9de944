"""``simcli power``: games needed for a seat effect, or the effect a number of games
detects (the maths: ``simcli/stats/power.py``)."""

from __future__ import annotations

import click

EPILOG = """\b
Examples:
  $ simcli power --players 3 --share 0.36
  $ simcli power --players 2 --elo 10 --draw-rate 0.1
  $ simcli power --players 2 --games 3000
  $ simcli power --players 3 --share 0.36 --between-variants
"""


@click.command(epilog=EPILOG)
@click.option("--players", type=click.IntRange(min=2), required=True, help="Seats at the table.")
@click.option(
    "--share",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    help="Seat 0's share of the decisive games to detect (even: 1/players).",
)
@click.option(
    "--elo",
    type=click.FloatRange(0, 2000, min_open=True, max_open=True),
    help="Two players: the seat effect to detect in Elo between equal strategies.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    help="The reverse question: the smallest effect this many games (per variant) detect.",
)
@click.option(
    "--draw-rate",
    type=click.FloatRange(0, 1, max_open=True),
    default=0.0,
    show_default=True,
    help="Share of games without a single winner (they carry no seat information).",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
)
@click.option(
    "--power",
    "power_",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.8,
    show_default=True,
)
@click.option(
    "--between-variants",
    is_flag=True,
    help="Compare two variants (seat 0 even in one, at --share in the other): games per "
    "variant for the two-proportion test.",
)
def power(players, share, elo, games, draw_rate, alpha, power_, between_variants) -> None:
    """Games needed to detect a seat effect (--share or --elo), or the smallest seat
    effect a number of games detects (--games), for the report's seat test at the given
    power. Seat 0 wins a share of the decisive games, the other seats lose evenly. Exit
    codes: 0 answered, 2 bad input."""
    from simcli.errors import SimcliError
    from simcli.stats import power as pw
    from simcli.stats.ratings import expected_score

    given = [name for name, v in (("--share", share), ("--elo", elo), ("--games", games)) if v]
    if len(given) != 1:
        raise SimcliError(
            "give one of --share, --elo (the effect: games needed) or --games (the "
            f"games: effect detected); got {', '.join(given) or 'none'}"
        )
    if elo is not None:
        if players != 2:
            raise SimcliError("--elo applies to two players; give --share for more")
        share = expected_score(elo)
    even = 1.0 / players
    level = f"{power_:.0%} power, alpha {alpha:g}"
    draws = f", {draw_rate:.0%} draws" if draw_rate else ""

    def effect(p: float) -> str:
        text = f"seat 0 winning {p:.1%} of the decisive games (even: {even:.1%})"
        return text + (f", {pw.share_to_elo(p):+.1f} Elo" if players == 2 and p < 1 else "")

    if games is not None:
        if between_variants:
            raise SimcliError("--between-variants answers --share or --elo, not --games")
        decisive = games * (1.0 - draw_rate)
        found = pw.seat_detectable(decisive, players, alpha, power_)
        what = "no seat effect at all (too few games)" if found >= 1 else effect(found)
        click.echo(f"{games} games{draws} detect ({level}) {what}")
        return
    if share <= even:
        raise SimcliError(f"--share must be above the even share 1/{players} = {even:.4g}")
    if between_variants:
        decisive = pw.two_sample_games(even, share, alpha, power_)
        head = f"per variant to detect a change from even to {effect(share)}"
    else:
        decisive = pw.seat_effect_games(share, players, alpha, power_)
        head = f"to detect {effect(share)}"
    total = pw.with_draws(decisive, draw_rate)
    extra = f" ({decisive} decisive{draws})" if draw_rate else ""
    click.echo(f"{total} games{extra} {head} ({level})")
