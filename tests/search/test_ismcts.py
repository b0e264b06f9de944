"""Tests of the ``ismcts`` strategy (strategies/ismcts.py): it searches through
``game.determinize(view, rng)`` only, so the true hidden cards cannot change its choice."""

from __future__ import annotations

import random
from typing import Any

import pytest
from global_random import refuse_global_random

from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, Outcome, State
from simcli.games import GAMES, get_game
from simcli.strategy import load_strategy_class
from simcli_strategies.ismcts import ISMCTSStrategy
from simcli_strategies.mcts import MCTSStrategy

# -- a tiny hidden-information game implementing the contract ------------------------------------
#
# Each seat is dealt one card of 0..5 (hidden from the other seat). Seat 0 may "check"
# (a draw) or "bet"; after a bet seat 1 may "fold" (seat 0 wins) or "call" (the higher card
# wins). Unknown cards in a view are None: playing on a view instead of a determinisation
# fails loudly.

DECK = tuple(range(6))


class ToyState(State):
    def __init__(self, game: Toy, cards: list[int | None]):
        self.game = game
        self.players = 2
        self.options = {}
        self.cards = cards
        self.history: list[str] = []

    @property
    def current_player(self) -> int:
        h = self.history
        if not h:
            return 0
        if h == ["bet"]:
            return 1
        return TERMINAL

    def legal_moves(self) -> list[str]:
        seat = self.current_player
        if seat == 0:
            return ["check", "bet"]
        if seat == 1:
            return ["fold", "call"]
        return []

    def apply(self, move: Any) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal {move!r}")
        self.history.append(move)

    def outcome(self) -> Outcome:
        h = self.history
        if h == ["check"]:
            return Outcome((0, 0), ())
        if h == ["bet", "fold"]:
            return Outcome((1, 0), (0,))
        a, b = self.cards
        if a is None or b is None:
            raise AssertionError("the outcome of a view was asked for: hidden card used")
        return Outcome((1, 0), (0,)) if a > b else Outcome((0, 1), (1,))

    def snapshot(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "history": list(self.history)}

    def render(self) -> str:
        return repr(self.snapshot())

    def clone(self) -> ToyState:
        new = ToyState(self.game, list(self.cards))
        new.history = list(self.history)
        return new

    def view(self, seat: int) -> ToyState:
        new = self.clone()
        new.cards = [c if s == seat else None for s, c in enumerate(self.cards)]
        return new


class Toy(Game):
    id = "toy_hidden"
    title = "toy"
    description = "a one-card betting game"
    player_counts = (2,)
    perfect_information = False

    def __init__(self):
        self.determinized = 0

    def sample_setup(self, players, options, rng):
        return {"cards": rng.sample(DECK, 2)}

    def new_state(self, players, options, setup):
        return ToyState(self, list(setup["cards"]))

    def determinize(self, view: State, rng: random.Random) -> ToyState:
        self.determinized += 1
        state = view.clone()
        known = [c for c in state.cards if c is not None]
        unseen = [c for c in DECK if c not in known]
        state.cards = [c if c is not None else rng.choice(unseen) for c in state.cards]
        return state


def started(strategy, game, seat=0, seed=1):
    strategy.start_game(game, seat, random.Random(seed))
    return strategy


def root_stats(strategy):
    # by repr: the keys mix strings ("pass") and tuples (list moves)
    return sorted(
        ((key, kid.n, round(kid.w, 9)) for key, kid in strategy.last_root.kids.items()), key=repr
    )


def test_toy_true_hidden_card_cannot_change_the_choice():
    game = Toy()
    for mine in DECK:
        results = set()
        for theirs in DECK:
            if theirs == mine:
                continue
            true_state = ToyState(game, [mine, theirs])
            view = true_state.view(0)
            s = started(ISMCTSStrategy(iterations=200), game, seed=7)
            move = s.choose(view, view.legal_moves())
            results.add((move, tuple(root_stats(s))))
        assert len(results) == 1, f"card {mine}: the opponent's true card changed the search"


