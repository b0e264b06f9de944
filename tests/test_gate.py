"""The SPRT against published values and by simulation; the gate end to end."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.gating.sprt import bounds, elo_estimate, expected_score, llr, sprt


def test_trinomial_llr_matches_fastchess() -> None:
    # W=21404, L=21184, D=40708, elo0=0.5, elo1=2.5 -> LLR -1.57 (counts are [L, D, W])
    assert llr([21184, 40708, 21404], 0.5, 2.5) == pytest.approx(-1.57, abs=0.005)


def test_pentanomial_elo_and_los_match_fastchess() -> None:
    est = elo_estimate([10789, 19328, 33806, 19402, 10543])
    assert est.elo == pytest.approx(-0.77, abs=0.005)
    assert est.margin == pytest.approx(1.28, abs=0.005)
    assert est.los == pytest.approx(0.118, abs=0.0005)


def test_bounds_and_expected_score() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)


def test_zero_counts_do_not_decide() -> None:
    assert llr([0, 0, 0, 0, 0], 0, 5) == 0.0
    one_pair = llr([0, 0, 0, 0, 1], 0, 5)  # one won pair: evidence, but tiny
    assert 0 < one_pair < 0.1
    assert sprt([0, 0, 0, 0, 1], 0, 5).verdict is None
    assert sprt([1, 0, 0], 0, 5).verdict is None


def _pair_distribution(elo: float, draw: float = 0.3) -> np.ndarray:
    """Pentanomial probabilities of two independent games with expected score s(elo)."""
    s = expected_score(elo)
    w, l = s - draw / 2, 1 - s - draw / 2  # noqa: E741
    game = np.array([l, draw, w])  # scores 0, 1/2, 1
    return np.convolve(game, game)  # pair totals 0, 1/2, 1, 3/2, 2


def _simulate(
    true_elo: float,
    elo0: float,
    elo1: float,
    runs: int,
    seed: int,
    batch: int = 10,
    max_pairs: int = 4000,
) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    p = _pair_distribution(true_elo)
    passed, pairs_used = 0, 0
    for _ in range(runs):
        counts = np.zeros(5, dtype=np.int64)
        draws = rng.choice(5, size=max_pairs, p=p)
        verdict = None
        for start in range(0, max_pairs, batch):
            counts += np.bincount(draws[start : start + batch], minlength=5)
            verdict = sprt(counts.tolist(), elo0, elo1, 0.05, 0.05).verdict
            if verdict:
                break
        passed += verdict == "H1"
        pairs_used += int(counts.sum())
    return passed / runs, pairs_used / runs


@pytest.mark.slow
def test_error_rates_by_simulation() -> None:
    # Synthetic pair outcomes with known Elo (no game engine); a fast version with 300
    # tests at each hypothesis (studies/calibration/sprt_error_rates.py runs >= 2000).
    at_h0, games_h0 = _simulate(0.0, 0.0, 40.0, 300, seed=1)
    at_h1, games_h1 = _simulate(40.0, 0.0, 40.0, 300, seed=2)
    assert at_h0 <= 0.05 + 0.02, (at_h0, games_h0)
    assert at_h1 >= 1 - 0.05 - 0.02, (at_h1, games_h1)


CONFIG = """\
name: gate-test
game: libraria
strategies:
  - {name: greedy, use: greedy}
  - {name: random, use: random}
gate:
  candidate: CAND
  baseline: BASE
  elo0: 0
  elo1: 10
  max_games: 400
  batch: 5
