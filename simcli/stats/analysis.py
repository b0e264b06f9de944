"""Turn a finished :class:`~simcli.stats.aggregate.Aggregator` into the report summary.

:func:`summarize` returns a :class:`~simcli.stats.summary.Summary` (its ``to_dict()`` is
the content of ``summary.json``): per group (variant x seats) the strategy table,
pairwise matrix, ratings, seat bias, lengths, margins, terminations and (solitaire)
paired comparisons; across groups the homogeneity test of seat bias; every p-value of
the report in one family corrected for multiple comparisons; plain-sentence findings;
and notes that explain every value that is missing. No value in the summary is NaN or
infinite.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from simcli.stats import wording as W
from simcli.stats.aggregate import Aggregator, GroupTally, StrategyTally, moments_of_counter
from simcli.stats.distribution import StreamingDistribution, counter_summary
from simcli.stats.elo import plus_minus, score_elo
from simcli.stats.intervals import CI_METHOD_NAMES, CI_METHODS, Interval, binom_ci, t_interval
from simcli.stats.power import binomial_power, games_for_power
from simcli.stats.ratings import (
    AllTied,
    RatingFit,
    elo_diff,
    expected_score,
    fit_with_seat_test,
)
from simcli.stats.seat_tests import (
    POWER,
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
from simcli.stats.summary import (
    SUMMARY_SCHEMA,
    Correction,
    DetectableSign,
    DetectableStratified,
    Dist,
    Group,
    GroupTerminations,
    HeadToHead,
    Histogram,
    NaturalLength,
    NoRatings,
    PairCell,
    Pairwise,
    Points,
    PowerCheck,
    RatingDifference,
    RatingRow,
    Ratings,
    RunSection,
    SeatAnswer,
    SeatBias,
    SeatByStrategy,
    SeatEffect,
    SeatModel,
    SeatPairs,
    SeatRow,
    Settings,
    Solo,
    SoloComparison,
    SoloStrategy,
    StrategyRow,
    StrategySeat,
    StrategyTerminations,
    Stratified,
    Summary,
    TestEntry,
    TieParameter,
    Totals,
    VariantComparison,
    VariantRate,
    sanitize,
)
from simcli.version import __version__

__all__ = ["SUMMARY_SCHEMA", "sanitize", "summarize"]


class _Tests:
    """Every hypothesis test of the report: one family for the correction."""

    def __init__(self) -> None:
        self.entries: list[TestEntry] = []

    def add(
        self,
        kind: str,
        group: str,
        text: str,
        result: TestResult,
        *,
        descriptive: str | None = None,
    ) -> TestEntry:
        """``descriptive``: why the test stays out of the correction family (its
        p-value is shown as a descriptive figure, never called significant)."""
        entry = TestEntry(
            id=f"T{len(self.entries) + 1}",
            kind=kind,
            group=group,
            test=result.test,
            statistic=result.statistic,
            p_value=result.p_value,
            n=result.n,
            df=result.df,
            note=result.note,
            in_family=descriptive is None,
            p_adjusted=None,
            significant=None,
            text=text,
            descriptive=descriptive,
        )
        self.entries.append(entry)
        return entry

    def finish(self, method: str, alpha: float) -> Correction:
        defined = [e for e in self.entries if e.p_value is not None and e.in_family]
        m = len(defined)
        adjusted = adjust_pvalues([e.p_value for e in defined], method) if m else []
        for e, q in zip(defined, adjusted, strict=True):
            e.p_adjusted = float(q)
            e.significant = bool(q <= alpha)
        for e in self.entries:
            e.sentence = _sentence(e, m, method, alpha)
        return Correction(
            method=method,
            name=CORRECTION_METHODS[method],
            tests=m,
            alpha=alpha,
            undefined_tests=sum(1 for e in self.entries if e.p_value is None),
            descriptive_tests=sum(
                1 for e in self.entries if e.p_value is not None and not e.in_family
            ),
        )


def _sentence(e: TestEntry, m: int, method: str, alpha: float) -> str:
    if e.p_value is None:
        return f"{e.text}; {e.test} not possible ({e.note or 'undefined'})."
    p = W.p_phrase(e.p_value)
    if not e.in_family:
        return f"{e.text}; {e.test}{_stat(e)} {p} (descriptive: {e.descriptive})."
    verdict = "significant" if e.significant else "not significant"
    if method == "none" or m == 1:
        tail = f"{verdict} at {alpha:g}" + (" (the only test)" if m == 1 else " (no correction)")
    else:
        name = method.upper() if method in ("bh", "by") else method.capitalize()
        tail = (
            f"{verdict} at {alpha:g} after correction for {m} tests "
            f"({name}, adjusted {W.p_phrase(e.p_adjusted)})"
        )
    return f"{e.text}; {e.test}{_stat(e)} {p}, {tail}."


def _stat(e: TestEntry) -> str:
    if e.statistic is None:
        return ""
    if e.test.startswith(("chi-square", "likelihood", "stratified")):
        name = "LR" if e.test.startswith("likelihood") else "chi-square"
        return f" ({name} = {e.statistic:.2f}, df = {W.num(e.df)})"
    return ""


def _dist(dist: StreamingDistribution) -> Dist:
    return Dist.of(dist.summary())


def _points(dist: StreamingDistribution, confidence: float) -> Points:
    s = dist.summary()
    iv = t_interval(s["n"], s["mean"], s["sd"], confidence)
    return Points(
        **s,
        low=iv.low,
        high=iv.high,
        histogram=Histogram(**dist.histogram_summary()),
        note=iv.note,
    )


def _terminations_group(g: GroupTally) -> GroupTerminations:
    forfeit = {
        key.split(":", 1)[1]: c for key, c in g.terminations.items() if key.startswith("forfeit:")
    }
    return GroupTerminations(
        normal=g.terminations.get("normal", 0),
        move_limit=g.terminations.get("move_limit", 0),
        forfeit=dict(sorted(forfeit.items())),
        error=g.errors,
    )


def _terminations_strategy(st: StrategyTally) -> StrategyTerminations:
    counter = st.terminations
    own = {key.split(":", 1)[1]: c for key, c in counter.items() if key.startswith("forfeit_own:")}
    return StrategyTerminations(
        normal=counter.get("normal", 0),
        move_limit=counter.get("move_limit", 0),
        forfeit_own=dict(sorted(own.items())),
        forfeit_opponent=counter.get("forfeit_opponent", 0),
        error=st.errors,
    )


def _forfeits_by_strategy(groups: list[Group]) -> dict[str, dict[str, int]]:
    """Forfeits of each strategy by kind over every group (strategies without a forfeit
    left out): ``{"raiser": {"exception": 12, "timeout": 1}}``."""
    out: dict[str, dict[str, int]] = {}
    for grp in groups:
        for st in grp.strategies:
            for kind, n in st.terminations.forfeit_own.items():
                kinds = out.setdefault(st.name, {})
                kinds[kind] = kinds.get(kind, 0) + n
    return {name: dict(sorted(kinds.items())) for name, kinds in out.items()}


class _Context:
    def __init__(self, ci_method: str, confidence: float, alpha: float) -> None:
        self.ci_method = ci_method
        self.confidence = confidence
        self.alpha = alpha
        self.tests = _Tests()
        self.notes: list[str] = []

    def ci(self, k: float, n: float) -> Interval:
        return binom_ci(k, n, method=self.ci_method, confidence=self.confidence)


def summarize(
    agg: Aggregator,
    *,
    ci_method: str = "wilson",
    confidence: float = 0.95,
    alpha: float = 0.05,
    correction: str = "bh",
    run_info: Mapping[str, Any] | None = None,
    source: str | None = None,
) -> Summary:
    """The complete report summary (see module doc and docs/statistics.md)."""
    if ci_method not in CI_METHODS:
        raise ValueError(f"unknown interval method {ci_method!r}")
    if correction not in CORRECTION_METHODS:
        raise ValueError(f"unknown correction {correction!r}")
    agg.finish()
    ctx = _Context(ci_method, confidence, alpha)
    multi = len({p for _, p in agg.group_order}) > 1
    groups = [_group(agg, agg.groups[key], ctx, multi) for key in agg.group_order]
    comparison = _variant_comparison(groups, ctx)
    correction_info = ctx.tests.finish(correction, alpha)
    for grp in groups:
        if grp.seat_bias:
            _power_check(grp, grp.seat_bias, alpha)
            grp.seat_bias.answer = _answer(
                grp, grp.seat_bias, correction_info, label=len(groups) > 1
            )
    # headline tests first, then what they cannot rule out, then the descriptive p-values
    findings = [e.sentence for e in ctx.tests.entries if e.in_family]
    findings += [
        grp.seat_bias.power.sentence for grp in groups if grp.seat_bias and grp.seat_bias.power
    ]
    findings += [e.sentence for e in ctx.tests.entries if not e.in_family]
    for grp in groups:
        findings.extend(grp.descriptive)
    run = _run_section(run_info, ctx)
    games_ids = sorted(str(k) for k in agg.games_seen if k is not None)
    totals = Totals(
        records=agg.records,
        games=sum(g.games for g in agg.groups.values()),
        errors=sum(g.errors for g in agg.groups.values()),
        forfeits=sum(grp.terminations.forfeits for grp in groups),
        groups=len(groups),
        strategies=len(agg.order),
    )
    if agg.records == 0:
        ctx.notes.append("the log holds no game records")
    if totals.errors:
        ctx.notes.append(
            f"{totals.errors} game(s) ended in an error (a bug in the rules module) and "
            "are excluded from every statistic; see the termination counts"
        )
    return Summary(
        summary_schema=SUMMARY_SCHEMA,
        generated_by=f"simcli {__version__}",
        source=source,
        game=games_ids[0] if len(games_ids) == 1 else (games_ids or None),
        run=run,
        settings=Settings(
            ci_method=ci_method,
            ci_method_name=CI_METHOD_NAMES[ci_method],
            confidence=confidence,
            alpha=alpha,
            correction=correction,
            correction_name=CORRECTION_METHODS[correction],
            seat_numbering="seats are numbered from 0, as in the records (seat 0 moves first)",
        ),
        totals=totals,
        forfeits=_forfeits_by_strategy(groups),
        groups=groups,
        variant_comparison=comparison,
        correction=correction_info,
        tests=ctx.tests.entries,
        findings=[str(f) for f in findings],
        notes=ctx.notes,
    )


def _run_section(run_info, ctx) -> RunSection | None:
    if not run_info:
        return None
    config = run_info.get("config") or {}
    status = run_info.get("status")
    if status is not None and status != "complete":
        ctx.notes.append(f"run status is '{status}': the results may be partial")
    keep = ("name", "game", "format", "players", "games", "seed")
    return RunSection(
        status=status,
        config={k: config.get(k) for k in keep if k in config},
        strategies=[s.get("name") for s in config.get("strategies", []) if isinstance(s, dict)],
        versions=run_info.get("versions"),
        timings=run_info.get("timings"),
    )


# ----------------------------------------------------------------------------- groups


def _label(g: GroupTally, multi_players: bool) -> str:
    base = "all games" if g.variant is None else f"variant '{g.variant}'"
    if multi_players:
        base += f" ({g.players} player{'s' if g.players != 1 else ''})"
    return base


def _group(agg: Aggregator, g: GroupTally, ctx: _Context, multi: bool) -> Group:
    label = _label(g, multi)
    names = agg.ordered_names(g.strategies.tallies)
    out = Group(
        id=f"{g.variant or 'all'}-{g.players}p",
        variant=g.variant,
        label=label,
        players=g.players,
        options=g.options or {},
        records=g.records,
        games=g.games,
        errors=g.errors,
        self_play_games=g.self_play_games,
        mixed_games=g.mixed_games,
        terminations=_terminations_group(g),
        notes=[],
    )
    notes = out.notes
    if g.options_differ:
        notes.append("records of this group have different options; grouped by variant only")
    if g.errors:
        first = g.error_messages.most_common(1)[0][0] if g.error_messages else "?"
        notes.append(f"{g.errors} game(s) ended in an error and are excluded (e.g. '{first}')")
    if g.games == 0:
        notes.append("no valid games: every statistic of this group is undefined")
    out.length = _dist(g.length)
    nat = g.natural
    if nat.unit is not None:
        out.natural_length = NaturalLength(nat.unit, nat.length.n, nat.games, _dist(nat.length))
    if g.length.n == 0 and g.games:
        notes.append("records carry no moves: game length unknown")
    if not g.length.exact:
        notes.append("game-length quartiles are estimated from a reservoir sample")
    out.strategies = [_strategy_row(g, g.strategies[nm], ctx) for nm in names]
    if g.players == 1:
        out.solo = _solo(g, ctx, label, names)
    else:
        out.margin = _dist(g.margin)
        if g.margin.n == 0 and g.games:
            notes.append("no game with points for every seat: no score margins")
        out.pairwise = _pairwise(g, ctx, names)
        fit, pending = _ratings(g, ctx, label, names, out)
        out.head_to_head = _head_to_head(out, fit, ctx)
        out.seat_bias = _seat_bias(g, ctx, label, names, fit, pending, out.rated)
        if out.seat_bias.detectable:
            out.descriptive.append(out.seat_bias.detectable.sentence)
    for note in out.notes:
        ctx.notes.append(f"{out.label}: {note}")
    return out


def _strategy_row(g: GroupTally, st: StrategyTally, ctx: _Context) -> StrategyRow:
    row = StrategyRow(name=st.name, games=st.games)
    if g.players == 1:
        row.successes = st.solo_wins
        row.success_rate = ctx.ci(st.solo_wins, st.games)
    else:
        row.wins, row.draws, row.losses, row.score = st.win_share, st.draws, st.loss_share, st.score
        row.win_rate = ctx.ci(st.win_share, st.games)
        row.score_rate = ctx.ci(st.score, st.games)
        if g.players == 2:
            row.score_elo = score_elo(st.win_share, st.draws, st.loss_share, ctx.confidence)
    row.points = _points(st.points, ctx.confidence)
    row.length = _dist(st.length)
    row.terminations = _terminations_strategy(st)
    return row


def _pairwise(g: GroupTally, ctx: _Context, names: list[str]) -> Pairwise:
    kind = "score" if g.players == 2 else "finishing order"
    present = [nm for nm in names if nm in g.pairs]
    cells = []
    for a in present:
        for b in present:
            pt = g.pairs.get(a, b)
            if a == b or pt is None or pt.games == 0:
                continue
            cells.append(
                PairCell(
                    row=a,
                    col=b,
                    games=pt.games,
                    wins=pt.wins,
                    draws=pt.draws,
                    losses=pt.losses,
                    score=pt.score,
                    rate=ctx.ci(pt.score, pt.games),
                )
            )
    out = Pairwise(kind=kind, names=present, cells=cells)
    if len(present) < 2:
        out.note = "fewer than two strategies met: no pairwise comparison"
    return out


def _ratings_of(fit: RatingFit, confidence: float) -> Ratings:
    data = fit.to_dict(confidence)
    seat_effects = data["seat_effects"]
    return Ratings(
        model=data["model"],
        scale=data["scale"],
        anchors=data["anchors"],
        ratings=[RatingRow(**r) for r in data["ratings"]],
        seat_effects=None if seat_effects is None else [SeatEffect(**s) for s in seat_effects],
        loglik=data["loglik"],
        converged=data["converged"],
        games=data["games"],
        prior_games=data["prior_games"],
        ties=[TieParameter(**t) for t in data["ties"]],
        tie_model=data["tie_model"],
        notes=data["notes"],
        differences=[
            RatingDifference(a=a, b=b, **elo_diff(fit, a, b, confidence).to_dict())
            for a in fit.names
            for b in fit.names
            if a != b
        ],
    )


def _ratings(g: GroupTally, ctx: _Context, label: str, names: list[str], out: Group):
    if g.games == 0 or not g.pairs.orders:
        out.ratings = NoRatings("no valid games: no ratings")
        return None, None
    try:
        fit, lrt = fit_with_seat_test(dict(g.pairs.orders), names=names)
    except AllTied as exc:
        out.ratings = NoRatings(str(exc))
        out.notes.append(f"ratings: {exc}")
        return None, None
    except (ValueError, np.linalg.LinAlgError, FloatingPointError) as exc:  # pragma: no cover
        out.ratings = NoRatings(f"the rating fit failed: {exc}")
        return None, None
    ratings = out.ratings = _ratings_of(fit, ctx.confidence)
    for row in ratings.ratings:
        if row.elo is not None and row.se is None:
            row.note = "no interval: observed information singular"
    for note in fit.notes:
        out.notes.append(f"ratings: {note}")
    model = _model_name(fit)
    if g.players == 2:
        adv = fit.first_seat_advantage(ctx.confidence)
        eq = expected_score(adv.estimate) if adv.estimate is not None else None
        text = (
            f"{label}: controlled for who sat where ({model} with a seat parameter), "
            f"seat 0 is worth {W.num_ci(adv, 0, sign=True)} model Elo "
            f"(between equal strategies seat 0 would win {W.pct(eq)} of the decisive games)"
        )
    else:
        parts = []
        for s in range(1, g.players):
            iv = fit.seat_interval(s, ctx.confidence)
            parts.append(f"{W.seat_label(s)} {W.num_ci(iv, 0, sign=True)}")
        text = (
            f"{label}: controlled for who sat where ({model} with seat parameters), "
            f"seat effects relative to seat 0 in model Elo: " + ", ".join(parts)
        )
    pending = ("seat_model", label, text, lrt)
    rated = sorted(((r.elo, r.name) for r in ratings.rated), reverse=True)
    if len(rated) > 1:
        (_, best), (_, second) = rated[0], rated[1]
        gap = elo_diff(fit, best, second, ctx.confidence)
        out.descriptive.append(
            f"{label}: highest rating {best}, {W.num_ci(gap, 0, sign=True)} model Elo "
            f"over the next, {second} ({model}; descriptive: the two were picked for ranking "
            f"first and second, and the interval does not allow for that selection)."
        )
    return fit, pending


def _head_to_head(grp: Group, fit: RatingFit | None, ctx: _Context) -> HeadToHead | None:
    """Two seats and exactly two strategies that met: the cutechess-style score line and
    both Elo figures, each named."""
    pw = grp.pairwise
    if grp.players != 2 or pw is None or len(pw.names) != 2:
        return None
    a, b = pw.names
    cell = pw.cell(a, b)
    if cell is None or not cell.games:
        return None
    elo = score_elo(cell.wins, cell.draws, cell.losses, ctx.confidence)
    model = _model_name(fit) if fit is not None else None
    diff = elo_diff(fit, a, b, ctx.confidence) if fit is not None else None
    if diff is not None and diff.estimate is None:
        diff = None
    rate = cell.score / cell.games
    line = (
        f"Score of {a} vs {b}: {cell.wins} - {cell.losses} - {cell.draws} [{rate:.3f}] {cell.games}"
    )
    sentence = (
        f"{grp.label}: {a} against {b}, score Elo {plus_minus(elo)} "
        f"(from the score, draws half, as cutechess, fastchess and simcli gate)"
    )
    if diff is not None:
        sentence += f"; model Elo {W.num_ci(diff, 0, sign=True)} ({model}, decisive games only)"
    return HeadToHead(
        a=a,
        b=b,
        games=cell.games,
        wins=cell.wins,
        losses=cell.losses,
        draws=cell.draws,
        score=rate,
        score_elo=elo,
        model_elo=diff,
        model=model if diff is not None else None,
        line=line,
        sentence=sentence + ".",
    )


def _model_name(fit: RatingFit) -> str:
    """Ties modelled with Davidson's parameters get his name added."""
    base = "Bradley-Terry" if fit.seats == 2 else "Plackett-Luce"
    return f"{base}-Davidson" if fit.ties else base


