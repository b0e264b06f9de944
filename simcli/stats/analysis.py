"""Turn a finished :class:`~simcli.stats.aggregate.Aggregator` into the report summary.

:func:`summarize` returns a JSON-ready dict (the content of ``summary.json``): per group
(variant x seats) the strategy table, pairwise matrix, ratings, seat bias, lengths,
margins, terminations and (solitaire) paired comparisons; across groups the
homogeneity test of seat bias; every p-value of the report in one family corrected
for multiple comparisons; plain-sentence findings; and notes that explain every value
that is missing. No value in the summary is NaN or infinite.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from simcli import __version__
from simcli.stats import wording as W
from simcli.stats.aggregate import Aggregator, GroupTally, moments_of_counter
from simcli.stats.distribution import counter_summary
from simcli.stats.intervals import CI_METHOD_NAMES, CI_METHODS, binom_ci, t_interval
from simcli.stats.ratings import (
    AllTied,
    RatingFit,
    elo_diff,
    expected_score,
    fit_with_seat_test,
)
from simcli.stats.seat_tests import (
    detectable_sign,
    detectable_stratified,
    stratified_seat_test,
)
from simcli.stats.significance import (
    CORRECTION_METHODS,
    TestResult,
    adjust_pvalues,
    binomial_test,
    chi2_gof_test,
    homogeneity_test,
    seat_by_strategy_test,
    sign_test,
    wilcoxon_from_counts,
)

SUMMARY_SCHEMA = 1


class _Tests:
    """Every hypothesis test of the report: one family for the correction."""

    def __init__(self) -> None:
        self.entries: list[dict] = []

    def add(
        self,
        kind: str,
        group: str,
        text: str,
        result: TestResult,
        *,
        descriptive: str | None = None,
    ) -> dict:
        """``descriptive``: why the test stays out of the correction family (its
        p-value is shown as a descriptive figure, never called significant)."""
        entry = {
            "id": f"T{len(self.entries) + 1}",
            "kind": kind,
            "group": group,
            **result.to_dict(),
            "in_family": descriptive is None,
            "p_adjusted": None,
            "significant": None,
            "text": text,
            "sentence": None,
        }
        if descriptive is not None:
            entry["descriptive"] = descriptive
        self.entries.append(entry)
        return entry

    def finish(self, method: str, alpha: float) -> dict:
        defined = [e for e in self.entries if e["p_value"] is not None and e["in_family"]]
        m = len(defined)
        adjusted = adjust_pvalues([e["p_value"] for e in defined], method) if m else []
        for e, q in zip(defined, adjusted, strict=True):
            e["p_adjusted"] = float(q)
            e["significant"] = bool(q <= alpha)
        for e in self.entries:
            e["sentence"] = _sentence(e, m, method, alpha)
        return {
            "method": method,
            "name": CORRECTION_METHODS[method],
            "tests": m,
            "alpha": alpha,
            "undefined_tests": sum(1 for e in self.entries if e["p_value"] is None),
            "descriptive_tests": sum(
                1 for e in self.entries if e["p_value"] is not None and not e["in_family"]
            ),
        }


def _sentence(e: dict, m: int, method: str, alpha: float) -> str:
    text = e["text"]
    if e["p_value"] is None:
        return f"{text}; {e['test']} not possible ({e.get('note', 'undefined')})."
    p = W.p_phrase(e["p_value"])
    a = f"{alpha:g}"
    if not e["in_family"]:
        return f"{e['text']}; {e['test']}{_stat(e)} {p} (descriptive: {e['descriptive']})."
    if method == "none" or m == 1:
        verdict = "significant" if e["significant"] else "not significant"
        tail = f"{verdict} at {a}" + (" (the only test)" if m == 1 else " (no correction)")
    else:
        verdict = "significant" if e["significant"] else "not significant"
        tail = (
            f"{verdict} at {a} after correction for {m} tests "
            f"({method.upper() if method in ('bh', 'by') else method.capitalize()}, "
            f"adjusted {W.p_phrase(e['p_adjusted'])})"
        )
    return f"{text}; {e['test']}{_stat(e)} {p}, {tail}."


def _stat(e: dict) -> str:
    if e.get("statistic") is None:
        return ""
    if e["test"].startswith(("chi-square", "likelihood", "stratified")):
        name = "LR" if e["test"].startswith("likelihood") else "chi-square"
        return f" ({name} = {e['statistic']:.2f}, df = {W.num(e.get('df'))})"
    return ""


def _points(dist, confidence: float) -> dict:
    s = dist.summary()
    iv = t_interval(s["n"], s["mean"], s["sd"], confidence)
    out = {**s, "low": iv.low, "high": iv.high, "histogram": dist.histogram_summary()}
    if iv.note:
        out["note"] = iv.note
    return out


def _terminations_group(g: GroupTally) -> dict:
    forfeit: dict[str, int] = {}
    for key, c in g.terminations.items():
        if key.startswith("forfeit:"):
            forfeit[key.split(":", 1)[1]] = c
    return {
        "normal": g.terminations.get("normal", 0),
        "move_limit": g.terminations.get("move_limit", 0),
        "forfeit": dict(sorted(forfeit.items())),
        "error": g.errors,
    }


def _forfeits_by_strategy(groups: list[dict]) -> dict[str, dict[str, int]]:
    """Forfeits of each strategy by kind over every group (strategies without a forfeit
    left out): ``{"raiser": {"exception": 12, "timeout": 1}}``."""
    out: dict[str, dict[str, int]] = {}
    for grp in groups:
        for st in grp.get("strategies", []):
            for kind, n in st["terminations"].get("forfeit_own", {}).items():
                kinds = out.setdefault(st["name"], {})
                kinds[kind] = kinds.get(kind, 0) + n
    return {name: dict(sorted(kinds.items())) for name, kinds in out.items()}


def _terminations_strategy(counter, errors: int) -> dict:
    own: dict[str, int] = {}
    for key, c in counter.items():
        if key.startswith("forfeit_own:"):
            own[key.split(":", 1)[1]] = c
    return {
        "normal": counter.get("normal", 0),
        "move_limit": counter.get("move_limit", 0),
        "forfeit_own": dict(sorted(own.items())),
        "forfeit_opponent": counter.get("forfeit_opponent", 0),
        "error": errors,
    }


class _Context:
    def __init__(self, ci_method: str, confidence: float, alpha: float) -> None:
        self.ci_method = ci_method
        self.confidence = confidence
        self.alpha = alpha
        self.tests = _Tests()
        self.notes: list[str] = []

    def ci(self, k: float, n: float) -> dict:
        return binom_ci(k, n, method=self.ci_method, confidence=self.confidence).to_dict()


def summarize(
    agg: Aggregator,
    *,
    ci_method: str = "wilson",
    confidence: float = 0.95,
    alpha: float = 0.05,
    correction: str = "bh",
    run_info: Mapping[str, Any] | None = None,
    source: str | None = None,
) -> dict:
    """The complete report summary (see module doc and docs/statistics.md)."""
    if ci_method not in CI_METHODS:
        raise ValueError(f"unknown interval method {ci_method!r}")
    if correction not in CORRECTION_METHODS:
        raise ValueError(f"unknown correction {correction!r}")
    agg.finish()
    ctx = _Context(ci_method, confidence, alpha)
    multi = len({p for _, p in agg.group_order}) > 1
    groups = []
    for key in agg.group_order:
        groups.append(_group(agg, agg.groups[key], ctx, multi))
    comparison = _variant_comparison(agg, groups, ctx)
    correction_info = ctx.tests.finish(correction, alpha)
    # headline tests first, then the descriptive p-values
    findings = [e["sentence"] for e in ctx.tests.entries if e["in_family"]]
    findings += [e["sentence"] for e in ctx.tests.entries if not e["in_family"]]
    for grp in groups:
        findings.extend(grp.pop("_descriptive", []))
    run = _run_section(run_info, ctx)
    games_ids = sorted(str(k) for k in agg.games_seen if k is not None)
    totals = {
        "records": agg.records,
        "games": sum(g.games for g in agg.groups.values()),
        "errors": sum(g.errors for g in agg.groups.values()),
        "forfeits": sum(sum(grp["terminations"]["forfeit"].values()) for grp in groups),
        "groups": len(groups),
        "strategies": len(agg.order),
    }
    if agg.records == 0:
        ctx.notes.append("the log holds no game records")
    if totals["errors"]:
        ctx.notes.append(
            f"{totals['errors']} game(s) ended in an error (a bug in the rules module) and "
            "are excluded from every statistic; see the termination counts"
        )
    summary = {
        "summary_schema": SUMMARY_SCHEMA,
        "generated_by": f"simcli {__version__}",
        "source": source,
        "game": games_ids[0] if len(games_ids) == 1 else (games_ids or None),
        "run": run,
        "settings": {
            "ci_method": ci_method,
            "ci_method_name": CI_METHOD_NAMES[ci_method],
            "confidence": confidence,
            "alpha": alpha,
            "correction": correction,
            "correction_name": CORRECTION_METHODS[correction],
            "seat_numbering": "seats are numbered from 0, as in the records (seat 0 moves first)",
        },
        "totals": totals,
        "forfeits": _forfeits_by_strategy(groups),
        "groups": groups,
        "variant_comparison": comparison,
        "correction": correction_info,
        "tests": ctx.tests.entries,
        "findings": findings,
        "notes": ctx.notes,
    }
    return sanitize(summary)


def sanitize(obj: Any) -> Any:
    """Replace NaN/inf by None and numpy scalars by Python numbers (JSON-safe)."""
    if isinstance(obj, dict):
        return {str(k): sanitize(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [sanitize(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        x = float(obj)
        return x if math.isfinite(x) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def _run_section(run_info, ctx) -> dict | None:
    if not run_info:
        return None
    config = run_info.get("config") or {}
    status = run_info.get("status")
    if status is not None and status != "complete":
        ctx.notes.append(f"run status is '{status}': the results may be partial")
    keep = ("name", "game", "format", "players", "games", "seed")
    return {
        "status": status,
        "config": {k: config.get(k) for k in keep if k in config},
        "strategies": [s.get("name") for s in config.get("strategies", []) if isinstance(s, dict)],
        "versions": run_info.get("versions"),
        "timings": run_info.get("timings"),
    }


# ----------------------------------------------------------------------------- groups


def _label(g: GroupTally, multi_players: bool) -> str:
    base = "all games" if g.variant is None else f"variant '{g.variant}'"
    if multi_players:
        base += f" ({g.players} player{'s' if g.players != 1 else ''})"
    return base


def _group(agg: Aggregator, g: GroupTally, ctx: _Context, multi: bool) -> dict:
    label = _label(g, multi)
    names = agg.ordered_names(g.strategies)
    out: dict[str, Any] = {
        "id": f"{g.variant or 'all'}-{g.players}p",
        "variant": g.variant,
        "label": label,
        "players": g.players,
        "options": g.options or {},
        "records": g.records,
        "games": g.games,
        "errors": g.errors,
        "self_play_games": g.self_play_games,
        "mixed_games": g.mixed_games,
        "terminations": _terminations_group(g),
        "notes": [],
        "_descriptive": [],
    }
    notes = out["notes"]
    if g.options_differ:
        notes.append("records of this group have different options; grouped by variant only")
    if g.errors:
        first = g.error_messages.most_common(1)[0][0] if g.error_messages else "?"
        notes.append(f"{g.errors} game(s) ended in an error and are excluded (e.g. '{first}')")
    if g.games == 0:
        notes.append("no valid games: every statistic of this group is undefined")
    out["length"] = g.length.summary()
    if g.length.n == 0 and g.games:
        notes.append("records carry no moves: game length unknown")
    if not g.length.exact:
        notes.append("game-length quartiles are estimated from a reservoir sample")
    out["strategies"] = [_strategy_row(g, g.strategies[nm], ctx) for nm in names]
    if g.players == 1:
        out["solo"] = _solo(agg, g, ctx, label, names)
        out["seat_bias"] = None
        out["ratings"] = None
        out["pairwise"] = None
        out["margin"] = None
        _collect_notes(out, ctx)
        return out
    out["margin"] = g.margin.summary()
    if g.margin.n == 0 and g.games:
        notes.append("no game with points for every seat: no score margins")
    out["pairwise"] = _pairwise(g, ctx, names)
    fit, pending = _ratings(g, ctx, label, names, out)
    out["seat_bias"] = _seat_bias(g, ctx, label, names, fit, pending, out["ratings"])
    if out["seat_bias"].get("detectable"):
        out["_descriptive"].append(out["seat_bias"]["detectable"]["sentence"])
    _collect_notes(out, ctx)
    return out


def _collect_notes(out: dict, ctx: _Context) -> None:
    for note in out["notes"]:
        ctx.notes.append(f"{out['label']}: {note}")


def _strategy_row(g: GroupTally, st, ctx: _Context) -> dict:
    row: dict[str, Any] = {"name": st.name, "games": st.games}
    if g.players == 1:
        row["successes"] = st.solo_wins
        row["success_rate"] = ctx.ci(st.solo_wins, st.games)
    else:
        row.update(
            wins=st.win_share,
            draws=st.draws,
            losses=st.loss_share,
            score=st.score,
            win_rate=ctx.ci(st.win_share, st.games),
            score_rate=ctx.ci(st.score, st.games),
        )
    row["points"] = _points(st.points, ctx.confidence)
    row["length"] = st.length.summary()
    row["terminations"] = _terminations_strategy(st.terminations, st.errors)
    return row


def _pairwise(g: GroupTally, ctx: _Context, names: list[str]) -> dict:
    kind = "score" if g.players == 2 else "finishing order"
    present = [nm for nm in names if any(nm in k for k in g.pairwise)]
    cells = []
    for a in present:
        for b in present:
            pt = g.pairwise.get((a, b))
            if a == b or pt is None or pt.games == 0:
                continue
            cells.append(
                {
                    "row": a,
                    "col": b,
                    "games": pt.games,
                    "wins": pt.wins,
                    "draws": pt.draws,
                    "losses": pt.losses,
                    "score": pt.score,
                    "rate": ctx.ci(pt.score, pt.games),
                }
            )
    out = {"kind": kind, "names": present, "cells": cells}
    if len(present) < 2:
        out["note"] = "fewer than two strategies met: no pairwise comparison"
    return out


def _ratings(g: GroupTally, ctx: _Context, label: str, names: list[str], out: dict):
    if g.games == 0 or not g.orders:
        out["ratings"] = {"note": "no valid games: no ratings"}
        return None, None
    try:
        fit, lrt = fit_with_seat_test(dict(g.orders), names=names)
    except AllTied as exc:
        out["ratings"] = {"note": str(exc)}
        out["notes"].append(f"ratings: {exc}")
        return None, None
    except (ValueError, np.linalg.LinAlgError, FloatingPointError) as exc:  # pragma: no cover
        out["ratings"] = {"note": f"the rating fit failed: {exc}"}
        return None, None
    data = fit.to_dict(ctx.confidence)
    data["differences"] = [
        {"a": a, "b": b, **elo_diff(fit, a, b, ctx.confidence).to_dict()}
        for a in fit.names
        for b in fit.names
        if a != b
    ]
    data["seat_test"] = None
    for row in data["ratings"]:
        if row["elo"] is not None and row["se"] is None:
            row["note"] = "no interval: observed information singular"
    out["ratings"] = data
    for note in fit.notes:
        out["notes"].append(f"ratings: {note}")
    model = _model_name(fit)
    if g.players == 2:
        adv = fit.first_seat_advantage(ctx.confidence)
        eq = expected_score(adv.estimate) if adv.estimate is not None else None
        text = (
            f"{label}: controlled for who sat where ({model} with a seat parameter), "
            f"seat 0 is worth {W.num_ci(adv.to_dict(), 0, sign=True)} Elo "
            f"(between equal strategies seat 0 would win {W.pct(eq)} of the decisive games)"
        )
    else:
        parts = []
        for s in range(1, g.players):
            iv = fit.seat_interval(s, ctx.confidence)
            parts.append(f"{W.seat_label(s)} {W.num_ci(iv.to_dict(), 0, sign=True)}")
        text = (
            f"{label}: controlled for who sat where ({model} with seat parameters), "
            f"seat effects relative to seat 0 in Elo: " + ", ".join(parts)
        )
    pending = ("seat_model", label, text, lrt)
    rated = sorted(
        ((r["elo"], r["name"]) for r in data["ratings"] if r["elo"] is not None), reverse=True
    )
    if len(rated) > 1:
        (_, best), (_, second) = rated[0], rated[1]
        gap = elo_diff(fit, best, second, ctx.confidence)
        out["_descriptive"].append(
            f"{label}: highest rating {best}, {W.num_ci(gap.to_dict(), 0, sign=True)} Elo "
            f"over the next, {second} ({model}; descriptive: the two were picked for ranking "
            f"first and second, and the interval does not allow for that selection)."
        )
    return fit, pending


def _model_name(fit: RatingFit) -> str:
    """Ties modelled with Davidson's parameters get his name added."""
    base = "Bradley-Terry" if fit.seats == 2 else "Plackett-Luce"
    return f"{base}-Davidson" if fit.ties else base


