"""``simcli compare``: differences between two runs, checked against published values,
hand-computed tests and simulation with a known truth; logs that are not one run are
refused."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.report.compare import Tally, _difference, compare_runs, newcombe_interval


def record(index, seats, winners, game="libraria"):
    return {
        "schema": 1,
        "game": game,
        "options": {"opening": "two_counters", "tiebreak": "none"},
        "index": index,
        "seed": index,
        "seats": seats,
        "setup": {},
        "moves": [0],
        "scores": [1.0, 0.0] if winners == [0] else [0.0, 1.0] if winners == [1] else [0.5, 0.5],
        "winners": winners,
        "termination": "normal",
        "final_hash": "0" * 16,
    }


def write_run(folder, x_wins, games, game="libraria"):
    """``games`` games of x (seat 0) against y (seat 1); x wins the first ``x_wins``."""
    folder.mkdir()
    lines = [
        json.dumps(record(i, ["x", "y"], [0] if i < x_wins else [1], game)) for i in range(games)
    ]
    (folder / "games.jsonl").write_text("\n".join(lines) + "\n")
    return folder


@pytest.mark.parametrize(
    ("k1", "n1", "k2", "n2", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10:
        # 56/70 - 48/80 -> [0.0524, 0.3339]; 9/10 - 3/10 -> [0.1705, 0.8090];
        # 5/56 - 0/29 -> [-0.0381, 0.1926] (written here as B - A).
        (48, 80, 56, 70, 0.0524, 0.3339),
        (3, 10, 9, 10, 0.1705, 0.8090),
        (0, 29, 5, 56, -0.0381, 0.1926),
    ],
)
def test_newcombe_interval_matches_the_published_values(k1, n1, k2, n2, low, high):
    got = newcombe_interval(k1, n1, k2, n2)
    assert got == pytest.approx((low, high), abs=6e-5)


def test_a_hand_worked_comparison(tmp_path):
    a = write_run(tmp_path / "a", 30, 50)
    b = write_run(tmp_path / "b", 40, 50)
    comparison = compare_runs(a, b)
    x = next(d for d in comparison.differences if d.name == "x")
    assert (x.a.wins, x.a.games, x.b.wins, x.b.games) == (30, 50, 40, 50)
    assert x.difference == pytest.approx(0.2)

    # Fisher's exact test on [[30, 20], [40, 10]] by hand: with the margins fixed (70
    # wins of 100, 50 per run) the count of A's wins is hypergeometric; the two-sided p
    # sums the probabilities of every table as likely as this one or less.
    def prob(k):
        return math.comb(70, k) * math.comb(30, 50 - k) / math.comb(100, 50)

    observed = prob(30)
    p = sum(prob(k) for k in range(20, 51) if prob(k) <= observed * (1 + 1e-7))
    assert x.p == pytest.approx(p, rel=1e-9)
    # two players: one seat row (seat 1's share is the complement), so three tests
    seats = [d for d in comparison.differences if d.what == "seat"]
    assert [d.name for d in seats] == ["0"]
    assert len([d for d in comparison.differences if d.p is not None]) == 3


def test_the_command_prints_and_refuses(tmp_path):
    a = write_run(tmp_path / "a", 30, 50)
    b = write_run(tmp_path / "b", 40, 50)
    result = CliRunner().invoke(cli, ["compare", str(a), str(b)])
    assert result.exit_code == 0, result.output
    assert "+20.0" in result.output
    data = json.loads(
        CliRunner().invoke(cli, ["compare", str(a), str(b), "--format", "json"]).output
    )
    assert data["game"] == "libraria" and len(data["differences"]) == 3
    # a log holding two runs (an index twice) is not pooled
    both = tmp_path / "both.jsonl"
    both.write_text((a / "games.jsonl").read_text() + (b / "games.jsonl").read_text())
    result = CliRunner().invoke(cli, ["compare", str(both), str(b)])
    assert result.exit_code == 2
    assert "not one run's log" in result.output
    other = write_run(tmp_path / "other", 10, 20, game="library")
    result = CliRunner().invoke(cli, ["compare", str(a), str(other)])
    assert result.exit_code == 2
    assert "not comparable" in result.output


def test_calibration_by_simulation():
    """Known truth: both runs have win probability 0.4 (no difference) or 0.4 vs 0.55.
    The 95% interval covers the true difference in 93-97.5% of 1000 seeded replications,
    and Fisher's test rejects the true null in at most 5% of them."""
    rng = np.random.default_rng(20261201)
    n = 120
    for pa, pb in ((0.4, 0.4), (0.4, 0.55)):
        covered = rejected = 0
        for _ in range(1000):
            ka, kb = int(rng.binomial(n, pa)), int(rng.binomial(n, pb))
            d = _difference("strategy", "x", Tally(ka, n), Tally(kb, n))
            covered += d.low <= pb - pa <= d.high
            rejected += d.p < 0.05
        assert 0.93 <= covered / 1000 <= 0.975
        if pa == pb:
            assert rejected / 1000 <= 0.05
