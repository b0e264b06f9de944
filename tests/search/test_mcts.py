"""Tests of the ``mcts`` strategy (strategies/mcts.py): determinism, tactics in hand-built
positions of Libraria and the sphere game, tree reuse, RNG hygiene, every registered game."""

from __future__ import annotations

import random

import pytest
from global_random import refuse_global_random
from slow_cases import slow_unless

from simcli.game import CHANCE, TERMINAL
from simcli.games import GAMES, get_game
from simcli.strategy import check_params, load_strategy_class
from simcli_strategies.mcts import MCTSStrategy

LIBRARIA = get_game("libraria")

# Hand-built Libraria endgames (5 empty spots, seat 0 to move), found once by exhaustive
# minimax and written down here.
# ONLY_WIN: spot 21 is the only winning placement; every other placement loses.
ONLY_WIN_TILES = [2, 3, 1, -1, -1, 3, 1, -1, 1, 1, 3, 0, 3, 1, 2, -1, 2, 0, 3, 0, 0, -1, 2, 0, 2]
ONLY_WIN_BOARD = [1, 0, 0, 1, 0, 1, 0, 1, 0, 1, -1, 0, -1, 0, 0, -1, 0, 1,
                  0, 0, 1, -1, 1, 1, 1, 0, 1, 1, 1, -1, 0, 1, 1, 0, 0, 1]  # fmt: skip
# BLOCK: spot 21 is seat 1's threat: after any other placement seat 1 takes 21 and wins;
# taking 21 is the only placement that does not lose.
BLOCK_TILES = [0, 2, 0, 2, 1, 2, -1, -1, 3, -1, 1, 0, 3, 3, -1, 1, 0, 1, 2, 0, 3, -1, 2, 1, 3]
BLOCK_BOARD = [0, 0, 0, -1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0,
               0, 1, 0, -1, 1, 0, 0, 1, 1, -1, 0, 0, -1, -1, 1, 1, 0, 1]  # fmt: skip


def libraria_position(tiles, board):
    options = LIBRARIA.resolve_options({})
    ply = sum(1 for x in board if x != -1)
    return LIBRARIA.state_from_snapshot(
        2, options, {"tiles": list(tiles), "board": list(board), "ply": ply}
    )


def started(strategy, game, seat=0, seed=1):
    strategy.start_game(game, seat, random.Random(seed))
    return strategy


def play(game_id, players, makers, seed, max_decisions=None, options=None):
    """Drive a game like the runner does (chance from the driver's own RNG); returns
    (moves, final state)."""
    game = get_game(game_id)
    opts = game.resolve_options(options or {})
    rng = random.Random(seed)
    state = game.new_state(players, opts, game.sample_setup(players, opts, rng))
    strategies = [started(make(), game, seat, seed * 10 + seat) for seat, make in
                  enumerate(makers)]  # fmt: skip
    moves = []
    decisions = 0
    while state.current_player != TERMINAL:
        seat = state.current_player
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if max_decisions is not None and decisions >= max_decisions:
            break
        legal = state.legal_moves()
        move = strategies[seat].choose(state.view(seat), legal.copy())
        assert move in legal
        state.apply(move)
        moves.append(move)
        decisions += 1
    return moves, state


# -- determinism -------------------------------------------------------------------------


def test_same_seed_same_game_and_other_seed_other_game():
    def make():
        return MCTSStrategy(iterations=25)

    first, end1 = play("libraria", 2, [make, make], seed=3)
    again, end2 = play("libraria", 2, [make, make], seed=3)
    assert first == again
    assert end1 == end2
    other, _ = play("libraria", 2, [make, make], seed=4)
    assert other != first


def test_same_seed_same_choice_without_reuse():
    state = libraria_position(ONLY_WIN_TILES, ONLY_WIN_BOARD)
    picks = set()
    for _ in range(2):
        s = started(MCTSStrategy(iterations=40, reuse=False), LIBRARIA, seed=11)
        picks.add(s.choose(state.clone(), state.legal_moves()))
        assert s.last_iterations == 40
    assert len(picks) == 1


