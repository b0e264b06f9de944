"""Tests of ``adas_reply`` (strategies/adas_reply.py): Ada's Library's heuristic moves
judged after the opponent's modelled reply on determinisations. It sees hidden cards only
through ``game.determinize``, draws only from its own RNG, plays the same moves for the
same seed, takes an immediate win, and a reply that wins for the opponent changes its
choice where the race alone (``adas_race``) does not see it."""

from __future__ import annotations

import random

import pytest
from global_random import play_checking_chance, refuse_global_random
from test_adas_race import two_player_state, values
from test_ismcts import adas_positions_with_a_win, picks_for_two_true_states, started

from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli.strategy import load_strategy_class
from simcli_strategies.adas_heuristic import AdasHeuristic
from simcli_strategies.adas_race import AdasRace
from simcli_strategies.adas_reply import AdasReply
from simcli_strategies.search.compare import first_best, paired_pick

SMALL = {"samples": 3, "candidates": 4, "depth": 2, "beam": 3}


def tell(strategy, seat, move) -> None:
    """What the referee does after every move of a hidden-information game without an
    ``observed_move`` of its own: the seat's move is shown, a chance outcome hidden."""
    strategy.observe(seat, None if seat == CHANCE else move, None)


@pytest.mark.slow
def test_same_seed_same_choice_and_values():
    game, state = two_player_state(seed=8, decisions=2)
    seat = state.current_player
    runs = []
    for seed in (5, 5, 6):
        s = started(AdasReply(**SMALL), game, seat, seed=seed)
        runs.append((s.choose(state.view(seat), state.legal_moves()), values(s)))
    assert runs[0] == runs[1]
    assert runs[0][1]  # candidates were valued on samples
    assert runs[0][1] != runs[2][1]  # another seed, other determinisations


@pytest.mark.parametrize(
    "params", [{"reply": "heuristic"}, {"reply": "worst"}, {"extra": 3, "finalists": 2}]
)
@pytest.mark.slow
def test_other_true_hidden_cards_same_choice(params):
    """Another true state with the same view (the opponent's hand and the draw pile
    re-dealt) gives exactly the same decision and candidate values."""
    game, state = two_player_state(seed=4, decisions=3)
    picks = picks_for_two_true_states(game, state, lambda: AdasReply(**params, **SMALL), values)
    assert picks[0] == picks[1]
    assert picks[0][1]


@pytest.mark.parametrize("params", [{"infer": 0}, {"infer": 3}, {"infer": 3, "extra": 2}])
@pytest.mark.slow
def test_never_touches_the_chance_rng_or_the_global_random(monkeypatch, params):
    """A whole game against the heuristic: no decision changes the driver's chance RNG
    or the true state, and the global generator is never called."""
    game = get_game("adas_library")
    opts = game.resolve_options({})
    chance = random.Random(21)
    state = game.new_state(2, opts, game.sample_setup(2, opts, chance))
    refuse_global_random(monkeypatch)
    players = [
        started(AdasReply(**params, **SMALL), game, 0, seed=3),
        started(load_strategy_class("adas_heuristic")(), game, 1, seed=4),
    ]
    searched = sum(
        seat == 0 and bool(players[0].last_values)
        for seat in play_checking_chance(state, chance, players, snapshot=True)
    )
    assert searched > 0


def test_four_players_plays_the_heuristic_move():
    game = get_game("adas_library")
    opts = game.resolve_options({})
    rng = random.Random(3)
    state = game.new_state(4, opts, game.sample_setup(4, opts, rng))
    for _ in range(5):
        state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player
    moves = state.legal_moves()
    scores = started(AdasHeuristic(), game, seat).scores(state.view(seat), moves)
    s = started(AdasReply(**SMALL), game, seat, seed=5)
    assert s.choose(state.view(seat), moves) == moves[scores.index(max(scores))]
    assert not s.last_values


@pytest.mark.slow
def test_takes_an_immediate_win():
    for game, state, wins in adas_positions_with_a_win(4):
        seat = state.current_player
        s = started(AdasReply(**SMALL), game, seat, seed=5)
        assert s.choose(state.view(seat), state.legal_moves()) in wins


@pytest.mark.slow
def test_inferred_hands_explain_the_opponents_last_move():
    """With ``infer``, every determinisation kept for a decision gives the opponent a hand
    (before its last move: the dealt hand minus its last card, plus the card it played)
    with which the heuristic's best moves include the move it really made; the true
    pre-move state and move come from the game itself, not from the strategy."""
    game = get_game("adas_library")
    opts = game.resolve_options({})
    for deal in range(2):
        chance = random.Random(40 + deal)
        state = game.new_state(2, opts, game.sample_setup(2, opts, chance))
        reply = started(AdasReply(infer=4, **SMALL), game, 0, seed=3)
        heuristic = started(AdasHeuristic(), game, 1, seed=4)
        checked = 0
        before = played = None
        while state.current_player != TERMINAL and state.turns < 30:
            seat = state.current_player
            if seat == CHANCE:
                state.apply(state.sample_chance(chance))
                tell(reply, CHANCE, None)
                before = None
                continue
            moves = state.legal_moves()
            if seat == 1:
                before = state.clone()
                played = heuristic.choose(state.view(1), moves)
                state.apply(played)
                tell(reply, 1, played)
                continue
            view = state.view(0)
            if before is not None and reply._opponent_move(view) is not None:
                for sample in reply.deals(view, reply.samples):
                    assert sample.weight > 0
                    pre = before.clone()
                    pre.hands[1] = [*sample.state.hands[1][:-1], view.discard[-1]]
                    options = pre.legal_moves()
                    scores = started(AdasHeuristic(), game, 1).scores(pre, options)
                    assert scores[options.index(played)] == max(scores)
                    checked += 1
            mine = reply.choose(view, moves)
            state.apply(mine)
            tell(reply, 0, mine)
        assert checked > 0