def _seat_bias(
    g, ctx: _Context, label: str, names, fit: RatingFit | None, pending, ratings: dict
) -> dict:
    n = g.players
    st = g.seat
    seats = []
    for s in range(n):
        seats.append(
            {
                "seat": s,
                "label": W.seat_label(s),
                "games": st.games,
                "win_share": st.win_share[s],
                "win_rate": ctx.ci(st.win_share[s], st.games),
                "decisive_wins": st.wins[s],
                "decisive_rate": ctx.ci(st.wins[s], st.decisive),
            }
        )
    out: dict[str, Any] = {
        "seats": seats,
        "games": st.games,
        "decisive": st.decisive,
        "draws": st.draws,
        "shared_first": st.shared,
    }
    beside = f"{W.plural(st.draws, 'draw')} and {W.plural(st.shared, 'shared first place')} beside"
    if n == 2:
        res = binomial_test(st.wins[0], st.decisive)
        text = (
            f"{label}: seat 0 wins {W.pct_ci(seats[0]['decisive_rate'])} of "
            f"{W.plural(st.decisive, 'decisive game')} ({beside})"
        )
    else:
        res = chi2_gof_test(st.wins)
        shares = ", ".join(
            f"{W.seat_label(s)} {W.pct(seats[s]['decisive_rate']['estimate'])}" for s in range(n)
        )
        text = (
            f"{label}: decisive wins {shares} of {W.plural(st.decisive, 'decisive game')} "
            f"(uniform: {W.pct(1 / n)} each; {beside})"
        )
    if st.decisive == 0:
        ctx.notes.append(f"{label}: no decisive games: the seat test is not possible")
    # the headline test: seat-swapped pairs where every mixed game is paired, else the
    # test stratified by lineup; every other seat test is a descriptive figure
    paired = (
        n == 2
        and g.pairs_complete > 0
        and g.pairs_unpaired_games == 0
        and g.self_play_games == 0
        and g.no_seed == 0
    )
    strat_res, score = stratified_seat_test(dict(g.orders), n)
    excess = ", ".join(
        f"{W.seat_label(s)} {score.observed[s] - score.expected[s]:+.1f}" for s in range(n)
    )
    strat_text = (
        f"{label}: {'' if paired else 'headline seat test: '}decisive wins compared within "
        f"lineups ({W.plural(score.strata, 'lineup')}), observed minus expected without a "
        f"seat effect: {excess}"
    )
    strat_entry = ctx.tests.add(
        "seat_stratified",
        label,
        strat_text,
        strat_res,
        descriptive="the seat-swapped pairs give the headline test" if paired else None,
    )
    out["stratified"] = {
        "observed": score.observed.tolist(),
        "expected": score.expected.tolist(),
        "lineups": score.strata,
        "test": strat_entry,
    }
    out["test"] = ctx.tests.add(
        "seat", label, text, res, descriptive=_POOLED if len(g.strategies) > 1 else _SAME
    )
    out["pairs"] = _pairs(g, ctx, label, headline=paired)
    if paired and out["pairs"] and out["pairs"].get("test"):
        out["headline"] = out["pairs"]["test"]
        pos, neg = out["pairs"]["seat0_better"], out["pairs"]["seat1_better"]
        out["detectable"] = detectable_sign(pos + neg, ctx.alpha)
    else:
        out["headline"] = strat_entry
        out["detectable"] = detectable_stratified(score, ctx.alpha)
    _detectable_sentence(out, label)
    # model-based seat effect
    if fit is not None:
        lrt_entry = ctx.tests.add(*pending, descriptive=_MODEL)
        ratings["seat_test"] = lrt_entry
        model: dict[str, Any] = {
            "seat_effects": ratings["seat_effects"],
            "test": lrt_entry,
        }
        if n == 2:
            adv = fit.first_seat_advantage(ctx.confidence)
            model["first_seat_advantage"] = adv.to_dict()
            model["first_seat_expected_score"] = (
                expected_score(adv.estimate) if adv.estimate is not None else None
            )
        out["model"] = model
    else:
        out["model"] = None
    out["by_strategy"] = _seat_by_strategy(g, ctx, label, names, fit)
    return out