# -- tactics in hand-built positions -----------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_libraria_finds_the_only_winning_move(seed):
    state = libraria_position(ONLY_WIN_TILES, ONLY_WIN_BOARD)
    assert state.current_player == 0 and len(state.legal_moves()) == 5
    s = started(MCTSStrategy(iterations=300), LIBRARIA, seed=seed)
    assert s.choose(state.clone(), state.legal_moves()) == 21


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_libraria_blocks_the_threat(seed):
    state = libraria_position(BLOCK_TILES, BLOCK_BOARD)
    assert state.current_player == 0
    # the threat is real: after any other move, seat 1 wins by taking spot 21
    for move in state.legal_moves():
        if move != 21:
            after = state.clone()
            after.apply(move)
            after.apply(21)
            assert after.current_player == 0
    s = started(MCTSStrategy(iterations=300), LIBRARIA, seed=seed)
    assert s.choose(state.clone(), state.legal_moves()) == 21


def test_libraria_proven_values_at_the_root():
    """With enough iterations the small endgame is solved inside the tree."""
    state = libraria_position(ONLY_WIN_TILES, ONLY_WIN_BOARD)
    s = started(MCTSStrategy(iterations=5000), LIBRARIA)
    assert s.choose(state.clone(), state.legal_moves()) == 21
    assert s.last_root.solved == (1.0, 0.0)
    assert s.last_iterations < 5000  # it stopped once the root was proven


# Sphere game: cells are 7 * row + column; the fountain d4 = 24; seat 0's entrance d1 = 45,
# seat 1's entrance d7 = 3.
def library_position(plates, players=2):
    game = get_game("library")
    options = game.resolve_options({})
    snap = game.new_state(players, options, game.sample_setup(players, options, None)).snapshot()
    for cell, owner in plates.items():
        snap["cells"][cell] = owner
    return game, game.state_from_snapshot(players, options, snap)


def immediate_wins(state, seat):
    wins = []
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        if after.is_terminal() and after.outcome().winners == (seat,):
            wins.append(move)
    return wins


@pytest.mark.parametrize("decisive", [False, True])
def test_sphere_game_takes_the_one_move_win(decisive):
    # plates on d3, d2, d1 below the sphere: "S down" rolls it onto seat 0's entrance
    game, state = library_position({31: 1, 38: 1, 45: 1})
    assert immediate_wins(state, 0) == ["S down"]
    assert len(state.legal_moves()) > 100
    s = started(MCTSStrategy(iterations=300, rollout_depth=4, decisive=decisive), game)
    assert s.choose(state.clone(), state.legal_moves()) == "S down"


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.slow
def test_sphere_game_blocks_the_one_move_loss(seed):
    # plates on d5, d6, d7 above the sphere: seat 1 threatens "S up" onto its entrance
    game, state = library_position({17: 0, 10: 0, 3: 0})
    assert immediate_wins(state, 0) == []
    threat = state.clone()
    threat.turn = 1
    assert immediate_wins(threat, 1) == ["S up"]
    s = started(MCTSStrategy(iterations=400, rollout_depth=4, decisive=True), game, seed=seed)
    move = s.choose(state.clone(), state.legal_moves())
    after = state.clone()
    after.apply(move)
    assert not after.is_terminal()
    assert immediate_wins(after, 1) == [], f"{move} leaves seat 1 a winning move"


@pytest.mark.slow
def test_sphere_game_four_players_blocks_the_next_seat():
    # four seats, clockwise: seat 1 (a4, next to move after seat 0) threatens "S left"
    # over plates on c4, b4 and a4
    game, state = library_position({23: 2, 22: 2, 21: 2}, players=4)
    s = started(MCTSStrategy(iterations=400, rollout_depth=4, decisive=True), game)
    move = s.choose(state.clone(), state.legal_moves())
    after = state.clone()
    after.apply(move)
    assert immediate_wins(after, 1) == [], move


