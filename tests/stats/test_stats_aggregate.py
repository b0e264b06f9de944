from collections import Counter

import numpy as np
import pytest
from scipy import stats
from synth_records import make_record, solo, two_player_round_robin

from simcli.errors import RecordError
from simcli.stats.aggregate import Aggregator
from simcli.stats.analysis import summarize
from simcli.stats.distribution import StreamingDistribution
from simcli.stats.records import finishing_ranks, game_length, seat_scores


def _agg(records, **kw):
    agg = Aggregator(**kw)
    agg.add_all(records)
    return agg.finish()


def _strategy(summary, name, group=0):
    return next(s for s in summary["groups"][group]["strategies"] if s["name"] == name)


def test_outcome_shares_and_ranks():
    assert seat_scores(3, [0, 1]) == [0.5, 0.5, 0.0]
    assert seat_scores(2, []) == [0.5, 0.5]
    assert seat_scores(4, [0, 1, 2, 3]) == [0.25] * 4
    assert seat_scores(1, [0]) == [1.0] and seat_scores(1, []) == [0.0]
    assert finishing_ranks(3, [0, 1], [5, 5, 3]) == (0, 0, 1)
    assert finishing_ranks(4, [2], [1, 7, 9, 7]) == (3, 1, 0, 1)
    assert finishing_ranks(3, [1, 2], None) == (1, 0, 0)
    assert finishing_ranks(3, [], [1, 2, 3]) == (0, 0, 0)
    assert game_length([1, {"chance": 2}, [3, 4], "x", {"chance": 0}]) == 3


@pytest.mark.slow
def test_multiplayer_shared_first_counts_one_over_k():
    recs = [
        make_record(("A", "B", "C"), [0, 1], [5, 5, 3], seed=1),
        make_record(("B", "C", "A"), [2], [1, 2, 9], seed=1),
        make_record(("C", "A", "B"), [], [4, 4, 4], seed=1),
    ]
    s = summarize(_agg(recs)).to_dict()
    a = _strategy(s, "A")
    assert a["games"] == 3
    assert a["wins"] == pytest.approx(1.5)  # 1/2 + 1
    assert a["draws"] == 1
    assert a["losses"] == pytest.approx(0.5)
    assert a["score"] == pytest.approx(0.5 + 1 + 1 / 3)
    c = _strategy(s, "C")
    assert c["wins"] == 0 and c["losses"] == pytest.approx(2.0)
    grp = s["groups"][0]
    sb = grp["seat_bias"]
    assert (sb["decisive"], sb["draws"], sb["shared_first"]) == (1, 1, 1)
    assert sb["seats"][2]["decisive_wins"] == 1
    assert sb["test"]["test"] == "chi-square goodness of fit"
    # head-to-head: A vs B: tie (game 1), A ahead (game 2: ranks A 0, B 2), tie (draw)
    cell = next(c for c in grp["pairwise"]["cells"] if c["row"] == "A" and c["col"] == "B")
    assert (cell["games"], cell["wins"], cell["draws"], cell["losses"]) == (3, 1, 2, 0)
    assert cell["score"] == pytest.approx(2.0)
    # the three games are one complete seat-rotation set
    assert sb["pairs"]["complete"] == 1
    assert grp["ratings"]["model"] == "plackett-luce"


def test_forfeits_errors_lengths_and_margins():
    recs = [
        make_record(("A", "B"), [0], [10, 7], moves=[1, 2, {"chance": 1}, 3]),
        make_record(("B", "A"), [], [8, 8], moves=[1, 2]),
        make_record(
            ("A", "B"),
            [1],
            None,
            termination="forfeit",
            detail={"seat": 0, "kind": "timeout", "message": "too slow"},
            moves=[1],
        ),
        make_record(
            ("A", "B"),
            [],
            None,
            termination="error",
            detail={"kind": "game_error", "message": "boom"},
        ),
        make_record(("B", "A"), [], [3, 3], termination="move_limit", moves=[1] * 10),
    ]
    s = summarize(_agg(recs)).to_dict()
    grp = s["groups"][0]
    assert grp["games"] == 4 and grp["errors"] == 1
    assert grp["terminations"] == {
        "normal": 2,
        "move_limit": 1,
        "forfeit": {"timeout": 1},
        "error": 1,
    }
    a = _strategy(s, "A")
    assert a["terminations"]["forfeit_own"] == {"timeout": 1}
    assert a["terminations"]["error"] == 1
    assert _strategy(s, "B")["terminations"]["forfeit_opponent"] == 1
    assert (a["wins"], a["draws"], a["losses"]) == (1, 2, 1)
    assert a["points"]["n"] == 3  # the forfeit has no points
    assert a["points"]["mean"] == pytest.approx((10 + 8 + 3) / 3)
    # lengths 3, 2, 1, 10 (chance events excluded, error game excluded)
    assert grp["length"]["n"] == 4
    assert grp["length"]["median"] == pytest.approx(2.5)
    assert grp["length"]["max"] == 10
    assert grp["margin"]["n"] == 3
    assert grp["margin"]["max"] == 3
    assert any("error" in n for n in s["notes"])


