"""Drawing primitives for the inline SVG charts of ``report.html``: a figure, panels with
linear scales, ticks, points with intervals whose tooltip (an SVG ``<title>``) gives the
value and interval, step lines and bars. Pure string building, no dependencies."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape

#: matplotlib's default colour cycle, so the charts match the PNG plots.
COLORS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


def color(i: int) -> str:
    return COLORS[i % len(COLORS)]


def f(x: float) -> str:
    """A coordinate, short."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def attr(value: object) -> str:
    return escape(str(value), quote=True)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[lo, hi]`` (about ``count`` of them)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    v = first
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 10))
        v += step
    return ticks


def padded(lo: float, hi: float, share: float = 0.08) -> tuple[float, float]:
    """``[lo, hi]`` widened by ``share`` on each side (a point range gets width one)."""
    if hi <= lo:
        return lo - 0.5, hi + 0.5
    pad = (hi - lo) * share
    return lo - pad, hi + pad


def text_width(text: str, size: float = 11.0) -> float:
    """Pixels a line of text takes, estimated (a sans-serif font's average advance)."""
    return 0.62 * size * len(text)


def tick_label(v: float) -> str:
    return f"{v:g}"


@dataclass
class Panel:
    """A plotting area at ``(x, y)`` of size ``w`` x ``h`` pixels with data ranges."""

    x: float
    y: float
    w: float
    h: float
    xlo: float
    xhi: float
    ylo: float
    yhi: float

    def px(self, v: float) -> float:
        return self.x + (v - self.xlo) / (self.xhi - self.xlo) * self.w

    def py(self, v: float) -> float:
        return self.y + self.h - (v - self.ylo) / (self.yhi - self.ylo) * self.h


@dataclass
class Figure:
    """An SVG figure under construction (``parts`` are SVG elements)."""

    width: float
    height: float
    title: str
    parts: list[str] = field(default_factory=list)

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, text: str, **kw: str) -> None:
        extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{attr(v)}"' for k, v in kw.items())
        self.add(f'<text x="{f(x)}" y="{f(y)}"{extra}>{escape(text)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        self.add(f'<line x1="{f(x1)}" y1="{f(y1)}" x2="{f(x2)}" y2="{f(y2)}"{c}/>')

    def svg(self, cls: str = "chart") -> str:
        body = "".join(self.parts)
        return (
            f'<svg class="{cls}" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="0 0 {f(self.width)} {f(self.height)}" width="{f(self.width)}" '
            f'height="{f(self.height)}"><title>{escape(self.title)}</title>{body}</svg>'
        )


def frame(
    fig: Figure,
    p: Panel,
    *,
    xticks: list[float] | None,
    yticks: list[float] | None,
    xlabels: list[str] | None = None,
    ylabels: list[str] | None = None,
) -> None:
    """The panel's box, grid lines and tick labels (``*labels`` replace the numbers)."""
    fig.add(f'<rect class="box" x="{f(p.x)}" y="{f(p.y)}" width="{f(p.w)}" height="{f(p.h)}"/>')
    for i, v in enumerate(yticks or []):
        y = p.py(v)
        fig.line(p.x, y, p.x + p.w, y, "grid")
        label = ylabels[i] if ylabels else tick_label(v)
        fig.text(p.x - 4, y + 4, label, text_anchor="end", class_="tick")
    for i, v in enumerate(xticks or []):
        x = p.px(v)
        fig.line(x, p.y, x, p.y + p.h, "grid")
        label = xlabels[i] if xlabels else tick_label(v)
        fig.text(x, p.y + p.h + 14, label, text_anchor="middle", class_="tick")


def point(
    fig: Figure,
    p: Panel,
    pos: float,
    est: float,
    low: float | None,
    high: float | None,
    tip: str,
    *,
    vertical: bool,
    colour: str = COLORS[0],
) -> None:
    """A point with its interval at ``pos``; hovering shows ``tip``. The raw figures are
    kept as data attributes (tests compare them with ``summary.json``)."""
    lo = est if low is None else low
    hi = est if high is None else high
    data = f'data-est="{est!r}" data-low="{lo!r}" data-high="{hi!r}"'
    if vertical:
        cx, cy, a, b = p.px(pos), p.py(est), p.py(lo), p.py(hi)
        bar = f'<path d="M{f(cx)} {f(a)}V{f(b)}M{f(cx - 4)} {f(a)}h8M{f(cx - 4)} {f(b)}h8"/>'
    else:
        cx, cy, a, b = p.px(est), p.py(pos), p.px(lo), p.px(hi)
        bar = f'<path d="M{f(a)} {f(cy)}H{f(b)}M{f(a)} {f(cy - 4)}v8M{f(b)} {f(cy - 4)}v8"/>'
    fig.add(
        f'<g class="pt" {data} stroke="{colour}" fill="{colour}"><title>{escape(tip)}</title>'
        f'{bar}<circle cx="{f(cx)}" cy="{f(cy)}" r="4"/></g>'
    )


def stairs(
    fig: Figure, p: Panel, edges: list[float], heights: list[float], colour: str, tip: str
) -> None:
    """A histogram as a step line (``len(edges) == len(heights) + 1``)."""
    d = [f"M{f(p.px(edges[0]))} {f(p.py(0))}"]
    for i, h in enumerate(heights):
        d.append(f"V{f(p.py(h))}H{f(p.px(edges[i + 1]))}")
    d.append(f"V{f(p.py(0))}")
    fig.add(
        f'<path class="stairs" d="{"".join(d)}" stroke="{colour}"><title>{escape(tip)}</title>'
        "</path>"
    )


def bar(fig: Figure, p: Panel, x0: float, x1: float, height: float, colour: str, tip: str) -> None:
    top = p.py(height)
    fig.add(
        f'<rect x="{f(p.px(x0))}" y="{f(top)}" width="{f(max(0.5, p.px(x1) - p.px(x0)))}" '
        f'height="{f(p.py(0) - top)}" fill="{colour}"><title>{escape(tip)}</title></rect>'
    )


def legend(fig: Figure, x: float, y: float, names: list[str]) -> None:
    """Colour keys in a row starting at ``(x, y)``."""
    for i, name in enumerate(names):
        fig.add(f'<rect x="{f(x)}" y="{f(y - 8)}" width="10" height="10" fill="{color(i)}"/>')
        fig.text(x + 14, y + 1, name, class_="tick")
        x += 26 + text_width(name)


def diverging(v: float) -> str:
    """Red (0) to white (0.5) to blue (1), as matplotlib's RdBu."""
    v = min(1.0, max(0.0, v))
    red, white, blue = (178, 24, 43), (247, 247, 247), (33, 102, 172)
    a, b, t = (red, white, v * 2) if v < 0.5 else (white, blue, v * 2 - 1)
    r, g, bl = (round(a[i] + (b[i] - a[i]) * t) for i in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"
