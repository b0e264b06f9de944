"""PNG plots of the summary (matplotlib, imported lazily, headless Agg backend).

:func:`make_plots` writes the PNG files into ``out_dir/plots/`` and returns
``[{"file": "plots/<name>.png", "title": text}, ...]``: paths relative to ``out_dir``, so
``report.md`` (in ``out_dir``) can link them.
"""

from __future__ import annotations

import re
from pathlib import Path

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


def _err(iv: dict) -> tuple[float, float, float] | None:
    if not iv or iv.get("estimate") is None:
        return None
    est = iv["estimate"]
    lo = iv.get("low") if iv.get("low") is not None else est
    hi = iv.get("high") if iv.get("high") is not None else est
    return est, est - lo, hi - est


def make_plots(summary: dict, out_dir: Path) -> list[dict]:
    plt = _plt()
    plot_dir = Path(out_dir) / PLOT_DIR
    plot_dir.mkdir(parents=True, exist_ok=True)
    for pattern in OUR_FILES:  # plots of an earlier report of this folder
        for stale in plot_dir.glob(pattern):
            stale.unlink()
    files: list[dict] = []
    groups = summary["groups"][:MAX_GROUP_PLOTS]

    def save(fig, name: str, title: str) -> None:
        fig.savefig(plot_dir / name, dpi=100)
        plt.close(fig)
        files.append({"file": f"{PLOT_DIR}/{name}", "title": title})

    multi_groups = len(summary["groups"]) > 1
    level = round(100 * summary["settings"]["confidence"])
    # 1. win-rate matrix heatmaps
    for grp in groups:
        pw = grp.get("pairwise")
        if not pw or len(pw["names"]) < 2:
            continue
        names = pw["names"]
        k = len(names)
        import numpy as np

        mat = np.full((k, k), np.nan)
        cells = {(c["row"], c["col"]): c for c in pw["cells"]}
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                c = cells.get((a, b))
                if c and c["rate"].get("estimate") is not None:
                    mat[i, j] = c["rate"]["estimate"]
        size = max(4.0, 0.9 * k + 2.5)
        fig, ax = plt.subplots(figsize=(size, size * 0.85), layout="constrained")
        im = ax.imshow(np.ma.masked_invalid(mat), cmap="RdBu", vmin=0, vmax=1)
        ax.set_xticks(range(k), names, rotation=45, ha="right")
        ax.set_yticks(range(k), names)
        for i in range(k):
            for j in range(k):
                if not np.isnan(mat[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{100 * mat[i, j]:.0f}%",
                        ha="center",
                        va="center",
                        fontsize=9,
                        color="black",
                    )
        fig.colorbar(im, ax=ax, label="row's score against column")
        title = f"Score matrix: {grp['label']}" if multi_groups else "Score matrix"
        ax.set_title(title)
        ax.set_xlabel("column (opponent)")
        ax.set_ylabel("row")
        save(fig, f"winrate_matrix_{_slug(grp['id'])}.png", title)
    # 2. seat win rates per variant (group)
    seat_groups = [g for g in groups if g.get("seat_bias")]
    if seat_groups:
        fig, ax = plt.subplots(
            figsize=(max(5.0, 1.2 * len(seat_groups) + 3), 4), layout="constrained"
        )
        max_seats = max(g["players"] for g in seat_groups)
        width = 0.8 / max_seats
        for s in range(max_seats):
            xs, ys, lo, hi = [], [], [], []
            for i, grp in enumerate(seat_groups):
                if s >= grp["players"]:
                    continue
                e = _err(grp["seat_bias"]["seats"][s]["decisive_rate"])
                if e is None:
                    continue
                xs.append(i + (s - (max_seats - 1) / 2) * width)
                ys.append(e[0])
                lo.append(e[1])
                hi.append(e[2])
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label=f"seat {s}")
        for grp_i, grp in enumerate(seat_groups):
            ax.hlines(
                1 / grp["players"], grp_i - 0.45, grp_i + 0.45, colors="grey", linestyles="dotted"
            )
        rotate = len(seat_groups) > 3
        ax.set_xticks(
            range(len(seat_groups)),
            [g["label"] for g in seat_groups],
            rotation=30 if rotate else 0,
            ha="right" if rotate else "center",
        )
        ax.set_ylabel("share of decisive games won")
        ax.set_title(f"Seat win rates ({level}% intervals; dotted: no seat effect)")
        ax.legend(fontsize=8)
        save(fig, "seat_bias_variants.png", "Seat win rates per variant")
    # 3. seat win rates per strategy
    strat_groups = [g for g in seat_groups if g["seat_bias"]["by_strategy"]]
    if strat_groups:
        fig, axes = plt.subplots(
            len(strat_groups),
            1,
            figsize=(7, 3.2 * len(strat_groups)),
            squeeze=False,
            layout="constrained",
        )
        for ax, grp in zip(axes[:, 0], strat_groups, strict=True):
            rows = grp["seat_bias"]["by_strategy"]
            n = grp["players"]
            width = 0.8 / n
            for s in range(n):
                xs, ys, lo, hi = [], [], [], []
                for i, row in enumerate(rows):
                    e = _err(row["seats"][s]["rate"])
                    if e is None:
                        continue
                    xs.append(i + (s - (n - 1) / 2) * width)
                    ys.append(e[0])
                    lo.append(e[1])
                    hi.append(e[2])
                ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label=f"seat {s}")
            ax.set_xticks(
                range(len(rows)), [f"{r['strategy']}\n({r['source']})" for r in rows], fontsize=8
            )
            ax.set_ylabel("decisive games won")
            ax.set_title(f"Seat win rates by strategy: {grp['label']}")
            ax.legend(fontsize=8)
        save(fig, "seat_bias_strategies.png", "Seat win rates per strategy")
    # 4. ratings
    rated = [g for g in groups if g.get("ratings") and g["ratings"].get("ratings")]
    rated = [g for g in rated if sum(r["elo"] is not None for r in g["ratings"]["ratings"]) > 1]
    if rated:
        fig, axes = plt.subplots(
            len(rated),
            1,
            figsize=(
                6.5,
                0.45 * sum(len(g["ratings"]["ratings"]) for g in rated) + 1.6 * len(rated),
            ),
            squeeze=False,
            layout="constrained",
        )
        for ax, grp in zip(axes[:, 0], rated, strict=True):
            rows = [r for r in grp["ratings"]["ratings"] if r["elo"] is not None]
            ys = range(len(rows))
            est = [r["elo"] for r in rows]
            lo = [r["elo"] - (r["low"] if r["low"] is not None else r["elo"]) for r in rows]
            hi = [(r["high"] if r["high"] is not None else r["elo"]) - r["elo"] for r in rows]
            ax.errorbar(est, list(ys), xerr=[lo, hi], fmt="o", capsize=3)
            ax.set_yticks(list(ys), [r["name"] for r in rows])
            ax.axvline(0, color="grey", lw=0.8, ls="dotted")
            ax.set_xlabel(f"Elo (anchor {', '.join(grp['ratings']['anchors'])} = 0)")
            ax.set_title(f"Ratings with {level}% intervals: {grp['label']}")
        save(fig, "ratings.png", "Ratings with intervals")
    # 5. score distributions
    scored = [g for g in groups if any(st["points"]["n"] for st in g["strategies"])]
    if scored:
        fig, axes = plt.subplots(
            len(scored), 1, figsize=(7, 3.2 * len(scored)), squeeze=False, layout="constrained"
        )
        for ax, grp in zip(axes[:, 0], scored, strict=True):
            for st in grp["strategies"]:
                h = st["points"].get("histogram") or {}
                if not h.get("values"):
                    continue
                total = sum(h["counts"])
                width = h.get("width") or 1.0
                xs = list(h["values"])
                ys = [c / total for c in h["counts"]]
                integral = all(float(x).is_integer() for x in xs)
                if not h.get("binned") and integral and xs[-1] - xs[0] <= 200:
                    # complete the integer range so that missing values show as 0
                    full = dict(zip(xs, ys, strict=True))
                    xs = list(range(int(xs[0]), int(xs[-1]) + 1))
                    ys = [full.get(x, 0.0) for x in xs]
                    edges = [x - 0.5 for x in xs] + [xs[-1] + 0.5]
                    ax.stairs(ys, edges, label=st["name"])
                elif h.get("binned"):
                    ax.stairs(ys, xs + [xs[-1] + width], label=st["name"])
                else:
                    ax.plot(xs, ys, marker="o", ms=3, label=st["name"])
            ax.set_xlabel("points per game")
            ax.set_ylabel("share of games")
            ax.set_title(f"Score distribution: {grp['label']}")
            ax.legend(fontsize=8)
        save(fig, "score_distributions.png", "Score distributions")
    return files
