"""Ex Libris's ``home_action``: whether a home space's action may be skipped.

The text: "Cuando colocas a un asistente en un espacio de acción en casa, puedes: - Roba
una carta del mazo -o- - Guarda una carta de tu mano". ``required`` (default) reads
"puedes" as the choice between the two actions; ``optional`` also lets the player do
neither (``["home", "pass"]``). At its default the option is left out of the resolved
options, so records of the default reading are unchanged.

2 players; seat 0 holds A1-A6, seat 1 A7-A10 B1 B2, the deck is the rest of the cards in
alphabetical order (B3 on top), so every draw is known.
"""

from __future__ import annotations

import pytest

import simcli
from simcli.game import IllegalMoveError
from simcli.games import get_game
from simcli.records import dumps
from simcli.verify import replay
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("ex_libris")
COMPS = GAME.components(GAME.resolve_options({}))
NAMES = [b.name for b in COMPS.books]
LIB = {lib.ability: lib.name for lib in COMPS.libraries}


def setup(libraries: list[list[str]] | None = None) -> dict:
    return {
        "start": 1,
        "locations": [6] + [n for n in range(2, 19) if n != 6],
        "libraries": libraries or [[COMPS.libraries[0].name], [COMPS.libraries[1].name]],
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H"],
        "hands": [NAMES[0:6], NAMES[6:12]],
        "deck": NAMES[12:],
    }


def hand(state, seat: int) -> list[str]:
    return [state.card_name(c) for c in state.hands[seat]]


def test_the_option_is_left_out_at_its_default() -> None:
    assert "home_action" not in GAME.resolve_options({})
    assert "home_action" not in GAME.resolve_options({"home_action": "required"})
    assert GAME.resolve_options({"home_action": "optional"})["home_action"] == "optional"


def test_required_home_action_offers_no_pass() -> None:
    state = GAME.new_state(2, GAME.resolve_options({}), setup())
    home = [m for m in state.legal_moves() if m[0] == "home"]
    # an empty shelf: one draw and one shelving per card (position (0, 0)) = 1 + 6
    assert home[0] == ["home", "draw"] and len(home) == 7
    with pytest.raises(IllegalMoveError):
        state.apply(["home", "pass"])


def test_a_home_pass_uses_the_space_and_the_assistant_and_nothing_else() -> None:
    state = GAME.new_state(2, GAME.resolve_options({"home_action": "optional"}), setup())
    home = [m for m in state.legal_moves() if m[0] == "home"]
    assert home[0] == ["home", "draw"] and home[-1] == ["home", "pass"] and len(home) == 8
    deck, before = len(state.deck), hand(state, 0)
    state.apply(["home", "pass"])
    # seat 0: same six cards, empty shelf, deck untouched; one home space used and one
    # of its three standard assistants placed; seat 1 to play
    assert hand(state, 0) == before == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert state.shelves[0] == {} and len(state.deck) == deck
    assert state.home[0] == [0] and state.standard == [2, 3]
    assert state.current_player == 1
    # the next draw is still the deck's top card, B3
    state.apply(["home", "draw"])
    assert hand(state, 1)[-1] == "B3"


def test_bookworm_may_pass_at_home_too() -> None:
    spare = [ab for ab in LIB if ab not in ("bookworm", "imp")]
    offers = [[LIB["bookworm"], LIB[spare[0]]], [LIB[spare[1]], LIB["imp"]]]
    options = GAME.resolve_options({"mode": "advanced", "home_action": "optional"})
    state = GAME.new_state(2, options, setup(offers))
    state.apply(["library", LIB["imp"]])  # reverse turn order: seat 1 first
    state.apply(["library", LIB["bookworm"]])
    assert [m for m in state.legal_moves() if m[0] == "shome"] == [
        ["shome", "both"],
        ["shome", "pass"],
    ]
    state.apply(["shome", "pass"])
    assert hand(state, 0) == ["A1", "A2", "A3", "A4", "A5", "A6"] and state.special[0] == 0
    assert state.current_player == 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_optional_home_actions_replay(players: int) -> None:
    options = {"home_action": "optional"}
    record = simcli.play(GAME, RandomStrategy, players=players, options=options, seed=5)
    assert record["termination"] in ("normal", "move_limit"), record.get("detail")
    assert record["options"]["home_action"] == "optional"
    assert any(m in (["home", "pass"], ["shome", "pass"]) for m in record["moves"])
    assert replay(record) == []
    again = simcli.play(GAME, RandomStrategy, players=players, options=options, seed=5)
    assert dumps(again) == dumps(record)
