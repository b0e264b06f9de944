"""Render the summary as text, markdown, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
import textwrap
from typing import Any, NamedTuple

from simcli.report.document import (
    Bullets,
    Document,
    Heading,
    Image,
    Lines,
    Para,
    Table,
    build_document,
)
from simcli.stats.intervals import Interval
from simcli.stats.summary import Group, SeatBias, Summary, TestEntry

FORMATS = ("text", "markdown", "json", "csv")


def render(summary: Summary, fmt: str, *, detail: bool = True) -> str:
    """``summary`` in one of :data:`FORMATS`."""
    if fmt == "json":
        return to_json(summary)
    if fmt == "csv":
        return to_csv(summary)
    if fmt == "markdown":
        return to_markdown(build_document(summary, detail=detail))
    if fmt == "text":
        return to_text(build_document(summary, detail=detail))
    raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")


def to_json(summary: Summary) -> str:
    return json.dumps(summary.to_dict(), indent=2, allow_nan=False, ensure_ascii=False) + "\n"


# ----------------------------------------------------------------------------- text


def _aligned(table: Table) -> list[str]:
    ncol = len(table.headers)
    align = table.align or ("l" + "r" * (ncol - 1))
    widths = [len(h) for h in table.headers]
    for row in table.rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def fmt(row):
        parts = []
        for i, cell in enumerate(row):
            a = align[i] if i < len(align) else "r"
            parts.append(cell.ljust(widths[i]) if a == "l" else cell.rjust(widths[i]))
        return "  ".join(parts).rstrip()

    lines = [fmt(table.headers), "  ".join("-" * w for w in widths)]
    lines += [fmt(row) for row in table.rows]
    return lines


def to_text(doc: Document, width: int = 100) -> str:
    out: list[str] = []
    for b in doc.blocks:
        if isinstance(b, Heading):
            if out:
                out.append("")
            out.append(b.text)
            out.append(("=" if b.level == 1 else "-" if b.level == 2 else "~") * len(b.text))
        elif isinstance(b, Para):
            out.extend(textwrap.wrap(b.text, width))
        elif isinstance(b, Lines):
            out.extend(b.lines)
        elif isinstance(b, Bullets):
            for item in b.items:
                out.extend(textwrap.wrap(item, width, initial_indent="- ", subsequent_indent="  "))
        elif isinstance(b, Table):
            if b.caption:
                out.append(b.caption + ":")
            out.extend(_aligned(b))
        elif isinstance(b, Image):
            out.append(f"plot: {b.file} ({b.title})")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- markdown


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(doc: Document) -> str:
    out: list[str] = []
    for b in doc.blocks:
        if isinstance(b, Heading):
            out += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [b.text, ""]
        elif isinstance(b, Lines):
            out += [f"    {line}" for line in b.lines] + [""]
        elif isinstance(b, Bullets):
            out += [f"- {item}" for item in b.items] + [""]
        elif isinstance(b, Table):
            if b.caption:
                out += [f"*{b.caption}*", ""]
            ncol = len(b.headers)
            align = b.align or ("l" + "r" * (ncol - 1))
            out.append("| " + " | ".join(_md_cell(h) for h in b.headers) + " |")
            out.append(
                "|" + "|".join(":---" if align[i] == "l" else "---:" for i in range(ncol)) + "|"
            )
            out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
            out.append("")
        elif isinstance(b, Image):
            out += [f"![{b.title}]({b.file})", ""]
    return "\n".join(out).rstrip() + "\n"


# ----------------------------------------------------------------------------- csv

CSV_COLUMNS = [
    "section",
    "group",
    "variant",
    "players",
    "strategy",
    "opponent",
    "seat",
    "statistic",
    "estimate",
    "low",
    "high",
    "n",
    "p_value",
    "p_adjusted",
    "note",
]


class _Span(NamedTuple):
    """An estimate with bounds that is not an :class:`Interval` (means, Elo)."""

    estimate: float | None
    low: float | None
    high: float | None
    n: float | None = None
    note: str | None = None


class _Rows:
    """The CSV rows under construction, one statistic per row."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(
        self,
        section: str,
        grp: Group | None,
        statistic: str,
        *,
        strategy: str | None = None,
        opponent: str | None = None,
        seat: int | None = None,
        iv: Interval | _Span | None = None,
        estimate: Any = None,
        n: float | None = None,
        test: TestEntry | None = None,
        note: str | None = None,
    ) -> None:
        row = dict.fromkeys(CSV_COLUMNS)
        row.update(
            section=section,
            group=grp.label if grp else None,
            variant=grp.variant if grp else None,
            players=grp.players if grp else None,
            strategy=strategy,
            opponent=opponent,
            seat=seat,
            statistic=statistic,
            estimate=estimate,
            n=n,
            note=note,
        )
        if iv is not None:
            row.update(estimate=iv.estimate, low=iv.low, high=iv.high)
            row["n"] = iv.n if n is None else n
            row["note"] = row["note"] or iv.note
        if test is not None:
            row.update(
                estimate=test.statistic if estimate is None else estimate,
                p_value=test.p_value,
                p_adjusted=test.p_adjusted,
                n=test.n,
                note=note
                or test.note
                or (None if test.in_family else "descriptive (not corrected)"),
            )
        self.rows.append(row)


