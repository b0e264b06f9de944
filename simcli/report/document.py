"""The report as a list of blocks (headings, paragraphs, lists, tables, images), built
from the summary dict; :mod:`simcli.report.render` turns the blocks into text or
markdown. Keeping one document model means the text printed after a run and
``report.md`` always say the same thing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simcli.stats import wording as W


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


def _pct_short(d: dict | None) -> str:
    return W.pct_ci(d)


def _points_ci(p: dict | None) -> str:
    if not p or p.get("mean") is None:
        return W.NA
    if p.get("low") is None:
        return f"{p['mean']:.2f}"
    return f"{p['mean']:.2f} [{p['low']:.2f}, {p['high']:.2f}]"


def _quartiles(q1: float | None, q3: float | None) -> str:
    """``[-3, 0]``: a joined ``-3-0`` would read as a range of negative numbers."""
    if not (W.defined(q1) and W.defined(q3)):
        return W.NA
    return f"[{W.num(q1, 1)}, {W.num(q3, 1)}]"


def _dist_row(name: str, d: dict | None) -> list[str]:
    if not d or not d.get("n"):
        return [name, "0", W.NA, W.NA, W.NA, W.NA, W.NA, W.NA]
    approx = "" if d.get("exact", True) else " ~"
    return [
        name,
        str(d["n"]),
        W.num(d["median"], 1) + approx,
        _quartiles(d["q1"], d["q3"]),
        W.num(d["mean"], 2),
        W.num(d["sd"], 2),
        W.num(d["min"], 1),
        W.num(d["max"], 1),
    ]


DIST_HEADERS = ["", "n", "median", "quartiles", "mean", "sd", "min", "max"]


def build_document(summary: dict, *, detail: bool = True) -> Document:
    """The report. ``detail=False`` (the text printed after a run) leaves out the
    per-strategy termination and length tables and the list of all tests."""
    doc = Document()
    s = summary
    settings = s["settings"]
    game = s.get("game")
    run = s.get("run") or {}
    name = (run.get("config") or {}).get("name")
    title = "simcli report"
    if game:
        title += f": {game if isinstance(game, str) else ', '.join(game)}"
    if name:
        title += f" (run '{name}')"
    doc.add(Heading(1, title))
    t = s["totals"]
    excluded = f"; {t['errors']} error game(s) excluded" if t["errors"] else ""
    intro = (
        f"{t['games']} games in {t['groups']} group(s), {t['strategies']} strategies"
        f"{excluded}. Intervals: {round(settings['confidence'] * 100)}% "
        f"{settings['ci_method_name']} "
        f"for rates, t intervals for means, Wald (observed information) for ratings. "
    )
    corr = s["correction"]
    if corr["tests"]:
        if corr["tests"] == 1:
            intro += (
                "The report has one headline p-value (headline tests: one seat test per "
                "group, the variant comparisons and the solitaire comparisons); "
                f"'significant' means p <= {corr['alpha']:g}."
            )
        else:
            intro += (
                f"The {corr['tests']} p-values of the headline tests (one seat test per "
                f"group, the variant comparisons and the solitaire comparisons) form one "
                f"family, adjusted with {corr['name']}; 'significant' means adjusted p <= "
                f"{corr['alpha']:g}."
            )
    if corr.get("descriptive_tests"):
        intro += (
            f" {corr['descriptive_tests']} further p-values (pooled, model-based and "
            "per-strategy seat tests of the same question) are descriptive figures, "
            "not corrected and never called significant."
        )
    if run.get("status"):
        intro += f" Run status: {run['status']}."
    if s.get("source"):
        intro += f" Source: {s['source']}."
    doc.add(Para(intro))
    if s["findings"]:
        doc.add(Heading(2, "Findings"))
        doc.add(Bullets(list(s["findings"])))
    for grp in s["groups"]:
        _group(doc, grp, s, detail)
    if s["variant_comparison"]:
        doc.add(Heading(2, "Seat bias across variants"))
        for comp in s["variant_comparison"]:
            rows = []
            for v, counts in zip(comp["variants"], comp["table"], strict=True):
                total = sum(counts)
                rows.append(
                    [str(v), str(total)]
                    + [f"{c} ({W.pct(c / total) if total else W.NA})" for c in counts]
                )
            headers = ["variant", "decisive"] + [
                f"{W.seat_label(i)} wins" for i in range(comp["players"])
            ]
            doc.add(Table(headers, rows, caption=f"{comp['players']} players"))
            doc.add(Para(comp["test"]["sentence"]))
    if s.get("plots"):
        doc.add(Heading(2, "Plots"))
        for plot in s["plots"]:
            doc.add(Image(plot["title"], plot["file"]))
    if detail and s["tests"]:
        doc.add(Heading(2, "All tests"))
        rows = []
        for e in s["tests"]:
            sig = (
                "descriptive"
                if not e.get("in_family", True)
                else W.NA
                if e["significant"] is None
                else ("yes" if e["significant"] else "no")
            )
            rows.append(
                [
                    e["id"],
                    e["group"],
                    e["kind"],
                    e["test"],
                    W.num(e.get("statistic"), 3),
                    W.pvalue(e["p_value"]),
                    W.pvalue(e["p_adjusted"]),
                    sig,
                ]
            )
        doc.add(
            Table(
                ["id", "group", "kind", "test", "statistic", "p", "adjusted p", "significant"],
                rows,
                align="lllllrrl",
            )
        )
    if s["notes"]:
        doc.add(Heading(2, "Notes"))
        doc.add(Bullets(list(s["notes"])))
    return doc


def _group(doc: Document, grp: dict, s: dict, detail: bool) -> None:
    players = grp["players"]
    head = f"{grp['label'][0].upper()}{grp['label'][1:]}"
    doc.add(Heading(2, head))
    term = grp["terminations"]
    forfeits = sum(term["forfeit"].values())
    line = (
        f"{grp['games']} games, {players} player{'s' if players != 1 else ''}"
        f"{'; options ' + _options(grp['options']) if grp['options'] else ''}. "
        f"Terminations: {term['normal']} normal, {term['move_limit']} move limit, "
        f"{forfeits} forfeit"
    )
    if forfeits:
        line += " (" + ", ".join(f"{k} {v}" for k, v in term["forfeit"].items()) + ")"
    line += f", {term['error']} error (excluded)."
    doc.add(Para(line))
    if forfeits:
        doc.add(Para(_forfeits_line(grp)))
    if players == 1:
        _solo(doc, grp)
    else:
        _multi(doc, grp, detail)
    if grp.get("notes"):
        doc.add(Bullets([f"Note: {n}" for n in grp["notes"]]))


def s_conf(grp: dict) -> float:
    for st in grp.get("strategies", []):
        rate = st.get("win_rate") or st.get("success_rate")
        if rate and rate.get("confidence"):
            return float(rate["confidence"])
    return 0.95


def _options(options: dict) -> str:
    """Scalar options as ``k=v``; structured values (component data) abbreviated."""
    parts = []
    for k, v in options.items():
        if isinstance(v, (dict, list)):
            parts.append(f"{k}=(...)")
        else:
            text = str(v)
            parts.append(f"{k}={text if len(text) <= 40 else text[:37] + '...'}")
    return ", ".join(parts)


def _multi(doc: Document, grp: dict, detail: bool) -> None:
    ratings = {}
    if grp.get("ratings") and grp["ratings"].get("ratings"):
        ratings = {r["name"]: r for r in grp["ratings"]["ratings"]}
    rows = []
    for st in grp["strategies"]:
        r = ratings.get(st["name"])
        rows.append(
            [
                st["name"],
                str(st["games"]),
                W.num(st["wins"], 2),
                str(st["draws"]),
                W.num(st["losses"], 2),
                _pct_short(st["win_rate"]),
                _pct_short(st["score_rate"]),
                _points_ci(st["points"]),
                W.signed(r["elo"]) if r and r["elo"] is not None else W.NA,
            ]
        )
    doc.add(Heading(3, "Strategies"))
    doc.add(
        Table(
            [
                "strategy",
                "games",
                "wins",
                "draws",
                "losses",
                "win rate",
                "score rate",
                "mean points",
                "Elo",
            ],
            rows,
        )
    )
    # pairwise
    pw = grp.get("pairwise")
    if pw and len(pw["names"]) >= 2:
        kind = "score rate" if pw["kind"] == "score" else "finishing ahead (ties count half)"
        doc.add(Heading(3, f"Pairwise: row against column ({kind})"))
        cells = {(c["row"], c["col"]): c for c in pw["cells"]}
        rows = []
        for a in pw["names"]:
            row = [a]
            for b in pw["names"]:
                c = cells.get((a, b))
                row.append(
                    "-" if a == b or c is None else f"{W.pct_ci(c['rate'], 0)} n={c['games']}"
                )
            rows.append(row)
        doc.add(Table([""] + pw["names"], rows))
    # ratings
    rt = grp.get("ratings")
    if rt and rt.get("ratings") and all(r["elo"] is None for r in rt["ratings"]):
        doc.add(
            Para(
                "Ratings: no strategy played another (self-play only), so there are no "
                "ratings; the rating model still estimates the seat effect (see Seat bias)."
            )
        )
    elif rt and rt.get("ratings"):
        model = "Bradley-Terry" if rt["model"] == "bradley-terry" else "Plackett-Luce"
        if rt.get("ties"):
            model += "-Davidson"
        doc.add(Heading(3, f"Ratings ({model}, Elo, anchor {', '.join(rt['anchors']) or '-'} = 0)"))
        rows = []
        for r in rt["ratings"]:
            ci = (
                f"[{r['low']:+.0f}, {r['high']:+.0f}]"
                if r.get("low") is not None and r["name"] not in rt["anchors"]
                else ("anchor" if r["name"] in rt["anchors"] else W.NA)
            )
            rows.append([r["name"], W.signed(r["elo"]), ci, W.num(r["se"], 1)])
        level = round(s_conf(grp) * 100)
        doc.add(Table(["strategy", "Elo", f"{level}% interval", "se"], rows))
        ties = rt.get("ties") or []
        if ties:
            parts = [
                f"tied groups of {t['size']}: delta {W.num(t['delta'], 3)}"
                + (f" [{W.num(t['low'], 3)}, {W.num(t['high'], 3)}]" if t.get("low") else "")
                for t in ties
            ]
            extra = ""
            if grp["players"] == 2 and ties[0]["size"] == 2:
                nu = ties[0]["delta"]
                extra = f"; between equal strategies {W.pct(nu / (2 + nu))} of games are drawn"
            doc.add(
                Para(
                    "Ties are modelled, not split: Davidson tie parameters, "
                    + ", ".join(parts)
                    + extra
                    + ". Elo differences are on the scale of decisive games."
                )
            )
        if rt.get("notes"):
            doc.add(Bullets([f"Note: {n}" for n in rt["notes"]]))
    elif rt and rt.get("note"):
        doc.add(Para(f"Ratings: {rt['note']}."))
    # seat bias
    sb = grp.get("seat_bias")
    if sb:
        doc.add(Heading(3, "Seat bias"))
        rows = []
        for seat in sb["seats"]:
            rows.append(
                [
                    seat["label"],
                    _pct_short(seat["win_rate"]),
                    str(seat["decisive_wins"]),
                    _pct_short(seat["decisive_rate"]),
                ]
            )
        doc.add(
            Table(
                ["seat", "win share of all games", "decisive wins", "share of decisive games"],
                rows,
                caption=f"{sb['decisive']} decisive games, {sb['draws']} draws, "
                f"{sb['shared_first']} shared first places",
            )
        )
        sentences = []
        if sb.get("headline"):
            sentences.append(sb["headline"]["sentence"])
        if sb.get("detectable"):
            sentences.append(sb["detectable"]["sentence"])
        sentences.append(sb["test"]["sentence"])
        strat = (sb.get("stratified") or {}).get("test")
        if strat and strat["id"] != sb.get("headline", {}).get("id"):
            sentences.append(strat["sentence"])
        if (
            sb.get("pairs")
            and sb["pairs"].get("test")
            and sb["pairs"]["test"]["id"] != sb.get("headline", {}).get("id")
        ):
            sentences.append(sb["pairs"]["test"]["sentence"])
        elif sb.get("pairs") and sb["pairs"].get("note"):
            sentences.append(f"Seat-swapped pairs: {sb['pairs']['note']}.")
        if sb.get("model") and sb["model"].get("test"):
            sentences.append(sb["model"]["test"]["sentence"])
        if detail:  # the compact form has them once, under Findings
            doc.add(Bullets(sentences))
        if sb["by_strategy"]:
            doc.add(Heading(3, "Seat bias by strategy (strongest first)"))
            rows = []
            for row in sb["by_strategy"]:
                rows.append(
                    [
                        row["strategy"],
                        row["source"],
                        W.signed(row["rating"]) if row["rating"] is not None else W.NA,
                        str(row["decisive"]),
                        str(row["draws"]),
                    ]
                    + [_pct_short(seat["rate"]) for seat in row["seats"]]
                    + [
                        W.pvalue(row["test"]["p_value"]),
                        W.pvalue(row["test"]["p_adjusted"])
                        if row["test"].get("in_family", True)
                        else "descriptive",
                    ]
                )
            headers = (
                ["strategy", "source", "Elo", "decisive", "draws"]
                + [f"{W.seat_label(i)} wins" for i in range(grp["players"])]
                + ["p", "adjusted p"]
            )
            doc.add(Table(headers, rows, align="ll" + "r" * (len(headers) - 2)))
    # distributions
    doc.add(Heading(3, "Game length (player moves) and score margin (first minus second)"))
    rows = [_dist_row("length, all games", grp["length"])]
    if detail:
        rows += [_dist_row(f"length, {st['name']}", st["length"]) for st in grp["strategies"]]
    rows.append(_dist_row("margin, all games", grp.get("margin")))
    rows += [_dist_row(f"points, {st['name']}", st["points"]) for st in grp["strategies"]]
    doc.add(Table(DIST_HEADERS, rows))
    if detail:
        _terminations(doc, grp)


def _forfeits_line(grp: dict) -> str:
    """``Forfeits by strategy: raiser 12 (exception 11, timeout 1).``"""
    parts = []
    for st in grp["strategies"]:
        own = st["terminations"].get("forfeit_own") or {}
        if own:
            kinds = ", ".join(f"{k} {v}" for k, v in own.items())
            parts.append(f"{st['name']} {sum(own.values())} ({kinds})")
    return "Forfeits by strategy: " + "; ".join(parts) + " (messages and tracebacks: run.log)."


def _terminations(doc: Document, grp: dict) -> None:
    rows = []
    for st in grp["strategies"]:
        t = st["terminations"]
        own = ", ".join(f"{k} {v}" for k, v in t.get("forfeit_own", {}).items()) or "0"
        row = [st["name"], str(t["normal"]), str(t["move_limit"]), own]
        if grp["players"] > 1:
            row.append(str(t["forfeit_opponent"]))
        row.append(str(t["error"]))
        rows.append(row)
    headers = ["strategy", "normal", "move limit", "own forfeits"]
    if grp["players"] > 1:
        headers.append("opponent forfeits")
    headers.append("errors")
    doc.add(Heading(3, "Terminations by strategy"))
    doc.add(Table(headers, rows, align="lrrlrr"[: len(headers)]))


def _solo(doc: Document, grp: dict) -> None:
    solo = grp["solo"]
    # the success rate (winners == [0]) only says something when it varies
    informative = any(
        st["success_rate"].get("estimate") not in (None, 1.0) for st in solo["strategies"]
    )
    rows = []
    for st in solo["strategies"]:
        p = st["mean_score"]
        row = [
            st["name"],
            str(st["games"]),
            _points_ci(p),
            W.num(p.get("median"), 1),
            _quartiles(p.get("q1"), p.get("q3")),
        ]
        if informative:
            row.append(_pct_short(st["success_rate"]))
        rows.append(row)
    headers = ["strategy", "games", "mean score", "median", "quartiles"]
    if informative:
        headers.append("success rate")
    doc.add(Heading(3, "Strategies (solitaire)"))
    doc.add(Table(headers, rows))
    if solo["comparisons"]:
        doc.add(Heading(3, "Paired comparisons on common seeds"))
        rows = []
        for c in solo["comparisons"]:
            rows.append(
                [
                    f"{c['a']} - {c['b']}",
                    str(c["pairs"]),
                    W.num_ci(c["mean_difference"], 2, sign=True),
                    W.num(c["difference"].get("median"), 2),
                    f"{c['a_better']}/{c['b_better']}/{c['ties']}",
                    W.pvalue(c["test"]["p_value"]),
                    W.pvalue(c["test"]["p_adjusted"]),
                ]
            )
        doc.add(
            Table(
                [
                    "pair",
                    "seeds",
                    "mean difference",
                    "median",
                    "better/worse/equal",
                    "Wilcoxon p",
                    "adjusted p",
                ],
                rows,
                align="lrrrrrr",
            )
        )
        doc.add(Bullets([c["test"]["sentence"] for c in solo["comparisons"]]))
    elif solo.get("note"):
        doc.add(Para(f"Paired comparisons: {solo['note']}."))
    doc.add(Heading(3, "Score and game length"))
    rows = [_dist_row(f"score, {st['name']}", st["mean_score"]) for st in solo["strategies"]]
    rows.append(_dist_row("length, all games", grp["length"]))
    doc.add(Table(DIST_HEADERS, rows))
    _terminations(doc, grp)
