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


@pytest.mark.slow
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


def write_games(folder, lineups, options=None, strategies=None):
    """A run of ``lineups`` (seat lists), seat 0 winning every game; ``strategies``:
    run.json's strategy entries ``{name: (use, params)}``."""
    folder.mkdir()
    lines = []
    for i, seats in enumerate(lineups):
        rec = record(i, list(seats), [0])
        rec["scores"] = [1.0] + [0.0] * (len(seats) - 1)
        if options is not None:
            rec["options"] = options
        lines.append(json.dumps(rec))
    (folder / "games.jsonl").write_text("\n".join(lines) + "\n")
    if strategies:
        entries = [{"name": n, "use": u, "params": p} for n, (u, p) in strategies.items()]
        (folder / "run.json").write_text(json.dumps({"config": {"strategies": entries}}))
    return folder


def test_other_opponents_are_named_and_not_tested(tmp_path):
    # greedy met random and mcts in A, only noisy in B: its win rates say nothing of greedy
    a = write_games(tmp_path / "a", [("greedy", "random"), ("mcts", "greedy")] * 20)
    b = write_games(tmp_path / "b", [("greedy", "noisy"), ("noisy", "greedy")] * 20)
    comparison = compare_runs(a, b)
    greedy = next(d for d in comparison.differences if d.name == "greedy")
    assert greedy.caveat == "its opponents differ" and greedy.p is None
    assert greedy.p_adjusted is None
    warnings = " | ".join(comparison.warnings)
    assert "greedy met other opponents: A mcts 50%, random 50%; B noisy 100%" in warnings
    assert "only in A: random, mcts; only in B: noisy" in warnings
    assert "the lineups differ" in warnings
    result = CliRunner().invoke(cli, ["compare", str(a), str(b)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.splitlines()[1].startswith("WARNING: ") and "*" not in text.split("score Elo")[0]
    row = next(line for line in text.splitlines() if line.startswith("strategy  greedy"))
    assert row.endswith("! its opponents differ")
    strict = CliRunner().invoke(cli, ["compare", str(a), str(b), "--strict"])
    assert strict.exit_code == 2 and "greedy met other opponents" in strict.output
    data = json.loads(
        CliRunner().invoke(cli, ["compare", str(a), str(b), "--format", "json"]).stdout
    )
    assert {w["what"] for w in data["warnings"]} == {"strategies", "opponents", "lineups"}


def test_options_that_differ_are_named_and_the_rows_stay(tmp_path):
    lineups = [("x", "y"), ("y", "x")] * 10
    a = write_games(tmp_path / "a", lineups, {"opening": "two_counters", "tiebreak": "none"})
    b = write_games(tmp_path / "b", lineups, {"opening": "one_counter", "tiebreak": "none"})
    comparison = compare_runs(a, b)
    assert comparison.warnings == [
        'the game options differ: opening: "two_counters" (A) / "one_counter" (B)'
    ]
    # a rules variant is what the comparison is for: every row is still tested
    assert all(d.caveat is None and d.p is not None for d in comparison.differences)


def test_a_new_version_keeps_its_row_and_flags_its_opponents(tmp_path):
    lineups = [("new", "old"), ("old", "new")] * 10
    a = write_games(
        tmp_path / "a", lineups, strategies={"new": ("greedy", {}), "old": ("random", {})}
    )
    b = write_games(
        tmp_path / "b",
        lineups,
        strategies={"new": ("greedy", {"epsilon": 0.1}), "old": ("random", {})},
    )
    comparison = compare_runs(a, b)
    assert comparison.warnings == [
        'new is defined differently: A {"params": {}, "use": "greedy"}, '
        'B {"params": {"epsilon": 0.1}, "use": "greedy"}'
    ]
    rows = {d.name: d for d in comparison.differences}
    assert rows["new"].caveat is None and rows["new"].p is not None
    assert rows["old"].caveat == "its opponent new changed" and rows["old"].p is None
    assert rows["0"].caveat == "new changed"


def test_runs_with_other_seat_counts_are_refused(tmp_path):
    a = write_games(tmp_path / "a", [("x", "y")] * 4)
    b = write_games(tmp_path / "b", [("x", "y", "z")] * 4)
    result = CliRunner().invoke(cli, ["compare", str(a), str(b)])
    assert result.exit_code == 2 and "2-player games" in result.output
    assert "3-player games: not comparable" in result.output


def test_two_runs_of_the_same_field_have_no_warning(tmp_path):
    a = write_run(tmp_path / "a", 30, 50)
    b = write_run(tmp_path / "b", 40, 50)
    assert compare_runs(a, b, strict=True).warnings == []


def _ladder(folder, opponents, greedy_wins):
    """Games of greedy against ``opponents`` in both seats, greedy winning when
    ``greedy_wins(i)``; the other games go to the opponent."""
    lineups, winners = [], []
    for i in range(100):
        other = opponents[i // 2 % len(opponents)]
        seats = ("greedy", other) if i % 2 == 0 else (other, "greedy")
        lineups.append(seats)
        winners.append(seats.index("greedy") if greedy_wins(i) else 1 - seats.index("greedy"))
    folder.mkdir(parents=True)
    lines = []
    for i, (seats, w) in enumerate(zip(lineups, winners, strict=True)):
        rec = record(i, list(seats), [w])
        rec["scores"] = [1.0, 0.0] if w == 0 else [0.0, 1.0]
        lines.append(json.dumps(rec))
    (folder / "games.jsonl").write_text("\n".join(lines) + "\n")


def test_the_docs_example_is_the_commands_output(tmp_path, monkeypatch):
    """docs/analysis.md's compare example is this test's output, not typed by hand."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text()
    block = doc.split("```\ncompare libraria:", 1)[1].split("```", 1)[0]
    expected = "compare libraria:" + block
    monkeypatch.chdir(tmp_path)
    _ladder(tmp_path / "results" / "ladder-v1", ["random", "mcts"], lambda i: i % 4 != 3)
    _ladder(tmp_path / "results" / "ladder-v2", ["noisy"], lambda i: i % 5 != 0)
    result = CliRunner().invoke(cli, ["compare", "results/ladder-v1", "results/ladder-v2"])
    assert result.exit_code == 0, result.output
    shown = result.output.split("score Elo against")[0]
    assert shown == expected, shown
