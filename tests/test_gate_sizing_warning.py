"""The gate's sizing warning ("about N games needed") is said only when it matters: when
the gate ends without a decision, not on a gate that decided, however it was sized."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from simcli.gating.observer import GateObserver
from simcli.gating.sizing import size
from simcli.gating.spec import GateSpec
from simcli.gating.sprt import sprt
from simcli.gating.verdict import UNDECIDED, summarize
from simcli.tournament.schedule import PairedSchedule
from simcli.tournament.worker import GameResult

SPEC = GateSpec("new", "old", elo0=0, elo1=10, max_games=400, batch=5)
TOO_FEW = size(0, 10, 0.05, 0.05, 400, 5, draw_rate=0.0)  # 400 games cannot decide 0/10


def observer(counts, resized=TOO_FEW):
    return SimpleNamespace(
        spec=SPEC,
        state=sprt(counts, SPEC.elo0, SPEC.elo1),
        counts=counts,
        labels=("LL", "LD", "DD+WL", "WD", "WW"),
        pairs=sum(counts),
        skipped_pairs=0,
        games_ldw=[0, 0, 0],
        sizing=size(0, 10, 0.05, 0.05, 400, 5, draw_rate=0.3),
        resized=resized,
        resized_draw_rate=0.0,
        resized_after=5,
        unit="pairs",
    )


@pytest.mark.slow
def test_a_gate_that_decided_says_nothing_of_its_sizing() -> None:
    assert not TOO_FEW.ok
    _verdict, code, text = summarize(observer([0, 0, 0, 0, 170]), 340)
    assert code == 0 and "games are needed" not in text and "warning" not in text


@pytest.mark.slow
def test_a_gate_without_a_decision_says_how_many_games_it_needs() -> None:
    counts = [10, 20, 60, 20, 10]  # even: no decision in 240 pairs
    _verdict, code, text = summarize(observer(counts), 480)
    assert code == UNDECIDED
    lines = text.splitlines()
    advice = lines[-2]
    assert advice.startswith("warning: max_games 400 is too few for this test at the 0% draws")
    assert f"about {TOO_FEW.needed_games} games are needed" in advice
    assert lines[-1] == "NO DECISION within 400 games"
    doc = Path(__file__).resolve().parents[1] / "docs" / "gating.md"
    assert f"    {advice}\n" in doc.read_text()  # the docs show this very line
    # sized well enough: no warning even without a decision
    big = size(0, 10, 0.05, 0.05, 40000, 5, draw_rate=0.0)
    assert big.ok and "warning" not in summarize(observer(counts, resized=big), 480)[2]


@pytest.mark.slow
def test_the_first_batch_no_longer_warns_while_the_gate_runs() -> None:
    said: list[str] = []
    schedule = PairedSchedule("new", "old", (), 2, 200, 1)
    obs = GateObserver(SPEC, schedule, notify=said.append)
    obs.sizing = size(0, 10, 0.05, 0.05, 400, 5, draw_rate=0.3)
    for index in range(2 * SPEC.batch):  # the candidate wins every game: no draws
        seats = ["new", "old"] if index % 2 == 0 else ["old", "new"]
        obs.add(index, GameResult(seats, [seats.index("new")], [1, 0], "normal"))
    assert obs.resized is not None and not obs.resized.ok and obs.resized_draw_rate == 0.0
    assert not [s for s in said if "games needed" in s or "games are needed" in s]