_POOLED = (
    "pooled over strategies of unequal strength, this test is conservative; the headline "
    "seat test is valid"
)
_SAME = "pooled decisive wins; the headline seat test is the one corrected for"
_MODEL = "depends on the rating model; the headline seat test is the one corrected for"
_SPLIT = "one strategy's split; the headline seat test is the one corrected for"


def _detectable_sentence(out: dict, label: str) -> None:
    d = out.get("detectable")
    if not d:
        return
    if d["test"] == "sign test":
        text = (
            f"{label}: with {W.plural(d['pairs'], 'non-even pair')} the headline sign test "
            f"detects (80% power, alpha {d['alpha']:g}) seat 0 doing better in "
            f"{W.pct(d['seat0_better'])} of the non-even pairs or more (50% without a seat "
            f"effect); smaller seat effects may go undetected."
        )
    else:
        elo = f", about {W.signed(d['elo'])} Elo between equal strategies" if d["elo"] else ""
        text = (
            f"{label}: the headline seat test detects (80% power, alpha {d['alpha']:g}) seat "
            f"0 winning {W.pct(d['seat0_share'])} of the decisive games or more, "
            f"{W.pct(d['seat0_extra_share'])} above its fair share{elo}; smaller seat "
            f"effects may go undetected."
        )
    out["detectable"]["sentence"] = text


