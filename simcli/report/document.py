"""The report as a list of blocks (headings, paragraphs, lists, tables, images), built
from the typed summary (:mod:`simcli.stats.summary`); :mod:`simcli.report.render` turns
the blocks into text or markdown. Keeping one document model means the text printed after a run and
``report.md`` always say the same thing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simcli.stats import wording as W
from simcli.stats.elo import plus_minus
from simcli.stats.summary import (
    Dist,
    Group,
    NoRatings,
    Pairwise,
    Points,
    Ratings,
    SeatBias,
    SoloComparison,
    Summary,
    TestEntry,
    ThinkTime,
    VariantComparison,
)


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str


@dataclass
class Bullets:
    items: list[str]


@dataclass
class Lines:
    """Lines printed as they are (not wrapped), such as the score line."""

    lines: list[str]


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    align: str = ""  # one char per column: l or r (default: first l, rest r)
    caption: str | None = None


@dataclass
class Image:
    title: str
    file: str


@dataclass
class Document:
    blocks: list[Any] = field(default_factory=list)

    def add(self, block) -> None:
        self.blocks.append(block)


def _points_ci(p: Points | None) -> str:
    if p is None or p.mean is None:
        return W.NA
    if p.low is None:
        return f"{p.mean:.2f}"
    return f"{p.mean:.2f} [{p.low:.2f}, {p.high:.2f}]"


def _quartiles(q1: float | None, q3: float | None) -> str:
    """``[-3, 0]``: a joined ``-3-0`` would read as a range of negative numbers."""
    if not (W.defined(q1) and W.defined(q3)):
        return W.NA
    return f"[{W.num(q1, 1)}, {W.num(q3, 1)}]"


def _dist_row(name: str, d: Dist | None) -> list[str]:
    if d is None or not d.n:
        return [name, "0", W.NA, W.NA, W.NA, W.NA, W.NA, W.NA]
    approx = "" if d.exact else " ~"
    return [
        name,
        str(d.n),
        W.num(d.median, 1) + approx,
        _quartiles(d.q1, d.q3),
        W.num(d.mean, 2),
        W.num(d.sd, 2),
        W.num(d.min, 1),
        W.num(d.max, 1),
    ]


DIST_HEADERS = ["", "n", "median", "quartiles", "mean", "sd", "min", "max"]


def build_document(summary: Summary, *, detail: bool = True) -> Document:
    """The report. ``detail=False`` (the text printed after a run) leaves out the
    per-strategy termination and length tables and the list of all tests."""
    doc = Document()
    s = summary
    title = "simcli report"
    if s.game:
        title += f": {s.game if isinstance(s.game, str) else ', '.join(s.game)}"
    if s.run_name:
        title += f" (run '{s.run_name}')"
    doc.add(Heading(1, title))
    _opening(doc, s)
    if s.findings:
        doc.add(Heading(2, "Findings"))
        doc.add(Bullets(list(s.findings)))
    doc.add(Heading(2, "Method"))
    doc.add(Para(_intro(s)))
    for grp in s.groups:
        _group(doc, grp, detail)
    balanced = [grp for grp in s.groups if grp.seat_bias]
    if len(balanced) > 1:
        _balance(doc, balanced)
    if s.variant_comparison:
        _variants(doc, s.variant_comparison)
    if s.plots:
        doc.add(Heading(2, "Plots"))
        for plot in s.plots:
            doc.add(Image(plot.title, plot.file))
    if s.think_time:
        _think_time(doc, s.think_time)
    if detail and s.tests:
        _all_tests(doc, s.tests)
    if s.notes:
        doc.add(Heading(2, "Notes"))
        doc.add(Bullets(list(s.notes)))
    return doc


def _opening(doc: Document, s: Summary) -> None:
    """The answer first, in plain words: per group the head-to-head score (two
    strategies), which player the seats favour and by how much, one effect size and what
    the headline test says; the method follows the findings."""
    blocks: list[Any] = []
    multi = len(s.groups) > 1
    for grp in s.groups:
        h2h = grp.head_to_head
        if h2h:
            lines = [h2h.line]
            lines.append(
                f"score Elo difference: {plus_minus(h2h.score_elo)} (95%; from the score, "
                "draws half, as cutechess, fastchess and simcli gate)"
            )
            if h2h.model_elo is not None:
                lines.append(
                    f"model Elo difference: {W.num_ci(h2h.model_elo, 0, sign=True)} "
                    f"({h2h.model}; decisive games only, seats controlled)"
                )
            if multi:
                blocks.append(Para(f"{grp.label[0].upper()}{grp.label[1:]}:"))
            blocks.append(Lines(lines))
        answer = grp.seat_bias.answer if grp.seat_bias else None
        if answer and multi:  # one bullet per group
            parts = (answer.sentence, answer.effect_sentence, answer.evidence)
            blocks.append(Bullets([" ".join(t for t in parts if t)]))
        elif answer:
            text = " ".join(t for t in (answer.sentence, answer.effect_sentence) if t)
            blocks.append(Para(text))
            if answer.evidence:
                blocks.append(Para(answer.evidence))
    if blocks:
        doc.add(Heading(2, "Answer"))
        for block in blocks:
            doc.add(block)


def _intro(s: Summary) -> str:
    t, settings, corr = s.totals, s.settings, s.correction
    excluded = f"; {t.errors} error game(s) excluded" if t.errors else ""
    intro = (
        f"{t.games} games in {t.groups} group(s), {t.strategies} strategies"
        f"{excluded}. Intervals: {round(settings.confidence * 100)}% "
        f"{settings.ci_method_name} "
        f"for rates, t intervals for means, Wald (observed information) for ratings. "
    )
    if corr.tests == 1:
        intro += (
            "The report has one headline p-value (headline tests: one seat test per "
            "group, the variant comparisons and the solitaire comparisons); "
            f"'significant' means p <= {corr.alpha:g}."
        )
    elif corr.tests:
        intro += (
            f"The {corr.tests} p-values of the headline tests (one seat test per "
            f"group, the variant comparisons and the solitaire comparisons) form one "
            f"family, adjusted with {corr.name}; 'significant' means adjusted p <= "
            f"{corr.alpha:g}."
        )
    if corr.descriptive_tests:
        intro += (
            f" {corr.descriptive_tests} further p-values (pooled, model-based and "
            "per-strategy seat tests of the same question) are descriptive figures, "
            "not corrected and never called significant."
        )
    if s.run and s.run.status:
        intro += f" Run status: {s.run.status}."
    if s.source:
        intro += f" Source: {s.source}."
    return intro


def _balance(doc: Document, groups: list[Group]) -> None:
    """Win share and mean points per variant and seat, side by side."""
    doc.add(Heading(2, "Balance by variant and seat"))
    rows = []
    for grp in groups:
        for seat in grp.seat_bias.seats if grp.seat_bias else []:
            rows.append(
                [
                    grp.variant or grp.label,
                    str(seat.seat),
                    str(seat.games),
                    W.pct_ci(seat.win_rate),
                    W.pct_ci(seat.decisive_rate),
                    _points_ci(seat.points),
                ]
            )
    headers = ["variant", "seat", "games", "win share", "share of decisive games"]
    doc.add(Table(headers + ["mean points"], rows, align="lrrrrr"))


def _variants(doc: Document, comparisons: list[VariantComparison]) -> None:
    doc.add(Heading(2, "Seat bias across variants"))
    for comp in comparisons:
        rows = []
        for v, counts in zip(comp.variants, comp.table, strict=True):
            total = sum(counts)
            rows.append(
                [str(v), str(total)]
                + [f"{c} ({W.pct(c / total) if total else W.NA})" for c in counts]
            )
        headers = ["variant", "decisive"] + [f"{W.seat_label(i)} wins" for i in range(comp.players)]
        doc.add(Table(headers, rows, caption=f"{comp.players} players"))
        doc.add(Para(comp.test.sentence or ""))


def _all_tests(doc: Document, tests: list[TestEntry]) -> None:
    doc.add(Heading(2, "All tests"))
    rows = []
    for e in tests:
        sig = (
            "descriptive"
            if not e.in_family
            else W.NA
            if e.significant is None
            else ("yes" if e.significant else "no")
        )
        rows.append(
            [
                e.id,
                e.group,
                e.kind,
                e.test,
                W.num(e.statistic, 3),
                W.pvalue(e.p_value),
                W.pvalue(e.p_adjusted),
                sig,
            ]
        )
    headers = ["id", "group", "kind", "test", "statistic", "p", "adjusted p", "significant"]
    doc.add(Table(headers, rows, align="lllllrrl"))


def _group(doc: Document, grp: Group, detail: bool) -> None:
    players = grp.players
    doc.add(Heading(2, f"{grp.label[0].upper()}{grp.label[1:]}"))
    term = grp.terminations
    forfeits = term.forfeits
    line = (
        f"{grp.games} games, {players} player{'s' if players != 1 else ''}"
        f"{'; options ' + _options(grp.options) if grp.options else ''}. "
        f"Terminations: {term.normal} normal, {term.move_limit} move limit, "
        f"{forfeits} forfeit"
    )
    if forfeits:
        line += " (" + ", ".join(f"{k} {v}" for k, v in term.forfeit.items()) + ")"
    line += f", {term.error} error (excluded)."
    doc.add(Para(line))
    if forfeits:
        doc.add(Para(_forfeits_line(grp)))
    if players == 1:
        _solo(doc, grp)
    else:
        _multi(doc, grp, detail)
    if grp.notes:
        doc.add(Bullets([f"Note: {n}" for n in grp.notes]))


def _confidence(grp: Group) -> float:
    for st in grp.strategies:
        rate = st.win_rate or st.success_rate
        if rate and rate.confidence:
            return float(rate.confidence)
    return 0.95


def _options(options: dict) -> str:
    """Scalar options as ``k=v``; structured values (component data) abbreviated; unset
    ones (``None``: the game's built-in data or behaviour) left out."""
    parts = []
    for k, v in options.items():
        if v is None:
            continue
        if isinstance(v, (dict, list)):
            parts.append(f"{k}=(...)")
        else:
            text = str(v)
            parts.append(f"{k}={text if len(text) <= 40 else text[:37] + '...'}")
    return ", ".join(parts)


def _multi(doc: Document, grp: Group, detail: bool) -> None:
    _strategies(doc, grp)
    _pairwise(doc, grp.pairwise)
    _ratings(doc, grp)
    if grp.seat_bias:
        _seat_bias(doc, grp.seat_bias, detail)
        _seat_by_strategy(doc, grp.seat_bias, grp.players)
    _distributions(doc, grp, detail)
    if detail:
        _terminations(doc, grp)


def _strategies(doc: Document, grp: Group) -> None:
    rt = grp.rated
    elo = rt is not None and len(rt.rated) > 1
    score_elo = len(grp.strategies) > 1 and any(st.score_elo for st in grp.strategies)
    rows = []
    for st in grp.strategies:
        r = rt.row(st.name) if rt else None
        rows.append(
            [
                st.name,
                str(st.games),
                W.num(st.wins, 2),
                str(st.draws),
                W.num(st.losses, 2),
                W.pct_ci(st.win_rate),
                W.pct_ci(st.score_rate),
                _points_ci(st.points),
            ]
            + ([plus_minus(st.score_elo, 0)] if score_elo else [])
            + ([W.signed(r.elo) if r and r.elo is not None else W.NA] if elo else [])
        )
    doc.add(Heading(3, "Strategies"))
    headers = ["strategy", "games", "wins", "draws", "losses", "win rate", "score rate"]
    headers += ["mean points"] + (["score Elo"] if score_elo else [])
    doc.add(Table(headers + (["model Elo"] if elo else []), rows))
    if score_elo or elo:
        doc.add(Para(_elo_names(grp, score_elo, elo)))


def _elo_names(grp: Group, score_elo: bool, model_elo: bool) -> str:
    """What the Elo columns are: two scales, each named."""
    parts = []
    if score_elo:
        parts.append(
            "score Elo = -400 log10(1/s - 1) of the score rate s against the strategy's "
            "opponents (draws count half), +/- the 95% margin, as cutechess, fastchess and "
            "simcli gate compute it"
        )
    if model_elo:
        rt = grp.rated
        model = _model_label(rt) if rt else "rating model"
        parts.append(
            f"model Elo = the {model} rating (anchor {', '.join(rt.anchors) if rt else '-'} "
            "= 0), fitted on who finished ahead with seats controlled; it counts decisive "
            "games only, so with draws its gaps are wider than score Elo's"
        )
    return "; ".join(parts)[0].upper() + "; ".join(parts)[1:] + "."


def _model_label(rt: Ratings) -> str:
    model = "Bradley-Terry" if rt.model == "bradley-terry" else "Plackett-Luce"
    return model + "-Davidson" if rt.ties else model


def _pairwise(doc: Document, pw: Pairwise | None) -> None:
    if not pw or len(pw.names) < 2:
        return
    kind = "score rate" if pw.kind == "score" else "finishing ahead (ties count half)"
    doc.add(Heading(3, f"Pairwise: row against column ({kind})"))
    rows = []
    for a in pw.names:
        row = [a]
        for b in pw.names:
            c = pw.cell(a, b)
            row.append("-" if a == b or c is None else f"{W.pct_ci(c.rate, 0)} n={c.games}")
        rows.append(row)
    doc.add(Table([""] + pw.names, rows))


def _ratings(doc: Document, grp: Group) -> None:
    if isinstance(grp.ratings, NoRatings):
        doc.add(Para(f"Ratings: {grp.ratings.note}."))
        return
    rt = grp.rated
    if not rt or len(rt.ratings) < 2:  # one strategy: nothing to rate against
        return
    if not rt.rated:
        doc.add(
            Para(
                "Ratings: no strategy played another (self-play only), so there are no "
                "ratings; the rating model still estimates the seat effect (see Seat bias)."
            )
        )
        return
    model = _model_label(rt)
    anchors = ", ".join(rt.anchors) or "-"
    doc.add(Heading(3, f"Ratings ({model} model Elo, anchor {anchors} = 0)"))
    rows = []
    for r in rt.ratings:
        anchor = r.name in rt.anchors
        if r.low is not None and not anchor:
            ci = f"[{r.low:+.0f}, {r.high:+.0f}]"
        else:
            ci = "anchor" if anchor else W.NA
        rows.append([r.name, W.signed(r.elo), ci, W.num(r.se, 1)])
    level = round(_confidence(grp) * 100)
    doc.add(Table(["strategy", "model Elo", f"{level}% interval", "se"], rows))
    if rt.ties:
        parts = [
            f"tied groups of {t.size}: delta {W.num(t.delta, 3)}"
            + (f" [{W.num(t.low, 3)}, {W.num(t.high, 3)}]" if t.low else "")
            for t in rt.ties
        ]
        extra = ""
        if grp.players == 2 and rt.ties[0].size == 2 and rt.ties[0].delta is not None:
            nu = rt.ties[0].delta
            extra = f"; between equal strategies {W.pct(nu / (2 + nu))} of games are drawn"
        doc.add(
            Para(
                "Ties are modelled, not split: Davidson tie parameters, "
                + ", ".join(parts)
                + extra
                + ". Model Elo differences are on the scale of decisive games; score Elo "
                "(Strategies) counts draws as half."
            )
        )
    if rt.notes:
        doc.add(Bullets([f"Note: {n}" for n in rt.notes]))


def _seat_bias(doc: Document, sb: SeatBias, detail: bool) -> None:
    doc.add(Heading(3, "Seat bias"))
    rows = [
        [
            f"{seat.label} ({W.player_label(seat.seat)})",
            W.pct_ci(seat.win_rate),
            str(seat.decisive_wins),
            W.pct_ci(seat.decisive_rate),
            _points_ci(seat.points),
        ]
        for seat in sb.seats
    ]
    headers = ["seat", "win share of all games", "decisive wins", "share of decisive games"]
    doc.add(
        Table(
            headers + ["mean points"],
            rows,
            caption=f"{sb.decisive} decisive games, {sb.draws} draws, "
            f"{sb.shared_first} shared first places",
        )
    )
    if detail:  # the compact form has them once, under Findings
        doc.add(Bullets(_seat_sentences(sb)))


def _seat_sentences(sb: SeatBias) -> list[str]:
    headline = sb.headline.id if sb.headline else None
    sentences = []
    if sb.headline:
        sentences.append(sb.headline.sentence)
    if sb.power:
        sentences.append(sb.power.sentence)
    if sb.detectable:
        sentences.append(sb.detectable.sentence)
    if sb.test:
        sentences.append(sb.test.sentence)
    if sb.stratified and sb.stratified.test.id != headline:
        sentences.append(sb.stratified.test.sentence)
    if sb.pairs and sb.pairs.test and sb.pairs.test.id != headline:
        sentences.append(sb.pairs.test.sentence)
    elif sb.pairs and sb.pairs.note:
        sentences.append(f"Seat-swapped pairs: {sb.pairs.note}.")
    if sb.model and sb.model.test:
        sentences.append(sb.model.test.sentence)
    return [s for s in sentences if s]


def _seat_by_strategy(doc: Document, sb: SeatBias, players: int) -> None:
    if not sb.by_strategy:
        return
    doc.add(Heading(3, "Seat bias by strategy (strongest first)"))
    rows = []
    for row in sb.by_strategy:
        test = row.test
        rows.append(
            [
                row.strategy,
                row.source,
                W.signed(row.rating) if row.rating is not None else W.NA,
                str(row.decisive),
                str(row.draws),
            ]
            + [W.pct_ci(seat.rate) for seat in row.seats]
            + [
                W.pvalue(test.p_value),
                W.pvalue(test.p_adjusted) if test.in_family else "descriptive",
            ]
        )
    headers = (
        ["strategy", "source", "model Elo", "decisive", "draws"]
        + [f"{W.seat_label(i)} wins" for i in range(players)]
        + ["p", "adjusted p"]
    )
    doc.add(Table(headers, rows, align="ll" + "r" * (len(headers) - 2)))


def _natural_rows(grp: Group) -> list[list[str]]:
    """The length in the game's natural unit, first (from replayed games)."""
    nat = grp.natural_length
    if nat is None:
        return []
    name = f"{nat.unit}, all games"
    if nat.sampled < nat.games:
        name = f"{nat.unit}, sample of {nat.sampled} games"
    return [_dist_row(name, nat.length)]


def _natural_note(grp: Group) -> Para | None:
    """Why the row in the natural unit covers fewer games than the others."""
    nat = grp.natural_length
    if nat is None or nat.sampled >= nat.games:
        return None
    from simcli.stats.aggregate import NATURAL_SAMPLE

    return Para(
        f"The length in {nat.unit} comes from replaying games through the rules, which "
        f"takes time, so the report replays a sample: the first {NATURAL_SAMPLE} games of "
        f"each lineup that ended normally, {nat.sampled} of the {nat.games} such games. "
        f"Every other row counts all games; `simcli export --parts` gives the {nat.unit} "
        "of every game."
    )


def _length_heading(grp: Group, rest: str) -> Heading:
    unit = f"{grp.natural_length.unit}; " if grp.natural_length else ""
    return Heading(3, f"Game length ({unit}player moves) and {rest}")


def _distributions(doc: Document, grp: Group, detail: bool) -> None:
    doc.add(_length_heading(grp, "score margin (first minus second)"))
    rows = _natural_rows(grp) + [_dist_row("length, all games", grp.length)]
    if detail:
        rows += [_dist_row(f"length, {st.name}", st.length) for st in grp.strategies]
    rows.append(_dist_row("margin, all games", grp.margin))
    rows += [_dist_row(f"points, {st.name}", st.points) for st in grp.strategies]
    doc.add(Table(DIST_HEADERS, rows))
    note = _natural_note(grp)
    if note:
        doc.add(note)


def _forfeits_line(grp: Group) -> str:
    """``Forfeits by strategy: raiser 12 (exception 11, timeout 1).``"""
    parts = []
    for st in grp.strategies:
        own = st.terminations.forfeit_own if st.terminations else {}
        if own:
            kinds = ", ".join(f"{k} {v}" for k, v in own.items())
            parts.append(f"{st.name} {sum(own.values())} ({kinds})")
    return "Forfeits by strategy: " + "; ".join(parts) + " (messages and tracebacks: run.log)."


def _terminations(doc: Document, grp: Group) -> None:
    multi = grp.players > 1
    rows = []
    for st in grp.strategies:
        t = st.terminations
        assert t is not None
        own = ", ".join(f"{k} {v}" for k, v in t.forfeit_own.items()) or "0"
        row = [st.name, str(t.normal), str(t.move_limit), own]
        if multi:
            row.append(str(t.forfeit_opponent))
        row.append(str(t.error))
        rows.append(row)
    headers = ["strategy", "normal", "move limit", "own forfeits"]
    if multi:
        headers.append("opponent forfeits")
    headers.append("errors")
    doc.add(Heading(3, "Terminations by strategy"))
    doc.add(Table(headers, rows, align="lrrlrr"[: len(headers)]))


def _solo(doc: Document, grp: Group) -> None:
    solo = grp.solo
    assert solo is not None
    # the success rate (winners == [0]) only says something when it varies
    informative = any(st.success_rate.estimate not in (None, 1.0) for st in solo.strategies)
    rows = []
    for st in solo.strategies:
        p = st.mean_score
        row = [st.name, str(st.games), _points_ci(p), W.num(p.median, 1), _quartiles(p.q1, p.q3)]
        if informative:
            row.append(W.pct_ci(st.success_rate))
        rows.append(row)
    headers = ["strategy", "games", "mean score", "median", "quartiles"]
    if informative:
        headers.append("success rate")
    doc.add(Heading(3, "Strategies (solitaire)"))
    doc.add(Table(headers, rows))
    if solo.comparisons:
        _solo_comparisons(doc, solo.comparisons)
    elif solo.note:
        doc.add(Para(f"Paired comparisons: {solo.note}."))
    doc.add(_length_heading(grp, "score"))
    rows = [_dist_row(f"score, {st.name}", st.mean_score) for st in solo.strategies]
    rows += _natural_rows(grp) + [_dist_row("length, all games", grp.length)]
    doc.add(Table(DIST_HEADERS, rows))
    note = _natural_note(grp)
    if note:
        doc.add(note)
    _terminations(doc, grp)


def _solo_comparisons(doc: Document, comparisons: list[SoloComparison]) -> None:
    doc.add(Heading(3, "Paired comparisons on common seeds"))
    rows = [
        [
            f"{c.a} - {c.b}",
            str(c.pairs),
            W.num_ci(c.mean_difference, 2, sign=True),
            W.num(c.difference.median, 2),
            f"{c.a_better}/{c.b_better}/{c.ties}",
            W.pvalue(c.test.p_value),
            W.pvalue(c.test.p_adjusted),
        ]
        for c in comparisons
    ]
    headers = ["pair", "seeds", "mean difference", "median", "better/worse/equal"]
    doc.add(Table(headers + ["Wilcoxon p", "adjusted p"], rows, align="lrrrrrr"))
    doc.add(Bullets([c.test.sentence or "" for c in comparisons]))


UNTIMED = (
    "n/a: not timed. A worker that interleaves games on strategy processes does not time "
    "their moves; a move_time_limit makes it play one game at a time, timed."
)


def _think_time(doc: Document, rows: list[ThinkTime]) -> None:
    """Milliseconds per move per strategy, as the referee timed them."""
    doc.add(Heading(2, "Think time per move"))
    doc.add(
        Table(
            ["strategy", "moves", "mean ms", "p95 ms", "max ms"],
            [[r.strategy, str(r.moves), _ms(r.mean), _ms(r.p95), _ms(r.max)] for r in rows],
        )
    )
    if any(not r.moves for r in rows):
        doc.add(Para(UNTIMED))
    doc.add(Para("Timed by the referee; p95 is read from a histogram, at most 12% high."))


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    ms = seconds * 1000
    return f"{ms:.3f}" if ms >= 0.001 else "<0.001"