# -- tree reuse ------------------------------------------------------------------------------


def test_tree_is_reused_after_the_reply():
    game = LIBRARIA
    options = game.resolve_options({"opening": "one_counter"})
    state = game.new_state(2, options, game.sample_setup(2, options, random.Random(5)))
    state.apply(0)  # seat 0 placed; seat 1 to move
    s = started(MCTSStrategy(iterations=400), game, seat=1)
    move = s.choose(state.clone(), state.legal_moves())
    state.apply(move)
    kept = s._tree
    assert kept is not None and kept.n > 0
    # the opponent answers with a reply the tree has expanded
    reply = max(zip(kept.moves, kept.kids, strict=True), key=lambda mk: mk[1].n)[0]
    reused = kept.kids[kept.moves.index(reply)]
    before = reused.n
    assert before > 0
    state.apply(reply)
    s.choose(state.clone(), state.legal_moves())
    assert s.last_root is reused
    assert s.last_root.n == before + 400


def test_no_reuse_after_an_unexpected_reply_or_when_off():
    game = LIBRARIA
    options = game.resolve_options({"opening": "one_counter"})
    state = game.new_state(2, options, game.sample_setup(2, options, random.Random(5)))
    for reuse in (True, False):
        s = started(MCTSStrategy(iterations=30, reuse=reuse), game)
        pos = state.clone()
        pos.apply(s.choose(pos.clone(), pos.legal_moves()))
        unexpanded = [m for m in pos.legal_moves() if s._tree is None or m not in s._tree.moves]
        pos.apply(unexpanded[0])
        s.choose(pos.clone(), pos.legal_moves())
        assert s.last_root.n == 30


# -- RNG hygiene --------------------------------------------------------------------------------


@pytest.fixture
def no_global_random(monkeypatch):
    refuse_global_random(monkeypatch)


@pytest.mark.slow
def test_never_touches_the_chance_rng_or_the_global_random(no_global_random):
    """Ada's Library has chance turns (reshuffles); the driver's chance RNG state must be
    the same before and after every decision of the search strategies."""
    game = get_game("adas_library")
    opts = game.resolve_options({"max_turns": 60})
    chance = random.Random(2)
    state = game.new_state(2, opts, game.sample_setup(2, opts, chance))
    players = [started(MCTSStrategy(iterations=20, rollout_depth=10), game, 0, 5),
               started(MCTSStrategy(iterations=20, rollout_depth=10), game, 1, 6)]  # fmt: skip
    chance_events = 0
    while not state.is_terminal():
        seat = state.current_player
        if seat == CHANCE:
            state.apply(state.sample_chance(chance))
            chance_events += 1
            continue
        before = chance.getstate()
        move = players[seat].choose(state.view(seat), state.legal_moves())
        assert chance.getstate() == before
        state.apply(move)
    assert chance_events > 0


def test_libraria_search_without_global_random(no_global_random):
    moves, state = play("libraria", 2, [lambda: MCTSStrategy(iterations=20)] * 2, seed=9)
    assert state.is_terminal() and len(moves) == 36


# -- every registered game, parameters -----------------------------------------------------------


@pytest.mark.parametrize(
    "game_id", slow_unless(sorted(GAMES), lambda game_id: game_id != "ex_libris")
)
def test_plays_legal_moves_in_every_registered_game(game_id):
    game = get_game(game_id)
    for players in sorted({min(game.player_counts), max(game.player_counts)}):
        makers = [lambda: MCTSStrategy(iterations=8, rollout_depth=6)] * players
        moves, _ = play(game_id, players, makers, seed=1, max_decisions=12)
        assert len(moves) > 0


@pytest.mark.parametrize("rollout", ["random", "greedy", "simcli_strategies.greedy:GreedyStrategy"])
def test_rollout_policies(rollout):
    state = libraria_position(ONLY_WIN_TILES, ONLY_WIN_BOARD)
    s = started(MCTSStrategy(iterations=300, rollout=rollout), LIBRARIA)
    assert s.choose(state.clone(), state.legal_moves()) == 21


