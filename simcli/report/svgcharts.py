"""The charts of ``report.html`` as inline SVG: the content of the PNG plots of
:mod:`simcli.report.plots` (seat balance, score matrix, seat win rates by strategy,
ratings, score distributions) and the balance command's skill curve. Every point's
tooltip gives its value and interval. Each function returns the SVG text, or ``None``
when the summary has nothing for it to show."""

from __future__ import annotations

from typing import Any

from simcli.report.plots import _shares_on, integer_grid
from simcli.report.svg import (
    Figure,
    Panel,
    bar,
    color,
    diverging,
    frame,
    legend,
    nice_ticks,
    padded,
    point,
    stairs,
    text_width,
)
from simcli.stats import wording as W
from simcli.stats.summary import Group, Histogram

LEFT, TOP, GAP = 64.0, 34.0, 26.0


def _titled(width: float, height: float, name: str, title: str) -> Figure:
    """A figure at least as wide as its title, the title centred on top."""
    width = max(width, text_width(title, 13) + 24)
    fig = Figure(width, height, name)
    fig.text(width / 2, 16, title, text_anchor="middle", class_="ctitle")
    return fig


def _iv_bounds(ivs: list[Any]) -> list[float]:
    out = []
    for iv in ivs:
        if iv is not None and iv.estimate is not None:
            out += [v for v in (iv.estimate, iv.low, iv.high) if v is not None]
    return out


def seat_balance(groups: list[Group], level: int) -> str | None:
    """Per group and seat: share of the decisive games won (dotted: a fair share) and
    mean points, one column per group, the same y scale along each row."""
    seated = [g for g in groups if g.seat_bias and g.seat_bias.seats]
    if not seated:
        return None
    pw, ph = max(220.0, 80.0 * max(g.players for g in seated)), 160.0
    fig = _titled(
        LEFT + len(seated) * (pw + GAP) + 10,
        TOP + 2 * (ph + 40) + 10,
        "Seat balance",
        f"Seat balance ({level}% intervals; dotted: a fair share)",
    )
    rows = (
        ("share of decisive games won", lambda s: s.decisive_rate, W.pct_ci),
        (
            "mean points",
            lambda s: s.points.interval if s.points else None,
            lambda iv: W.num_ci(iv, 2),
        ),
    )
    for r, (ylabel, get, fmt) in enumerate(rows):
        values = _iv_bounds([get(s) for g in seated for s in g.seat_bias.seats])  # type: ignore[union-attr]
        if r == 0:
            values += [1 / g.players for g in seated]
        if not values:
            continue
        ylo, yhi = padded(min(values), max(values))
        y0 = TOP + r * (ph + 40) + 10
        fig.text(
            14,
            y0 + ph / 2,
            ylabel,
            class_="axis",
            text_anchor="middle",
            transform=f"rotate(-90 14 {y0 + ph / 2:.0f})",
        )
        for c, grp in enumerate(seated):
            seats = grp.seat_bias.seats  # type: ignore[union-attr]
            p = Panel(LEFT + c * (pw + GAP), y0, pw, ph, -0.6, len(seats) - 0.4, ylo, yhi)
            ticks = nice_ticks(ylo, yhi, 4)
            labels = [W.pct(t, 0) for t in ticks] if r == 0 else None
            frame(
                fig,
                p,
                xticks=list(range(len(seats))),
                yticks=ticks,
                xlabels=[s.label for s in seats],
                ylabels=labels,
            )
            if r == 0:
                y = p.py(1 / grp.players)
                fig.line(p.x, y, p.x + p.w, y, "fair")
                fig.text(
                    p.x + pw / 2,
                    y0 - 6,
                    grp.variant or grp.label,
                    text_anchor="middle",
                    class_="ptitle",
                )
            for i, seat in enumerate(seats):
                iv = get(seat)
                if iv is None or iv.estimate is None:
                    continue
                tip = f"{grp.label}, {seat.label}: {ylabel} {fmt(iv)}"
                point(fig, p, i, iv.estimate, iv.low, iv.high, tip, vertical=True)
    return fig.svg("chart seat-balance")


