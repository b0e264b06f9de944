"""Library: the evaluation used by ``greedy``, the route searches and ``library_heuristic``."""

from __future__ import annotations

import random

import pytest
from test_library_rules import cell, position

from simcli.games.library import Library, LibraryState
from simcli.games.library.routes import INF, best_route, push_distance, route_cost, winning_moves
from simcli.strategy import BUILTIN, load_strategy_class
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.library_heuristic import LibraryHeuristicStrategy
from simcli_strategies.random_play import RandomStrategy

GAME = Library()


def play(players: int, strategies: list, seed: int, **options: object) -> LibraryState:
    resolved = GAME.resolve_options(options)
    state = GAME.new_state(players, resolved, GAME.sample_setup(players, resolved, None))
    for seat, strategy in enumerate(strategies):
        strategy.start_game(GAME, seat, random.Random(seed * 10 + seat))
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_moves()
        move = strategies[seat].choose(state.view(seat), legal)
        assert move in legal
        state.apply(move)
    return state


def test_push_distance_counts_pushes() -> None:
    state = position(plates={"d3": 1, "d2": 1, "d1": 1})
    assert push_distance(state, cell("d1"))[0] == 1
    # around a wall: right to g4, down to g1, left along rank 1 to the edge... no: stops
    # before the empty c1, so d1 needs e1..g1 and c1 empty
    state = position(
        plates={"e4": 1, "f4": 1, "g4": 1, "g3": 1, "g2": 1, "g1": 1, "f1": 1, "e1": 1, "d1": 1},
        walls={"c1-d1": 1},
    )
    assert push_distance(state, cell("d1"))[0] == 3
    assert push_distance(position(), cell("d1"))[0] == INF


def test_greedy_evaluation() -> None:
    near = position(plates={"d3": 1, "d2": 1, "d1": 1})
    assert GAME.evaluate(near, 0) == -1.0
    far = position(plates={"d3": 1})
    # no push route: below every route, by the distance still to go (d3 -> d1 is 2)
    assert GAME.evaluate(far, 0) == -22.0
    near.apply("S down")
    assert GAME.evaluate(near, 0) == 1000.0 and GAME.evaluate(near, 1) == -1000.0
    draw = position(max_turns=1)
    draw.apply("W a6-a7")
    assert GAME.evaluate(draw, 0) == -100.0


def test_route_cost_counts_plates_walls_and_pushes() -> None:
    assert route_cost(position(), cell("d1")) == 3  # three plates, the last one pulls
    assert route_cost(position(plate_pulls_sphere=False), cell("d1")) == 4  # + one push
    assert route_cost(position(plates={"d3": 1, "d2": 1}), cell("d1")) == 2  # plate + push
    cost, legs = best_route(position(plates={"d3": 1, "d2": 1, "d1": 1}), cell("d1"))
    assert cost == 1 and legs == [(cell("d4"), 1, cell("d1"))]
    # walled in on three sides: e4 (a pulling plate, 1), down e3-e1 (3 plates, the
    # first pulls), then d1 (a pulling plate; c1 is empty, so it stops there) = 5
    boxed = position(walls={"d3-d4": 1, "c4-d4": 1, "d4-d5": 1})
    assert route_cost(boxed, cell("d1")) == 5
    # a plate on f4 costs one more: rolling onto e4 must now be stopped by a wall
    boxed_f4 = position(plates={"f4": 0}, walls={"d3-d4": 1, "c4-d4": 1, "d4-d5": 1})
    assert route_cost(boxed_f4, cell("d1")) == 6
    walled = position(walls={"c1-d1": 0, "d1-e1": 0, "d1-d2": 0})
    assert route_cost(walled, cell("d1")) == INF


def test_winning_moves_are_exact() -> None:
    state = position(plates={"d3": 1, "d2": 1, "d1": 1, "d5": 0, "d6": 0})
    assert winning_moves(state) == ["S down"]
    assert winning_moves(state, 1) == []  # d7 is empty: up stops on d6
    pull = position(plates={"d2": 0, "d1": 0})
    assert winning_moves(pull) == ["P d3"]
    assert winning_moves(position(plates={"d2": 0, "d1": 0}, plate_pulls_sphere=False)) == []
    forbidden = position(plates={"d3": 1, "d2": 1, "d1": 1}, forbid="d1")
    assert winning_moves(forbidden) == []
    assert winning_moves(forbidden, 0, as_mover=True) == ["S down"]