def test_score_reward_on_a_solitaire():
    moves, _ = play("bibliogamo", 1, [lambda: MCTSStrategy(iterations=10, rollout_depth=8)],
                    seed=3, max_decisions=8)  # fmt: skip
    assert len(moves) == 8


def test_time_limit_stops_early():
    options = LIBRARIA.resolve_options({})
    opening = LIBRARIA.new_state(2, options, LIBRARIA.sample_setup(2, options, random.Random(1)))
    s = started(MCTSStrategy(iterations=10**7, time_limit=0.05), LIBRARIA)
    assert s.choose(opening.clone(), opening.legal_moves()) in opening.legal_moves()
    assert 0 < s.last_iterations < 10**7


def test_registered_and_params_checked():
    cls = load_strategy_class("mcts")
    assert cls is MCTSStrategy
    check_params("m", cls, {"iterations": 10, "c": 0.5, "rollout": "greedy"})
    for bad in ({"iterations": 0}, {"c": -1}, {"rollout": "nope"}, {"reward": "x"},
                {"rollout_depth": -2}, {"iterations": True}, {"rollout_epsilon": 2}):  # fmt: skip
        with pytest.raises(ValueError):
            MCTSStrategy(**bad)
    assert MCTSStrategy(iterations=7).iterations == 7


# -- a perfect-information toy game with chance turns -------------------------------------------
#
# Seat 0 says "safe" (a draw) or "gamble"; after a gamble a die is rolled (a chance turn)
# and seat 0 wins on 3-6 and loses on 1-2. Worth 2/3 against 1/2 for the draw.


def make_dice_game():
    from simcli.game import Game, IllegalMoveError, Outcome, State

    class Dice(State):
        def __init__(self, game):
            self.game = game
            self.players = 2
            self.options = {}
            self.history = []

        @property
        def current_player(self):
            if not self.history:
                return 0
            if self.history == ["gamble"]:
                return CHANCE
            return TERMINAL

        def legal_moves(self):
            return ["safe", "gamble"] if not self.history else []

        def apply(self, move):
            if self.current_player == CHANCE:
                if move not in range(1, 7):
                    raise IllegalMoveError(move)
            elif move not in self.legal_moves():
                raise IllegalMoveError(move)
            self.history.append(move)

        def sample_chance(self, rng):
            self.game.rolls += 1
            return rng.randint(1, 6)

        def outcome(self):
            if self.history == ["safe"]:
                return Outcome((0, 0), ())
            return Outcome((1, 0), (0,)) if self.history[1] >= 3 else Outcome((0, 1), (1,))

        def snapshot(self):
            return {"history": list(self.history)}

        def render(self):
            return str(self.history)

        def clone(self):
            new = Dice(self.game)
            new.history = list(self.history)
            return new

    class DiceGame(Game):
        id = "toy_dice"
        title = description = "toy"
        player_counts = (2,)

        def __init__(self):
            self.rolls = 0

        def sample_setup(self, players, options, rng):
            return {}

        def new_state(self, players, options, setup):
            return Dice(self)

    return DiceGame()


def test_chance_nodes_in_a_perfect_information_game():
    game = make_dice_game()
    state = game.new_state(2, {}, {})
    picks = []
    for _ in range(2):
        s = started(MCTSStrategy(iterations=400, c=0.3), game, seed=4)
        picks.append(s.choose(state.clone(), state.legal_moves()))
        gamble = s.last_root.kids[s.last_root.moves.index("gamble")]
        assert gamble.outcomes is not None and set(gamble.outcomes) <= set(range(1, 7))
        assert len(gamble.outcomes) == 6  # every face was sampled into the tree
        assert 0.55 < gamble.w / gamble.n < 0.8  # about 2/3
    assert picks == ["gamble", "gamble"]
    assert game.rolls > 0  # chance turns were sampled inside the search