seed: 3
workers: 2
"""


def _gate(tmp_path, cand: str, base: str, *extra: str):
    path = tmp_path / "g.yaml"
    path.write_text(CONFIG.replace("CAND", cand).replace("BASE", base))
    out = tmp_path / f"out-{cand}"
    junit = tmp_path / f"{cand}.xml"
    result = CliRunner().invoke(
        cli, ["gate", str(path), "--out", str(out), "-q", "--junit", str(junit), *extra]
    )
    return result, out, junit


@pytest.mark.slow
def test_gate_passes_a_stronger_candidate_and_fails_a_weaker_one(tmp_path) -> None:
    result, out, junit = _gate(tmp_path, "greedy", "random")
    assert result.exit_code == 0, result.output
    assert "PASSED" in result.output and "LLR" in result.output
    info = json.loads((out / "gate.json").read_text())
    assert info["llr"] >= info["bounds"][1]
    # the estimate after the stop, corrected and labelled (docs/gating.md)
    assert "Score Elo corrected for the SPRT stop" in result.output
    assert (
        "Score Elo uncorrected" in result.output and "Score of greedy vs random: " in result.output
    )
    assert info["elo_corrected"]["method"].startswith("corrected for the SPRT stopping rule")
    assert info["elo"]["label"].startswith("uncorrected")
    assert info["sizing"]["games_needed"] > 400 and info["scale"] == "Elo"
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "1" and root.get("failures") == "0"
    case = root.find("testsuite/testcase")
    assert case is not None and case.get("name") == "gate greedy vs random"
    assert case.find("failure") is None
    # the games are logged like any run and replay
    assert CliRunner().invoke(cli, ["replay", str(out), "--verify"]).exit_code == 0

    result, out, junit = _gate(tmp_path, "random", "greedy")
    assert result.exit_code == 1, result.output
    assert "FAILED: H0 accepted" in result.output
    assert "the data favour elo0 = 0 over elo1 = 10" in result.output
    assert "regressed" not in result.output
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert failure is not None and failure.get("type") == "fail"


@pytest.mark.slow
def test_gate_without_decision_exits_3(tmp_path) -> None:
    path = tmp_path / "g.yaml"
    text = CONFIG.replace("CAND", "greedy").replace("BASE", "random")
    path.write_text(text.replace("max_games: 400", "max_games: 4").replace("batch: 5", "batch: 1"))
    result = CliRunner().invoke(cli, ["gate", str(path), "--out", str(tmp_path / "o"), "-q"])
    assert result.exit_code == 3, result.output
    assert "NO DECISION within 4 games" in result.output


def test_gate_config_errors(tmp_path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(CONFIG.replace("CAND", "greedyy").replace("BASE", "random"))
    result = CliRunner().invoke(cli, ["gate", str(path)])
    assert result.exit_code == 2 and "did you mean 'greedy'" in result.output
    path.write_text(
        CONFIG.replace("CAND", "greedy").replace("BASE", "random").replace("elo1: 10", "elo1: -5")
    )
    result = CliRunner().invoke(cli, ["gate", str(path)])
    assert result.exit_code == 2 and "elo1 must be above elo0" in result.output
    path.write_text("game: libraria\nstrategies: [random, greedy]\n")
    result = CliRunner().invoke(cli, ["gate", str(path)])
    assert result.exit_code == 2 and "no 'gate:' section" in result.output


@pytest.mark.slow
def test_solo_gate_compares_seed_by_seed(tmp_path) -> None:
    path = tmp_path / "solo.yaml"
    path.write_text(
        "game: bibliogamo\nplayers: 1\nformat: solo\nstrategies: [greedy, random]\n"
        "gate: {candidate: greedy, baseline: random, elo0: 0, elo1: 50, max_games: 60, "
        "batch: 5}\nworkers: 2\nseed: 1\n"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["gate", str(path), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "seeds: worse 0" in result.output
    records = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    for a, b in zip(records[::2], records[1::2], strict=False):
        assert a["seed"] == b["seed"] and a["setup"] == b["setup"]
        assert (a["seats"], b["seats"]) == (["greedy"], ["random"])


def test_sprt_calc_command() -> None:
    result = CliRunner().invoke(
        cli,
        [
            "sprt-calc",
            "--wins",
            "21404",
            "--draws",
            "40708",
            "--losses",
            "21184",
            "--elo0",
            "0.5",
            "--elo1",
            "2.5",
        ],
    )
    assert result.exit_code == 0 and "LLR -1.572" in result.output
    result = CliRunner().invoke(
        cli,
        [
            "sprt-calc",
            "--pentanomial",
            "10789,19328,33806,19402,10543",
            "--elo0",
            "-1.75",
            "--elo1",
            "0.25",
            "--json",
        ],
    )
    data = json.loads(result.output)
    assert data["elo"] == pytest.approx(-0.77, abs=0.005)
    assert data["los"] == pytest.approx(0.118, abs=0.0005)
    assert data["elo_corrected"]["method"].startswith("corrected for the SPRT stopping rule")
    bad = CliRunner().invoke(
        cli, ["sprt-calc", "--pentanomial", "1,2", "--elo0", "0", "--elo1", "5"]
    )
    assert bad.exit_code == 2
    # fishtest's example of a stopped test: the corrected estimate is printed, labelled
    args = ["--wins", "716", "--draws", "2163", "--losses", "591", "--elo0", "0", "--elo1", "6"]
    result = CliRunner().invoke(cli, ["sprt-calc", *args])
    assert "Elo +12.52 ± 7.09 (95%)" in result.output and "(uncorrected)" in result.output
    assert "Elo corrected for the SPRT stop: +11.52 [+2.60, +20.35]" in result.output


ASSERTS = """\
name: as
game: libraria
strategies: [random, greedy]
games: 100
seed: 3
workers: 0
asserts:
  - win_rate: {strategy: greedy, at_least: 0.8}    # greedy wins ~100%: pass
  - win_rate: {strategy: random, at_most: 0.005}   # 0 of 100 but the interval reaches ~3.7%
  - elo_diff: {a: greedy, b: random, at_least: 300}
  - seat_bias: {within: 0.25}
  - no_errors
