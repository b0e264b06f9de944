"""PNG plots of the summary (matplotlib, imported lazily, headless Agg backend).

:func:`make_plots` writes the PNG files into ``out_dir/plots/`` and returns the
:class:`~simcli.stats.summary.PlotFile` list (``file`` relative to ``out_dir``), so
``report.md`` (in ``out_dir``) can link them. Each plot is built by a function that
returns the figure (or ``None`` when the summary has nothing for it to show), so that a
test can render it and measure it. Every plot keeps its titles inside the figure (long
labels wrap), gives every point its own labelled tick, and shares the scale of panels
that are compared (variants, groups).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simcli.stats.intervals import Interval
from simcli.stats.summary import Group, Histogram, PlotFile, Summary

MAX_GROUP_PLOTS = 12
PLOT_DIR = "plots"
OUR_FILES = (
    "winrate_matrix_*.png",
    "seat_balance.png",
    "seat_bias_strategies.png",
    "ratings.png",
    "score_distributions.png",
)
#: Files earlier versions wrote; removed with the stale plots of a folder.
FORMER_FILES = ("seat_bias_variants.png",)
#: Most bins of a drawn score distribution (integer points are grouped beyond it).
MAX_BINS = 30
#: Characters per inch of a title at the default title size (wrap below this).
CHARS_PER_INCH = 8.5


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "group"


def _err(iv: Any) -> tuple[float, float, float] | None:
    """``(estimate, below, above)`` of an interval-like value (errorbar lengths)."""
    if iv is None or iv.estimate is None:
        return None
    est = iv.estimate
    lo = iv.low if iv.low is not None else est
    hi = iv.high if iv.high is not None else est
    return est, est - lo, hi - est


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken after spaces, commas
    and equal signs (option names have no spaces), a longer word cut."""
    lines: list[str] = []
    line = ""
    for token in re.split(r"(?<=[ ,=])", text):
        if len(line) + len(token.rstrip()) > width and line:
            lines.append(line.rstrip())
            line = ""
        while len(token) > width:
            lines.append(token[:width])
            token = token[width:]
        line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _title(ax, text: str, width_in: float, **kw: Any) -> None:
    """A title wrapped to the width of its panel, so that it is never cut off."""
    width = max(12, int(width_in * CHARS_PER_INCH))
    ax.set_title("\n".join(wrap(text, width)), **kw)


def _panel_width(fig, ncols: int) -> float:
    return fig.get_size_inches()[0] / ncols


def make_plots(summary: Summary, out_dir: Path) -> list[PlotFile]:
    plt = _plt()
    plot_dir = Path(out_dir) / PLOT_DIR
    plot_dir.mkdir(parents=True, exist_ok=True)
    for pattern in OUR_FILES + FORMER_FILES:  # plots of an earlier report of this folder
        for stale in plot_dir.glob(pattern):
            stale.unlink()
    files: list[PlotFile] = []
    for name, title, build in plot_builders(summary):
        fig = build()
        if fig is None:
            continue
        fig.savefig(plot_dir / name, dpi=100)
        plt.close(fig)
        files.append(PlotFile(f"{PLOT_DIR}/{name}", title))
    return files


def plot_builders(summary: Summary) -> list[tuple[str, str, Callable[[], Any]]]:
    """``(file name, title, build)`` of every plot the summary may have; ``build()``
    returns the figure, or ``None`` when there is nothing to show."""
    groups = summary.groups[:MAX_GROUP_PLOTS]
    level = round(100 * summary.settings.confidence)
    multi = len(summary.groups) > 1
    out: list[tuple[str, str, Callable[[], Any]]] = []
    for grp in groups:
        title = f"Score matrix: {grp.label}" if multi else "Score matrix"
        out.append(
            (
                f"winrate_matrix_{_slug(grp.id)}.png",
                title,
                lambda grp=grp, title=title: score_matrix(grp, title),
            )
        )
    out += [
        ("seat_balance.png", "Seat balance", lambda: seat_balance(groups, level)),
        (
            "seat_bias_strategies.png",
            "Seat win rates per strategy",
            lambda: seat_strategies(groups),
        ),
        ("ratings.png", "Ratings with intervals", lambda: ratings(groups, level)),
        ("score_distributions.png", "Score distributions", lambda: score_distributions(groups)),
    ]
    return out


# ----------------------------------------------------------------------------- the plots


