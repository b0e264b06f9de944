"""PNG plots of the summary (matplotlib, imported lazily, headless Agg backend).

:func:`make_plots` writes the PNG files into ``out_dir/plots/`` and returns
the :class:`~simcli.stats.summary.PlotFile` list (``file`` relative to ``out_dir``), so
``report.md`` (in ``out_dir``) can link them.
"""

from __future__ import annotations

import re
from pathlib import Path

from simcli.stats.intervals import Interval
from simcli.stats.summary import Group, Pairwise, PlotFile, Summary

MAX_GROUP_PLOTS = 12
PLOT_DIR = "plots"
OUR_FILES = (
    "winrate_matrix_*.png",
    "seat_bias_variants.png",
    "seat_bias_strategies.png",
    "ratings.png",
    "score_distributions.png",
)


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "group"


def _err(iv: Interval | None) -> tuple[float, float, float] | None:
    if iv is None or iv.estimate is None:
        return None
    est = iv.estimate
    lo = iv.low if iv.low is not None else est
    hi = iv.high if iv.high is not None else est
    return est, est - lo, hi - est


class _Plots:
    """The plot folder and the list of files written."""

    def __init__(self, out_dir: Path) -> None:
        self.plt = _plt()
        self.dir = Path(out_dir) / PLOT_DIR
        self.dir.mkdir(parents=True, exist_ok=True)
        for pattern in OUR_FILES:  # plots of an earlier report of this folder
            for stale in self.dir.glob(pattern):
                stale.unlink()
        self.files: list[PlotFile] = []

    def save(self, fig, name: str, title: str) -> None:
        fig.savefig(self.dir / name, dpi=100)
        self.plt.close(fig)
        self.files.append(PlotFile(f"{PLOT_DIR}/{name}", title))


def make_plots(summary: Summary, out_dir: Path) -> list[PlotFile]:
    plots = _Plots(out_dir)
    groups = summary.groups[:MAX_GROUP_PLOTS]
    multi_groups = len(summary.groups) > 1
    level = round(100 * summary.settings.confidence)
    for grp in groups:
        if grp.pairwise and len(grp.pairwise.names) >= 2:
            _score_matrix(plots, grp, grp.pairwise, multi_groups)
    seat_groups = [g for g in groups if g.seat_bias]
    if seat_groups:
        _seat_variants(plots, seat_groups, level)
    strat_groups = [g for g in seat_groups if g.seat_bias and g.seat_bias.by_strategy]
    if strat_groups:
        _seat_strategies(plots, strat_groups)
    rated = [g for g in groups if g.rated and len(g.rated.rated) > 1]
    if rated:
        _ratings(plots, rated, level)
    scored = [g for g in groups if any(st.points and st.points.n for st in g.strategies)]
    if scored:
        _score_distributions(plots, scored)
    return plots.files