# ----------------------------------------------------------------------------- seat bias

_POOLED = (
    "pooled over strategies of unequal strength, this test is conservative; the headline "
    "seat test is valid"
)
_MODEL = "depends on the rating model; the headline seat test is the one corrected for"
_SPLIT = "one strategy's split; the headline seat test is the one corrected for"


def _seat_bias(
    g: GroupTally,
    ctx: _Context,
    label: str,
    names: list[str],
    fit: RatingFit | None,
    pending,
    ratings: Ratings | None,
) -> SeatBias:
    n = g.players
    st = g.seats.overall
    out = SeatBias(
        seats=[
            SeatRow(
                seat=s,
                label=W.seat_label(s),
                games=st.games,
                win_share=st.win_share[s],
                win_rate=ctx.ci(st.win_share[s], st.games),
                decisive_wins=st.wins[s],
                decisive_rate=ctx.ci(st.wins[s], st.decisive),
                points=_points(g.seats.points[s], ctx.confidence),
            )
            for s in range(n)
        ],
        games=st.games,
        decisive=st.decisive,
        draws=st.draws,
        shared_first=st.shared,
    )
    pooled = _pooled_seat_test(g, ctx, label, out)
    # the headline test: seat-swapped pairs where every mixed game is paired, else the
    # test stratified by lineup; every other seat test is a descriptive figure
    sw = g.swaps
    paired = (
        n == 2
        and sw.complete > 0
        and sw.unpaired_games == 0
        and g.self_play_games == 0
        and sw.no_seed == 0
    )
    strat_res, score = stratified_seat_test(dict(g.pairs.orders), n)
    excess = ", ".join(
        f"{W.seat_label(s)} {score.observed[s] - score.expected[s]:+.1f}" for s in range(n)
    )
    strat_text = (
        f"{label}: {'' if paired else 'headline seat test: '}decisive wins compared within "
        f"lineups ({W.plural(score.strata, 'lineup')}), observed minus expected without a "
        f"seat effect: {excess}"
    )
    # the stratified test is numbered before the pooled one (test ids are stable)
    strat_entry = ctx.tests.add(
        "seat_stratified",
        label,
        strat_text,
        strat_res,
        descriptive="the seat-swapped pairs give the headline test" if paired else None,
    )
    out.stratified = Stratified(
        observed=score.observed.tolist(),
        expected=score.expected.tolist(),
        lineups=score.strata,
        test=strat_entry,
    )
    if len(g.strategies) > 1:  # with one strategy it is the stratified test again
        out.test = ctx.tests.add(*pooled, descriptive=_POOLED)
    out.pairs = _pairs(g, ctx, label, headline=paired)
    if paired and out.pairs and out.pairs.test:
        out.headline = out.pairs.test
        d = detectable_sign(out.pairs.seat0_better + out.pairs.seat1_better, ctx.alpha)
        out.detectable = DetectableSign(**d) if d else None
    else:
        out.headline = strat_entry
        d = detectable_stratified(score, ctx.alpha)
        out.detectable = DetectableStratified(**d) if d else None
    if out.detectable:
        out.detectable.sentence = _detectable_sentence(out.detectable, label)
    if fit is not None and ratings is not None:
        out.model = _seat_model(fit, ctx, pending, ratings, n)
    out.by_strategy = _seat_by_strategy(g, ctx, label, names, fit)
    return out