def _pairs(g: GroupTally, ctx: _Context, label: str, *, headline: bool = False) -> dict | None:
    n = g.players
    if g.mixed_games == 0:
        return None
    out: dict[str, Any] = {
        "complete": g.pairs_complete,
        "invalid": g.pairs_invalid,
        "unpaired_games": g.pairs_unpaired_games,
        "games_without_seed": g.no_seed,
        "outcomes": dict(sorted(g.pair_kinds.items())),
    }
    if g.pairs_complete == 0:
        out["note"] = "no complete seat-swapped pairs (games sharing a seed with the seats rotated)"
        ctx.notes.append(f"{label}: {out['note']}")
        return out
    if g.pairs_unpaired_games:
        ctx.notes.append(
            f"{label}: {g.pairs_unpaired_games} game(s) have no complete seat-swapped partner set"
        )
    if n == 2:
        pos, neg, zero = (g.pair_diff.get(k, 0) for k in ("pos", "neg", "zero"))
        out.update(seat0_better=pos, seat1_better=neg, even=zero)
        res = sign_test(pos, neg)
        kinds = "; ".join(f"{k} {v}" for k, v in sorted(g.pair_kinds.items()))
        text = (
            f"{label}: {'headline seat test: ' if headline else ''}in "
            f"{W.plural(g.pairs_complete, 'seat-swapped pair')} (same seed, seats "
            f"exchanged) seat 0 did better in {pos}, seat 1 in {neg}, even {zero} ({kinds})"
        )
    else:
        out["best_seat"] = list(g.pair_best_seat)
        res = chi2_gof_test(g.pair_best_seat)
        counts = ", ".join(f"{W.seat_label(s)} {c}" for s, c in enumerate(g.pair_best_seat))
        text = (
            f"{label}: in {W.plural(g.pairs_complete, 'seat-rotation set')} (same seed, every "
            f"strategy in every seat) the seat with the best total was {counts} "
            f"({g.pair_kinds.get('no single best seat', 0)} without a single best seat)"
        )
    why = None if headline else "the test stratified by lineup is the headline seat test"
    out["test"] = ctx.tests.add("seat_pairs", label, text, res, descriptive=why)
    return out


