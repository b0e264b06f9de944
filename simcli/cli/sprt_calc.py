"""``simcli sprt-calc``: the gate's statistics for counts you already have."""

from __future__ import annotations

import click


def _counts(text: str, size: int, what: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"expected {size} whole numbers separated by commas") from None
    if len(values) != size or any(v < 0 for v in values):
        raise click.BadParameter(f"expected {size} counts ({what}) >= 0, got {text!r}")
    return values


@click.command("sprt-calc")
@click.option("--wins", type=click.IntRange(min=0), help="Candidate's wins (default 0).")
@click.option("--draws", type=click.IntRange(min=0), help="Draws (default 0).")
@click.option("--losses", type=click.IntRange(min=0), help="Candidate's losses (default 0).")
@click.option(
    "--pentanomial", metavar="LL,LD,DD+WL,WD,WW", help="Pair counts instead of game counts."
)
@click.option("--elo0", type=float, required=True, help="Elo of H0.")
@click.option("--elo1", type=float, required=True, help="Elo of H1 (above elo0).")
@click.option(
    "--alpha",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
)
@click.option(
    "--beta",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def sprt_calc(wins, draws, losses, pentanomial, elo0, elo1, alpha, beta, as_json) -> None:
    """LLR, bounds, Elo with 95% interval and LOS for win/draw/loss counts or
    pentanomial pair counts (fishtest's logistic GSPRT)."""
    import json
    import math

    from simcli.gating.estimate import corrected_estimate
    from simcli.gating.sprt import elo_estimate, sprt

    trinomial = (wins, draws, losses)
    if pentanomial is not None:
        if any(x is not None for x in trinomial):
            raise click.UsageError("give either --wins/--draws/--losses or --pentanomial")
        counts = _counts(pentanomial, 5, "LL,LD,DD+WL,WD,WW")
    elif all(x is None for x in trinomial):
        raise click.UsageError("give --wins/--draws/--losses (a missing one is 0) or --pentanomial")
    else:
        counts = [losses or 0, draws or 0, wins or 0]
    if not all(math.isfinite(x) and abs(x) < 2000 for x in (elo0, elo1)):
        raise click.UsageError("--elo0 and --elo1 must be finite, between -2000 and 2000")
    if elo0 >= elo1:
        raise click.UsageError("--elo1 must be above --elo0")
    state = sprt(counts, elo0, elo1, alpha, beta)
    est = elo_estimate(counts)
    corrected = corrected_estimate(counts, elo0, elo1, alpha, beta)
    verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "continue"}[state.verdict]
    if as_json:
        nothing = not sum(counts)
        same = sum(1 for c in counts if c) == 1  # no spread: no interval

        def num(x: float, *, bound: bool = False) -> float | None:
            if nothing or (bound and same):
                return None
            return x + 0.0 if math.isfinite(x) else None  # + 0.0: never -0.0

        click.echo(
            json.dumps(
                {
                    "counts": counts,
                    "llr": state.llr,
                    "lower": state.lower,
                    "upper": state.upper,
                    "elo": num(est.elo),
                    "elo_low": num(est.low, bound=True),
                    "elo_high": num(est.high, bound=True),
                    "los": est.los,
                    "elo_corrected": corrected.to_dict(),
                    "verdict": verdict,
                },
                indent=2,
            )
        )
        return
    click.echo(f"LLR {state.llr:.3f} (bounds {state.lower:.3f}, {state.upper:.3f}): {verdict}")
    if not sum(counts):
        click.echo("Elo n/a (nothing counted) (uncorrected)")
    elif sum(1 for c in counts if c) == 1 and math.isfinite(est.elo):
        click.echo(
            f"Elo {est.elo + 0.0:+.2f} (every count in one outcome: no interval) (uncorrected)"
        )
    elif not math.isfinite(est.elo):
        side = "won" if est.elo > 0 else "lost"
        click.echo(f"Elo {est.elo:+} (every count {side}: no finite estimate) (uncorrected)")
    else:
        click.echo(
            f"Elo {est.elo:+.2f} ± {est.margin:.2f} (95%) [{est.low:+.2f}, {est.high:+.2f}] "
            "(uncorrected)"
        )
    click.echo(f"LOS {est.los:.1%}")
    if corrected.elo is None:
        click.echo(f"Elo corrected for the SPRT stop: n/a ({corrected.note})")
    else:
        lo = f"{corrected.low:+.2f}" if corrected.low is not None else "n/a"
        hi = f"{corrected.high:+.2f}" if corrected.high is not None else "n/a"
        click.echo(
            f"Elo corrected for the SPRT stop: {corrected.elo:+.2f} [{lo}, {hi}] (95%), "
            f"LOS {corrected.los:.1%}"
        )