def small_game_state(rows, hand):
    """Three colours x < y < z (the master order), rows of 4 books, hands of 2 cards.
    The opponent's hand and the whole draw pile are Exchanges, so every determinisation
    is the true state and the values can be worked by hand."""
    game = get_game("adas_library")
    cards = {"exchange": 8}
    for card in hand:
        cards[card] = cards.get(card, 0) + 1
    comp = {
        "colours": ["x", "y", "z"],
        "hand_size": 2,
        "deck_size": 10,
        "cards": cards,
        "players": {2: {"tiles": 12, "books_each": 4}, 4: {"tiles": 18, "books_each": 4}},
    }
    opts = game.resolve_options({"components": comp})
    setup = {
        "master": ["x", "y", "z"],
        "rows": rows,
        "hands": [list(hand), ["exchange", "exchange"]],
        "draw": ["exchange"] * 6,
        "redeals": 0,
    }
    return game, game.new_state(2, opts, setup)


def test_the_reply_changes_the_choice():
    """Our row z y x y, the opponent's y z y z (ranks x 0, y 1, z 2); we hold Move 1 and
    Reverse, the opponent two Exchanges. An Exchange at position 1 gives the opponent
    our y for its z: y y y z, sorted, so any move of ours that keeps a y at position 1
    loses at once.

    - ``adas_race`` (no reply) likes Move 1 of the x at 2 to the right (z y y x): a
      Reverse then sorts our row (x y y z), so we need 1 turn; the opponent's plan needs
      1 turn too (that Exchange) and it moves first: lead = 1 - 1 = 0, worth
      sigmoid(0 - 0.5) = 0.378 a sample, more than any move that needs longer.
    - ``adas_reply`` plays the opponent's reply: after Move 1 (2, R) the heuristic's
      Exchange at 1 wins for it: worth -10 * margin = -0.5 a sample, as for every move
      keeping that y (Reverse, the discards, Move 1 of the x at 2 to the right or of
      the y at 3 to the left). Move 1 of the y at 1 (either way: z x y y or y z x y)
      leaves no winning Exchange, so it is worth more than -0.5 and is chosen."""
    rows = [["z", "y", "x", "y"], ["y", "z", "y", "z"]]
    game, state = small_game_state(rows, ["move1", "reverse"])
    params = {"samples": 2, "candidates": 10}
    race = started(AdasRace(**params), game, 0, seed=1)
    assert race.choose(state.view(0), state.legal_moves()) == ["move1", 2, "R"]
    assert race.last_values[("move1", 2, "R")] == pytest.approx(2 * 0.3775, abs=1e-3)
    reply = started(AdasReply(**params), game, 0, seed=1)
    move = reply.choose(state.view(0), state.legal_moves())
    assert move in (["move1", 0, "R"], ["move1", 1, "L"], ["move1", 1, "R"], ["move1", 2, "L"])
    for lost in (("move1", 2, "R"), ("move1", 3, "L"), ("reverse",), ("discard", "reverse")):
        assert reply.last_values[lost] == pytest.approx(2 * -0.5)
    assert reply.last_values[tuple(move)] > 2 * -0.5


@pytest.mark.slow
def test_extra_determinisations_judge_the_finalists_again():
    """``extra``: the first round is the plain search's (the same draws of the strategy's
    RNG come first), then the heuristic's own move (candidate 0) and the ``finalists - 1``
    best of the others by that round's totals are played on ``extra`` more
    determinisations and only they keep values, each now a sum over both rounds. Fewer
    candidates than finalists: every candidate plays the extra round."""
    game, state = two_player_state(seed=8, decisions=2)
    seat = state.current_player
    moves = state.legal_moves()
    params = {**SMALL, "candidates": 6}
    plain = started(AdasReply(**params), game, seat, seed=5)
    plain.choose(state.view(seat), moves)
    first = dict(plain.last_values)
    order = list(first)  # the candidates in the heuristic's order
    assert len(order) >= 4
    finalists = {order[0], *sorted(order[1:], key=lambda k: -first[k])[:2]}
    runs = []
    for _ in range(2):
        s = started(AdasReply(**params, extra=4, finalists=3), game, seat, seed=5)
        move = s.choose(state.view(seat), moves)
        assert set(s.last_values) == finalists
        assert tuple(move) in finalists
        for key in finalists:
            assert s.last_values[key] != pytest.approx(first[key])
        runs.append((move, values(s)))
    assert runs[0] == runs[1]
    two = {**SMALL, "candidates": 2}
    few = started(AdasReply(**two, extra=3, finalists=4), game, seat, 5)
    few.choose(state.view(seat), moves)
    plain_two = started(AdasReply(**two), game, seat, 5)
    plain_two.choose(state.view(seat), moves)
    assert set(few.last_values) == set(plain_two.last_values) and len(few.last_values) == 2
    for key, value in few.last_values.items():  # the extra round was played for both
        assert value != pytest.approx(plain_two.last_values[key])


