import math

import numpy as np
import pytest

from simcli.stats.ratings import (
    ELO_PER_NAT,
    bt_fit,
    elo_diff,
    expected_score,
    fit_with_seat_test,
    pl_fit,
)


def _known_cells(games=100):
    # A scores 75% against B, B 75% against C, A 90% against C; each seat order equally
    half = games // 2
    return [
        ("A", "B", half, 0.75 * half),
        ("B", "A", half, 0.25 * half),
        ("B", "C", half, 0.75 * half),
        ("C", "B", half, 0.25 * half),
        ("A", "C", half, 0.90 * half),
        ("C", "A", half, 0.10 * half),
    ]


@pytest.mark.parametrize("seat", [True, False])
def test_bradley_terry_known_answer(seat):
    fit = bt_fit(_known_cells(), seat=seat)
    assert fit.names == ["A", "B", "C"]
    assert fit.ratings[0] == 0.0
    assert fit.ratings[1] == pytest.approx(-191, abs=3)
    assert fit.ratings[2] == pytest.approx(-382, abs=3)
    assert fit.converged and not fit.notes
    if seat:
        assert fit.seat_effects[1] == pytest.approx(0.0, abs=1e-6)


def test_bradley_terry_standard_errors_from_information():
    # two players, 100 games, 50 wins each way with seat balance: se of r_B is
    # 1 / sqrt(n p (1 - p)) = 1 / sqrt(100 * 0.25) = 0.2 natural units
    fit = bt_fit([("A", "B", 50, 25), ("B", "A", 50, 25)], seat=False)
    assert fit.ratings[1] == pytest.approx(0.0, abs=1e-9)
    assert fit.se[1] == pytest.approx(0.2 * ELO_PER_NAT, rel=1e-6)
    iv = fit.rating_interval("B")
    assert iv.high - iv.low == pytest.approx(2 * 1.959964 * 0.2 * ELO_PER_NAT, rel=1e-5)


def test_elo_diff_uses_covariance():
    fit = bt_fit(_known_cells(400))
    d = elo_diff(fit, "B", "C")
    assert d.estimate == pytest.approx(fit.ratings[1] - fit.ratings[2])
    var = fit.cov[1, 1] + fit.cov[2, 2] - 2 * fit.cov[1, 2]
    assert (d.high - d.low) / 2 == pytest.approx(1.959964 * math.sqrt(var), rel=1e-5)
    assert expected_score(d.estimate) == pytest.approx(0.75, abs=1e-6)


def test_seat_advantage_recovered_with_strategies_controlled():
    # seat 0 worth +0.4 nat; every matchup played both ways many times (expected counts)
    r = {"A": 0.0, "B": -0.5, "C": -1.0}
    cells = []
    for a in r:
        for b in r:
            if a != b:
                p = 1 / (1 + math.exp(-(r[a] - r[b] + 0.4)))
                cells.append((a, b, 1000, 1000 * p))
    fit = bt_fit(cells)
    assert fit.first_seat_advantage().estimate == pytest.approx(0.4 * ELO_PER_NAT, rel=1e-6)
    assert fit.ratings[1] == pytest.approx(-0.5 * ELO_PER_NAT, rel=1e-6)


def test_davidson_draw_model_known_answer():
    # Davidson: P(A) = t / (t + 1/t + nu), P(B) = (1/t) / (...), P(draw) = nu / (...),
    # t = exp((r_A - r_B) / 2). With the seats balanced the seat term is 0 and the model
    # is saturated: t^2 = W / L and nu = D / sqrt(W L). A: 30 wins, 40 draws, 10 losses
    # -> r_A - r_B = ln 3 = 190.85 Elo, nu = 40 / sqrt(300) = 2.3094.
    data = {
        (("A", "B"), (0, 1)): 15,
        (("A", "B"), (0, 0)): 20,
        (("A", "B"), (1, 0)): 5,
        (("B", "A"), (1, 0)): 15,
        (("B", "A"), (0, 0)): 20,
        (("B", "A"), (0, 1)): 5,
    }
    fit = pl_fit(data)
    assert fit.ratings[1] == pytest.approx(-400 * math.log10(3), abs=1e-4)
    assert fit.seat_effects[1] == pytest.approx(0.0, abs=1e-6)
    (tie,) = fit.ties
    assert tie["size"] == 2 and tie["delta"] == pytest.approx(40 / math.sqrt(300), rel=1e-6)
    # log-likelihood at the maximum: sum of n_i ln(n_i / N) over the three outcomes
    assert fit.loglik == pytest.approx(
        30 * math.log(0.375) + 40 * math.log(0.5) + 10 * math.log(0.125)
    )
    assert fit.equal_draw_rate() == pytest.approx(tie["delta"] / (2 + tie["delta"]))
    # se of r_A - r_B: the information of the saturated trinomial, by hand
    # d/dx of (ln p_A, ln p_D, ln p_B) with x = r_A - r_B, y = ln nu at the MLE:
    # grad ln p_A = (1/2 - (t - 1/t)/(2S), -nu/S), ln p_B = (-1/2 - (t - 1/t)/(2S), -nu/S),
    # ln p_D = (-(t - 1/t)/(2S), 1 - nu/S), S = t + 1/t + nu; I = N sum_i p_i g_i g_i'.
    t, nu = math.sqrt(3), 40 / math.sqrt(300)
    S = t + 1 / t + nu
    c = (t - 1 / t) / (2 * S)
    g = {"A": (0.5 - c, -nu / S), "D": (-c, 1 - nu / S), "B": (-0.5 - c, -nu / S)}
    p = {"A": t / S, "D": nu / S, "B": 1 / t / S}
    info = 80 * sum(p[k] * np.outer(g[k], g[k]) for k in g)
    se = math.sqrt(np.linalg.inv(info)[0, 0]) * ELO_PER_NAT
    full = pl_fit(data, seat=False)
    assert full.se[1] == pytest.approx(se, rel=1e-5)