def csv_rows(summary: Summary) -> list[dict[str, Any]]:
    """The summary as long-format rows (one statistic per row)."""
    out = _Rows()
    for grp in summary.groups:
        _csv_group(out, grp)
        _csv_strategies(out, grp)
        if grp.natural_length:
            nat = grp.natural_length
            for q in ("median", "q1", "q3", "mean"):
                stat = f"length_{nat.unit}_{q}"
                out.add("distribution", grp, stat, estimate=getattr(nat.length, q), n=nat.length.n)
        for key, d in (("length", grp.length), ("margin", grp.margin)):
            if d:
                for q in ("median", "q1", "q3", "mean"):
                    out.add("distribution", grp, f"{key}_{q}", estimate=getattr(d, q), n=d.n)
        _csv_pairwise(out, grp)
        if grp.seat_bias:
            _csv_seats(out, grp, grp.seat_bias)
        if grp.solo:
            for c in grp.solo.comparisons:
                ab = {"strategy": c.a, "opponent": c.b}
                out.add("solo", grp, "mean_difference", iv=c.mean_difference, **ab)
                out.add("solo", grp, "wilcoxon", test=c.test, **ab)
    for comp in summary.variant_comparison:
        out.add("variants", None, f"seat homogeneity ({comp.players} players)", test=comp.test)
    return out.rows


def _csv_group(out: _Rows, grp: Group) -> None:
    out.add("group", grp, "games", estimate=grp.games)
    out.add("group", grp, "errors", estimate=grp.errors)
    t = grp.terminations
    out.add("terminations", grp, "normal", estimate=t.normal)
    out.add("terminations", grp, "move_limit", estimate=t.move_limit)
    for kind, c in t.forfeit.items():
        out.add("terminations", grp, f"forfeit:{kind}", estimate=c)


def _csv_strategies(out: _Rows, grp: Group) -> None:
    for st in grp.strategies:
        nm = st.name
        out.add("strategy", grp, "games", strategy=nm, estimate=st.games)
        if st.win_rate is not None:
            out.add("strategy", grp, "win_rate", strategy=nm, iv=st.win_rate)
            out.add("strategy", grp, "score_rate", strategy=nm, iv=st.score_rate)
            out.add("strategy", grp, "draws", strategy=nm, estimate=st.draws)
        if st.score_elo is not None:
            out.add("strategy", grp, "score_elo", strategy=nm, iv=st.score_elo)
        if st.success_rate is not None:
            out.add("strategy", grp, "success_rate", strategy=nm, iv=st.success_rate)
        p = st.points
        assert p is not None and st.length is not None and st.terminations is not None
        mean = _Span(p.mean, p.low, p.high)
        out.add("strategy", grp, "mean_points", strategy=nm, n=p.n, note=p.note, iv=mean)
        for q in ("median", "q1", "q3"):
            out.add("strategy", grp, f"points_{q}", strategy=nm, estimate=getattr(p, q), n=p.n)
        length = st.length
        out.add("strategy", grp, "length_median", strategy=nm, estimate=length.median, n=length.n)
        for key, value in st.terminations.to_dict().items():
            if isinstance(value, dict):
                for kind, c in value.items():
                    out.add("terminations", grp, f"{key}:{kind}", strategy=nm, estimate=c)
            else:
                out.add("terminations", grp, key, strategy=nm, estimate=value)


def _csv_pairwise(out: _Rows, grp: Group) -> None:
    pw = grp.pairwise
    if pw:
        for c in pw.cells:
            stat = f"{pw.kind} rate"
            out.add("pairwise", grp, stat, strategy=c.row, opponent=c.col, iv=c.rate)
    h2h = grp.head_to_head
    if h2h:
        ab = {"strategy": h2h.a, "opponent": h2h.b}
        out.add("head_to_head", grp, "score_elo", iv=h2h.score_elo, **ab)
        if h2h.model_elo is not None:
            out.add("head_to_head", grp, "model_elo", iv=h2h.model_elo, **ab)
    rt = grp.rated
    if rt and rt.ratings:
        for r in rt.ratings:
            elo = _Span(r.elo, r.low, r.high, rt.games)
            out.add("ratings", grp, "elo", strategy=r.name, note=r.note, iv=elo)


def _csv_seats(out: _Rows, grp: Group, sb: SeatBias) -> None:
    for seat in sb.seats:
        out.add("seat", grp, "win_rate", seat=seat.seat, iv=seat.win_rate)
        out.add("seat", grp, "decisive_rate", seat=seat.seat, iv=seat.decisive_rate)
        p = seat.points
        if p is not None:
            mean = _Span(p.mean, p.low, p.high)
            out.add("seat", grp, "mean_points", seat=seat.seat, n=p.n, note=p.note, iv=mean)
    if sb.headline:
        out.add("seat", grp, "headline_seat_test", test=sb.headline)
    if sb.power:
        stat = f"power at +{sb.power.effect:g} for seat 0"
        out.add("seat", grp, stat, estimate=sb.power.power, n=sb.power.decisive)
    if sb.test:
        out.add("seat", grp, "seat_test", test=sb.test)
    if sb.stratified:
        out.add("seat", grp, "stratified_seat_test", test=sb.stratified.test)
    if sb.pairs and sb.pairs.test:
        out.add("seat", grp, "pair_test", test=sb.pairs.test)
    if sb.model:
        for eff in sb.model.seat_effects or []:
            elo = _Span(eff.elo, eff.low, eff.high)
            out.add("seat", grp, "seat_effect_elo", seat=eff.seat, iv=elo)
        out.add("seat", grp, "seat_lrt", test=sb.model.test)
    for row in sb.by_strategy:
        for seat in row.seats:
            stat = f"{row.source} decisive win rate"
            who = {"strategy": row.strategy, "seat": seat.seat}
            out.add("seat_by_strategy", grp, stat, iv=seat.rate, **who)
        stat = f"{row.source} seat test"
        out.add("seat_by_strategy", grp, stat, strategy=row.strategy, test=row.test)


def to_csv(summary: Summary) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(summary):
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return buf.getvalue()