def _pooled_seat_test(g: GroupTally, ctx: _Context, label: str, out: SeatBias) -> tuple:
    """The pooled seat test's arguments (it is added to the family after the
    stratified test)."""
    n = g.players
    st = g.seats.overall
    beside = f"{W.plural(st.draws, 'draw')} and {W.plural(st.shared, 'shared first place')} beside"
    if n == 2:
        res = binomial_test(st.wins[0], st.decisive)
        text = (
            f"{label}: seat 0 wins {W.pct_ci(out.seats[0].decisive_rate)} of "
            f"{W.plural(st.decisive, 'decisive game')} ({beside})"
        )
    else:
        res = chi2_gof_test(st.wins)
        shares = ", ".join(
            f"{W.seat_label(s)} {W.pct(out.seats[s].decisive_rate.estimate)}" for s in range(n)
        )
        text = (
            f"{label}: decisive wins {shares} of {W.plural(st.decisive, 'decisive game')} "
            f"(uniform: {W.pct(1 / n)} each; {beside})"
        )
    if st.decisive == 0:
        ctx.notes.append(f"{label}: no decisive games: the seat test is not possible")
    return ("seat", label, text, res)


def _seat_model(fit: RatingFit, ctx: _Context, pending, ratings: Ratings, n: int) -> SeatModel:
    lrt_entry = ctx.tests.add(*pending, descriptive=_MODEL)
    ratings.seat_test = lrt_entry
    model = SeatModel(seat_effects=ratings.seat_effects, test=lrt_entry)
    if n == 2:
        adv = fit.first_seat_advantage(ctx.confidence)
        model.first_seat_advantage = adv
        model.first_seat_expected_score = (
            expected_score(adv.estimate) if adv.estimate is not None else None
        )
    return model