def _seat_by_strategy(g, ctx: _Context, label: str, names, fit: RatingFit | None) -> list[dict]:
    n = g.players
    rating = {}
    if fit is not None:
        rating = {nm: r for nm, r in zip(fit.names, fit.ratings, strict=True)}
    rows = []
    for nm in names:
        sp = g.self_play_seat.get(nm)
        if sp is not None:
            seats = [
                {
                    "seat": s,
                    "wins": sp.wins[s],
                    "decisive": sp.decisive,
                    "rate": ctx.ci(sp.wins[s], sp.decisive),
                }
                for s in range(n)
            ]
            res = binomial_test(sp.wins[0], sp.decisive) if n == 2 else chi2_gof_test(sp.wins)
            if n == 2:
                rates = f"seat 0 wins {W.pct_ci(seats[0]['rate'])}"
            else:
                rates = "decisive wins " + ", ".join(
                    f"{W.seat_label(s)} {W.pct_ci(seats[s]['rate'])}" for s in range(n)
                )
            text = (
                f"{label}, {nm} in self-play: {rates} of "
                f"{W.plural(sp.decisive, 'decisive game')} ({W.plural(sp.draws, 'draw')} beside)"
            )
            rows.append(
                {
                    "strategy": nm,
                    "source": "self-play",
                    "rating": rating.get(nm),
                    "games": sp.games,
                    "decisive": sp.decisive,
                    "draws": sp.draws,
                    "seats": seats,
                    "test": ctx.tests.add("seat_by_strategy", label, text, res, descriptive=_SPLIT),
                }
            )
        ms = g.mixed_seat.get(nm)
        if ms is not None and len(g.strategies) > 1:
            seats = []
            for s in range(n):
                dec = ms.wins[s] + ms.losses[s]
                seats.append(
                    {
                        "seat": s,
                        "games": ms.games[s],
                        "wins": ms.wins[s],
                        "decisive": dec,
                        "draws": ms.draws[s],
                        "rate": ctx.ci(ms.wins[s], dec),
                    }
                )
            twin = _mirror_test(g, nm, rows)
            res = seat_by_strategy_test(ms.wins, ms.losses)
            rates = ", ".join(
                f"{W.pct_ci(seats[s]['rate'])} in {W.seat_label(s)}" for s in range(n)
            )
            text = f"{label}, {nm} against other strategies: wins {rates} of its decisive games"
            rows.append(
                {
                    "strategy": nm,
                    "source": "mixed",
                    "rating": rating.get(nm),
                    "games": sum(ms.games),
                    "decisive": sum(x["decisive"] for x in seats),
                    "draws": sum(ms.draws),
                    "seats": seats,
                    "test": twin
                    if twin is not None
                    else ctx.tests.add("seat_by_strategy", label, text, res, descriptive=_SPLIT),
                }
            )
    # "seat bias by skill level": strongest first (rating, else score rate)
    score = {nm: (st.score / st.games if st.games else 0.0) for nm, st in g.strategies.items()}

    def key(row):
        r = row["rating"]
        return (0 if r is not None else 1, -(r if r is not None else score[row["strategy"]]))

    rows.sort(key=key)
    return rows


