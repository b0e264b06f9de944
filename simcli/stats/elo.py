"""Score-based Elo: the Elo difference that a score rate stands for, as cutechess,
fastchess and ``simcli gate`` compute it.

A game scores 1 for a win, ½ for a draw and 0 for a loss; with the mean score ``s`` over
``n`` games, ``Elo = -400 · log10(1/s - 1)`` (the logistic Elo model,
:func:`simcli.stats.ratings.expected_score` inverted). The interval maps the normal
interval of the mean score, ``s ± z · sd/√n`` with the per-game standard deviation of the
score, through the same function (:func:`simcli.gating.sprt.elo_estimate` on trinomial
counts gives the same numbers).

This is not the rating model's Elo (:mod:`simcli.stats.ratings`): the model counts
decisive games only and models draws with their own parameter, so with draws its
differences are wider. The report shows both, each named.
"""

from __future__ import annotations

import math

from simcli.stats.intervals import Interval

#: How the report and ``summary.json`` name this scale.
SCORE_ELO = "score Elo"
METHOD = "score-based Elo (draws count half), normal interval of the mean score"


def elo_from_score(score: float) -> float:
    """``-400 log10(1/s - 1)``; infinite at a score of 0 or 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_elo(wins: float, draws: float, losses: float, confidence: float = 0.95) -> Interval:
    """The score-based Elo of ``wins``, ``draws`` and ``losses`` (one player's games)
    with its interval; ``None`` with a ``note`` where it is not finite."""
    from scipy.stats import norm

    n = wins + draws + losses
    if n <= 0:
        return Interval(None, None, None, 0, METHOD, confidence, "no games")
    score = (wins + draws / 2) / n
    if score <= 0.0 or score >= 1.0:
        side = "won" if score >= 1.0 else "lost"
        note = f"every game {side}: no finite Elo"
        return Interval(None, None, None, n, METHOD, confidence, note)
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    if var == 0:  # every game drawn
        note = "every game drawn: the score does not vary, no interval"
        return Interval(0.0, None, None, n, METHOD, confidence, note)
    half = float(norm.ppf(0.5 + confidence / 2)) * math.sqrt(var / n)
    low, high = elo_from_score(score - half), elo_from_score(score + half)
    if not (math.isfinite(low) and math.isfinite(high)):
        note = "the interval reaches a score of 0 or 1: no finite bound"
        return Interval(
            elo_from_score(score),
            low if math.isfinite(low) else None,
            high if math.isfinite(high) else None,
            n,
            METHOD,
            confidence,
            note,
        )
    return Interval(elo_from_score(score), low, high, n, METHOD, confidence)


def plus_minus(iv: Interval | None, digits: int = 1) -> str:
    """``+63.0 ± 21.9`` (half the interval's width, as cutechess prints it), or the
    estimate alone, or ``n/a``."""
    if iv is None or iv.estimate is None:
        return "n/a"
    est = f"{iv.estimate + 0.0:+.{digits}f}"  # + 0.0: never "-0.0"
    if iv.low is None or iv.high is None:
        return est
    return f"{est} ± {(iv.high - iv.low) / 2:.{digits}f}"