def test_self_play_seat_and_draws_known_answer():
    # one strategy, seat 0 wins 30, draws 20, loses 10: e^h = 30 / 10, nu = 20 / sqrt(300)
    fit = pl_fit({(("A", "A"), (0, 1)): 30, (("A", "A"), (0, 0)): 20, (("A", "A"), (1, 0)): 10})
    assert fit.first_seat_advantage().estimate == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert fit.ties[0]["delta"] == pytest.approx(20 / math.sqrt(300), rel=1e-6)


def test_all_draws_and_all_wins_are_stated_not_infinite():
    from simcli.stats.ratings import AllTied

    with pytest.raises(AllTied, match="every game ended with all seats tied"):
        pl_fit({(("A", "B"), (0, 0)): 20, (("B", "A"), (0, 0)): 20})
    # A won every decisive game, with draws beside: finite ratings, a note, no crash
    fit = pl_fit({(("A", "B"), (0, 1)): 20, (("B", "A"), (1, 0)): 20, (("A", "B"), (0, 0)): 5})
    assert all(math.isfinite(x) for x in fit.ratings) and "does not exist" in fit.notes[0]
    assert math.isfinite(fit.ties[0]["delta"])


@pytest.mark.slow
def test_plackett_luce_recovers_strengths_and_seat_effects():
    rng = np.random.default_rng(11)
    strength = np.array([0.0, -0.4, -0.8, -1.2])
    seat = np.array([0.0, -0.2, -0.3, -0.5])
    names = ["A", "B", "C", "D"]
    games = 6000
    seats = np.array([rng.permutation(4) for _ in range(games)])  # strategy per seat
    eta = strength[seats] + seat[None, :]
    # Gumbel trick: sorting eta + Gumbel noise samples a Plackett-Luce order
    order = np.argsort(-(eta + rng.gumbel(size=eta.shape)), axis=1)
    ranks = np.argsort(order, axis=1)
    data = {}
    for s, rk in zip(seats, ranks, strict=True):
        key = (tuple(names[i] for i in s), tuple(int(x) for x in rk))
        data[key] = data.get(key, 0) + 1
    fit, lrt = fit_with_seat_test(data, names=names)
    assert fit.model == "plackett-luce"
    est = np.array(fit.ratings) / ELO_PER_NAT
    se = np.array(fit.se) / ELO_PER_NAT
    assert np.all(np.abs(est - strength) < 4 * se + 1e-9)
    seat_est = np.array(fit.seat_effects) / ELO_PER_NAT
    seat_se = np.array(fit.seat_se) / ELO_PER_NAT
    assert np.all(np.abs(seat_est - seat) < 4 * seat_se + 1e-9)
    assert lrt.df == 3 and lrt.p_value < 1e-6


def test_plackett_luce_ties_have_their_own_parameter():
    # Davidson-Luce: a 3-way tie is a choice of the whole set with weight delta_3; with
    # one seating and only full ties beside the strict orders, the ties fix delta_3 and
    # leave the ratings where the strict orders put them
    strict = {(("A", "B", "C"), (0, 1, 2)): 3, (("A", "B", "C"), (2, 1, 0)): 1}
    tied = dict(strict)
    tied[(("A", "B", "C"), (0, 0, 0))] = 30
    a = pl_fit(strict, seat=False)
    b = pl_fit(tied, seat=False)
    assert a.converged and b.converged and not a.ties
    assert b.ratings == pytest.approx(a.ratings, abs=1e-4)
    assert [t["size"] for t in b.ties] == [3]
    # a tie for second place (size 2) gets its own parameter
    c = pl_fit({**tied, (("A", "B", "C"), (0, 1, 1)): 4}, seat=False)
    assert [t["size"] for t in c.ties] == [2, 3]


def test_confounded_seats_and_strategies_give_no_intervals():
    # the same seating every game: seat effects and strengths cannot be told apart
    fit = pl_fit({(("A", "B", "C"), (0, 1, 2)): 3, (("A", "B", "C"), (2, 1, 0)): 2})
    assert any("singular" in n for n in fit.notes)
    assert fit.se[1] is None


def test_separation_uses_prior_and_says_so():
    fit = bt_fit([("A", "B", 10, 10), ("B", "A", 10, 0)])  # A won every game
    assert fit.prior_games > 0
    assert "does not exist" in fit.notes[0]
    assert all(math.isfinite(x) for x in fit.ratings)
    assert fit.ratings[1] < -300


def test_self_play_only_rates_the_seat():
    full, lrt = fit_with_seat_test({(("A", "A"), (0, 1)): 70, (("A", "A"), (1, 0)): 30})
    adv = full.first_seat_advantage()
    assert adv.estimate == pytest.approx(math.log(70 / 30) * ELO_PER_NAT, rel=1e-6)
    assert lrt.p_value < 0.001
    assert full.ratings == [0.0]


def test_disconnected_groups_get_separate_anchors():
    fit = bt_fit([("A", "B", 10, 6), ("B", "A", 10, 5), ("C", "D", 10, 7), ("D", "C", 10, 4)])
    assert fit.anchors == ["A", "C"]
    assert any("never met" in n for n in fit.notes)
    assert elo_diff(fit, "A", "C").estimate is None
    assert elo_diff(fit, "A", "B").estimate is not None