def _mirror_test(g, name: str, rows: list[dict]) -> dict | None:
    """Two seats and exactly two strategies: the second strategy's seat table is the
    first one's mirror image (its wins are the other's losses), so it reuses that test
    instead of counting the same evidence twice in the correction."""
    if g.players != 2 or len(g.mixed_seat) != 2:
        return None
    for row in rows:
        if row["source"] == "mixed" and row["strategy"] != name:
            return row["test"]
    return None


# ----------------------------------------------------------------------------- solitaire


def _solo(agg: Aggregator, g: GroupTally, ctx: _Context, label: str, names: list[str]) -> dict:
    strategies = []
    for nm in names:
        st = g.strategies[nm]
        strategies.append(
            {
                "name": nm,
                "games": st.games,
                "mean_score": _points(st.points, ctx.confidence),
                "success_rate": ctx.ci(st.solo_wins, st.games),
            }
        )
    comparisons = []
    for (a, b), counter in sorted(
        g.solo_diffs.items(), key=lambda kv: (names.index(kv[0][0]), names.index(kv[0][1]))
    ):
        res, info = wilcoxon_from_counts(counter)
        mom = moments_of_counter(counter)
        mean_iv = t_interval(mom.n, mom.mean if mom.n else None, mom.sd, ctx.confidence)
        dist = counter_summary(counter)
        text = (
            f"{label}: on {W.plural(info['n_pairs'], 'common seed')}, {a} scores "
            f"{W.num_ci(mean_iv.to_dict(), 2, sign=True)} points against {b} on average "
            f"(median difference {W.num(dist['median'])}; {a} better on {info['positive']}, "
            f"worse on {info['negative']}, equal on {info['n_pairs'] - info['n_nonzero']})"
        )
        comparisons.append(
            {
                "a": a,
                "b": b,
                "pairs": info["n_pairs"],
                "a_better": info["positive"],
                "b_better": info["negative"],
                "ties": info["n_pairs"] - info["n_nonzero"],
                "mean_difference": mean_iv.to_dict(),
                "difference": dist,
                "test": ctx.tests.add("solo_pair", label, text, res),
            }
        )
    out: dict[str, Any] = {
        "strategies": strategies,
        "comparisons": comparisons,
        "duplicates": g.solo_duplicates,
        "disk_store": bool(g.solo_spilled_seeds),
        "games_without_seed": g.no_seed,
    }
    if len(names) > 1 and not comparisons:
        out["note"] = "no seed was played by two strategies: no paired comparison"
        ctx.notes.append(f"{label}: {out['note']}")
    if g.solo_spilled_seeds:
        ctx.notes.append(
            f"{label}: more than {g.max_pending} seeds were waiting for other strategies; "
            "the solitaire pairing used a temporary disk store (results are exact)"
        )
    if g.solo_duplicates:
        ctx.notes.append(
            f"{label}: {g.solo_duplicates} repeated (seed, strategy) game(s): only the first "
            "is paired"
        )
    return out