def _detectable_sentence(d: DetectableSign | DetectableStratified, label: str) -> str:
    if isinstance(d, DetectableSign):
        return (
            f"{label}: with {W.plural(d.pairs, 'non-even pair')} the headline sign test "
            f"detects (80% power, alpha {d.alpha:g}) seat 0 doing better in "
            f"{W.pct(d.seat0_better)} of the non-even pairs or more (50% without a seat "
            f"effect); smaller seat effects may go undetected."
        )
    elo = f", about {W.signed(d.elo)} Elo between equal strategies" if d.elo else ""
    return (
        f"{label}: the headline seat test detects (80% power, alpha {d.alpha:g}) seat "
        f"0 winning {W.pct(d.seat0_share)} of the decisive games or more, "
        f"{W.pct(d.seat0_extra_share)} above its fair share{elo}; smaller seat "
        f"effects may go undetected."
    )


#: The seat effect a balance verdict should be able to rule out: seat 0 winning this
#: much more than its fair share of the decisive games (36% against 33% with three seats).
BALANCE_EFFECT = 0.03


def _power_check(grp: Group, sb: SeatBias, alpha: float) -> None:
    """When the headline seat test is not significant, say whether the games could have
    found a seat effect of :data:`BALANCE_EFFECT` (exact binomial test of seat 0's share
    of the decisive games, :func:`simcli.stats.power.binomial_power`)."""
    head = sb.headline
    if head is None or head.significant is not False or sb.decisive == 0:
        return
    fair = 1.0 / grp.players
    share = fair + BALANCE_EFFECT
    power = binomial_power(sb.decisive, share, fair, alpha)
    if power >= POWER:
        return
    needed = games_for_power(share, fair, alpha, POWER)
    check = PowerCheck(BALANCE_EFFECT, fair, share, sb.decisive, power, needed)
    check.sentence = (
        f"{grp.label}: no significant seat effect, but {W.plural(sb.decisive, 'decisive game')} "
        f"are too few to rule one out: seat 0 winning {W.pct(share)} of the decisive games "
        f"instead of {W.pct(fair)} would be found only {W.pct(power, 0)} of the time; "
        f"80% needs about {needed} decisive games."
    )
    sb.power = check