def test_seat_swapped_pairs_and_sign_test():
    recs = []
    # 6 pairs where seat 0 won both, 1 where seat 1 won both, 3 where A won both
    for i in range(6):
        recs += [
            make_record(("A", "B"), [0], [1, 0], seed=i),
            make_record(("B", "A"), [0], [1, 0], seed=i),
        ]
    recs += [
        make_record(("A", "B"), [1], [0, 1], seed=50),
        make_record(("B", "A"), [1], [0, 1], seed=50),
    ]
    for i in range(3):
        recs += [
            make_record(("A", "B"), [0], [1, 0], seed=100 + i),
            make_record(("B", "A"), [1], [0, 1], seed=100 + i),
        ]
    recs.append(make_record(("A", "B"), [0], [1, 0], seed=999))  # partner missing
    s = summarize(_agg(recs)).to_dict()
    pairs = s["groups"][0]["seat_bias"]["pairs"]
    assert pairs["complete"] == 10
    assert (pairs["seat0_better"], pairs["seat1_better"], pairs["even"]) == (6, 1, 3)
    assert pairs["outcomes"]["seat 0 won both"] == 6
    assert pairs["outcomes"]["one strategy won both"] == 3
    assert pairs["unpaired_games"] == 1
    assert pairs["test"]["p_value"] == pytest.approx(stats.binomtest(6, 7).pvalue)


def test_pending_pairs_are_bounded():
    recs = [make_record(("A", "B"), [0], [1, 0], seed=i) for i in range(5)]
    recs += [make_record(("B", "A"), [1], [0, 1], seed=i) for i in (3, 4, 0, 1, 2)]
    agg = Aggregator(max_pending=2)
    for r in recs[:5]:
        agg.add(r)
        assert len(agg.groups[(None, 2)].swaps.pending) <= 2
    agg.add_all(recs[5:]).finish()
    g = agg.groups[(None, 2)]
    assert g.swaps.complete == 2  # seeds 3 and 4 stayed open, 0-2 were dropped
    assert g.swaps.unpaired_games == 3 + 3


def test_self_play_seat_table():
    recs = [make_record(("G", "G"), [0], [2, 1], seed=i) for i in range(30)]
    recs += [make_record(("G", "G"), [1], [1, 2], seed=100 + i) for i in range(10)]
    recs += [make_record(("G", "G"), [], [1, 1], seed=200 + i) for i in range(5)]
    alone = summarize(_agg(recs)).to_dict()["groups"][0]["seat_bias"]
    # one strategy: its self-play split is the group's seat test, not shown twice
    assert alone["by_strategy"] == [] and alone["test"] is None
    recs += [make_record(("H", "H"), [0], [2, 1], seed=300 + i) for i in range(4)]
    s = summarize(_agg(recs)).to_dict()
    grp = s["groups"][0]
    row = grp["seat_bias"]["by_strategy"][0]
    assert row["source"] == "self-play"
    assert (row["decisive"], row["draws"]) == (40, 5)
    assert row["test"]["p_value"] == pytest.approx(stats.binomtest(30, 40).pvalue)
    assert grp["seat_bias"]["pairs"] is None  # self-play games have their own seeds
    assert grp["pairwise"]["names"] == []


