"""The sphere game's playout kernel (``simcli/games/library/playout.py``) against the
reference moves: ``random_legal_move`` and ``apply_trusted`` (which
tests/test_library_speed_paths.py checks against ``legal_moves`` and the checked
``apply``).

The kernel plays the contract loop of ``State.playout`` on bit masks: at every position
it must ask ``randbelow`` for the number of legal moves, play the move of the drawn index
and leave the same position and outcome. Hand-worked positions check each kind of move
with a scripted draw; seeded games check the whole loop under every reading it plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from simcli import draws
from simcli.game import TERMINAL, State
from simcli.games import get_game
from simcli.games.library.board import WALL_MOVES
from simcli.games.library.playout import play_out
from simcli.games.library.state import LibraryState

GAME = get_game("library")
#: (players, options) of every reading the kernel plays (sideways wall pushes are left to
#: the contract loop), a short game among them.
READINGS = [
    (2, {}),
    (4, {}),
    (2, {"topple_chain": "line", "walls_per_player": 6}),
    (2, {"sphere_push": "toward_own", "extra_actions": 1}),
    (4, {"turn_order": "d1_d7_g4_a4", "sphere_push": "toward_own", "walls_per_player": 4}),
    (4, {"extra_actions": 2, "no_push_back": "after_any_roll"}),
    (2, {"plate_pulls_sphere": False, "only_mover_wins": True, "topple_chain": "line"}),
    (2, {"max_turns": 40}),
]


def new(players: int = 2, options: dict | None = None) -> LibraryState:
    opts = GAME.resolve_options(options or {})
    return GAME.new_state(players, opts, GAME.sample_setup(players, opts, None))


def position(cells: dict[str, int], walls: dict[str, int], **rest) -> LibraryState:
    """A 2-player position: plates by cell name, walls by gap name (seat values)."""
    snap = new().snapshot()
    for name, seat in cells.items():
        snap["cells"][_cell(name)] = seat
    for name, seat in walls.items():
        snap["walls"][_gap(name)] = seat
    snap.update(rest)
    return GAME.state_from_snapshot(2, GAME.resolve_options({}), snap)


def _cell(name: str) -> int:
    return 7 * (7 - int(name[1])) + "abcdefg".index(name[0])


def _gap(name: str) -> int:
    return WALL_MOVES.index(f"W {name}")


def play_one(state: LibraryState, move: str) -> LibraryState:
    """``move`` played by the kernel (one ply, the draw scripted to its index), checked
    against ``apply``; returns the kernel's position."""
    moves = state.legal_moves()
    asked: list[int] = []
    fast, slow = state.clone(), state.clone()
    play_out(fast, lambda n: asked.append(n) or moves.index(move), 1)
    slow.apply(move)
    assert asked == [len(moves)]
    assert fast.snapshot() == slow.snapshot()
    assert fast.legal_moves() == slow.legal_moves()  # the move lists rebuilt as kept
    return fast


def test_a_plate_pulls_the_sphere_home_and_wins() -> None:
    """Plates on d2 and d1: ``P d3`` pulls the sphere from d4 over d3 and d2 onto d1."""
    state = play_one(position({"d2": 1, "d1": 1}, {}), "P d3")
    assert state.sphere == _cell("d1") and state.winner == 0
    assert state.current_player == TERMINAL and state.outcome().winners == (0,)


def test_a_plate_behind_a_wall_does_not_pull() -> None:
    state = play_one(position({}, {"d3-d4": 1}), "P d3")
    assert state.sphere == _cell("d4")


def test_a_push_rolls_to_the_wall_and_forbids_the_push_back() -> None:
    start = position({"e4": 1, "f4": 0, "g4": 1}, {"f4-g4": 1})
    state = play_one(start, "S right")
    assert state.sphere == _cell("f4") and state.forbid == _cell("d4")
    assert "S left" not in state.legal_moves()  # back to d4: forbidden for seat 1


def test_a_wall_push_moves_the_run_in_front_of_it() -> None:
    """Walls on c3-c4 (seat 0), d3-d4, e3-e4: ``M c3-c4 right`` moves all three on."""
    start = position({}, {"c3-c4": 0, "d3-d4": 1, "e3-e4": 0})
    state = play_one(start, "M c3-c4 right")
    walls = {name: state.walls[_gap(name)] for name in ("c3-c4", "d3-d4", "e3-e4", "f3-f4")}
    assert walls == {"c3-c4": -1, "d3-d4": 0, "e3-e4": 1, "f3-f4": 0}


def test_a_topple_falls_domino_fashion_and_crushes_the_sphere() -> None:
    """The sphere on d5; walls on d4-d5 (seat 0) and d5-d6: ``T d4-d5 up`` lays seat 0's
    plates on d5 and d6, and the sphere on d5 goes back to the fountain."""
    start = position({"d5": 1}, {"d4-d5": 0, "d5-d6": 1}, sphere=_cell("d5"))
    state = play_one(start, "T d4-d5 up")
    assert state.cells[_cell("d5")] == 0 and state.cells[_cell("d6")] == 0
    assert state.sphere == _cell("d4") and not any(w >= 0 for w in state.walls)