def score_matrix(grp: Group, title: str) -> str | None:
    """Heatmap of the pairwise score rates (row against column), value in each cell."""
    pw = grp.pairwise
    if pw is None or len(pw.names) < 2:
        return None
    names = pw.names
    k, cell = len(names), 46.0
    left = 16 + max(text_width(n) for n in names)
    top = 30 + 0.75 * max(text_width(n) for n in names)
    note = "column: opponent; red: row scores less, blue: more"
    width = max(left + k * cell + 40, text_width(note) + left)
    fig = _titled(width, top + k * cell + 30, title, f"{title} (row's score against column)")
    for j, b in enumerate(names):
        x = left + (j + 0.5) * cell
        fig.text(x, top - 6, b, class_="tick", transform=f"rotate(-45 {x:.0f} {top - 6:.0f})")
    for i, a in enumerate(names):
        fig.text(left - 6, top + (i + 0.5) * cell + 4, a, text_anchor="end", class_="tick")
        for j, b in enumerate(names):
            c = pw.cell(a, b)
            x, y = left + j * cell, top + i * cell
            if c is None or c.rate.estimate is None:
                fig.add(f'<rect class="empty" x="{x}" y="{y}" width="{cell}" height="{cell}"/>')
                continue
            tip = f"{a} against {b}: {W.pct_ci(c.rate)}, n={c.games}"
            fig.add(
                f'<g class="cell" data-est="{c.rate.estimate!r}"><title>{tip}</title>'
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                f'fill="{diverging(c.rate.estimate)}"/>'
                f'<text x="{x + cell / 2}" y="{y + cell / 2 + 4}" text-anchor="middle">'
                f"{100 * c.rate.estimate:.0f}%</text></g>"
            )
    fig.text(left, top + k * cell + 20, note, class_="tick")
    return fig.svg("chart matrix")


def _rows_chart(
    title: str,
    rows: list[tuple[str, Any, str]],
    xlo: float,
    xhi: float,
    xlabel: str,
    *,
    zero: bool = False,
    percent: bool = False,
) -> str:
    """Horizontal points with intervals, one labelled row each: ``(label, interval,
    tooltip)``."""
    left = 16 + max(text_width(r[0]) for r in rows)
    pw, step = 400.0, 22.0
    ph = step * len(rows)
    fig = _titled(left + pw + 24, TOP + ph + 46, title, title)
    p = Panel(left, TOP, pw, ph, xlo, xhi, len(rows) - 0.5, -0.5)
    ticks = nice_ticks(xlo, xhi, 5)
    frame(
        fig, p, xticks=ticks, yticks=None, xlabels=[W.pct(t, 0) for t in ticks] if percent else None
    )
    if zero and xlo < 0 < xhi:
        fig.line(p.px(0), p.y, p.px(0), p.y + p.h, "fair")
    for i, (label, iv, tip) in enumerate(rows):
        fig.text(left - 6, p.py(i) + 4, label, text_anchor="end", class_="tick")
        if iv is not None and iv.estimate is not None:
            point(fig, p, i, iv.estimate, iv.low, iv.high, tip, vertical=False, colour=color(0))
    fig.text(left + pw / 2, TOP + ph + 34, xlabel, text_anchor="middle", class_="axis")
    return fig.svg("chart rows")


def seat_strategies(grp: Group) -> str | None:
    """Per strategy and seat: its share of its decisive games won."""
    sb = grp.seat_bias
    if not sb or len(sb.by_strategy) < 2:
        return None
    rows = []
    for r in sb.by_strategy:
        for seat in r.seats:
            label = f"{r.strategy} ({r.source}), seat {seat.seat}"
            rows.append(
                (
                    label,
                    seat.rate,
                    f"{label}: {W.pct_ci(seat.rate)} of {seat.decisive} decisive games",
                )
            )
    return _rows_chart(
        f"Seat win rates by strategy: {grp.label}",
        rows,
        0.0,
        1.0,
        "share of its decisive games won",
        percent=True,
    )


class _Span:
    def __init__(self, estimate, low, high) -> None:
        self.estimate, self.low, self.high = estimate, low, high