@pytest.mark.slow
def test_last_accepted_counts_the_fitting_deals_of_both_rounds():
    """With ``infer`` and ``extra``, ``last_accepted`` counts the determinisations that fit
    the opponent's last move in both rounds: never more than ``samples + extra`` (3 + 2),
    and 5 at some decision of a seeded game, which the first round alone cannot reach."""
    game = get_game("adas_library")
    opts = game.resolve_options({})
    chance = random.Random(0)
    state = game.new_state(2, opts, game.sample_setup(2, opts, chance))
    reply = started(AdasReply(**SMALL, infer=3, extra=2), game, 0, seed=3)
    players = [reply, started(AdasHeuristic(), game, 1, seed=4)]
    accepted = []
    while state.current_player != TERMINAL:
        seat = state.current_player
        if seat == CHANCE:
            state.apply(state.sample_chance(chance))
            tell(reply, CHANCE, None)
            continue
        move = players[seat].choose(state.view(seat), state.legal_moves())
        if seat == 0 and reply.last_values:
            accepted.append(reply.last_accepted)
        state.apply(move)
        tell(reply, seat, move)
    assert max(accepted) == 3 + 2
    assert all(0 <= n <= 5 for n in accepted)


def test_params_and_registry():
    assert load_strategy_class("adas_reply") is AdasReply
    for bad in (
        {"samples": 0},
        {"extra": -1},
        {"finalists": 1},
        {"candidates": 0},
        {"reply": "best"},
        {"reply_candidates": 0},
        {"rounds": 0},
        {"infer": -1},
        {"disruptive": -1},
        {"depth": 0},
        {"beam": 0},
        {"tail": -1},
        {"scale": 0},
        {"weight": -1},
        {"heuristic": {"spite": -1}},
        {"heuristic": [1]},
        {"z": -1},
    ):
        with pytest.raises(ValueError):
            AdasReply(**bad)


def test_paired_pick_needs_evidence_to_leave_the_heuristic_move():
    """Made-up per-sample values (the same six samples for every candidate, candidate 0
    the heuristic's move). ``noisy`` has the best total but its gains swing either way
    (mean paired difference 0.133, standard error 0.37): not played. ``steady`` gains
    0.08-0.12 on every sample (mean 0.1, standard error 0.006): played."""
    base = [0.5, 0.4, 0.6, 0.5, 0.3, 0.7]
    noisy = [b + d for b, d in zip(base, [1.0, -0.8, 1.0, -0.7, 0.9, -0.6], strict=True)]
    steady = [b + d for b, d in zip(base, [0.1, 0.12, 0.08, 0.1, 0.11, 0.09], strict=True)]
    worse = [b - 0.1 for b in base]
    values = [base, noisy, steady]
    assert first_best([sum(v) for v in values], 1e-9) == 1  # the best total: noisy
    assert paired_pick(values, 2.0) == 2
    assert paired_pick(values, 1.0) == 2
    assert paired_pick(values, 0.0) == 1  # no evidence asked: the best mean
    assert paired_pick([base, noisy], 2.0) == 0
    assert paired_pick([base, noisy, worse], 0.0) == 1
    assert paired_pick([base, worse], 0.0) == 0  # a loss on every sample
    assert paired_pick([base, list(base)], 0.0) == 0  # no gain: the heuristic's move
    assert paired_pick([base], 2.0) == 0


@pytest.mark.slow
def test_z_keeps_the_values_and_plays_the_heuristic_move_without_evidence():
    """``z`` changes only which candidate is played: the same determinisations and
    candidate values as without it; an unreachable ``z`` plays the heuristic's top-scored
    move, and ``z: null`` is the default behaviour."""
    game, state = two_player_state(seed=8, decisions=2)
    seat = state.current_player
    moves = state.legal_moves()
    scores = started(AdasHeuristic(), game, seat).scores(state.view(seat), moves)
    runs = {}
    for z in (None, 1e9, "default"):
        params = dict(SMALL) if z == "default" else {**SMALL, "z": z}
        s = started(AdasReply(**params), game, seat, seed=5)
        runs[z] = (s.choose(state.view(seat), moves), values(s))
    assert runs[None] == runs["default"]
    assert runs[1e9][1] == runs[None][1]
    assert len(runs[1e9][1]) > 1
    assert runs[1e9][0] == moves[scores.index(max(scores))]
