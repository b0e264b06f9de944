"""One Elo scale across run, gate and compare: the score-based Elo of cutechess and
fastchess (draws half) everywhere, the rating model's Elo beside it in the report, each
named; and the ``Score of A vs B: W - L - D [score rate] N`` line in run and gate output."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.gating.sprt import elo_estimate
from simcli.stats.elo import plus_minus, score_elo


def record(index, seats, winners, scores=(3, 1)):
    return {
        "schema": 1,
        "game": "libraria",
        "options": {"opening": "two_counters", "tiebreak": "none"},
        "index": index,
        "seed": 100 + index // 2,
        "seats": list(seats),
        "setup": None,
        "moves": [1, 2],
        "scores": list(scores),
        "winners": winners,
        "termination": "normal",
        "final_hash": "0" * 16,
    }


def duel(wins: int, losses: int, draws: int) -> list[dict]:
    """'new' against 'old' in seat-swapped pairs: ``wins``, ``losses`` and ``draws`` for
    'new', spread over both seats."""
    results = ["w"] * wins + ["l"] * losses + ["d"] * draws
    out = []
    for i, res in enumerate(results):
        seats = ["new", "old"] if i % 2 == 0 else ["old", "new"]
        new_seat = seats.index("new")
        winners = [] if res == "d" else [new_seat if res == "w" else 1 - new_seat]
        out.append(record(i, seats, winners, (2, 2) if res == "d" else (3, 1)))
    return out


def test_score_elo_is_the_cutechess_and_gate_figure() -> None:
    # cutechess: 590 - 410 - 0 prints "Elo difference: 63.2 +/- 21.9"
    iv = score_elo(590, 0, 410)
    assert plus_minus(iv) == "+63.2 ± 21.9"
    for w, d, lost in [(590, 0, 410), (30, 40, 10), (12, 80, 7)]:
        gate = elo_estimate([lost, d, w])  # the gate's trinomial estimate
        mine = score_elo(w, d, lost)
        assert mine.estimate == pytest.approx(gate.elo)
        assert (mine.low, mine.high) == pytest.approx((gate.low, gate.high))
    assert score_elo(5, 0, 0).estimate is None and "every game won" in score_elo(5, 0, 0).note
    assert score_elo(0, 0, 0).note == "no games"
    assert plus_minus(score_elo(0, 4, 0)) == "+0.0"  # never "-0.0"


def test_a_two_strategy_report_has_the_score_line_and_both_elos_named(tmp_path) -> None:
    from simcli.report.api import build_summary
    from simcli.report.render import render

    records = duel(wins=118, losses=70, draws=12)  # 59% for new, about +63 Elo
    summary = build_summary(records)
    grp = summary.groups[0]
    h2h = grp.head_to_head
    assert h2h is not None and (h2h.a, h2h.b) == ("new", "old")
    assert h2h.line == "Score of new vs old: 118 - 70 - 12 [0.620] 200"
    expected = score_elo(118, 12, 70)
    assert h2h.score_elo.estimate == pytest.approx(expected.estimate)
    new = grp.strategy("new")
    assert new.score_elo.estimate == pytest.approx(expected.estimate)
    assert grp.strategy("old").score_elo.estimate == pytest.approx(-expected.estimate)
    # the model's Elo is there too, on its own (wider: decisive games only) scale
    assert h2h.model_elo is not None and h2h.model_elo.estimate > expected.estimate
    text = render(summary, "text", detail=False)
    assert "Score of new vs old: 118 - 70 - 12 [0.620] 200" in text
    assert f"score Elo difference: {plus_minus(expected)}" in text
    assert "model Elo difference: " in text and "decisive games only" in text
    header = next(line for line in text.splitlines() if line.startswith("strategy  games"))
    assert (
        "score Elo" in header
        and "model Elo" in header
        and " Elo " not in header.replace("score Elo", "").replace("model Elo", "")
    )
    data = json.loads(render(summary, "json"))
    assert data["groups"][0]["head_to_head"]["line"] == h2h.line
    assert data["groups"][0]["strategies"][0]["score_elo"]["method"].startswith("score-based")


def test_three_strategies_have_no_score_line() -> None:
    from simcli.report.api import build_summary

    records = duel(10, 8, 2)
    records += [
        {**r, "index": 100 + r["index"], "seats": [s.replace("old", "third") for s in r["seats"]]}
        for r in duel(6, 6, 0)
    ]
    assert build_summary(records).groups[0].head_to_head is None


def test_the_gate_prints_the_score_line_and_names_its_elo() -> None:
    from simcli.gating.spec import GateSpec
    from simcli.gating.sprt import sprt
    from simcli.gating.verdict import summarize

    counts = [3, 10, 40, 30, 17]  # LL, LD, DD+WL, WD, WW
    observer = SimpleNamespace(
        spec=GateSpec("new", "old", elo0=0, elo1=10),
        state=sprt(counts, 0, 10),
        counts=counts,
        labels=("LL", "LD", "DD+WL", "WD", "WW"),
        pairs=100,
        skipped_pairs=0,
        games_ldw=[50, 40, 110],
        sizing=None,
        resized=None,
    )
    _verdict, _code, text = summarize(observer, 200)
    lines = text.splitlines()
    assert lines[1] == "Score of new vs old: 110 - 50 - 40 [0.650] 200"
    assert any(line.startswith("Score Elo corrected for the SPRT stop: ") for line in lines)
    assert any(line.startswith("Score Elo uncorrected: ") for line in lines)


def test_the_gate_observer_counts_the_candidates_games() -> None:
    from simcli.gating.observer import GateObserver
    from simcli.gating.spec import GateSpec
    from simcli.tournament.schedule import PairedSchedule
    from simcli.tournament.worker import GameResult

    schedule = PairedSchedule("new", "old", (), 2, 10, 1)
    observer = GateObserver(GateSpec("new", "old", elo0=0, elo1=10, batch=100), schedule)
    # pair 0: new (seat 0) wins, then new (seat 1) loses; pair 1: a draw, then new wins
    games = [([0], "new", "old"), ([0], "old", "new"), ([], "new", "old"), ([1], "old", "new")]
    for index, (winners, *seats) in enumerate(games):
        observer.add(index, GameResult(list(seats), winners, [1, 0], "normal"))
    assert observer.games_ldw == [1, 1, 2]


def test_compare_shows_score_elo_of_each_run(tmp_path) -> None:
    for name, (w, lost, d) in {"a": (118, 70, 12), "b": (100, 90, 10)}.items():
        folder = tmp_path / name
        folder.mkdir()
        lines = [json.dumps(r) for r in duel(w, lost, d)]
        (folder / "games.jsonl").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["compare", str(tmp_path / "a"), str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    a, b = score_elo(118, 12, 70), score_elo(100, 10, 90)
    assert f"new: A {plus_minus(a, 0)}, B {plus_minus(b, 0)}" in result.output
    data = json.loads(
        CliRunner()
        .invoke(cli, ["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--format", "json"])
        .output
    )
    new = next(d for d in data["differences"] if d["name"] == "new")
    assert new["a"]["score_elo"]["estimate"] == pytest.approx(a.estimate)
