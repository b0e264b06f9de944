"""Every plot rendered (Agg): its size, every title and tick label inside the figure
(measured with the renderer's text extents), shared scales, and no plot without
something to show."""

import numpy as np
import pytest
from synth_records import make_record, self_play, solo, two_player_round_robin

from simcli.report import plots
from simcli.report.api import build_summary

LONG = "mode=advanced,final_round_trigger=automatic_for_every_count,prominent_ties=split"


def _outside(fig) -> list[str]:
    """Titles, axis labels and tick labels that reach outside the figure."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    texts = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        texts += [ax.title, ax.xaxis.label, ax.yaxis.label]
        for axis in (ax.xaxis, ax.yaxis):  # the ticks drawn (inside the view limits)
            texts += [tick.label1 for tick in axis._update_ticks()]
    out = []
    for t in texts:
        if not t.get_visible() or not t.get_text():
            continue
        e = t.get_window_extent(renderer)
        if e.x0 < box.x0 - 0.5 or e.x1 > box.x1 + 0.5 or e.y0 < box.y0 - 0.5 or e.y1 > box.y1 + 0.5:
            out.append(t.get_text())
    return out


def _figures(summary) -> dict:
    out = {}
    for name, _title, build in plots.plot_builders(summary):
        fig = build()
        if fig is not None:
            out[name] = fig
    return out


@pytest.fixture(scope="module")
def sweep():
    """Three strategies over two variants, one of them with a very long name."""
    rng = np.random.default_rng(3)
    recs = []
    for variant, adv in (("base", 0.0), (LONG, 0.4)):
        recs += two_player_round_robin(
            {"A": 0.0, "B": -0.3, "C": -0.7}, 20, seat_advantage=adv, rng=rng, variant=variant
        )
    return build_summary(recs, natural=False)


@pytest.mark.slow
def test_every_plot_of_a_sweep_fits_its_figure(sweep):
    figs = _figures(sweep)
    assert set(figs) == {
        "winrate_matrix_base-2p.png",
        f"winrate_matrix_{plots._slug(LONG)}-2p.png",
        "seat_balance.png",
        "seat_bias_strategies.png",
        "ratings.png",
        "score_distributions.png",
    }
    for name, fig in figs.items():
        w, h = fig.get_size_inches()
        assert 4 <= w <= 24 and 3 <= h <= 24, (name, w, h)
        assert _outside(fig) == [], name
        plots._plt().close(fig)


@pytest.mark.slow
def test_seat_balance_one_column_per_variant_shared_scales_one_tick_per_seat(sweep):
    fig = plots.seat_balance(sweep.groups, 95)
    axes = np.array(fig.axes).reshape(2, 2)
    for row in axes:  # the variants share each row's scale
        assert row[0].get_ylim() == row[1].get_ylim()
    for ax in axes.ravel():
        assert [t.get_text() for t in ax.get_xticklabels()] == ["seat 0", "seat 1"]
        (points,) = [c for c in ax.containers]  # one errorbar: one point per seat tick
        assert len(points.lines[0].get_xdata()) == 2
    assert axes[0, 1].get_title().replace("\n", "") == LONG  # wrapped, not cut
    plots._plt().close(fig)


@pytest.mark.slow
def test_score_distributions_overlay_seats_and_strategies_on_one_scale(sweep):
    fig = plots.score_distributions(sweep.groups)
    axes = np.array(fig.axes).reshape(2, 2)
    xlims = {ax.get_xlim() for ax in axes.ravel()}
    assert len(xlims) == 1  # one x scale for every panel
    labels = [t.get_text() for t in axes[0, 1].get_legend().get_texts()]
    assert labels == ["seat 0", "seat 1"]
    labels = [t.get_text() for t in axes[0, 0].get_legend().get_texts()]
    assert labels == ["A", "B", "C"]
    plots._plt().close(fig)


@pytest.mark.slow
def test_plots_only_when_they_have_something_to_show():
    one = build_summary(self_play("G", 40), natural=False)  # one strategy, two seats
    assert set(_figures(one)) == {"seat_balance.png", "score_distributions.png"}
    alone = build_summary(solo({"a": 1.0, "b": 0.0}, 20), natural=False)
    assert set(_figures(alone)) == {"score_distributions.png"}
    pointless = build_summary(
        [make_record(("A", "B"), [0], None, seed=i) for i in range(4)], natural=False
    )
    assert "score_distributions.png" not in _figures(pointless)


def test_wrap_breaks_at_spaces_commas_and_equal_signs():
    assert plots.wrap("variant 'a=b,c=d'", 12) == ["variant 'a=", "b,c=d'"]
    assert plots.wrap("x" * 30, 12) == ["x" * 12, "x" * 12, "x" * 6]
    assert plots.wrap("final_round_trigger=auto", 20) == ["final_round_trigger=", "auto"]


@pytest.mark.slow
def test_score_histograms_have_whole_point_bins_and_seats_side_by_side():
    """Points over a wide range (more distinct values than the histogram keeps): the
    bins hold whole points, are the same for every line, and the seats are bars side by
    side instead of lines on top of one another."""
    import itertools
    import random

    from matplotlib.container import BarContainer
    from matplotlib.patches import StepPatch

    rng = random.Random(5)
    recs = []
    for k in range(60):
        for perm in itertools.permutations(["a", "b", "c"]):
            scores = [rng.randint(3, 76) for _ in range(3)]
            best = max(range(3), key=lambda s: (scores[s], -s))
            recs.append(make_record(perm, [best], scores, seed=k))
    summary = build_summary(recs, natural=False)
    hist = summary.groups[0].strategies[0].points.histogram
    assert hist.binned and float(hist.width).is_integer()
    assert all(float(v).is_integer() and v % hist.width == 0 for v in hist.values)
    fig = plots.score_distributions(summary.groups)
    by_strategy, by_seat = fig.axes[0], fig.axes[1]
    steps = [p for p in by_strategy.patches if isinstance(p, StepPatch)]
    assert len(steps) == 3
    edges = [tuple(p.get_data().edges) for p in steps]
    assert len(set(edges)) == 1  # one set of bins for every strategy
    step = edges[0][1] - edges[0][0]
    assert step == int(step) and all((e + 0.5) % step == 0 for e in edges[0])
    assert "bins of" in by_strategy.get_xlabel() or step == 1
    bars = [c for c in by_seat.containers if isinstance(c, BarContainer)]
    assert len(bars) == 3 and not [p for p in by_seat.patches if isinstance(p, StepPatch)]
    spans = sorted(
        (r.get_x(), r.get_x() + r.get_width()) for c in bars for r in c.patches if r.get_height()
    )
    assert all(a[1] <= b[0] + 1e-9 for a, b in itertools.pairwise(spans))  # no bar overlaps
    assert not _outside(fig)
    plots._plt().close(fig)
