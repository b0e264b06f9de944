"""Ada's Library: hidden information, determinization, records and strategies."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import simcli
from simcli.game import CHANCE, IllegalMoveError
from simcli.games import get_game
from simcli.games.adas_library import AdasState, partner_of
from simcli.games.adas_library.components import UNKNOWN
from simcli.strategy import BUILTIN
from simcli.verify import replay
from simcli_strategies.adas_heuristic import AdasHeuristic, successors
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("adas_library")
OPTIONS = GAME.resolve_options({})


def midgame(players: int, seed: int, turns: int) -> AdasState:
    """A seeded random-play position after ``turns`` player turns (chance resolved)."""
    rng = random.Random(seed)
    state = GAME.new_state(players, OPTIONS, GAME.sample_setup(players, OPTIONS, rng))
    while state.turns < turns or state.current_player == CHANCE:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
        if state.is_terminal():
            break
    return state


def swap_hidden_cards(state: AdasState, seat: int, rng: random.Random) -> AdasState:
    """The same position with the cards ``seat`` cannot see dealt differently."""
    other = state.clone()
    slots = [(s, i) for s in range(state.players) if s != seat for i in range(len(state.hands[s]))]
    cards = [state.hands[s][i] for s, i in slots] + state.draw
    for _ in range(20):
        rng.shuffle(cards)
        if cards != [state.hands[s][i] for s, i in slots] + state.draw:
            break
    for (s, i), card in zip(slots, cards, strict=False):
        other.hands[s][i] = card
    other.draw = cards[len(slots) :]
    return other


# -- views -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_view_hides_other_hands_and_the_draw_order(players: int) -> None:
    state = midgame(players, seed=11, turns=6)
    for seat in range(players):
        view = state.view(seat)
        assert view.hands[seat] == state.hands[seat]
        for s in range(players):
            if s != seat:
                assert view.hands[s] == [UNKNOWN] * len(state.hands[s])
        assert view.draw == [UNKNOWN] * len(state.draw)
        assert view.discard == state.discard and view.rows == state.rows
        assert view.master == state.master and view.viewer == seat
        snap = json.dumps(view.snapshot())
        assert json.loads(snap)["draw"] == [UNKNOWN] * len(state.draw)
        assert view != state and view.clone() == view
    seat = state.current_player
    assert state.view(seat).legal_moves() == state.legal_moves()
    # a seat that is not to move cannot know the mover's cards
    assert state.view((seat + 1) % players).legal_moves() == []
    with pytest.raises(IllegalMoveError):
        state.view(players)


@pytest.mark.parametrize("players", [2, 4])
def test_decisions_do_not_depend_on_hidden_cards(players: int) -> None:
    factories = [RandomStrategy, GreedyStrategy, AdasHeuristic]
    changed = 0
    for seed in range(6):
        state = midgame(players, seed=seed, turns=3 + seed)
        if state.is_terminal():
            continue
        seat = state.current_player
        other = swap_hidden_cards(state, seat, random.Random(seed))
        assert other != state  # the hidden cards really differ ...
        changed += 1
        view, other_view = state.view(seat), other.view(seat)
        assert view == other_view  # ... but the seat's view does not
        for factory in factories:
            picks = []
            for v in (view, other_view):
                strategy = factory()
                strategy.start_game(GAME, seat, random.Random(99))
                picks.append(strategy.choose(v.clone(), v.legal_moves()))
            assert picks[0] == picks[1], factory.__name__
    assert changed >= 4


def test_view_can_apply_its_own_moves() -> None:
    state = midgame(2, seed=3, turns=4)
    seat = state.current_player
    view = state.view(seat)
    move = view.legal_moves()[0]
    view.apply(move)
    state.apply(move)
    assert view.rows == state.rows and view.master == state.master
    assert view.hands[seat][-1] == UNKNOWN  # the drawn card is unknown to the view
    assert view.hands[seat][:-1] == state.hands[seat][:-1]
    assert view.legal_moves() == []  # the opponent's turn: its cards are unknown


# -- determinize ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_deals_the_unseen_cards(players: int) -> None:
    state = midgame(players, seed=21, turns=40)  # past a reshuffle in 4 players
    seat = state.current_player
    view = state.view(seat)
    deck = Counter(GAME.components(OPTIONS).deck())
    deals = []
    for seed in range(5):
        full = GAME.determinize(view, random.Random(seed))
        assert full.viewer is None
        assert full.view(seat) == view  # consistent with what the seat knows
        cards = Counter(c for hand in full.hands for c in hand) + Counter(full.draw + full.discard)
        assert cards == deck
        assert full.legal_moves() == state.legal_moves()
        deals.append(full.snapshot())
    assert len({json.dumps(d) for d in deals}) > 1  # the hidden cards are sampled
    again = GAME.determinize(view, random.Random(0)).snapshot()
    assert again == deals[0]
    # a view that applied its own move (and drew an unknown card) still determinizes
    view.apply(view.legal_moves()[-1])
    full = GAME.determinize(view, random.Random(1))
    assert UNKNOWN not in sum(full.hands, []) + full.draw
    broken = view.clone()
    broken.discard.append("reverse")  # more cards than the deck holds
    broken.discard.extend(["reverse"] * 5)
    with pytest.raises(IllegalMoveError):
        GAME.determinize(broken, random.Random(1))


# -- records ---------------------------------------------------------------------------


@pytest.mark.slow
def test_record_keeps_reshuffles_as_chance_events_and_replays() -> None:
    record = simcli.play(GAME, "random", players=2, seed=5)
    chances = [m for m in record["moves"] if isinstance(m, dict)]
    assert chances and all(set(m) == {"chance"} for m in chances)
    assert all(isinstance(c, str) for m in chances for c in m["chance"])
    assert replay(json.loads(json.dumps(record))) == []
    assert record["options"]["components"]["deck_size"] == 45
    # tampering with a reshuffle order breaks the replay
    bad = json.loads(json.dumps(record))
    first = next(i for i, m in enumerate(bad["moves"]) if isinstance(m, dict))
    bad["moves"][first]["chance"] = bad["moves"][first]["chance"][:-1]
    assert replay(bad) != []


def test_render_and_snapshot() -> None:
    state = midgame(4, seed=2, turns=5)
    text = state.render()
    assert "master" in text and "Y=yellow" in text and "seat 3" in text
    assert "? ? ? ? ?" in state.view(0).render()
    snap = state.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    assert set(snap) == {
        "master",
        "rows",
        "hands",
        "draw",
        "discard",
        "turns",
        "winner",
        "reshuffle",
        "viewer",
        "chance",
    }


# -- strategies ------------------------------------------------------------------------


def test_heuristic_registered_and_params() -> None:
    assert BUILTIN["adas_heuristic"] == "simcli_strategies.adas_heuristic:AdasHeuristic"
    h = AdasHeuristic()
    assert (h.follow_up, h.spite, h.spare) == (0.9, 0.5, 0.05)
    with pytest.raises(ValueError, match="spite"):
        AdasHeuristic(spite=-1)


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_simulation_matches_the_rules(players: int) -> None:
    for seed in range(4):
        state = midgame(players, seed=seed, turns=2 + seed)
        if state.is_terminal():
            continue
        seat = state.current_player
        rows = tuple(tuple(r) for r in state.rows)
        for card in sorted(set(state.hands[seat])):
            simulated = list(
                successors(card, seat, partner_of(seat, players), rows, tuple(state.master))
            )
            assert [m for m, _ in simulated] == state.plays(seat, card)
            for move, (new_rows, new_master) in simulated:
                after = state.clone()
                after.apply(move)
                assert tuple(tuple(r) for r in after.rows) == new_rows
                assert tuple(after.master) == new_master


def _choose(strategy, state: AdasState, seed: int = 0):
    seat = state.current_player
    strategy.start_game(GAME, seat, random.Random(seed))
    view = state.view(seat)
    return strategy.choose(view, view.legal_moves())


def _position(rows: list[str], hand: list[str]) -> AdasState:
    names = {"Y": "yellow", "T": "teal", "G": "gray", "M": "magenta", "B": "blue", "R": "red"}
    deck = Counter(GAME.components(OPTIONS).deck())
    other = ["move1", "move2", "move3", "move4", "move_end"]
    deck.subtract(hand + other)
    setup = {
        "master": [names[c] for c in "YTGMBR"],
        "rows": [[names[c] for c in row] for row in rows],
        "hands": [hand, other],
        "draw": list(deck.elements()),
        "redeals": 0,
    }
    return GAME.new_state(2, OPTIONS, setup)


@pytest.mark.slow
def test_heuristic_takes_a_win_and_avoids_handing_one_over() -> None:
    state = _position(
        ["YYTTGGMBMB", "RBRTYGYGMR"], ["move4", "switch1", "reverse", "master1", "exchange"]
    )
    for seed in range(3):
        assert _choose(AdasHeuristic(), state, seed) == ["switch1", 7]
    # the only exchange that matters sorts the opponent's row: never play it
    state = _position(
        ["RBMGTRBMGR", "YYTTGGMMBY"], ["exchange", "move1", "move2", "move3", "switch2"]
    )
    for seed in range(5):
        assert _choose(AdasHeuristic(), state, seed) != ["exchange", 9]


def test_greedy_uses_the_books_out_of_order() -> None:
    state = _position(
        ["YYTTGGMBMB", "RBRTYGYGMR"], ["move4", "switch1", "reverse", "master1", "exchange"]
    )
    assert GAME.evaluate(state, 0) == -1.0
    assert GAME.evaluate(state, 1) == -float(state.out_of_order(1))
    assert _choose(GreedyStrategy(), state) == ["switch1", 7]
    state.apply(["switch1", 7])
    assert GAME.evaluate(state, 0) == 100.0 and GAME.evaluate(state, 1) == -100.0


@pytest.mark.slow
def test_heuristic_beats_random_in_a_short_seeded_match() -> None:
    factories = {"h": AdasHeuristic, "r": RandomStrategy}
    wins = 0
    for index in range(4):
        for seats in (["h", "r"], ["r", "h"]):
            lineup = [{"name": s, "use": factories[s]} for s in seats]
            record = simcli.play(GAME, lineup, seed=100 + index, index=index)
            assert record["termination"] == "normal"
            wins += seats[record["winners"][0]] == "h"
    assert wins == 8
