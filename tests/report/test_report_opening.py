"""The report opens with the answer in plain words: which player the seats favour and by
how much, then one effect size, then what the headline test says; the findings follow,
and the method text comes after them."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from synth_records import make_record, two_player_round_robin

from simcli.report.api import build_summary
from simcli.report.render import render
from simcli.stats.ratings import expected_score


def second_player_edge():
    """Three strategies, seat 1 favoured by 0.4 natural units, some draws."""
    strengths = {"random": 0.0, "greedy": 1.0, "lookahead": 1.5}
    return two_player_round_robin(
        strengths, 150, seat_advantage=-0.4, draw_rate=0.05, rng=np.random.default_rng(39)
    )


def sections(text: str) -> list[str]:
    lines = text.splitlines()
    return [lines[i - 1] for i, line in enumerate(lines) if line and set(line) == {"-"}]


@pytest.mark.slow
def test_the_answer_comes_first_in_plain_words() -> None:
    summary = build_summary(second_player_edge())
    sb = summary.groups[0].seat_bias
    answer = sb.answer
    assert answer is not None and answer.seat == 1 and answer.player == "second player"
    share = sb.seats[1].decisive_rate
    assert answer.share == share
    text = render(summary, "text", detail=False)
    # the answer, then the findings, then the method (intervals, corrections)
    assert sections(text)[:3] == ["Answer", "Findings", "Method"]
    opening = text.split("Findings\n")[0]
    expected = (
        f"The second player (seat 1) wins {100 * share.estimate:.1f}% "
        f"[{100 * share.low:.1f}%, {100 * share.high:.1f}%] of the decisive games"
    )
    assert expected in " ".join(opening.split())
    assert "Intervals: 95% Wilson" not in opening and "Intervals: 95% Wilson" in text
    # one effect size: the model's, between equal strategies, for the same player
    adv = sb.model.first_seat_advantage
    assert answer.effect_elo.estimate == pytest.approx(-adv.estimate)
    assert answer.effect.estimate == pytest.approx(expected_score(-adv.estimate))
    flat = " ".join(opening.split())
    assert flat.count("Effect size:") == 1
    assert f"the second player would win {100 * answer.effect.estimate:.1f}%" in flat
    assert "model Elo" in flat
    # then what the headline test says of it
    assert "The headline seat test, a sign test on 450 seat-swapped pairs" in flat
    assert "significant at 0.05" in flat
    data = json.loads(render(summary, "json"))
    assert data["groups"][0]["seat_bias"]["answer"]["player"] == "second player"


@pytest.mark.slow
def test_three_players_are_named_by_their_place() -> None:
    rng = random.Random(3)
    records = []
    for k in range(150):
        for perm in itertools.permutations(["a", "b", "c"]):
            w = rng.choices([0, 1, 2], [0.42, 0.33, 0.25])[0]
            records.append(make_record(perm, [w], [3 if s == w else 1 for s in range(3)], seed=k))
    text = render(build_summary(records), "text", detail=False)
    flat = " ".join(text.split("Findings\n")[0].split())
    assert "The first player (seat 0) wins" in flat
    assert "the second player (seat 1)" in flat and "the third player (seat 2)" in flat
    assert "(an even share: 33.3%;" in flat
    assert "in model Elo against the first player: the second player" in flat


def test_a_two_strategy_run_opens_with_the_score_line() -> None:
    records = two_player_round_robin(
        {"new": 0.0, "old": 0.4}, 100, draw_rate=0.1, rng=np.random.default_rng(1)
    )
    summary = build_summary(records)
    text = render(summary, "text", detail=False)
    opening = text.split("Findings\n")[0]
    lines = opening.splitlines()
    assert lines[3:5] == ["Answer", "------"]
    assert lines[5] == summary.groups[0].head_to_head.line
    assert lines[5].startswith("Score of new vs old: ")
    assert lines[6].startswith("score Elo difference: ")
    assert lines[7].startswith("model Elo difference: ")
    assert "player (seat" in lines[8]  # then the seats


@pytest.mark.slow
def test_the_docs_example_is_the_scripts_output() -> None:
    """docs/statistics.md's example report is studies/calibration/example_report.py's
    output, shortened where it says ``...``: every other line, in order."""
    import contextlib
    import io
    import runpy
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "statistics.md").read_text()
    block = doc.split("```\nsimcli report: libraria (run 'libraria-seat-bias')", 1)[1]
    shown = "simcli report: libraria (run 'libraria-seat-bias')" + block.split("```", 1)[0]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        runpy.run_path(
            str(root / "studies" / "calibration" / "example_report.py"), run_name="__main__"
        )
    produced = iter(out.getvalue().splitlines())
    for line in shown.splitlines():
        if line.strip() == "...":
            continue
        assert any(line == p for p in produced), (
            f"not in the script's output, or out of order: {line!r}"
        )