def score_matrix(grp: Group, title: str):
    """Heatmap of the pairwise score rates (row against column)."""
    pw = grp.pairwise
    if pw is None or len(pw.names) < 2:
        return None
    import numpy as np

    names = pw.names
    k = len(names)
    mat = np.full((k, k), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            c = pw.cell(a, b)
            if c and c.rate.estimate is not None:
                mat[i, j] = c.rate.estimate
    size = max(5.0, 0.9 * k + 3.0)
    fig, ax = _plt().subplots(figsize=(size, size * 0.85), layout="constrained")
    im = ax.imshow(np.ma.masked_invalid(mat), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(k), names, rotation=45, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if not np.isnan(mat[i, j]):
                ax.text(j, i, f"{100 * mat[i, j]:.0f}%", ha="center", va="center", fontsize=9)
    fig.colorbar(im, ax=ax, label="row's score against column")
    _title(ax, title, size * 0.7)
    ax.set_xlabel("column (opponent)")
    ax.set_ylabel("row")
    return fig


def seat_balance(groups: list[Group], level: int):
    """Per group (variant) and seat: share of the decisive games won and mean points,
    one column per group, the same y scale in each row."""
    seated = [g for g in groups if g.seat_bias and g.seat_bias.seats]
    if not seated:
        return None
    n = len(seated)
    width = max(5.0, 1.2 + 2.2 * n)
    fig, axes = _plt().subplots(
        2, n, figsize=(width, 6.4), squeeze=False, sharey="row", layout="constrained"
    )
    for col, grp in enumerate(seated):
        seats = grp.seat_bias.seats  # type: ignore[union-attr]
        xs = list(range(len(seats)))
        labels = [seat.label for seat in seats]
        rows = (
            ([seat.decisive_rate for seat in seats], "share of decisive games won"),
            ([seat.points.interval if seat.points else None for seat in seats], "mean points"),
        )
        for row, (ivs, ylabel) in enumerate(rows):
            ax = axes[row, col]
            _errorbars(ax, xs, ivs, vertical=True)
            ax.set_xticks(xs, labels)
            ax.set_xlim(-0.6, len(seats) - 0.4)
            if col == 0:
                ax.set_ylabel(ylabel)
        axes[0, col].axhline(1 / grp.players, color="grey", lw=0.8, ls="dotted")
        _title(axes[0, col], grp.variant or grp.label, _panel_width(fig, n), fontsize=10)
    fig.suptitle(f"Seat balance ({level}% intervals; dotted: a fair share)")
    return fig


def seat_strategies(groups: list[Group]):
    """Per strategy and seat: its share of its decisive games won (one tick per strategy
    and seat), the same x scale for every group."""
    shown = [g for g in groups if g.seat_bias and len(g.seat_bias.by_strategy) > 1]
    if not shown:
        return None
    ticks = [len(g.seat_bias.by_strategy) * g.players for g in shown]  # type: ignore[union-attr]
    fig, axes = _stacked(7.5, ticks, 0.3, 1.2)
    for ax, grp in zip(axes[:, 0], shown, strict=True):
        rows = grp.seat_bias.by_strategy  # type: ignore[union-attr]
        labels, ivs = [], []
        for r in rows:
            for seat in r.seats:
                labels.append(f"{r.strategy} ({r.source}), seat {seat.seat}")
                ivs.append(seat.rate)
        ys = list(range(len(labels)))
        _errorbars(ax, ys, ivs, vertical=False)
        ax.set_yticks(ys, labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        _title(ax, f"Seat win rates by strategy: {grp.label}", 7.5, fontsize=10)
    axes[-1, 0].set_xlabel("share of its decisive games won")
    return fig


def ratings(groups: list[Group], level: int):
    """Ratings with intervals, the same Elo scale for every group."""
    rated = [g for g in groups if g.rated and len(g.rated.rated) > 1]
    if not rated:
        return None
    sizes = [len(g.rated.rated) for g in rated]  # type: ignore[union-attr]
    fig, axes = _stacked(6.5, sizes, 0.45, 1.4)
    for ax, grp in zip(axes[:, 0], rated, strict=True):
        rt = grp.rated
        assert rt is not None
        rows = rt.rated
        ys = list(range(len(rows)))
        spans = [Interval(r.elo, r.low, r.high, rt.games, "wald") for r in rows]
        _errorbars(ax, ys, spans, vertical=False)
        ax.set_yticks(ys, [r.name for r in rows])
        ax.invert_yaxis()
        ax.axvline(0, color="grey", lw=0.8, ls="dotted")
        _title(ax, f"Ratings with {level}% intervals: {grp.label}", 6.5, fontsize=10)
        ax.set_xlabel(f"model Elo (anchor {', '.join(rt.anchors)} = 0)")
    return fig


def score_distributions(groups: list[Group]):
    """Points per game per strategy and (two or more seats) per seat, one row per group,
    the same x scale and, for whole-number points, the same bins everywhere: each bin
    centred on whole points. Strategies are step lines; the seats of a bin are bars side
    by side, so that seats with similar scores do not hide one another."""
    shown = [g for g in groups if any(st.points and st.points.n for st in g.strategies)][:6]
    if not shown:
        return None
    ncols = 2 if any(g.players > 1 for g in shown) else 1
    width = 5.0 * ncols + 0.5
    fig, axes = _plt().subplots(
        len(shown),
        ncols,
        figsize=(width, 3.0 * len(shown) + 0.4),
        squeeze=False,
        sharex=True,
        layout="constrained",
    )
    hists = [st.points.histogram for g in shown for st in g.strategies if st.points]
    hists += [
        seat.points.histogram
        for g in shown
        if g.seat_bias
        for seat in g.seat_bias.seats
        if seat.points
    ]
    grid = integer_grid([h for h in hists if h is not None])
    for row, grp in enumerate(shown):
        ax = axes[row, 0]
        for st in grp.strategies:
            _stairs(ax, st.points.histogram if st.points else None, st.name, grid)
        _title(ax, f"{grp.label}: by strategy", _panel_width(fig, ncols), fontsize=10)
        ax.set_ylabel("share of games")
        ax.legend(fontsize=8)
        if ncols == 2:
            ax = axes[row, 1]
            if grp.seat_bias:
                seats = grp.seat_bias.seats
                shares = [seat.points.histogram if seat.points else None for seat in seats]
                _seat_bars(ax, shares, [seat.label for seat in seats], grid)
                _title(ax, f"{grp.label}: by seat", _panel_width(fig, ncols), fontsize=10)
                ax.legend(fontsize=8)
            else:
                ax.set_axis_off()
    for ax in axes[-1, :]:
        ax.set_xlabel("points per game" + (f" (bins of {grid[1]})" if grid and grid[1] > 1 else ""))
    return fig


def integer_grid(hists: list[Histogram]) -> tuple[int, int, int] | None:
    """``(first, step, bins)``: one set of whole-number bins ``[first + i step, first +
    (i + 1) step)`` for every histogram of a plot (at most :data:`MAX_BINS`), or None
    when the points are not whole numbers. ``step`` is a multiple of every histogram's
    own bin width and the bins start at multiples of it, so every bin of every
    histogram falls into exactly one of them."""
    import math

    lows, highs, widths = [], [], [1]
    for h in hists:
        if not h.values:
            continue
        w = h.width if h.binned else 1
        if not all(float(v).is_integer() for v in h.values) or not float(w or 0).is_integer():
            return None
        widths.append(int(w))
        lows.append(int(h.values[0]))
        highs.append(int(h.values[-1]) + int(w) - 1)
    if not lows:
        return None
    lo, hi = min(lows), max(highs)
    unit = math.lcm(*widths)
    step = unit
    while hi // step - lo // step + 1 > MAX_BINS:
        step += unit
    first = (lo // step) * step
    return first, step, hi // step - lo // step + 1


def _shares_on(h: Histogram, grid: tuple[int, int, int]) -> list[float]:
    first, step, bins = grid
    out = [0.0] * bins
    total = sum(h.counts)
    for v, c in zip(h.values, h.counts, strict=True):
        out[(int(v) - first) // step] += c / total
    return out


# ----------------------------------------------------------------------------- drawing


def _stacked(width: float, ticks: list[int], per_tick: float, per_panel: float):
    """One panel per group, stacked, sharing the x scale, each as tall as its ticks."""
    return _plt().subplots(
        len(ticks),
        1,
        figsize=(width, sum(per_tick * t + per_panel for t in ticks)),
        squeeze=False,
        sharex=True,
        height_ratios=ticks,
        layout="constrained",
    )


def _errorbars(ax, positions: list[int], ivs: list[Any], *, vertical: bool) -> None:
    """One point with its interval per position (positions without a value skipped)."""
    pos, est, lo, hi = [], [], [], []
    for p, iv in zip(positions, ivs, strict=True):
        e = _err(iv)
        if e is None:
            continue
        pos.append(p)
        est.append(e[0])
        lo.append(e[1])
        hi.append(e[2])
    if vertical:
        ax.errorbar(pos, est, yerr=[lo, hi], fmt="o", capsize=3)
    else:
        ax.errorbar(est, pos, xerr=[lo, hi], fmt="o", capsize=3)


def _edges(grid: tuple[int, int, int]) -> list[float]:
    """Bin edges half a point below whole points: a bin of one point is centred on it."""
    first, step, bins = grid
    return [first - 0.5 + i * step for i in range(bins + 1)]


def _stairs(ax, h: Histogram | None, label: str, grid: tuple[int, int, int] | None) -> None:
    """A histogram as a step line of shares, on the plot's whole-number bins when it
    has them."""
    if h is None or not h.values:
        return
    if grid is not None:
        ax.stairs(_shares_on(h, grid), _edges(grid), label=label)
        return
    total = sum(h.counts)
    xs = list(h.values)
    ys = [c / total for c in h.counts]
    if h.binned:
        ax.stairs(ys, xs + [xs[-1] + (h.width or 1.0)], label=label)
        return
    ax.plot(xs, ys, marker="o", ms=3, label=label)


def _seat_bars(
    ax, hists: list[Histogram | None], labels: list[str], grid: tuple[int, int, int] | None
) -> None:
    """The seats' histograms as bars side by side within each bin (lines of several
    seats with similar scores would hide one another)."""
    if grid is None:  # points that are not whole numbers: step lines
        for h, label in zip(hists, labels, strict=True):
            _stairs(ax, h, label, None)
        return
    edges = _edges(grid)
    step = grid[1]
    k = len(hists)
    for i, (h, label) in enumerate(zip(hists, labels, strict=True)):
        if h is None or not h.values:
            continue
        shares = _shares_on(h, grid)
        xs = [edges[b] + step * (i + 0.5) / k for b in range(len(shares))]
        ax.bar(xs, shares, width=0.9 * step / k, label=label)