def test_solo_pairing_and_wilcoxon_equal_scipy():
    rng = np.random.default_rng(4)
    recs = solo({"greedy": 3.0, "random": 0.0}, 80, rng=rng)
    s = summarize(_agg(recs)).to_dict()
    grp = s["groups"][0]
    assert grp["players"] == 1 and grp["seat_bias"] is None
    comp = grp["solo"]["comparisons"][0]
    by_seed = {}
    for r in recs:
        by_seed.setdefault(r["seed"], {})[r["seats"][0]] = r["scores"][0]
    d = np.array([v["greedy"] - v["random"] for v in by_seed.values()], dtype=float)
    ref = stats.wilcoxon(d[d != 0], method="asymptotic")
    assert comp["pairs"] == 80
    assert comp["test"]["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert comp["mean_difference"]["estimate"] == pytest.approx(d.mean())
    assert comp["difference"]["median"] == pytest.approx(np.median(d))
    g = _strategy(s, "greedy")
    scores = [r["scores"][0] for r in recs if r["seats"][0] == "greedy"]
    assert g["points"]["mean"] == pytest.approx(np.mean(scores))
    lo = stats.t.interval(0.95, len(scores) - 1, np.mean(scores), stats.sem(scores))
    assert (g["points"]["low"], g["points"]["high"]) == pytest.approx(lo)
    assert g["success_rate"]["estimate"] == pytest.approx(np.mean(np.array(scores) > 15))


def test_solo_releases_seeds_early_when_strategies_are_known():
    recs = solo({"a": 1.0, "b": 0.0}, 50, rng=np.random.default_rng(1))
    # interleave seed-major so that each seed completes quickly
    recs.sort(key=lambda r: (r["seed"], r["seats"][0]))
    agg = Aggregator(strategy_order=["a", "b"])
    peak = 0
    for r in recs:
        agg.add(r)
        peak = max(peak, len(agg.groups[(None, 1)].solo.pending))
    assert peak == 1
    agg.finish()
    assert sum(agg.groups[(None, 1)].solo.diffs[("a", "b")].values()) == 50


def test_streaming_distribution_exact_then_reservoir():
    d = StreamingDistribution()
    xs = np.random.default_rng(0).integers(0, 60, size=5001)
    d.extend(xs.tolist())
    assert d.exact
    assert d.quantile(0.25) == np.quantile(xs, 0.25)
    assert d.quantile(0.5) == np.quantile(xs, 0.5)
    big = StreamingDistribution(max_distinct=100, reservoir_size=2000, seed=3)
    ys = np.random.default_rng(1).normal(size=40_000)
    big.extend(ys.tolist())
    assert not big.exact and big.counts is None and len(big.reservoir) == 2000
    assert big.quantile(0.5) == pytest.approx(np.median(ys), abs=0.1)
    assert big.moments.mean == pytest.approx(ys.mean())
    again = StreamingDistribution(max_distinct=100, reservoir_size=2000, seed=3)
    again.extend(ys.tolist())
    assert again.quantile(0.5) == big.quantile(0.5)  # seeded: reproducible


@pytest.mark.parametrize(
    "change,message",
    [
        ({"schema": 2}, "unknown record schema 2"),
        ({"schema": None}, "unknown record schema"),
        ({"winners": [2]}, "'winners'"),
        ({"termination": "aborted"}, "unknown termination 'aborted'"),
        ({"seats": []}, "'seats'"),
        ({"scores": [1]}, "'scores'"),
    ],
)
def test_bad_records_raise_record_error(change, message):
    rec = make_record(("A", "B"), [0], [1, 0])
    rec.update(change)
    with pytest.raises(RecordError, match=message):
        Aggregator().add(rec, where="games.jsonl line 7")
    with pytest.raises(RecordError, match="line 7"):
        Aggregator().add(rec, where="games.jsonl line 7")


def test_mixed_games_in_one_log_rejected():
    agg = Aggregator()
    agg.add(make_record(("A", "B"), [0], [1, 0]))
    with pytest.raises(RecordError, match="differs"):
        agg.add(make_record(("A", "B"), [0], [1, 0], game="other"))


@pytest.mark.slow
def test_seat_effect_found_only_when_present():
    rng = np.random.default_rng(8)
    strengths = {"A": 0.0, "B": -0.5, "C": -1.0}
    with_effect = two_player_round_robin(strengths, 300, seat_advantage=0.3, rng=rng)
    s = summarize(_agg(with_effect)).to_dict()
    sb = s["groups"][0]["seat_bias"]
    # the pairs give the headline test; pooled, stratified and model tests are descriptive
    assert sb["headline"]["id"] == sb["pairs"]["test"]["id"] and sb["headline"]["significant"]
    for other in (sb["test"], sb["model"]["test"], sb["stratified"]["test"]):
        assert not other["in_family"] and other["significant"] is None
        assert other["p_value"] < 0.05 and "descriptive" in other["sentence"]
    assert sb["detectable"]["test"] == "sign test" and 0.5 < sb["detectable"]["seat0_better"]
    adv = sb["model"]["first_seat_advantage"]
    assert adv["low"] < 0.3 * 400 / np.log(10) < adv["high"]
    null = two_player_round_robin(strengths, 300, seat_advantage=0.0, rng=rng)
    s0 = summarize(_agg(null)).to_dict()
    sb0 = s0["groups"][0]["seat_bias"]
    assert not sb0["headline"]["significant"] and sb0["model"]["test"]["p_value"] > 0.05
    ratings = {r["name"]: r for r in s0["groups"][0]["ratings"]["ratings"]}
    assert ratings["C"]["low"] < -400 / np.log(10) < ratings["C"]["high"]


@pytest.mark.slow
def test_variants_are_groups_with_homogeneity_test():
    rng = np.random.default_rng(12)
    recs = []
    for variant, adv in (("fair", 0.0), ("skewed", 0.5), ("mild", 0.1)):
        recs += two_player_round_robin(
            {"A": 0.0, "B": -0.3}, 200, seat_advantage=adv, rng=rng, variant=variant
        )
    s = summarize(_agg(recs)).to_dict()
    assert [g["variant"] for g in s["groups"]] == ["fair", "skewed", "mild"]
    comp = s["variant_comparison"][0]
    assert comp["variants"] == ["fair", "skewed", "mild"]
    # seat0_rates holds seat 0's share of decisive wins (once mislabelled seat1_rates)
    for row, grp in zip(comp["seat0_rates"], s["groups"], strict=True):
        seat0 = grp["seat_bias"]["seats"][0]
        assert row["rate"]["estimate"] == seat0["decisive_wins"] / grp["seat_bias"]["decisive"]
    table = np.array(comp["table"])
    assert comp["test"]["p_value"] == pytest.approx(
        stats.chi2_contingency(table, correction=False).pvalue
    )
    assert comp["test"]["significant"]
    # every p-value of the report is adjusted in one family
    # one family: one headline seat test per group plus the homogeneity test; the other
    # seat tests of the same null on the same games are descriptive figures
    family = [t for t in s["tests"] if t["p_value"] is not None and t["in_family"]]
    assert s["correction"]["tests"] == len(family) == 3 + 1
    assert [t["kind"] for t in family].count("variant_homogeneity") == 1
    assert [t["id"] for t in family[:3]] == [g["seat_bias"]["headline"]["id"] for g in s["groups"]]
    assert [t["p_adjusted"] for t in family] == pytest.approx(
        list(stats.false_discovery_control([t["p_value"] for t in family]))
    )
    assert all(t["p_adjusted"] is None for t in s["tests"] if not t["in_family"])
    assert "false_discovery_control" in s["correction"]["name"]


def test_mirror_test_not_double_counted_for_two_strategies():
    recs = two_player_round_robin({"A": 0.0, "B": -0.3}, 50, rng=np.random.default_rng(2))
    s = summarize(_agg(recs)).to_dict()
    rows = s["groups"][0]["seat_bias"]["by_strategy"]
    assert len(rows) == 2 and rows[0]["test"]["id"] == rows[1]["test"]["id"]
    kinds = Counter(t["kind"] for t in s["tests"])
    assert kinds["seat_by_strategy"] == 1


def _lazy_log(n, rng):
    """Yields records one by one (never a list), from small pre-drawn numpy arrays."""
    names = ["a", "b", "c"]
    matchups = [(0, 1), (1, 2), (0, 2)]
    pick = rng.integers(0, 3, size=n // 2).tolist()
    wins = (rng.random(size=n) < 0.5).tolist()
    points = rng.integers(0, 40, size=(n, 2)).tolist()
    lengths = rng.integers(10, 80, size=n).tolist()
    k = 0
    for seed in range(n // 2):
        i, j = matchups[pick[seed]]
        for s0, s1 in ((i, j), (j, i)):
            yield make_record(
                (names[s0], names[s1]),
                [0] if wins[k] else [1],
                points[k],
                seed=seed,
                moves=[0] * lengths[k],
            )
            k += 1


@pytest.mark.slow
def test_memory_does_not_grow_with_the_number_of_games():
    import tracemalloc

    peaks = []
    for n in (500, 2000):
        agg = Aggregator()
        records = _lazy_log(n, np.random.default_rng(0))
        first = next(records)  # the generator's own pre-drawn arrays are not ours
        tracemalloc.start()
        agg.add(first)
        for rec in records:
            agg.add(rec)
        agg.finish()
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        g = agg.groups[(None, 2)]
        assert g.swaps.complete == n // 2 and not g.swaps.pending
    assert peaks[1] < 1.25 * peaks[0], peaks


def _random_log(draw, st):
    n = draw(st.integers(2, 4))
    names = ["a", "b", "c"]
    records = []
    for i in range(draw(st.integers(1, 12))):
        seats = draw(st.lists(st.sampled_from(names), min_size=n, max_size=n))
        term = draw(st.sampled_from(["normal", "normal", "move_limit", "forfeit", "error"]))
        if term == "forfeit":
            loser = draw(st.integers(0, n - 1))
            winners = [s for s in range(n) if s != loser]
            scores = None
            detail = {"seat": loser, "kind": "exception", "message": "x"}
        else:
            winners = sorted(draw(st.sets(st.integers(0, n - 1), max_size=n)))
            scores = draw(st.lists(st.integers(0, 20), min_size=n, max_size=n))
            detail = {"kind": "game_error", "message": "x"} if term == "error" else None
        records.append(
            make_record(seats, winners, scores, seed=i // 2, termination=term, detail=detail)
        )
    return records


@pytest.mark.slow
def test_invariants_on_random_logs():
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(
        max_examples=15,
        deadline=None,
        derandomize=True,  # reproducible: no unseeded randomness in tests
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(st.data())
    def check(data):
        records = _random_log(data.draw, st)
        s = summarize(_agg(records)).to_dict()
        grp = s["groups"][0]
        valid = sum(r["termination"] != "error" for r in records)
        assert grp["games"] == valid
        total_score = 0.0
        for row in grp["strategies"]:
            assert row["wins"] + row["draws"] + row["losses"] == pytest.approx(row["games"])
            total_score += row["score"]
            for key in ("win_rate", "score_rate"):
                iv = row[key]
                if iv["estimate"] is not None:
                    assert 0 <= iv["low"] <= iv["estimate"] <= iv["high"] <= 1
        assert total_score == pytest.approx(valid)
        sb = grp["seat_bias"]
        assert sb["decisive"] + sb["draws"] + sb["shared_first"] == valid
        for t in s["tests"]:
            assert t["p_value"] is None or not t["in_family"] or 0 <= t["p_adjusted"] <= 1
        import json

        json.dumps(s, allow_nan=False)

    check()


def test_solo_pairing_spills_to_disk_with_identical_results():
    recs = solo({"a": 2.0, "b": 0.0, "c": 1.0}, 60, rng=np.random.default_rng(6))
    recs.append(dict(recs[0]))  # a repeated (seed, strategy) game is paired once
    in_memory = summarize(_agg(recs)).to_dict()
    agg = _agg(recs, max_pending=5)  # strategy-major order: 60 open seeds > 5
    assert agg.groups[(None, 1)].solo.spilled_seeds == 6
    spilled = summarize(agg).to_dict()
    a, b = in_memory["groups"][0]["solo"], spilled["groups"][0]["solo"]
    assert [c["pairs"] for c in b["comparisons"]] == [60, 60, 60]
    for ca, cb in zip(a["comparisons"], b["comparisons"], strict=True):
        assert (ca["a"], ca["b"]) == (cb["a"], cb["b"])
        assert ca["difference"] == cb["difference"]
        assert ca["test"]["p_value"] == pytest.approx(cb["test"]["p_value"], rel=1e-12)
    assert a["duplicates"] == b["duplicates"] == 1
    assert any("disk store" in n for n in spilled["notes"])


@pytest.mark.slow
def test_headline_is_the_stratified_test_when_games_are_not_paired():
    recs = two_player_round_robin(
        {"A": 0.0, "B": -2.4, "C": -4.1}, 150, seat_advantage=0.4, rng=np.random.default_rng(3)
    )
    for i, rec in enumerate(recs):
        rec["seed"] = 10_000 + i  # no two games share a board: no seat-swapped pairs
    s = summarize(_agg(recs)).to_dict()
    sb = s["groups"][0]["seat_bias"]
    assert sb["pairs"]["complete"] == 0
    assert sb["headline"]["id"] == sb["stratified"]["test"]["id"]
    assert sb["headline"]["kind"] == "seat_stratified" and sb["headline"]["in_family"]
    assert sb["headline"]["significant"] and "headline seat test" in sb["headline"]["sentence"]
    assert sb["stratified"]["lineups"] == 3
    assert sum(sb["stratified"]["observed"]) == pytest.approx(sum(sb["stratified"]["expected"]))
    d = sb["detectable"]
    assert d["test"].startswith("stratified") and 0.5 < d["seat0_share"] < 1 and d["elo"] > 0
    assert any("detects (80% power" in f for f in s["findings"])