"""


@pytest.mark.slow
def test_assertions_pass_fail_inconclusive_and_junit(tmp_path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(ASSERTS)
    out, junit = tmp_path / "out", tmp_path / "a.xml"
    result = CliRunner().invoke(
        cli, ["run", str(path), "--out", str(out), "-q", "--no-plots", "--junit", str(junit)]
    )
    assert result.exit_code == 0, result.output
    lines = [x.strip() for x in result.output.splitlines() if x.startswith("  ")]
    assert lines[0].startswith("PASS") and "win_rate greedy >= 0.8" in lines[0]
    assert lines[1].startswith("INCONCLUSIVE") and "random <= 0.005" in lines[1]
    assert lines[2].startswith("PASS") and "elo_diff greedy - random >= 300" in lines[2]
    assert lines[3].startswith("PASS") and lines[4].startswith("PASS")
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "5" and suite.get("skipped") == "1"
    assert suite.get("failures") == "0"
    # a failing assertion: exit 1, from run and from report
    path.write_text(
        ASSERTS.replace("strategy: greedy, at_least: 0.8", "strategy: random, at_least: 0.5")
    )
    out2 = tmp_path / "out2"
    result = CliRunner().invoke(cli, ["run", str(path), "--out", str(out2), "-q", "--no-plots"])
    assert result.exit_code == 1
    assert "FAIL         win_rate random >= 0.5" in result.output
    result = CliRunner().invoke(cli, ["report", str(out2), "--no-plots", "--junit", str(junit)])
    assert result.exit_code == 1 and "FAIL " in result.output
    assert ET.parse(junit).getroot().get("failures") == "1"


def test_assertion_config_errors(tmp_path) -> None:
    path = tmp_path / "a.yaml"
    for bad, message in [
        ("  - win_rat: {strategy: greedy, at_least: 0.8}", "did you mean 'win_rate'"),
        ("  - win_rate: {strategy: gready, at_least: 0.8}", "did you mean 'greedy'"),
        ("  - win_rate: {strategy: greedy}", "exactly one of at_least / at_most"),
        ("  - elo_diff: {a: greedy, b: random, at_least: much}", "expected a finite number"),
    ]:
        path.write_text(ASSERTS.split("asserts:")[0] + "asserts:\n" + bad + "\n")
        result = CliRunner().invoke(cli, ["validate", str(path)])
        assert result.exit_code == 2, (bad, result.output)
        assert message in result.output and "a.yaml:8" in result.output


def test_verdicts_are_worded_relative_to_the_bounds() -> None:
    from simcli.gating.spec import GateSpec
    from simcli.gating.verdict import verdict_text

    spec = GateSpec("new", "old", elo0=0, elo1=10)
    h0 = verdict_text(spec, "H0")
    # with bounds 0/10 a +5 candidate fails half the time: never call it a regression
    assert h0.startswith("FAILED: H0 accepted: new is not shown to be at elo1 = 10")
    assert "the data favour elo0 = 0 over elo1 = 10" in h0 and "regress" not in h0
    h1 = verdict_text(GateSpec("new", "old", elo0=-1.75, elo1=0.25), "H1")
    assert "the data favour elo1 = 0.25 over elo0 = -1.75" in h1 and "not weaker" not in h1
    # the multi-player gate's scale is named as what it is
    assert "not head-to-head Elo" in verdict_text(spec, "H1", two_player=False)


@pytest.mark.slow
def test_gate_sizing_warns_in_validate_and_refuses_with_strict(tmp_path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(CONFIG.replace("CAND", "greedy").replace("BASE", "random"))
    # bounds 0/10 at the default 30% draws need ~16,000 games; max_games is 400
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "gate sizing (at 30% draws): expected games to a decision" in result.output
    assert "warning:" in result.output and "cannot reach a decision" in result.output
    strict = CliRunner().invoke(cli, ["validate", "--strict", str(path)])
    assert strict.exit_code == 2 and "gate.max_games 400" in strict.output
    assert "games needed at 30% draws" in strict.output
    gate = CliRunner().invoke(cli, ["gate", str(path), "--out", str(tmp_path / "o"), "--strict"])
    assert gate.exit_code == 2 and "cannot reach a decision" in gate.output
    assert not (tmp_path / "o" / "games.jsonl").exists()
    # a sized config passes quietly
    sized = CONFIG.replace("max_games: 400", "max_games: 17200").replace("batch: 5", "batch: 50")
    path.write_text(sized.replace("CAND", "greedy").replace("BASE", "random"))
    result = CliRunner().invoke(cli, ["validate", "--strict", str(path)])
    assert result.exit_code == 0 and "warning" not in result.output, result.output


def _iv(estimate, low, high, n=10):
    from simcli.stats.intervals import Interval

    return Interval(estimate, low, high, n, "wilson")


def _hand_made_group(label: str):
    """A typed report group with only what the assertions read."""
    from simcli.stats.summary import (
        Group,
        GroupTerminations,
        RatingDifference,
        Ratings,
        SeatBias,
        SeatRow,
        StrategyRow,
    )

    def seat(s, iv):
        return SeatRow(s, f"seat {s}", 10, 0.0, iv, 0, iv)

    group = Group(label, None, label, 2, {}, 10, 10, 0, 0, 10, GroupTerminations(10, 0, {}, 0), [])
    group.strategies = [StrategyRow("a", 10, win_rate=_iv(0.7, 0.6, 0.8))]
    diff = RatingDifference("a", "b", 50, 20, 80, 10, "wald", 0.95)
    group.ratings = Ratings("bt", "Elo", ["b"], [], None, None, True, 10, 0, [], "", [], [diff])
    group.seat_bias = SeatBias(
        [seat(0, _iv(0.55, 0.45, 0.65)), seat(1, _iv(0.45, 0.35, 0.55))], 10, 10, 0, 0
    )
    return group


def _hand_made_summary(labels, errors: int):
    from simcli.stats.summary import Correction, Settings, Summary, Totals

    return Summary(
        1,
        "simcli",
        None,
        "libraria",
        None,
        Settings("wilson", "Wilson", 0.95, 0.05, "bh", "BH", ""),
        Totals(10, 10, errors, 0, len(labels), 2),
        {},
        [_hand_made_group(label) for label in labels],
        [],
        Correction("bh", "BH", 0, 0.05, 0, 0),
        [],
        [],
        [],
    )


def test_each_assertion_kind_judges_a_hand_made_summary() -> None:
    from simcli.gating.asserts import KINDS, EloDiff, NoErrors, SeatBias, WinRate, check

    summary = _hand_made_summary(["base"], errors=2)
    cases = [
        (WinRate({"strategy": "a", "at_least": 0.5}), "pass"),  # 0.6..0.8 above 0.5
        (WinRate({"strategy": "a", "at_least": 0.65}), "inconclusive"),  # straddles
        (WinRate({"strategy": "a", "at_most": 0.55}), "fail"),  # all above 0.55
        (WinRate({"strategy": "z", "at_most": 0.5}), "inconclusive"),  # never played
        (EloDiff({"a": "a", "b": "b", "at_least": 10}), "pass"),  # 20..80 >= 10
        (EloDiff({"a": "a", "b": "b", "at_least": 90}), "fail"),  # 20..80 < 90
        (SeatBias({"within": 0.2}), "pass"),  # 0.35..0.65 inside 0.3..0.7
        (SeatBias({"within": 0.1}), "inconclusive"),  # 0.45..0.65 vs 0.4..0.6
        (NoErrors({}), "fail"),  # two errors
    ]
    for assertion, status in cases:
        (verdict,) = check([assertion], summary)
        assert verdict.status == status, (assertion, verdict)
        assert verdict.name == assertion.describe()
        assert KINDS[assertion.kind] is type(assertion)
    two = _hand_made_summary(["base", "v2"], errors=2)
    names = [v.name for v in check([SeatBias({"within": 0.2})], two)]
    assert names == ["seat_bias within ±0.2 [base]", "seat_bias within ±0.2 [v2]"]


def test_config_is_plain_data_and_imports_neither_gate_nor_tournament() -> None:
    import ast

    import simcli.config

    source = ast.parse(open(simcli.config.__file__).read())
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(source)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert "dataclasses" in imported  # the walk sees the module's imports
    assert not [m for m in imported if m.startswith(("simcli.gating", "simcli.tournament"))]


@pytest.mark.slow
def test_asserts_are_judged_on_the_summary_in_memory(tmp_path, monkeypatch) -> None:
    """The run's schedule is built once, and the asserts never read summary.json back."""
    from simcli.tournament import schedule

    path = tmp_path / "a.yaml"
    path.write_text(ASSERTS.replace("games: 100", "games: 20"))
    built = []
    real = schedule.schedule_for
    monkeypatch.setattr(schedule, "schedule_for", lambda c: built.append(c) or real(c))
    real_read = Path.read_text

    def read_text(self, *args, **kwargs):
        assert self.name != "summary.json", "summary.json read back"
        return real_read(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "-q", "--no-plots"])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and len(built) == 1
    result = CliRunner().invoke(cli, ["report", str(out), "--no-plots"])
    assert result.exit_code == 0 and "PASS" in result.output


