"""A gate's verdict: the summary lines, the exit code, and ``gate.json``.

The gate's sequential test runs in :class:`simcli.gating.observer.GateObserver`; this
module turns its final state into what the user reads (:func:`summarize`) and what the
run folder keeps (:func:`save`)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

from simcli.errors import SimcliError
from simcli.gating.estimate import corrected_estimate
from simcli.gating.sprt import elo_estimate
from simcli.run_info import read_run_info
from simcli.tournament.output import write_json_atomic

#: Exit codes of a gate: H1 accepted, H0 accepted, no decision within max_games.
PASSED, REGRESSION, UNDECIDED = 0, 1, 3


def check_same_test(target: Path, spec) -> None:
    """A resumed gate must run the test it started (``max_games`` may grow): other
    changes to the ``gate:`` section would move the point where it stopped."""
    info = read_run_info(target) or {}
    stored = (info.get("config") or {}).get("gate")
    if not isinstance(stored, dict):
        return  # nothing to resume, or not a gate: the runner says so
    now = dataclasses.asdict(spec)
    changed = [k for k in now if k != "max_games" and stored.get(k) != now[k]]
    if changed:
        parts = "; ".join(f"{k}: {stored.get(k)} -> {now[k]}" for k in changed)
        raise SimcliError(
            f"{target}: the gate changed since it started ({parts}); resume with the same "
            f"gate: section (only max_games may change), or start again with --force"
        )


def gate_folder(output: str) -> Path:
    """The gate's default folder: the config's output with "-gate" added once (a config
    named ``x-gate`` writes to ``results/x-gate``, not ``results/x-gate-gate``)."""
    return Path(output if output.endswith("-gate") else output + "-gate")


def summarize(observer, games: int, interrupted: bool = False) -> tuple[str, int, str]:
    spec, st = observer.spec, observer.state
    estimate = elo_estimate(observer.counts)
    corrected = corrected_estimate(observer.counts, spec.elo0, spec.elo1, spec.alpha, spec.beta)
    counts = ", ".join(
        f"{label} {n}" for label, n in zip(observer.labels, observer.counts, strict=True)
    )
    unit = "pairs" if len(observer.counts) == 5 else "seeds"
    advice = None
    if st.verdict in ("H1", "H0"):
        verdict = verdict_text(spec, st.verdict, two_player=len(observer.counts) == 5)
        code = PASSED if st.verdict == "H1" else REGRESSION
    elif interrupted:
        verdict, code = f"INTERRUPTED after {games} games, before a decision", 130
        advice = sizing_advice(observer)
    else:
        verdict, code = f"NO DECISION within {spec.max_games} games", UNDECIDED
        advice = sizing_advice(observer)
    lines = [
        f"games {games}, {unit} counted {observer.pairs}"
        + (
            f" ({observer.skipped_pairs} skipped: a game ended in error)"
            if observer.skipped_pairs
            else ""
        ),
        *([score_line(spec, observer.games_ldw)] if len(observer.counts) == 5 else []),
        f"{unit}: {counts}",
        _corrected_line(corrected, two_player=len(observer.counts) == 5),
        _elo_line(estimate, observer.counts, two_player=len(observer.counts) == 5),
        f"LLR {st.llr:+.3f} (bounds {st.lower:+.3f}, {st.upper:+.3f}; elo0 {spec.elo0:g}, "
        f"elo1 {spec.elo1:g}, alpha {spec.alpha:g}, beta {spec.beta:g})",
        *([advice] if advice else []),
        verdict,
    ]
    return verdict, code, "\n".join(lines)


def sizing_advice(observer) -> str | None:
    """For a gate that has not decided: whether its ``max_games`` is too small, with the
    sizing from the draws of the first batch when there is one (else the assumed
    ``draw_rate``). A gate that decided needs no such warning, however it was sized."""
    sizing = observer.resized or observer.sizing
    if sizing is None or sizing.ok:
        return None
    spec = observer.spec
    if observer.resized is not None and observer.resized_draw_rate is not None:
        seen = "draws" if len(observer.counts) == 5 else "equal results"
        at = (
            f"at the {observer.resized_draw_rate:.0%} {seen} of the first "
            f"{observer.resized_after} {observer.unit} (assumed {spec.draw_rate:.0%})"
        )
    else:
        at = f"at the assumed {spec.draw_rate:.0%} draw rate"
    return (
        f"warning: max_games {spec.max_games} is too few for this test {at}: it costs "
        f"{100 * sizing.loss:.1f} points of power near elo0/elo1; about "
        f"{sizing.needed_games} games are needed (raise gate.max_games; --resume accepts "
        "a larger one)"
    )


def score_line(spec, ldw) -> str:
    """``Score of CANDIDATE vs BASELINE: W - L - D [score rate] N``, as cutechess prints
    it, over the games of the counted pairs."""
    losses, draws, wins = ldw
    n = losses + draws + wins
    rate = f"{(wins + draws / 2) / n:.3f}" if n else "n/a"
    return f"Score of {spec.candidate} vs {spec.baseline}: {wins} - {losses} - {draws} [{rate}] {n}"


def verdict_text(spec, verdict: str, *, two_player: bool = True) -> str:
    """The verdict relative to the bounds: an SPRT only says which of elo0 and elo1 the
    data favour, not that the candidate "regressed" or "is not weaker"."""
    scale = "Elo" if two_player else "per-seed logistic units (not head-to-head Elo)"
    who = f"{spec.candidate} - {spec.baseline}"
    e0, e1 = f"{spec.elo0:g}", f"{spec.elo1:g}"
    if verdict == "H1":
        return f"PASSED: H1 accepted: the data favour elo1 = {e1} over elo0 = {e0} ({who}, {scale})"
    return (
        f"FAILED: H0 accepted: {spec.candidate} is not shown to be at elo1 = {e1}; the data "
        f"favour elo0 = {e0} over elo1 = {e1} ({who}, {scale})"
    )


def save(target: Path, observer, verdict: str) -> None:
    spec = observer.spec
    estimate = elo_estimate(observer.counts)
    corrected = corrected_estimate(observer.counts, spec.elo0, spec.elo1, spec.alpha, spec.beta)
    sizing = {}
    for key, sz in (("sizing", observer.sizing), ("sizing_after_first_batch", observer.resized)):
        if sz is not None:
            sizing[key] = {
                "expected_games_at_elo0": sz.games_per_unit * sz.at_elo0.expected_units,
                "expected_games_at_elo1": sz.games_per_unit * sz.at_elo1.expected_units,
                "pass_rate_at_elo0": sz.at_elo0.passed,
                "pass_rate_at_elo1": sz.at_elo1.passed,
                "undecided_at_elo1": sz.at_elo1.undecided,
                "power_lost_to_max_games": sz.loss,
                "games_needed": sz.needed_games,
            }
    write_json_atomic(
        target / "gate.json",
        {
            "gate": dataclasses.asdict(observer.spec),
            "counts": dict(zip(observer.labels, observer.counts, strict=True)),
            "pairs": observer.pairs,
            "skipped_pairs": observer.skipped_pairs,
            "llr": observer.state.llr,
            "bounds": [observer.state.lower, observer.state.upper],
            "elo": {
                **_estimate_fields(estimate, observer.counts),
                "los": estimate.los,
                "label": "uncorrected (ignores the stopping rule; biased after an early stop)",
                "scale": SCALE if len(observer.counts) == 5 else TRINOMIAL_SCALE,
            },
            "elo_corrected": corrected.to_dict(),
            "scale": "Elo" if len(observer.counts) == 5 else "per-seed logistic (not Elo)",
            **(
                {"games_wdl": dict(zip(("wins", "draws", "losses"), wdl(observer), strict=True))}
                if len(observer.counts) == 5
                else {}
            ),
            **sizing,
            "verdict": verdict,
        },
    )


#: What the two-player gate's Elo is (the run report's "score Elo" column is the same).
SCALE = (
    "score Elo: -400 log10(1/s - 1) of the candidate's mean score s (draws half), as "
    "cutechess and fastchess; interval from the pair scores"
)
TRINOMIAL_SCALE = "per-seed logistic units (not head-to-head Elo)"


def wdl(observer) -> tuple[int, int, int]:
    losses, draws, wins = observer.games_ldw
    return wins, draws, losses


def _finite(x: float) -> float | None:
    return x + 0.0 if math.isfinite(x) else None  # + 0.0: never -0.0


def _estimate_fields(estimate, counts) -> dict:
    """``estimate``, ``low``, ``high`` for gate.json: none without counted units, no
    interval when every counted unit had the same outcome."""
    if not sum(counts):
        return {"estimate": None, "low": None, "high": None}
    if _no_spread(counts):
        return {"estimate": _finite(estimate.elo), "low": None, "high": None}
    return {
        "estimate": _finite(estimate.elo),
        "low": _finite(estimate.low),
        "high": _finite(estimate.high),
    }


def _no_spread(counts) -> bool:
    """Every counted unit had the same outcome (all won, all drawn, ...)."""
    return sum(1 for c in counts if c) == 1


def _corrected_line(c, *, two_player: bool = True) -> str:
    name = "Score Elo" if two_player else "Per-seed logistic score"
    head = f"{name} corrected for the SPRT stop"
    if c.elo is None:
        return f"{head}: n/a ({c.note})"
    low = f"{c.low:+.1f}" if c.low is not None else "n/a"
    high = f"{c.high:+.1f}" if c.high is not None else "n/a"
    return f"{head}: {c.elo:+.1f} [{low}, {high}] (95%), LOS {c.los:.1%}"


def _elo_line(estimate, counts=None, *, two_player: bool = True) -> str:
    name = (
        "Score Elo uncorrected" if two_player else "Per-seed logistic score uncorrected (not Elo)"
    )
    unit = "pair" if two_player else "seed"
    if counts is not None and not sum(counts):
        return f"{name}: n/a (no {unit}s counted)"
    if not math.isfinite(estimate.elo):
        side = "won" if estimate.elo > 0 else "lost"
        return (
            f"{name}: {estimate.elo:+} (every counted {side}: no finite estimate), "
            f"LOS {estimate.los:.1%}"
        )
    elo = estimate.elo + 0.0  # never "-0.0"
    if counts is not None and _no_spread(counts):
        return (
            f"{name}: {elo:+.1f} (every counted {unit} had the same outcome: no interval), "
            f"LOS {estimate.los:.1%}"
        )
    return f"{name}: {elo:+.1f} ± {estimate.margin:.1f} (95%), LOS {estimate.los:.1%}"