def test_toy_searches_through_determinize_only_and_plays_sensibly():
    game = Toy()
    true_state = ToyState(game, [5, 0])
    view = true_state.view(0)
    s = started(ISMCTSStrategy(iterations=300), game, seed=3)
    assert s.choose(view, view.legal_moves()) == "bet"  # the top card never loses a bet
    assert game.determinized == 300  # one determinisation per iteration
    assert view.cards == [5, None]  # the view itself was not touched
    # seat 1 holding the lowest card folds
    after_bet = ToyState(game, [3, 0])
    after_bet.apply("bet")
    s1 = started(ISMCTSStrategy(iterations=300), game, seat=1, seed=3)
    assert s1.choose(after_bet.view(1), ["fold", "call"]) == "fold"


def test_toy_mcts_on_hidden_information_uses_the_same_search():
    game = Toy()
    view = ToyState(game, [5, 1]).view(0)
    s = started(MCTSStrategy(iterations=100), game)
    assert s.choose(view, view.legal_moves()) == "bet"
    assert game.determinized == 100


# -- registered hidden-information games ------------------------------------------------------

HIDDEN = [g for g in sorted(GAMES) if not get_game(g).perfect_information]


def advanced_state(
    game_id: str, seed: int, decisions: int, players: int | None = None, min_moves: int = 1
):
    """A state ``decisions`` random decisions into a game (chance from the driver's RNG;
    ``players`` defaults to the most the game allows), carried on until a seat is to move
    with at least ``min_moves`` legal moves."""
    game = get_game(game_id)
    players = players or max(game.player_counts)
    opts = game.resolve_options({})
    rng = random.Random(seed)
    state = game.new_state(players, opts, game.sample_setup(players, opts, rng))
    done = 0
    while (
        done < decisions or state.current_player == CHANCE or len(state.legal_moves()) < min_moves
    ):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        state.apply(rng.choice(state.legal_moves()))
        done += 1
    assert not state.is_terminal()
    return game, state


def picks_for_two_true_states(game, state, make, stats):
    """(move, ``stats(strategy)``) of a fresh ``make()`` searching from the view of
    ``state`` and from the view of another true state with the same view (its hidden parts
    re-dealt), same seed: equal when the search reads hidden cards only through
    ``determinize``."""
    seat = state.current_player
    view = state.view(seat)
    other = game.determinize(view, random.Random(12345))
    assert other != state or game.id == "bibliogamo"  # hidden parts really differ
    other_view = other.view(seat)
    assert other_view.snapshot() == view.snapshot()
    picks = []
    for v in (view, other_view):
        s = started(make(), game, seat, seed=9)
        picks.append((s.choose(v, state.legal_moves()), stats(s)))
    return picks


@pytest.mark.parametrize("game_id", HIDDEN)
def test_other_true_hidden_cards_same_choice(game_id):
    """Another true state with the same view gives exactly the same search: same move,
    same root statistics."""
    game, state = advanced_state(game_id, seed=4, decisions=3)
    picks = picks_for_two_true_states(
        game, state, lambda: ISMCTSStrategy(iterations=30, rollout_depth=8), root_stats
    )
    assert picks[0] == picks[1]


def test_adas_library_replacing_hidden_cards_after_the_view_is_taken():
    game, state = advanced_state("adas_library", seed=6, decisions=2)
    seat = state.current_player
    legal = state.legal_moves()
    view = state.view(seat)
    s = started(ISMCTSStrategy(iterations=40, rollout_depth=10), game, seat, seed=2)
    expected = (s.choose(view.clone(), legal), root_stats(s))
    # now swap every hidden card of the true state (other hands and the draw pile)
    hidden = [c for o in range(state.players) if o != seat for c in state.hands[o]] + state.draw
    random.Random(77).shuffle(hidden)
    assert len(set(hidden)) > 1
    cards = iter(reversed(hidden))
    for o in range(state.players):
        if o != seat:
            state.hands[o] = [next(cards) for _ in state.hands[o]]
    state.draw = [next(cards) for _ in state.draw]
    s = started(ISMCTSStrategy(iterations=40, rollout_depth=10), game, seat, seed=2)
    assert (s.choose(view, legal), root_stats(s)) == expected