def _answer(grp: Group, sb: SeatBias, corr: Correction, *, label: bool) -> SeatAnswer | None:
    """The report's opening for a group: which player the seats favour and by how much
    (the pooled share of the decisive games), one effect size (the rating model's, between
    equal strategies with who played whom controlled) and what the headline test says."""
    if not sb.decisive:
        return None
    n = grp.players
    seats = sb.seats
    best = max(range(n), key=lambda s: (seats[s].decisive_rate.estimate or 0.0, -s))
    fair = 1.0 / n
    head = f"{grp.label[0].upper()}{grp.label[1:]}: " if label else ""

    def who(s: int) -> str:
        return f"the {W.player_label(s)} ({W.seat_label(s)})"

    beside = f"{W.plural(sb.draws, 'draw')} and {W.plural(sb.shared_first, 'shared first place')}"
    if n == 2:
        sentence = (
            f"{head}{who(best)} wins {W.pct_ci(seats[best].decisive_rate)} of the decisive "
            f"games ({seats[best].decisive_wins} of {sb.decisive}; {beside} beside)."
        )
    else:
        others = [s for s in range(n) if s != best]
        rest = ", ".join(f"{who(s)} {W.pct_ci(seats[s].decisive_rate)}" for s in others)
        sentence = (
            f"{head}{who(best)} wins {W.pct_ci(seats[best].decisive_rate)} of the decisive "
            f"games, {rest} (an even share: {W.pct(fair)}; {sb.decisive} decisive games, "
            f"{beside} beside)."
        )
    out = SeatAnswer(
        seat=best,
        player=W.player_label(best),
        share=seats[best].decisive_rate,
        fair=fair,
        decisive=sb.decisive,
        draws=sb.draws,
        sentence=sentence[0].upper() + sentence[1:],
    )
    model = sb.model
    rated = grp.rated
    name = _ratings_label(rated) if rated else "the rating model"
    adv = model.first_seat_advantage if model else None
    if n == 2 and adv is not None and adv.estimate is not None:
        sign = 1 if best == 0 else -1
        bounds = (
            (adv.low, adv.high)
            if sign > 0
            else (
                None if adv.high is None else -adv.high,
                None if adv.low is None else -adv.low,
            )
        )
        elo = Interval(sign * adv.estimate, *bounds, adv.n, adv.method, adv.confidence, adv.note)
        share = Interval(
            expected_score(elo.estimate),
            None if elo.low is None else expected_score(elo.low),
            None if elo.high is None else expected_score(elo.high),
            adv.n,
            "rating model",
            adv.confidence,
            elo.note or (None if elo.low is not None else "no interval of the seat effect"),
        )
        out.effect, out.effect_elo = share, elo
        out.effect_sentence = (
            f"Effect size: between equal strategies the {W.player_label(best)} would win "
            f"{W.pct_ci(share)} of the decisive games, a seat worth "
            f"{W.num_ci(elo, 0, sign=True)} model Elo ({name} with a seat parameter: who "
            f"played whom is controlled)."
        )
    elif n > 2 and model and model.seat_effects and model.seat_effects[1].elo is not None:
        parts = [
            f"the {W.player_label(e.seat)} "
            f"{W.num_ci(Interval(e.elo, e.low, e.high, 0, 'wald'), 0, sign=True)}"
            for e in model.seat_effects[1:]
        ]
        out.effect_sentence = (
            f"Effect size: controlled for who played whom ({name} with seat parameters), in "
            f"model Elo against the first player: " + ", ".join(parts) + "."
        )
    else:
        extra = (seats[best].decisive_rate.estimate or 0.0) - fair
        out.effect_sentence = (
            f"Effect size: {100 * extra:.1f} percentage points above an even share of "
            f"{W.pct(fair)} (no rating model to control for who played whom)."
        )
    out.evidence = _evidence(sb, corr)
    return out