def test_builtin_registration() -> None:
    assert (
        BUILTIN["library_heuristic"]
        == "simcli_strategies.library_heuristic:LibraryHeuristicStrategy"
    )
    assert load_strategy_class("library_heuristic") is LibraryHeuristicStrategy


@pytest.mark.parametrize(
    "params", [{"defense": -1}, {"defense": "high"}, {"threat_bonus": None}, {"horizon": 0}]
)
def test_heuristic_rejects_bad_params(params: dict) -> None:
    with pytest.raises(ValueError):
        LibraryHeuristicStrategy(**params)


def test_heuristic_takes_a_win() -> None:
    state = position(plates={"d2": 0, "d1": 0, "d5": 1})
    strategy = LibraryHeuristicStrategy()
    strategy.start_game(GAME, 0, random.Random(1))
    assert strategy.choose(state.clone(), state.legal_moves()) == "P d3"


def test_heuristic_blocks_an_immediate_threat_and_greedy_does_not() -> None:
    # seat 1 would win next turn by pushing the sphere up over d5, d6 onto d7
    state = position(plates={"d5": 1, "d6": 1, "d7": 1, "c4": 0})
    assert winning_moves(state, 1, as_mover=True) == ["S up"]
    for seed in range(5):
        heuristic = LibraryHeuristicStrategy()
        heuristic.start_game(GAME, 0, random.Random(seed))
        after = state.clone()
        after.apply(heuristic.choose(state.clone(), state.legal_moves()))
        assert winning_moves(after) == []
    greedy = GreedyStrategy()
    greedy.start_game(GAME, 0, random.Random(0))
    after = state.clone()
    after.apply(greedy.choose(state.clone(), state.legal_moves()))
    assert winning_moves(after) == ["S up"]


@pytest.mark.parametrize(
    "opponent", [RandomStrategy, pytest.param(GreedyStrategy, marks=pytest.mark.slow)]
)
def test_heuristic_beats_random_and_greedy_from_both_seats(opponent: type) -> None:
    for seed in range(4):
        for seat in (0, 1):
            players = [opponent(), opponent()]
            players[seat] = LibraryHeuristicStrategy()
            assert play(2, players, seed).winner == seat


@pytest.mark.slow
def test_heuristic_plays_four_player_games_and_options() -> None:
    lineup = [LibraryHeuristicStrategy(), GreedyStrategy(), RandomStrategy(), RandomStrategy()]
    final = play(4, lineup, 3, max_turns=80)
    assert final.is_terminal()
    final = play(
        2,
        [LibraryHeuristicStrategy(), LibraryHeuristicStrategy(defense=0)],
        1,
        only_mover_wins=True,
        plate_pulls_sphere=False,
        max_turns=60,
    )
    assert final.is_terminal()


def plain_push_bfs(state: LibraryState, target: int, avoid: set[int]) -> tuple[int, set[int]]:
    """Breadth-first search over ``slide`` (the rules' own roll), cell by cell."""
    depth = {state.sphere: 0}
    queue = [state.sphere]
    for pos in queue:
        if pos == target:
            return depth[pos], set(depth)
        if pos in avoid:
            continue
        for d in range(4):
            end = state.slide(pos, d)
            if end not in depth:
                depth[end] = depth[pos] + 1
                queue.append(end)
    return INF, set(depth)


@pytest.mark.slow
def test_bit_mask_push_search_matches_a_plain_search() -> None:
    rng = random.Random(5)
    checked = reachable = 0
    for _ in range(150):
        players = rng.choice([2, 4])
        state = GAME.new_state(
            players, GAME.resolve_options({}), GAME.sample_setup(players, {}, None)
        )
        for _ in range(rng.randrange(0, 150)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        entrances = list(state.entrance_of)
        for target in entrances:
            avoid = {c for c in entrances if c != target}
            mask = sum(1 << c for c in avoid)
            pushes, reached = push_distance(state, target, mask)
            expected, seen = plain_push_bfs(state, target, avoid)
            assert pushes == expected
            if pushes == INF:
                assert reached == sum(1 << c for c in seen - avoid)
            checked += 1
            reachable += pushes < INF
    assert checked > 200 and reachable > 20