def test_determinism_and_params():
    game, state = advanced_state("adas_library", seed=8, decisions=1)
    seat = state.current_player
    runs = []
    for seed in (5, 5, 6):
        s = started(ISMCTSStrategy(iterations=30, rollout_depth=8), game, seat, seed=seed)
        runs.append((s.choose(state.view(seat), state.legal_moves()), root_stats(s)))
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[2][1]
    assert load_strategy_class("ismcts") is ISMCTSStrategy
    assert ISMCTSStrategy().reuse is False  # a new tree every move (see ismcts.py)
    with pytest.raises(ValueError):
        ISMCTSStrategy(iterations=0)


def play_bibliogamo_refusing_global_random(monkeypatch, player, decisions: int, seen=None):
    """Play ``decisions`` decisions of a Bibliogamo game (chance turns and a hidden deck)
    with ``player`` while the global generator refuses every call, checking that no
    decision changes the driver's chance RNG; ``seen(player)`` after each decision.
    Returns the number of chance events."""
    game = get_game("bibliogamo")
    opts = game.resolve_options({})
    chance = random.Random(4)
    state = game.new_state(1, opts, game.sample_setup(1, opts, chance))
    refuse_global_random(monkeypatch)
    started(player, game, 0, seed=3)
    chance_events = done = 0
    while not state.is_terminal() and done < decisions:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(chance))
            chance_events += 1
            continue
        before = chance.getstate()
        move = player.choose(state.view(0), state.legal_moves())
        assert chance.getstate() == before
        if seen is not None:
            seen(player)
        state.apply(move)
        done += 1
    assert done == decisions
    return chance_events


def test_ismcts_never_touches_the_chance_rng_or_the_global_random(monkeypatch):
    """Bibliogamo has chance turns and a hidden deck: the driver's chance RNG must be
    unchanged by every decision, and the global generator is never called."""
    player = ISMCTSStrategy(iterations=15, rollout_depth=6)
    assert play_bibliogamo_refusing_global_random(monkeypatch, player, 25) > 0


# -- score rewards with cut rollouts ----------------------------------------------------------


def adas_positions_with_a_win(count: int):
    """(game, state, winning moves) for the first ``count`` positions of seeded
    ``adas_heuristic`` self-play in which the seat to move has an immediate win."""
    game = get_game("adas_library")
    opts = game.resolve_options({})
    heuristic = load_strategy_class("adas_heuristic")
    found = []
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_state(2, opts, game.sample_setup(2, opts, rng))
        players = [started(heuristic(), game, s, seed=100 * seed + s) for s in range(2)]
        while state.current_player != TERMINAL:
            seat = state.current_player
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            moves = state.legal_moves()
            wins = []
            for move in moves:
                after = state.clone()
                after.apply(move)
                if after.is_terminal() and after.outcome().winners == (seat,):
                    wins.append(move)
            if wins:
                found.append((game, state.clone(), wins))
                if len(found) == count:
                    return found
            state.apply(players[seat].choose(state.view(seat), moves))
    raise AssertionError("not enough positions with a winning move")


@pytest.mark.slow
@pytest.mark.parametrize("strategy_class", [ISMCTSStrategy, MCTSStrategy])
def test_score_reward_with_cut_rollouts_takes_the_win(strategy_class):
    """Ada's Library's final scores are 1 / 0 while its evaluation counts books out of
    order (+-100 for a finished game): a finished rollout must not be scored on another
    scale than a cut one, or a win (margin 1) is worth less than a good open position
    (the search then took the immediate win in only 8 of 40 such positions)."""
    for game, state, wins in adas_positions_with_a_win(6):
        seat = state.current_player
        s = started(
            strategy_class(iterations=200, rollout_depth=0, reward="score"), game, seat, seed=5
        )
        assert s.choose(state.view(seat), state.legal_moves()) in wins