def _evidence(sb: SeatBias, corr: Correction) -> str | None:
    """The headline seat test in one sentence."""
    head = sb.headline
    if head is None:
        return None
    if head.p_value is None:
        return f"No headline seat test was possible ({head.note or 'undefined'})."
    verdict = "significant" if head.significant else "not significant"
    adjusted = ""
    if corr.tests > 1 and corr.method != "none" and head.p_adjusted is not None:
        adjusted = f" (adjusted for {corr.tests} tests: {W.p_phrase(head.p_adjusted)})"
    test = f"the {head.test}"
    if sb.pairs is not None and head is sb.pairs.test:
        test = (
            f"a {head.test} on {sb.pairs.complete} seat-swapped pairs (same board, seats exchanged)"
        )
    text = (
        f"The headline seat test, {test}, gives {W.p_phrase(head.p_value)}{adjusted}: "
        f"{verdict} at {corr.alpha:g}"
    )
    if sb.power:
        text += (
            f"; {sb.decisive} decisive games are too few to rule out a seat effect of "
            f"{100 * sb.power.effect:.0f} points (see Findings)"
        )
    return text + "."


def _ratings_label(rt: Ratings) -> str:
    base = "Bradley-Terry" if rt.model == "bradley-terry" else "Plackett-Luce"
    return f"{base}-Davidson" if rt.ties else base


