"""The schedule is a pure function of the config and the index."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from simcli.configfile import load_config
from simcli.tournament.schedule import build_schedule


def test_round_robin_two_players_pairs_share_seeds() -> None:
    s = build_schedule("round_robin", ["a", "b", "c"], 2, 6, seed=1)
    specs = list(s)
    assert s.total == 18 == len(specs)
    assert [sp.seats for sp in specs[:6]] == [("a", "b"), ("b", "a")] * 3
    for first, second in zip(specs[::2], specs[1::2], strict=True):
        assert first.seed == second.seed  # seat-swapped pair: same board
        assert first.seats == second.seats[::-1]
    assert len({sp.seed for sp in specs}) == 9  # every pair has its own seed
    seat_counts = Counter((name, seat) for sp in specs for seat, name in enumerate(sp.seats))
    assert set(seat_counts.values()) == {6}  # every strategy in every seat equally often


def test_schedule_is_pure_and_seed_dependent() -> None:
    a = build_schedule("round_robin", ["a", "b"], 2, 4, seed=1)
    b = build_schedule("round_robin", ["a", "b"], 2, 4, seed=1)
    c = build_schedule("round_robin", ["a", "b"], 2, 4, seed=2)
    assert list(a) == list(b)
    assert [x.seed for x in a] != [x.seed for x in c]
    assert a.spec(3) == list(a)[3]


def test_four_player_rotations() -> None:
    s = build_schedule("round_robin", ["a", "b", "c", "d", "e"], 4, 8, seed=5)
    assert len(s.tables) == 5 and s.total == 40
    first = [s.spec(i) for i in range(4)]
    assert [sp.seats for sp in first] == [
        ("a", "b", "c", "d"),
        ("d", "a", "b", "c"),
        ("c", "d", "a", "b"),
        ("b", "c", "d", "a"),
    ]
    assert len({sp.seed for sp in first}) == 1
    assert s.spec(4).seed != s.spec(3).seed


def test_gauntlet_and_self_play_and_solo() -> None:
    g = build_schedule("gauntlet", ["cand", "x", "y"], 2, 2, seed=1, candidate="cand")
    assert g.tables == (("cand", "x"), ("cand", "y"))
    sp = build_schedule("self_play", ["a", "b"], 2, 3, seed=1)
    specs = list(sp)
    assert [x.seats for x in specs] == [("a", "a")] * 3 + [("b", "b")] * 3
    assert len({x.seed for x in specs}) == 6  # self-play: every game its own seed
    solo = build_schedule("solo", ["a", "b"], 1, 3, seed=1)
    specs = list(solo)
    assert [x.seed for x in specs[:3]] == [x.seed for x in specs[3:]]  # common seeds


def test_variants_are_groups_with_their_own_seeds() -> None:
    s = build_schedule("self_play", ["a"], 2, 2, seed=1, variants=("one", "two"))
    specs = list(s)
    assert [x.variant for x in specs] == ["one", "one", "two", "two"]
    assert len({x.seed for x in specs}) == 4


@pytest.mark.slow
def test_solo_strategies_see_identical_setups_for_the_same_seed() -> None:
    import simcli
    from simcli.games import get_game

    s = build_schedule("solo", ["random", "greedy"], 1, 3, seed=4)
    game = get_game("bibliogamo")
    for k in range(3):
        a, b = s.spec(k), s.spec(3 + k)  # game k of each strategy
        assert (a.seats, b.seats) == (("random",), ("greedy",))
        ra = simcli.play(game, list(a.seats), seed=a.seed, index=a.index)
        rb = simcli.play(game, list(b.seats), seed=b.seed, index=b.index)
        assert ra["setup"] == rb["setup"]
    assert s.spec(0).seed != s.spec(1).seed


def test_more_games_extend_each_pairing_with_the_same_first_games() -> None:
    # docs/search-strategies.md relies on it: the Ada's Library ladder run with 1000 games
    # a pairing replays, as its first 400 a pairing, the games of the 400-game run
    config = load_config(
        Path(__file__).resolve().parent.parent / "configs" / "adas-library-ladder.yaml"
    )
    names = [s.name for s in config.strategies]
    assert config.format == "round_robin" and len(names) == 4 and config.games == 1000

    def by_pairing(games: int) -> dict[frozenset[str], list[tuple[tuple[str, ...], int]]]:
        out: dict[frozenset[str], list[tuple[tuple[str, ...], int]]] = {}
        for sp in build_schedule("round_robin", names, config.players, games, seed=config.seed):
            out.setdefault(frozenset(sp.seats), []).append((sp.seats, sp.seed))
        return out

    short, long = by_pairing(4), by_pairing(10)
    assert short.keys() == long.keys() and len(short) == 6
    for pairing, games in short.items():
        assert len(games) == 4 and len(long[pairing]) == 10
        assert long[pairing][:4] == games
        assert len({seed for _, seed in long[pairing]}) == 5  # new deals after them
