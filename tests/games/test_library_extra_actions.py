"""The sphere game's ``extra_actions``: on its first turn seat s takes ``1 + s *
extra_actions`` actions, then the seats take turns one action each. At its default 0 the
option is left out of the resolved options, so records of the rules as written are
unchanged."""

from __future__ import annotations

import pytest

import simcli
from simcli.errors import GameOptionError
from simcli.game import TERMINAL, IllegalMoveError
from simcli.games import get_game
from simcli.games.library.routes import winning_moves
from simcli.games.library.state import opening_order
from simcli.records import dumps
from simcli.verify import replay
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.library_heuristic import LibraryHeuristicStrategy
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("library")


def new(players: int = 2, **given):
    options = GAME.resolve_options(given)
    return GAME.new_state(players, options, GAME.sample_setup(players, options, None))


def play(state, *moves: str) -> list[int]:
    """Apply ``moves``; the seat that made each one."""
    seats = []
    for move in moves:
        seats.append(state.current_player)
        state.apply(move)
    return seats


def test_opening_order() -> None:
    assert opening_order(2, 0) == ()
    assert opening_order(2, 1) == (0, 1, 1)
    assert opening_order(2, 3) == (0, 1, 1, 1, 1)
    assert opening_order(4, 1) == (0, 1, 1, 2, 2, 2, 3, 3, 3, 3)


def test_turn_order_with_extra_actions() -> None:
    moves = ["W a1-a2", "W b1-b2", "W c1-c2", "W e1-e2", "W f1-f2", "W g1-g2", "W a2-a3"]
    assert play(new(), *moves) == [0, 1, 0, 1, 0, 1, 0]  # the rules as written
    assert play(new(extra_actions=1), *moves) == [0, 1, 1, 0, 1, 0, 1]
    assert play(new(extra_actions=2), *moves) == [0, 1, 1, 1, 0, 1, 0]
    four = ["W a1-a2", "W b1-b2", "W c1-c2", "W e1-e2", "W f1-f2", "W g1-g2", "W a2-a3"]
    four += ["W b2-b3", "W c2-c3", "W e2-e3", "W f2-f3", "W g2-g3"]
    assert play(new(4), *four) == [0, 1, 2, 3] * 3
    assert play(new(4, extra_actions=1), *four) == [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 0, 1]


def test_three_actions_win_the_second_player_the_game_at_once() -> None:
    # Seat 1 (entrance d7, top centre) lays plates on d6 and d7, then on d5 next to the
    # sphere on the fountain d4: the plate pulls the sphere up over d5 and d6 onto d7,
    # where the edge stops it: seat 1 wins on its first turn.
    state = new(extra_actions=2)
    assert play(state, "W a1-a2", "P d6", "P d7", "P d5") == [0, 1, 1, 1]
    assert state.current_player == TERMINAL
    outcome = state.outcome()
    assert (outcome.scores, outcome.winners, outcome.termination) == ((0.0, 1.0), (1,), "normal")
    # as written, seat 0 answers the plate on d6 and d7: it walls d4-d5 off, and d5
    # no longer pulls the sphere
    state = new()
    assert play(state, "W a1-a2", "P d6", "W d4-d5", "P d7", "W a2-a3", "P d5") == [0, 1] * 3
    assert state.sphere == GAME.new_state(2, GAME.resolve_options({}), {}).sphere
    assert state.current_player == 0


def test_winning_moves_know_who_acts_next() -> None:
    state = new(extra_actions=2)
    play(state, "W a1-a2", "P d6", "P d7")
    assert state.current_player == 1
    assert winning_moves(state) == ["P d5"]  # seat 1's own third action
    # as written, seat 0 acts after seat 1's two plates: nothing wins it the game, and
    # its own plate on d5 would roll the sphere onto seat 1's entrance
    plain = new()
    play(plain, "W a1-a2", "P d6", "P a7", "P d7")
    assert plain.current_player == 0
    assert winning_moves(plain) == [] and winning_moves(plain, 1) == ["P d5"]


def test_no_push_back_binds_the_next_action_even_of_the_same_seat() -> None:
    # Seat 0's plate on d3 pulls the sphere down onto d3 (d2 is empty: it stops there).
    # Seat 1 pushes it up: over the fountain d4, stopping before the empty d5. Its second
    # action may not push it straight back down to d3.
    state = new(extra_actions=1)
    play(state, "P d3", "S up")
    assert state.current_player == 1
    assert "S down" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="may not be pushed straight back"):
        state.apply("S down")
    play(state, "W a1-a2")
    assert state.current_player == 0 and "S down" in state.legal_moves()


def test_extra_actions_count_towards_max_turns() -> None:
    state = new(extra_actions=1, max_turns=3)
    assert play(state, "W a1-a2", "W b1-b2", "W c1-c2") == [0, 1, 1]
    assert state.current_player == TERMINAL
    assert state.outcome().termination == "move_limit"


def test_snapshots_rebuild_with_the_options() -> None:
    state = new(extra_actions=1)
    play(state, "W a1-a2", "W b1-b2")
    snap = state.snapshot()
    assert snap["turn"] == 2  # the snapshot holds the action count; the options the order
    rebuilt = GAME.state_from_snapshot(2, state.options, snap)
    assert rebuilt.current_player == 1 and rebuilt == state
    assert rebuilt.render() == state.render()
    assert rebuilt.render().splitlines()[-1] == "turn 3, seat 1 to move (action 2 of 2)"
    assert GAME.state_from_snapshot(2, GAME.resolve_options({}), snap).current_player == 0
    clone = state.clone()
    clone.apply("W c1-c2")
    assert clone.current_player == 0 and state.current_player == 1


def test_the_option_is_checked_and_left_out_at_its_default() -> None:
    assert "extra_actions" not in GAME.resolve_options({})
    assert "extra_actions" not in GAME.resolve_options({"extra_actions": 0})
    assert GAME.resolve_options({"extra_actions": 1})["extra_actions"] == 1
    spec = GAME.options["extra_actions"]
    assert spec.numeric and (spec.minimum, spec.maximum, spec.grid_step) == (0, 3, 1)
    assert spec.nearest(0.6) == 1
    for value, problem in [
        (4, "must be at most 3; got 4"),
        (-1, "must be at least 0; got -1"),
        (0.5, "must be an integer; got 0.5"),
    ]:
        with pytest.raises(GameOptionError, match=problem):
            GAME.resolve_options({"extra_actions": value})


@pytest.mark.parametrize("players", [2, 4])
def test_records_with_extra_actions_replay_and_records_without_are_unchanged(players) -> None:
    factories = {
        "heuristic": LibraryHeuristicStrategy,
        "greedy": GreedyStrategy,
        "random": RandomStrategy,
    }
    seats = ["greedy", "random", "greedy", "heuristic"][:players]
    seats = [{"name": s, "use": factories[s]} for s in seats]
    plain = simcli.play(GAME, seats, seed=4)
    zero = simcli.play(GAME, seats, options={"extra_actions": 0}, seed=4)
    assert dumps(zero) == dumps(plain)
    assert "extra_actions" not in plain["options"]
    options = {"extra_actions": 1, "max_turns": 120}
    record = simcli.play(GAME, seats, options=options, seed=4)
    assert record["options"]["extra_actions"] == 1
    assert record["termination"] in ("normal", "move_limit")
    assert replay(record) == []