def _pairs(g: GroupTally, ctx: _Context, label: str, *, headline: bool = False) -> SeatPairs | None:
    n = g.players
    sw = g.swaps
    if g.mixed_games == 0:
        return None
    out = SeatPairs(
        complete=sw.complete,
        invalid=sw.invalid,
        unpaired_games=sw.unpaired_games,
        games_without_seed=sw.no_seed,
        outcomes=dict(sorted(sw.kinds.items())),
    )
    if sw.complete == 0:
        out.note = "no complete seat-swapped pairs (games sharing a seed with the seats rotated)"
        ctx.notes.append(f"{label}: {out.note}")
        return out
    if sw.unpaired_games:
        ctx.notes.append(
            f"{label}: {sw.unpaired_games} game(s) have no complete seat-swapped partner set"
        )
    if n == 2:
        pos, neg, zero = (sw.diff.get(k, 0) for k in ("pos", "neg", "zero"))
        out.seat0_better, out.seat1_better, out.even = pos, neg, zero
        res = sign_test(pos, neg)
        kinds = "; ".join(f"{k} {v}" for k, v in sorted(sw.kinds.items()))
        text = (
            f"{label}: {'headline seat test: ' if headline else ''}in "
            f"{W.plural(sw.complete, 'seat-swapped pair')} (same seed, seats "
            f"exchanged) seat 0 did better in {pos}, seat 1 in {neg}, even {zero} ({kinds})"
        )
    else:
        out.best_seat = list(sw.best_seat)
        res = chi2_gof_test(sw.best_seat)
        counts = ", ".join(f"{W.seat_label(s)} {c}" for s, c in enumerate(sw.best_seat))
        text = (
            f"{label}: in {W.plural(sw.complete, 'seat-rotation set')} (same seed, every "
            f"strategy in every seat) the seat with the best total was {counts} "
            f"({sw.kinds.get('no single best seat', 0)} without a single best seat)"
        )
    why = None if headline else "the test stratified by lineup is the headline seat test"
    out.test = ctx.tests.add("seat_pairs", label, text, res, descriptive=why)
    return out


def _self_play_row(
    g: GroupTally, ctx: _Context, label: str, nm: str, rating: float | None
) -> SeatByStrategy:
    n = g.players
    sp = g.seats.self_play[nm]
    seats = [
        StrategySeat(
            seat=s, wins=sp.wins[s], decisive=sp.decisive, rate=ctx.ci(sp.wins[s], sp.decisive)
        )
        for s in range(n)
    ]
    res = binomial_test(sp.wins[0], sp.decisive) if n == 2 else chi2_gof_test(sp.wins)
    if n == 2:
        rates = f"seat 0 wins {W.pct_ci(seats[0].rate)}"
    else:
        rates = "decisive wins " + ", ".join(
            f"{W.seat_label(s)} {W.pct_ci(seats[s].rate)}" for s in range(n)
        )
    text = (
        f"{label}, {nm} in self-play: {rates} of "
        f"{W.plural(sp.decisive, 'decisive game')} ({W.plural(sp.draws, 'draw')} beside)"
    )
    return SeatByStrategy(
        strategy=nm,
        source="self-play",
        rating=rating,
        games=sp.games,
        decisive=sp.decisive,
        draws=sp.draws,
        seats=seats,
        test=ctx.tests.add("seat_by_strategy", label, text, res, descriptive=_SPLIT),
    )


def _mixed_row(
    g: GroupTally,
    ctx: _Context,
    label: str,
    nm: str,
    rating: float | None,
    rows: list[SeatByStrategy],
) -> SeatByStrategy:
    n = g.players
    ms = g.seats.mixed[nm]
    seats = [
        StrategySeat(
            seat=s,
            games=ms.games[s],
            wins=ms.wins[s],
            decisive=ms.wins[s] + ms.losses[s],
            draws=ms.draws[s],
            rate=ctx.ci(ms.wins[s], ms.wins[s] + ms.losses[s]),
        )
        for s in range(n)
    ]
    test = _mirror_test(g, nm, rows)
    if test is None:
        res = seat_by_strategy_test(ms.wins, ms.losses)
        rates = ", ".join(f"{W.pct_ci(seats[s].rate)} in {W.seat_label(s)}" for s in range(n))
        text = f"{label}, {nm} against other strategies: wins {rates} of its decisive games"
        test = ctx.tests.add("seat_by_strategy", label, text, res, descriptive=_SPLIT)
    return SeatByStrategy(
        strategy=nm,
        source="mixed",
        rating=rating,
        games=sum(ms.games),
        decisive=sum(x.decisive for x in seats),
        draws=sum(ms.draws),
        seats=seats,
        test=test,
    )


