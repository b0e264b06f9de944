"""The balance view: per seat win share and mean points, the power statement for a
result that is not significant, the natural game length and the plain option list."""

import math

import pytest
from scipy import stats
from synth_records import make_record, self_play

from simcli.report.api import build_summary, natural_length
from simcli.report.document import _options
from simcli.report.render import csv_rows, render
from simcli.stats import aggregate
from simcli.stats.aggregate import Aggregator
from simcli.stats.analysis import BALANCE_EFFECT, summarize


def _two_variants():
    # variant a: seat 0 scores 7 in every game, seat 1 scores 3 (seat 0 always wins);
    # variant b: seat 0 wins the even games 5-4 and loses the odd ones 4-6
    recs = [make_record(("G", "G"), [0], [7, 3], seed=i, variant="a") for i in range(10)]
    recs += [
        make_record(
            ("G", "G"),
            [0] if i % 2 == 0 else [1],
            [5, 4] if i % 2 == 0 else [4, 6],
            seed=100 + i,
            variant="b",
        )
        for i in range(10)
    ]
    return recs


def test_points_per_seat_and_variant_in_summary_text_and_csv():
    s = build_summary(_two_variants(), natural=False)
    a, b = (grp.seat_bias for grp in s.groups)
    assert (a.seats[0].points.mean, a.seats[1].points.mean) == (7, 3)
    assert b.seats[0].points.mean == pytest.approx(4.5)  # (5 * 5 + 5 * 4) / 10
    assert b.seats[1].points.mean == pytest.approx(5.0)  # (5 * 4 + 5 * 6) / 10
    # t interval of seat 0 in b: sd of five 5s and five 4s = sqrt(10 * 0.25 / 9)
    half = stats.t.ppf(0.975, 9) * math.sqrt(2.5 / 9) / math.sqrt(10)
    assert b.seats[0].points.low == pytest.approx(4.5 - half)
    assert s.to_dict()["groups"][1]["seat_bias"]["seats"][0]["points"]["mean"] == 4.5
    rows = [r for r in csv_rows(s) if r["statistic"] == "mean_points" and r["section"] == "seat"]
    assert [(r["variant"], r["seat"], r["estimate"]) for r in rows] == [
        ("a", 0, 7),
        ("a", 1, 3),
        ("b", 0, 4.5),
        ("b", 1, 5.0),
    ]
    text = render(s, "text")
    assert "Balance by variant and seat" in text
    assert "4.50 [" in text and "mean points" in text


def test_not_significant_seat_result_says_what_it_cannot_rule_out():
    recs = self_play("G", 60, p_seat0=0.5)
    s = summarize(Aggregator().add_all(recs))
    sb = s.groups[0].seat_bias
    assert sb.headline.significant is False
    n = sb.decisive
    # power of the exact two-sided binomial test at 0.53 vs 0.5, worked out from the
    # rejection region of scipy's binomtest (independent of simcli.stats.power)
    reject = [k for k in range(n + 1) if stats.binomtest(k, n, 0.5).pvalue <= 0.05]
    power = sum(stats.binom.pmf(k, n, 0.5 + BALANCE_EFFECT) for k in reject)
    assert sb.power.power == pytest.approx(power)
    # 80% power at 53% vs 50% by the normal approximation
    za, zb = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
    needed = math.ceil(((za * 0.5 + zb * math.sqrt(0.53 * 0.47)) / 0.03) ** 2)
    assert sb.power.games_needed == needed
    assert "too few to rule one out" in sb.power.sentence
    assert sb.power.sentence in s.findings
    assert "too few to rule one out" in render(s, "text")


def test_significant_or_well_powered_results_make_no_such_statement():
    s = summarize(Aggregator().add_all(self_play("G", 200, p_seat0=0.9)))
    assert s.groups[0].seat_bias.headline.significant is True
    assert s.groups[0].seat_bias.power is None
    assert "power" not in s.to_dict()["groups"][0]["seat_bias"]


def test_options_print_without_unset_values():
    assert _options({"mode": "beginner", "books_file": None, "deck": [1, 2]}) == (
        "mode=beginner, deck=(...)"
    )


def test_natural_length_samples_each_lineup_and_skips_unfinished_games(monkeypatch):
    monkeypatch.setattr(aggregate, "NATURAL_SAMPLE", 3)
    asked = []

    def rounds(rec):
        asked.append(rec["seed"])
        return ("rounds", rec["seed"] % 10)

    recs = [make_record(("A", "B"), [0], [2, 1], seed=i) for i in range(5)]
    recs += [make_record(("A", "C"), [0], [2, 1], seed=10 + i) for i in range(5)]
    recs.append(make_record(("A", "C"), [0], None, seed=99, termination="forfeit"))
    s = summarize(Aggregator(natural_length=rounds).add_all(recs))
    nat = s.groups[0].natural_length
    assert asked == [0, 1, 2, 10, 11, 12]  # three per lineup, never the forfeit
    assert (nat.unit, nat.sampled, nat.games) == ("rounds", 6, 10)
    assert nat.length.mean == 1.0  # rounds 0, 1, 2 and 0, 1, 2


def test_a_sampled_natural_length_row_says_what_it_covers(monkeypatch):
    from simcli.report.render import render

    monkeypatch.setattr(aggregate, "NATURAL_SAMPLE", 3)
    recs = [make_record(("A", "B"), [0], [2, 1], seed=i) for i in range(5)]
    recs += [make_record(("A", "C"), [0], [2, 1], seed=10 + i) for i in range(5)]
    s = summarize(Aggregator(natural_length=lambda r: ("rounds", 7)).add_all(recs))
    text = " ".join(render(s, "text").split())
    assert "rounds, sample of 6 games" in text and "rounds, 6 of 10 games" not in text
    assert (
        "the first 3 games of each lineup that ended normally, 6 of the 10 such games. "
        "Every other row counts all games" in text
    )
    # every game replayed: nothing to explain
    monkeypatch.setattr(aggregate, "NATURAL_SAMPLE", 50)
    s = summarize(Aggregator(natural_length=lambda r: ("rounds", 7)).add_all(recs))
    text = render(s, "text")
    assert "rounds, all games" in text and "replays a sample" not in text


def test_natural_length_stops_asking_a_game_without_one():
    asked = []
    recs = [make_record(("A", "B"), [0], [2, 1], seed=i) for i in range(5)]
    s = summarize(Aggregator(natural_length=lambda r: asked.append(1)).add_all(recs))
    assert asked == [1] and s.groups[0].natural_length is None
    assert "natural_length" not in s.to_dict()["groups"][0]


def test_natural_length_of_a_played_game_is_its_facts():
    import simcli
    from simcli.table import replayed_facts

    record = simcli.play("ex_libris", "random", players=2, seed=5)
    unit, value = natural_length(record)
    assert (unit, value) == ("rounds", replayed_facts(record).game["rounds"])
    assert natural_length({**record, "moves": record["moves"][:3]}) is None  # unfinished