def rating_span(groups: list[Group]) -> tuple[float, float] | None:
    """One Elo range for the ratings charts of every group."""
    values = []
    for g in groups:
        if g.rated and len(g.rated.rated) > 1:
            values += _iv_bounds([_Span(r.elo, r.low, r.high) for r in g.rated.rated])
    return padded(min(values), max(values)) if values else None


def ratings(grp: Group, level: int, span: tuple[float, float] | None) -> str | None:
    """Model Elo with intervals (the anchor at 0)."""
    rt = grp.rated
    if rt is None or len(rt.rated) < 2 or span is None:
        return None
    rows = []
    for r in rt.rated:
        iv = _Span(r.elo, r.low, r.high)
        ci = f" [{r.low:+.0f}, {r.high:+.0f}]" if r.low is not None and r.high is not None else ""
        rows.append((r.name, iv, f"{r.name}: {W.signed(r.elo)}{ci} model Elo"))
    return _rows_chart(
        f"Ratings with {level}% intervals: {grp.label}",
        rows,
        *span,
        f"model Elo (anchor {', '.join(rt.anchors)} = 0)",
        zero=True,
    )


def distribution_grid(groups: list[Group]) -> tuple[int, int, int] | None:
    """The whole-number bins shared by every group's score distributions."""
    hists = [st.points.histogram for g in groups for st in g.strategies if st.points]
    hists += [
        s.points.histogram for g in groups if g.seat_bias for s in g.seat_bias.seats if s.points
    ]
    return integer_grid([h for h in hists if h is not None])


def _shares(h: Histogram, grid) -> tuple[list[float], list[float]]:
    """``(edges, shares)`` of a histogram, on the shared grid when there is one."""
    if grid is not None:
        first, step, bins = grid
        return [first - 0.5 + i * step for i in range(bins + 1)], _shares_on(h, grid)
    total = sum(h.counts) or 1
    vals = list(h.values)
    if h.binned:
        edges = vals + [vals[-1] + (h.width or 1.0)]
    elif len(vals) == 1:
        edges = [vals[0] - 0.5, vals[0] + 0.5]
    else:  # exact values: each one's bar reaches halfway to its neighbours
        mids = [(a + b) / 2 for a, b in zip(vals, vals[1:], strict=False)]
        edges = [2 * vals[0] - mids[0], *mids, 2 * vals[-1] - mids[-1]]
    return edges, [c / total for c in h.counts]


def distributions(grp: Group, grid) -> str | None:
    """Points per game by strategy (step lines) and by seat (bars side by side)."""
    series = [
        (st.name, st.points.histogram)
        for st in grp.strategies
        if st.points and st.points.histogram and st.points.histogram.values
    ]
    if not series:
        return None
    seats = []
    if grp.seat_bias and grp.players > 1:
        seats = [
            (s.label, s.points.histogram)
            for s in grp.seat_bias.seats
            if s.points and s.points.histogram and s.points.histogram.values
        ]
    drawn = [(n, *_shares(h, grid)) for n, h in series]
    seat_drawn = [(n, *_shares(h, grid)) for n, h in seats]
    everything = drawn + seat_drawn
    xlo = min(e[0] for _, e, _ in everything)
    xhi = max(e[-1] for _, e, _ in everything)
    yhi = max(max(s) for _, _, s in everything) * 1.08 or 1.0
    pw, ph = 330.0, 170.0
    panels = 2 if seat_drawn else 1
    fig = Figure(
        LEFT + panels * (pw + GAP) + 10, TOP + ph + 70, f"Score distributions: {grp.label}"
    )
    step = f" (bins of {grid[1]})" if grid and grid[1] > 1 else ""
    for c, (what, rows) in enumerate((("by strategy", drawn), ("by seat", seat_drawn))):
        if not rows:
            continue
        p = Panel(LEFT + c * (pw + GAP), TOP, pw, ph, xlo, xhi, 0.0, yhi)
        frame(
            fig,
            p,
            xticks=nice_ticks(xlo, xhi, 6),
            yticks=nice_ticks(0, yhi, 4),
            ylabels=[W.pct(t, 0) for t in nice_ticks(0, yhi, 4)],
        )
        fig.text(
            p.x + pw / 2, TOP - 8, f"{grp.label}: {what}", text_anchor="middle", class_="ptitle"
        )
        fig.text(
            p.x + pw / 2,
            TOP + ph + 32,
            "points per game" + step,
            text_anchor="middle",
            class_="axis",
        )
        legend(fig, p.x, TOP + ph + 54, [n for n, _, _ in rows])
        for i, (name, edges, shares) in enumerate(rows):
            if c == 0:
                stairs(fig, p, edges, shares, color(i), f"{name}: points per game")
                continue
            k = len(rows)
            for b, share in enumerate(shares):
                if share:
                    w = edges[b + 1] - edges[b]
                    x0 = edges[b] + w * (i + 0.05) / k
                    tip = (
                        f"{name}: {W.pct(share)} of games scored "
                        f"{_bin_text(edges[b], edges[b + 1])}"
                    )
                    bar(fig, p, x0, x0 + 0.9 * w / k, share, color(i), tip)
    fig.text(
        14,
        TOP + ph / 2,
        "share of games",
        class_="axis",
        text_anchor="middle",
        transform=f"rotate(-90 14 {TOP + ph / 2:.0f})",
    )
    return fig.svg("chart dist")