# ----------------------------------------------------------------------------- variants


def _variant_comparison(agg: Aggregator, groups: list[dict], ctx: _Context) -> list[dict]:
    by_players: dict[int, list[dict]] = {}
    for grp in groups:
        if grp["variant"] is not None and grp["players"] > 1 and grp["seat_bias"]:
            by_players.setdefault(grp["players"], []).append(grp)
    out = []
    for players, grps in sorted(by_players.items()):
        if len(grps) < 2:
            continue
        table = [[s["decisive_wins"] for s in grp["seat_bias"]["seats"]] for grp in grps]
        res = homogeneity_test(table)
        rates = [
            (grp["seat_bias"]["seats"][0]["decisive_rate"]["estimate"], grp["variant"])
            for grp in grps
        ]
        defined = [(r, v) for r, v in rates if r is not None]
        where = f"across {len(grps)} variants ({players} players)"
        if defined:
            lo, hi = min(defined), max(defined)
            text = (
                f"{where}, seat 0's share of decisive wins ranges from {W.pct(lo[0])} "
                f"(variant '{lo[1]}') to {W.pct(hi[0])} (variant '{hi[1]}')"
            )
        else:
            text = f"{where}, no variant has decisive games"
        entry = ctx.tests.add("variant_homogeneity", where, text, res)
        out.append(
            {
                "players": players,
                "variants": [grp["variant"] for grp in grps],
                "table": table,
                "seat0_rates": [
                    {"variant": v, "rate": grp["seat_bias"]["seats"][0]["decisive_rate"]}
                    for (r, v), grp in zip(rates, grps, strict=True)
                ],
                "test": entry,
            }
        )
    return out