def _seat_by_strategy(
    g: GroupTally, ctx: _Context, label: str, names: list[str], fit: RatingFit | None
) -> list[SeatByStrategy]:
    rating: dict[str, float | None] = {}
    if fit is not None:
        rating = dict(zip(fit.names, fit.ratings, strict=True))
    rows: list[SeatByStrategy] = []
    for nm in names:
        if nm in g.seats.self_play and len(g.strategies) > 1:  # else: the seat test again
            rows.append(_self_play_row(g, ctx, label, nm, rating.get(nm)))
        if nm in g.seats.mixed and len(g.strategies) > 1:
            rows.append(_mixed_row(g, ctx, label, nm, rating.get(nm), rows))
    # "seat bias by skill level": strongest first (rating, else score rate)
    tallies = g.strategies.tallies
    score = {nm: (st.score / st.games if st.games else 0.0) for nm, st in tallies.items()}

    def key(row: SeatByStrategy):
        r = row.rating
        return (0 if r is not None else 1, -(r if r is not None else score[row.strategy]))

    rows.sort(key=key)
    return rows


def _mirror_test(g: GroupTally, name: str, rows: list[SeatByStrategy]) -> TestEntry | None:
    """Two seats and exactly two strategies: the second strategy's seat table is the
    first one's mirror image (its wins are the other's losses), so it reuses that test
    instead of counting the same evidence twice in the correction."""
    if g.players != 2 or len(g.seats.mixed) != 2:
        return None
    for row in rows:
        if row.source == "mixed" and row.strategy != name:
            return row.test
    return None


# ----------------------------------------------------------------------------- solitaire


def _solo(g: GroupTally, ctx: _Context, label: str, names: list[str]) -> Solo:
    strategies = [
        SoloStrategy(
            name=nm,
            games=g.strategies[nm].games,
            mean_score=_points(g.strategies[nm].points, ctx.confidence),
            success_rate=ctx.ci(g.strategies[nm].solo_wins, g.strategies[nm].games),
        )
        for nm in names
    ]
    so = g.solo
    comparisons = [
        _solo_comparison(ctx, label, a, b, counter)
        for (a, b), counter in sorted(
            so.diffs.items(), key=lambda kv: (names.index(kv[0][0]), names.index(kv[0][1]))
        )
    ]
    out = Solo(
        strategies=strategies,
        comparisons=comparisons,
        duplicates=so.duplicates,
        disk_store=bool(so.spilled_seeds),
        games_without_seed=g.no_seed,
    )
    if len(names) > 1 and not comparisons:
        out.note = "no seed was played by two strategies: no paired comparison"
        ctx.notes.append(f"{label}: {out.note}")
    if so.spilled_seeds:
        ctx.notes.append(
            f"{label}: more than {g.max_pending} seeds were waiting for other strategies; "
            "the solitaire pairing used a temporary disk store (results are exact)"
        )
    if so.duplicates:
        ctx.notes.append(
            f"{label}: {so.duplicates} repeated (seed, strategy) game(s): only the first is paired"
        )
    return out


def _solo_comparison(ctx: _Context, label: str, a: str, b: str, counter) -> SoloComparison:
    res, info = wilcoxon_from_counts(counter)
    mom = moments_of_counter(counter)
    mean_iv = t_interval(mom.n, mom.mean if mom.n else None, mom.sd, ctx.confidence)
    dist = counter_summary(counter)
    ties = info["n_pairs"] - info["n_nonzero"]
    text = (
        f"{label}: on {W.plural(info['n_pairs'], 'common seed')}, {a} scores "
        f"{W.num_ci(mean_iv, 2, sign=True)} points against {b} on average "
        f"(median difference {W.num(dist['median'])}; {a} better on {info['positive']}, "
        f"worse on {info['negative']}, equal on {ties})"
    )
    return SoloComparison(
        a=a,
        b=b,
        pairs=info["n_pairs"],
        a_better=info["positive"],
        b_better=info["negative"],
        ties=ties,
        mean_difference=mean_iv,
        difference=Dist.of(dist),
        test=ctx.tests.add("solo_pair", label, text, res),
    )


# ----------------------------------------------------------------------------- variants


def _variant_comparison(groups: list[Group], ctx: _Context) -> list[VariantComparison]:
    by_players: dict[int, list[Group]] = {}
    for grp in groups:
        if grp.variant is not None and grp.players > 1 and grp.seat_bias:
            by_players.setdefault(grp.players, []).append(grp)
    out = []
    for players, grps in sorted(by_players.items()):
        if len(grps) < 2:
            continue
        table = [[s.decisive_wins for s in grp.seat_bias.seats] for grp in grps]  # type: ignore[union-attr]
        res = homogeneity_test(table)
        rates = [
            (grp.seat_bias.seats[0].decisive_rate.estimate, grp.variant)  # type: ignore[union-attr]
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
            VariantComparison(
                players=players,
                variants=[str(grp.variant) for grp in grps],
                table=table,
                seat0_rates=[
                    VariantRate(str(grp.variant), grp.seat_bias.seats[0].decisive_rate)  # type: ignore[union-attr]
                    for grp in grps
                ],
                test=entry,
            )
        )
    return out