def test_the_connected_line_topples_as_one() -> None:
    """topple_chain: line: walls on c3-c4 (seat 0), d3-d4, e3-e4 fall up onto c4 and e4
    (d4 is the fountain and stays)."""
    opts = GAME.resolve_options({"topple_chain": "line"})
    snap = new().snapshot()
    for name, seat in (("c3-c4", 0), ("d3-d4", 1), ("e3-e4", 1)):
        snap["walls"][_gap(name)] = seat
    start = GAME.state_from_snapshot(2, opts, snap)
    state = play_one(start, "T c3-c4 up")
    assert [state.cells[_cell(c)] for c in ("c4", "d4", "e4")] == [0, -2, 0]


def test_only_pass_is_left_and_is_still_drawn() -> None:
    """Every cell a plate, every gap a wall of seat 1: seat 0 passes (one legal move)."""
    cells = {f"{f}{r}": 1 for f in "abcdefg" for r in range(1, 8) if f"{f}{r}" != "d4"}
    walls = {move[2:]: 1 for move in new().legal_moves() if move.startswith("W ")}
    state = play_one(position(cells, walls), "pass")
    assert state.turn == 1 and state.forbid == -1


def test_the_game_ends_at_the_action_limit() -> None:
    """max_turns 5: five draws, then a draw by the move limit, as the contract loop."""
    fast, slow = new(2, {"max_turns": 5}), new(2, {"max_turns": 5})
    asked: list[int] = []
    play_out(fast, lambda n: asked.append(n) or 0, -1)
    State.playout(slow, random.Random(0), lambda n: 0)
    assert len(asked) == 5 and fast.snapshot() == slow.snapshot()
    assert fast.outcome().termination == "move_limit" and fast.outcome().winners == ()


def test_a_finished_game_is_left_as_it_is() -> None:
    state = position({"d2": 1, "d1": 1}, {})
    state.apply("P d3")  # seat 0 wins
    before = state.snapshot()
    state.playout(random.Random(1), lambda n: pytest.fail("no draw in a finished game"))
    assert state.snapshot() == before


def test_sideways_pushes_keep_the_contract_loop() -> None:
    """push_wall: both is not the kernel's: the state's playout is the contract loop."""
    for seed in range(3):
        fast, slow = new(2, {"push_wall": "both"}), new(2, {"push_wall": "both"})
        r1, r2 = random.Random(seed), random.Random(seed)
        fast.playout(r1, draws.randbelow_of(r1))
        State.playout(slow, r2, r2._randbelow)
        assert fast.snapshot() == slow.snapshot() and r1.getstate() == r2.getstate()


def test_a_variant_subclass_keeps_its_own_rules_in_playouts() -> None:
    """A subclass (a variant's rules, here: nobody ever wins) plays out through its own
    ``apply_trusted``, not the kernel of the rules as written."""

    class NoWinner(LibraryState):
        __slots__ = ()

        def apply_trusted(self, move) -> None:  # noqa: ANN001
            super().apply_trusted(move)
            self.winner = -1

    state = position({"d2": 1, "d1": 1}, {})  # "P d3" pulls the sphere home to d1
    state.__class__ = NoWinner
    win = state.legal_moves().index("P d3")
    draws = iter([win])
    state.playout(random.Random(3), lambda n: next(draws, 0))
    assert state.turn == 300 and state.winner == -1  # the kernel would stop at turn 1


def recorder(rng: random.Random, seen: list[int]) -> Callable[[int], int]:
    below = draws.randbelow_of(rng)

    def draw(n: int) -> int:
        seen.append(n)
        return below(n)

    return draw


def compare(players: int, options: dict, seed: int) -> int:
    """One random game from the opening, played by the kernel and by the reference with
    generators of the same seed: up to a random ply (the positions compared there), then
    the kernel on from the reference's position to the end. Returns the positions seen."""
    opts = GAME.resolve_options(options)
    slow = GAME.new_state(players, opts, GAME.sample_setup(players, opts, None))
    fast = slow.clone()
    r1, r2 = random.Random(seed), random.Random(seed)
    asked: list[int] = []
    seen: list[int] = []
    kernel, reference = recorder(r1, asked), recorder(r2, seen)
    pick, apply = slow.random_legal_move, slow.apply_trusted
    split = seed % 97
    play_out(fast, kernel, split)
    for _ in range(split):
        if slow.current_player == TERMINAL:
            break
        apply(pick(reference))
    assert asked == seen, (players, options, seed)
    assert fast.snapshot() == slow.snapshot(), (players, options, seed)
    assert fast.legal_moves() == slow.legal_moves()
    fast = slow.clone()
    play_out(fast, kernel, -1)
    while slow.current_player != TERMINAL:
        apply(pick(reference))
    assert asked == seen, (players, options, seed)
    assert fast.snapshot() == slow.snapshot(), (players, options, seed)
    assert fast.outcome() == slow.outcome()
    assert r1.getstate() == r2.getstate()
    return len(seen)


@pytest.mark.parametrize(("players", "options"), READINGS)
def test_seeded_games_under_every_reading(players: int, options: dict) -> None:
    assert sum(compare(players, options, seed) for seed in range(2)) > 30


@pytest.mark.slow
def test_the_kernel_on_a_million_positions() -> None:
    """Random games under every reading the kernel plays (most of them the rules as
    written, with 2 and 4 players), until a million positions have been compared: the
    same number of legal moves at each, the same positions and outcomes."""
    weights = [6, 3, 1, 1, 1, 1, 1, 1]
    cycle = [case for case, weight in zip(READINGS, weights, strict=True) for _ in range(weight)]
    checked = seed = 0
    while checked < 1_000_000:
        players, options = cycle[seed % len(cycle)]
        checked += compare(players, options, seed)
        seed += 1