def _score_matrix(plots: _Plots, grp: Group, pw: Pairwise, multi_groups: bool) -> None:
    """Win-rate matrix heatmap."""
    import numpy as np

    plt = plots.plt
    names = pw.names
    k = len(names)
    mat = np.full((k, k), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            c = pw.cell(a, b)
            if c and c.rate.estimate is not None:
                mat[i, j] = c.rate.estimate
    size = max(4.0, 0.9 * k + 2.5)
    fig, ax = plt.subplots(figsize=(size, size * 0.85), layout="constrained")
    im = ax.imshow(np.ma.masked_invalid(mat), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(k), names, rotation=45, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if not np.isnan(mat[i, j]):
                ax.text(j, i, f"{100 * mat[i, j]:.0f}%", ha="center", va="center", fontsize=9)
    fig.colorbar(im, ax=ax, label="row's score against column")
    title = f"Score matrix: {grp.label}" if multi_groups else "Score matrix"
    ax.set_title(title)
    ax.set_xlabel("column (opponent)")
    ax.set_ylabel("row")
    plots.save(fig, f"winrate_matrix_{_slug(grp.id)}.png", title)


def _seat_variants(plots: _Plots, seat_groups: list[Group], level: int) -> None:
    """Seat win rates per variant (group)."""
    fig, ax = plots.plt.subplots(
        figsize=(max(5.0, 1.2 * len(seat_groups) + 3), 4), layout="constrained"
    )
    max_seats = max(g.players for g in seat_groups)
    width = 0.8 / max_seats
    for s in range(max_seats):
        xs, ys, lo, hi = [], [], [], []
        for i, grp in enumerate(seat_groups):
            if s >= grp.players:
                continue
            e = _err(grp.seat_bias.seats[s].decisive_rate)  # type: ignore[union-attr]
            if e is None:
                continue
            xs.append(i + (s - (max_seats - 1) / 2) * width)
            ys.append(e[0])
            lo.append(e[1])
            hi.append(e[2])
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label=f"seat {s}")
    for grp_i, grp in enumerate(seat_groups):
        ax.hlines(1 / grp.players, grp_i - 0.45, grp_i + 0.45, colors="grey", linestyles="dotted")
    rotate = len(seat_groups) > 3
    ax.set_xticks(
        range(len(seat_groups)),
        [g.label for g in seat_groups],
        rotation=30 if rotate else 0,
        ha="right" if rotate else "center",
    )
    ax.set_ylabel("share of decisive games won")
    ax.set_title(f"Seat win rates ({level}% intervals; dotted: no seat effect)")
    ax.legend(fontsize=8)
    plots.save(fig, "seat_bias_variants.png", "Seat win rates per variant")


def _seat_strategies(plots: _Plots, strat_groups: list[Group]) -> None:
    """Seat win rates per strategy."""
    fig, axes = plots.plt.subplots(
        len(strat_groups),
        1,
        figsize=(7, 3.2 * len(strat_groups)),
        squeeze=False,
        layout="constrained",
    )
    for ax, grp in zip(axes[:, 0], strat_groups, strict=True):
        rows = grp.seat_bias.by_strategy  # type: ignore[union-attr]
        n = grp.players
        width = 0.8 / n
        for s in range(n):
            xs, ys, lo, hi = [], [], [], []
            for i, row in enumerate(rows):
                e = _err(row.seats[s].rate)
                if e is None:
                    continue
                xs.append(i + (s - (n - 1) / 2) * width)
                ys.append(e[0])
                lo.append(e[1])
                hi.append(e[2])
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label=f"seat {s}")
        ax.set_xticks(range(len(rows)), [f"{r.strategy}\n({r.source})" for r in rows], fontsize=8)
        ax.set_ylabel("decisive games won")
        ax.set_title(f"Seat win rates by strategy: {grp.label}")
        ax.legend(fontsize=8)
    plots.save(fig, "seat_bias_strategies.png", "Seat win rates per strategy")


def _ratings(plots: _Plots, rated: list[Group], level: int) -> None:
    """Ratings with intervals."""
    fig, axes = plots.plt.subplots(
        len(rated),
        1,
        figsize=(
            6.5,
            0.45 * sum(len(g.rated.ratings) for g in rated) + 1.6 * len(rated),  # type: ignore[union-attr]
        ),
        squeeze=False,
        layout="constrained",
    )
    for ax, grp in zip(axes[:, 0], rated, strict=True):
        rt = grp.rated
        assert rt is not None
        rows = rt.rated
        ys = range(len(rows))
        est = [r.elo for r in rows]
        lo = [r.elo - (r.low if r.low is not None else r.elo) for r in rows]  # type: ignore[operator]
        hi = [(r.high if r.high is not None else r.elo) - r.elo for r in rows]  # type: ignore[operator]
        ax.errorbar(est, list(ys), xerr=[lo, hi], fmt="o", capsize=3)
        ax.set_yticks(list(ys), [r.name for r in rows])
        ax.axvline(0, color="grey", lw=0.8, ls="dotted")
        ax.set_xlabel(f"Elo (anchor {', '.join(rt.anchors)} = 0)")
        ax.set_title(f"Ratings with {level}% intervals: {grp.label}")
    plots.save(fig, "ratings.png", "Ratings with intervals")


def _score_distributions(plots: _Plots, scored: list[Group]) -> None:
    fig, axes = plots.plt.subplots(
        len(scored), 1, figsize=(7, 3.2 * len(scored)), squeeze=False, layout="constrained"
    )
    for ax, grp in zip(axes[:, 0], scored, strict=True):
        for st in grp.strategies:
            h = st.points.histogram if st.points else None
            if not h or not h.values:
                continue
            total = sum(h.counts)
            width = h.width or 1.0
            xs = list(h.values)
            ys = [c / total for c in h.counts]
            integral = all(float(x).is_integer() for x in xs)
            if not h.binned and integral and xs[-1] - xs[0] <= 200:
                # complete the integer range so that missing values show as 0
                full = dict(zip(xs, ys, strict=True))
                xs = list(range(int(xs[0]), int(xs[-1]) + 1))
                ys = [full.get(x, 0.0) for x in xs]
                edges = [x - 0.5 for x in xs] + [xs[-1] + 0.5]
                ax.stairs(ys, edges, label=st.name)
            elif h.binned:
                ax.stairs(ys, xs + [xs[-1] + width], label=st.name)
            else:
                ax.plot(xs, ys, marker="o", ms=3, label=st.name)
        ax.set_xlabel("points per game")
        ax.set_ylabel("share of games")
        ax.set_title(f"Score distribution: {grp.label}")
        ax.legend(fontsize=8)
    plots.save(fig, "score_distributions.png", "Score distributions")
