import csv
import io
import json
import re

import numpy as np
import pytest
from synth_records import make_record, self_play, solo, two_player_round_robin

from simcli.report.api import build_summary, write_report
from simcli.report.render import render

NAN = re.compile(r"\bnan\b|\binf\b|infinity", re.IGNORECASE)


def _strict_json(text):
    def bad(const):
        raise AssertionError(f"non-finite number {const} in JSON")

    return json.loads(text, parse_constant=bad)


def _undefined_values_have_notes(obj, path="summary"):
    """Every interval, test or rating without a value says why."""
    if isinstance(obj, dict):
        if "estimate" in obj and "method" in obj:
            if obj["estimate"] is None or obj["low"] is None:
                assert obj.get("note"), f"{path}: interval without value and without note"
        if "p_value" in obj and "test" in obj and obj["p_value"] is None:
            assert obj.get("note"), f"{path}: test without p-value and without note"
        if "mean" in obj and "low" in obj and obj["low"] is None:
            assert obj.get("note"), f"{path}: mean without interval and without note"
        if "elo" in obj and "name" in obj and obj["elo"] is None:
            assert obj.get("note"), f"{path}: rating without value and without note"
        for k, v in obj.items():
            _undefined_values_have_notes(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            _undefined_values_have_notes(v, f"{path}[{i}]")


def _check_all_formats(tmp_path, records, **kw):
    text = write_report(records, tmp_path, plots=False, formats=("csv", "text"), **kw)
    outputs = {
        "printed": text,
        "md": (tmp_path / "report.md").read_text(),
        "json": (tmp_path / "summary.json").read_text(),
        "csv": (tmp_path / "summary.csv").read_text(),
        "txt": (tmp_path / "report.txt").read_text(),
    }
    for name, out in outputs.items():
        assert not NAN.search(out), f"NaN/inf in {name}"
    summary = _strict_json(outputs["json"])
    _undefined_values_have_notes(summary)
    reader = csv.DictReader(io.StringIO(outputs["csv"]))
    rows = list(reader)
    assert set(reader.fieldnames) >= {"section", "statistic", "estimate", "p_value"}
    assert all(len(r) == len(reader.fieldnames) for r in rows)
    assert bool(rows) == bool(summary["groups"])
    return summary, outputs


def test_one_strategy_only(tmp_path):
    s, out = _check_all_formats(tmp_path, self_play("greedy", 60, p_seat0=0.6))
    grp = s["groups"][0]
    assert grp["pairwise"]["note"].startswith("fewer than two strategies")
    assert grp["ratings"]["ratings"][0]["note"] == "anchor (fixed at 0)"
    assert grp["seat_bias"]["model"]["first_seat_advantage"]["estimate"] > 0
    # no repeated seat test (pooled and self-play split = the headline), no one-row
    # ratings table and no Elo column
    assert grp["seat_bias"]["test"] is None and grp["seat_bias"]["by_strategy"] == []
    assert [t["kind"] for t in s["tests"]] == ["seat_stratified", "seat_model"]
    assert "greedy in self-play" not in out["md"] and "Seat bias by strategy" not in out["md"]
    assert "### Ratings" not in out["md"] and "Elo |" not in out["md"]


def test_all_draws_zero_decisive_games(tmp_path):
    recs = [
        make_record(("A", "B") if i % 2 else ("B", "A"), [], [4, 4], seed=i // 2) for i in range(20)
    ]
    s, out = _check_all_formats(tmp_path, recs)
    sb = s["groups"][0]["seat_bias"]
    assert sb["decisive"] == 0 and sb["draws"] == 20
    assert sb["test"]["p_value"] is None and sb["test"]["note"] == "no decisive games"
    assert sb["seats"][0]["decisive_rate"]["note"] == "no games"
    assert any("no decisive games" in n for n in s["notes"])
    assert "not possible (no decisive games)" in out["md"]
    assert s["groups"][0]["strategies"][0]["score_rate"]["estimate"] == 0.5
    # every game drawn: no ratings, said in plain words, no headline p-value
    assert "every game ended with all seats tied" in s["groups"][0]["ratings"]["note"]
    assert sb["headline"]["p_value"] is None and sb["detectable"] is None
    assert "every game ended with all seats tied" in out["md"]


@pytest.mark.slow
def test_all_wins_by_one_strategy_with_draws_beside(tmp_path):
    # A wins every decisive game from either seat: the draw model's MLE does not exist;
    # finite ratings from the stated prior, never an infinite rating
    recs = []
    for i in range(40):
        seats = ("A", "B") if i % 2 else ("B", "A")
        winner = [] if i % 5 == 0 else [seats.index("A")]
        recs.append(make_record(seats, winner, [4, 4] if not winner else [6, 2], seed=i // 2))
    s, out = _check_all_formats(tmp_path, recs)
    grp = s["groups"][0]
    assert any("does not exist" in n for n in grp["ratings"]["notes"])
    assert all(r["elo"] is not None and abs(r["elo"]) < 2000 for r in grp["ratings"]["ratings"])
    assert grp["ratings"]["ties"][0]["size"] == 2
    assert "Davidson" in out["md"]


def test_seat_that_never_won(tmp_path):
    recs = two_player_round_robin(
        {"A": 0.0, "B": 0.0}, 40, seat_advantage=50.0, rng=np.random.default_rng(1)
    )
    s, _ = _check_all_formats(tmp_path, recs)
    grp = s["groups"][0]
    seat2 = grp["seat_bias"]["seats"][1]
    assert seat2["decisive_wins"] == 0
    assert seat2["decisive_rate"]["low"] == 0.0 and seat2["decisive_rate"]["high"] > 0
    assert grp["seat_bias"]["test"]["p_value"] < 1e-10
    # the rating model's MLE does not exist: prior used and said so
    assert any("does not exist" in n for n in grp["ratings"]["notes"])


def test_forfeits_without_scores(tmp_path):
    recs = [
        make_record(
            ("A", "B"),
            [1],
            None,
            termination="forfeit",
            detail={"seat": 0, "kind": "illegal_move", "message": "x"},
            seed=i,
        )
        for i in range(5)
    ]
    s, out = _check_all_formats(tmp_path, recs)
    grp = s["groups"][0]
    assert grp["terminations"]["forfeit"] == {"illegal_move": 5}
    a = grp["strategies"][0]
    assert a["points"]["n"] == 0 and a["points"]["note"] == "no scored games"
    assert grp["margin"]["n"] == 0
    assert any("no score margins" in n for n in s["notes"])
    assert "illegal_move 5" in out["md"]


def test_only_error_games(tmp_path):
    recs = [
        make_record(
            ("A", "B"),
            [],
            None,
            termination="error",
            detail={"kind": "game_error", "message": "bug"},
            seed=i,
        )
        for i in range(3)
    ]
    s, _ = _check_all_formats(tmp_path, recs)
    grp = s["groups"][0]
    assert grp["games"] == 0 and grp["errors"] == 3
    assert grp["ratings"]["note"] == "no valid games: no ratings"
    assert any("no valid games" in n for n in s["notes"])
    assert s["totals"]["errors"] == 3


def test_empty_record_stream(tmp_path):
    s, _ = _check_all_formats(tmp_path, [])
    assert s["groups"] == [] and "the log holds no game records" in s["notes"]


def test_solo_single_strategy_and_single_game(tmp_path):
    s, out = _check_all_formats(tmp_path, solo({"only": 2.0}, 1))
    st = s["groups"][0]["solo"]["strategies"][0]
    assert st["mean_score"]["note"] == "one observation: no interval"
    assert "Strategies (solitaire)" in out["md"]


def test_solo_two_strategies_report(tmp_path):
    s, out = _check_all_formats(tmp_path, solo({"greedy": 3.0, "random": 0.0}, 60))
    comp = s["groups"][0]["solo"]["comparisons"][0]
    assert comp["test"]["significant"]
    assert "Wilcoxon signed-rank test" in out["md"]


@pytest.mark.slow
def test_four_players_with_rotations(tmp_path):
    rng = np.random.default_rng(3)
    names = ["a", "b", "c", "d"]
    recs = []
    for seed in range(40):
        for rot in range(4):
            seats = names[rot:] + names[:rot]
            scores = [int(x) for x in rng.integers(0, 10, size=4)]
            best = max(scores)
            winners = [i for i, x in enumerate(scores) if x == best]
            recs.append(make_record(seats, winners, scores, seed=seed))
    s, out = _check_all_formats(tmp_path, recs)
    grp = s["groups"][0]
    assert grp["seat_bias"]["pairs"]["complete"] == 40
    assert grp["ratings"]["model"] == "plackett-luce"
    assert grp["seat_bias"]["model"]["test"]["df"] == 3
    assert "finishing ahead" in out["md"]


@pytest.mark.slow
def test_report_text_sentences_and_correction(tmp_path):
    recs = two_player_round_robin(
        {"A": 0.0, "B": -0.4, "C": -0.8}, 100, seat_advantage=0.25, rng=np.random.default_rng(9)
    )
    s, out = _check_all_formats(tmp_path, recs, correction="holm")
    m = s["correction"]["tests"]
    assert m == 1  # the headline seat test of the one group
    seat = s["groups"][0]["seat_bias"]["test"]["sentence"]
    assert re.search(r"seat 0 wins \d+\.\d% \[\d+\.\d%, \d+\.\d%\] of \d+ decisive games", seat)
    assert "(descriptive: pooled over strategies" in seat
    headline = s["groups"][0]["seat_bias"]["headline"]["sentence"]
    assert "headline seat test: in 300 seat-swapped pairs" in headline
    assert "significant at 0.05 (the only test)" in headline
    assert s["settings"]["correction"] == "holm"
    assert "Findings" in out["printed"]


def test_run_info_orders_strategies_and_flags_partial_runs(tmp_path):
    recs = two_player_round_robin({"A": 0.0, "B": -0.4}, 10, rng=np.random.default_rng(2))
    info = {
        "status": "running",
        "config": {
            "name": "demo",
            "strategies": [{"name": "B", "use": "greedy"}, {"name": "A", "use": "random"}],
        },
    }
    s = build_summary(recs, run_info=info)
    assert [st.name for st in s.groups[0].strategies] == ["B", "A"]
    assert s.groups[0].rated.anchors == ["B"]
    assert any("'running'" in n for n in s.notes)
    assert s.run_name == "demo"
    assert "simcli report" in render(s, "markdown")


def test_unknown_format_rejected(tmp_path):
    with pytest.raises(ValueError):
        write_report([], tmp_path, formats=("pdf",))


def test_self_play_of_several_strategies(tmp_path):
    rng = np.random.default_rng(0)
    recs = self_play("greedy", 100, p_seat0=0.6, rng=rng) + self_play("random", 100, rng=rng)
    s, out = _check_all_formats(tmp_path, recs)
    grp = s["groups"][0]
    assert all(r["elo"] is None for r in grp["ratings"]["ratings"])
    assert "no strategy played another" in out["md"]
    rows = grp["seat_bias"]["by_strategy"]
    assert [r["source"] for r in rows] == ["self-play", "self-play"]
    assert grp["seat_bias"]["model"]["first_seat_advantage"]["estimate"] is not None