def _bin_text(lo: float, hi: float) -> str:
    a, b = lo + 0.5, hi - 0.5
    if float(a).is_integer() and float(b).is_integer():
        return f"{a:g}" if a == b else f"{a:g} to {b:g}"
    return f"{lo:g} to {hi:g}"


def balance_curve(data: dict[str, Any]) -> str | None:
    """The balance command's skill curve: each seat's share of the decisive games per
    rung, with intervals (dashed: a fair share)."""
    rungs = data.get("rungs") or []
    players = int(data.get("players") or 0)
    if not rungs or players < 2:
        return None
    pw, ph = max(260.0, 90.0 * len(rungs)), 190.0
    fig = _titled(
        LEFT + pw + 30,
        TOP + ph + 76,
        "Seat share by rung",
        "Seat share of the decisive games by rung (95% intervals)",
    )
    values = [1 / players] + [
        v for r in rungs for s in r["seat_share"] for v in (s["low"], s["high"]) if v is not None
    ]
    ylo, yhi = padded(min(values), max(values))
    p = Panel(LEFT, TOP, pw, ph, -0.5, len(rungs) - 0.5, ylo, yhi)
    ticks = nice_ticks(ylo, yhi, 5)
    frame(
        fig,
        p,
        xticks=list(range(len(rungs))),
        yticks=ticks,
        xlabels=[str(r["strategy"]) for r in rungs],
        ylabels=[W.pct(t, 0) for t in ticks],
    )
    y = p.py(1 / players)
    fig.line(p.x, y, p.x + p.w, y, "fair")
    for seat in range(players):
        shares = [r["seat_share"][seat] for r in rungs]
        pts = [(i, s) for i, s in enumerate(shares) if s["share"] is not None]
        offset = (seat - (players - 1) / 2) * 0.06
        if len(pts) > 1:
            d = "".join(
                f"{'M' if j == 0 else 'L'}{p.px(i + offset):.1f} {p.py(s['share']):.1f}"
                for j, (i, s) in enumerate(pts)
            )
            fig.add(f'<path class="curve" d="{d}" stroke="{color(seat)}"/>')
        for i, s in pts:
            tip = (
                f"{rungs[i]['strategy']}, seat {seat}: {W.pct(s['share'])} "
                f"[{W.pct(s['low'])}, {W.pct(s['high'])}] of {rungs[i]['decisive']} "
                "decisive games"
            )
            point(
                fig,
                p,
                i + offset,
                s["share"],
                s["low"],
                s["high"],
                tip,
                vertical=True,
                colour=color(seat),
            )
    fig.text(
        LEFT + pw / 2, TOP + ph + 34, "rung (weakest first)", text_anchor="middle", class_="axis"
    )
    legend(fig, LEFT, TOP + ph + 58, [f"seat {s}" for s in range(players)])
    return fig.svg("chart balance")