def test_asserts_parse_into_one_class_per_kind(tmp_path) -> None:
    from simcli.errors import ConfigError
    from simcli.gating.asserts import EloDiff, NoErrors, WinRate, parse_asserts
    from simcli.yamldoc import Doc

    text = """\
asserts:
  - no_errors
  - no_errors: true
  - win_rate: {strategy: a, at_most: 0.4}
  - elo_diff: {a: a, b: b, at_least: 5}
"""
    doc = Doc(tmp_path / "x.yaml", text)
    parsed = parse_asserts(doc, doc.data["asserts"], ["a", "b"])
    assert [type(a) for a in parsed] == [NoErrors, NoErrors, WinRate, EloDiff]
    assert [a.stored() for a in parsed[1:3]] == [
        {"no_errors": {}},
        {"win_rate": {"strategy": "a", "at_most": 0.4}},
    ]
    assert parsed[3].describe() == "elo_diff a - b >= 5"
    bad = Doc(tmp_path / "x.yaml", "asserts:\n  - elo_diff: {a: a, b: a, at_least: 5}\n")
    with pytest.raises(ConfigError, match=r"x.yaml:2: key 'asserts\[0\].elo_diff': a and b must"):
        bad.gathering(lambda: parse_asserts(bad, bad.data["asserts"], ["a", "b"]))
