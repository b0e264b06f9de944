"""Ex Libris' ``komi``: seat s gets s x komi points added to its inspection total; the
winner is the highest final score, and the text's tie-breaks (more books on the shelf,
fewer cards in hand, fewer banned books, then a shared win) settle equal final scores.
At its default 0 the option is left out of the resolved options (records unchanged)."""

from __future__ import annotations

import random

import pytest

from simcli.errors import GameOptionError
from simcli.game import CHANCE
from simcli.games import get_game
from simcli.games.ex_libris.inspection import ScoreSheet, winners
from simcli.games.ex_libris.state import ExLibrisState

GAME = get_game("ex_libris")
NAMES = [b.name for b in GAME.components(GAME.resolve_options({})).books]


def sheet(total: int, books: int, banned: int = 0) -> ScoreSheet:
    return ScoreSheet((), (), 0, 0, -banned, 0, 0, total, books, banned)


def test_winners_on_the_final_scores() -> None:
    two = [sheet(30, 10), sheet(27, 12)]
    assert winners(two, [0, 0]) == (0,)  # 30 to 27
    assert winners(two, [0, 0], komi=3.5) == (1,)  # 30 to 30.5
    assert winners(two, [0, 0], komi=2.5) == (0,)  # 30 to 29.5
    # 30 to 30: the first tie-break, books on the shelf: 10 against 12
    assert winners(two, [0, 0], komi=3) == (1,)
    # three seats: seat 1 gets komi, seat 2 twice komi
    three = [sheet(40, 9), sheet(38, 9), sheet(35, 9)]
    assert winners(three, [2, 2, 2], komi=2.5) == (1,)  # 40, 40.5, 40
    assert winners(three, [2, 2, 2], komi=-1) == (0,)  # 40, 37, 33
    # komi 2: 40, 40, 39. Seats 0 and 1 tie with 9 books each; then the cards in hand
    # decide, then the banned books (none); a tie through all of them is a shared win.
    assert winners(three, [3, 2, 2], komi=2) == (1,)  # seat 1 holds fewer cards
    assert winners(three, [2, 2, 2], komi=2) == (0, 1)
    assert winners([sheet(40, 9, 1), *three[1:]], [2, 2, 2], komi=2) == (1,)  # banned book


def make_setup(players: int) -> dict:
    """Cards dealt in alphabetical order: seat 0 A1-A6, seat 1 A7-A10 B1 B2, ...; the rest
    form the deck (B3 on top); the tiles come in number order."""
    libs = GAME.components(GAME.resolve_options({})).libraries
    return {
        "start": 1,
        "locations": list(range(2, 19)),
        "libraries": [[libs[i].name] for i in range(players)],
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H", "M", "R"][:players],
        "hands": [NAMES[6 * i : 6 * i + 6] for i in range(players)],
        "deck": NAMES[6 * players :],
    }


def top(state: ExLibrisState) -> str:
    return state.tasks[-1].name if state.tasks else "end"


def finish_placement(state: ExLibrisState) -> None:
    while top(state) == "place":
        moves = state.legal_moves()
        home = [m for m in moves if m[:2] == ["home", "draw"]]
        state.apply(home[0] if home else moves[0])


def finished(**given) -> ExLibrisState:
    """A hand-played 2-player game: seat 0 shelves A5 then A1 (A1 does not follow A5: the
    alphabetical check flips it), seat 1 shelves B1; the final round follows at once
    (trigger 1); everybody else draws at home; nobody flips a card."""
    options = GAME.resolve_options({"final_round_trigger": 1, "max_rounds": 3, **given})
    state = GAME.new_state(2, options, make_setup(2))
    state.apply(["home", "shelve", "A5", 0, 0])
    state.apply(["home", "shelve", "B1", 0, 0])
    state.apply(["home", "shelve", "A1", 0, 1])
    finish_placement(state)
    finish_placement(state)
    while top(state) != "flip":
        state.apply(state.legal_moves()[0])
    state.apply("done")
    state.apply("done")
    return state


def test_the_hand_played_game_without_komi() -> None:
    # Prominent C, banned S; focus F (seat 0) and H (seat 1). Books: A5 = C F H R,
    # A1 = C F R (flipped), B1 = F M R.
    # seat 0: prominent C, 1 book against 0: first, 15; focus F 1 x 2 = 2; variety
    #   3 x min(C1 F1 H1 M0 R1) = 0; stability 0; no banned book: 17, 4 books.
    # seat 1: prominent second, 9; focus H 0; variety 0 (no C): 9, 3 books.
    state = finished()
    assert [s.total for s in state.sheets] == [17, 9]
    assert [s.books for s in state.sheets] == [4, 3]
    assert state.outcome().scores == (17.0, 9.0)
    assert state.outcome().winners == (0,)


@pytest.mark.parametrize(
    ("komi", "scores", "winners_"),
    [
        (8.5, (17.0, 17.5), (1,)),
        (7.5, (17.0, 16.5), (0,)),
        # 17 to 17: more books on the shelf, 4 against 3, wins
        (8, (17.0, 17.0), (0,)),
        (-3, (17.0, 6.0), (0,)),
        (50, (17.0, 59.0), (1,)),
    ],
)
def test_komi_in_the_hand_played_game(komi, scores, winners_) -> None:
    state = finished(komi=komi)
    outcome = state.outcome()
    assert outcome.scores == scores
    assert outcome.winners == winners_
    assert GAME.evaluate(state, 1) == 9.0 + komi
    assert GAME.evaluate(state, 0) == 17.0
    # a view (a strategy's, or rebuilt from its snapshot) has the same outcome
    for seat in (0, 1):
        view = state.view(seat)
        assert view.outcome() == outcome
        rebuilt = GAME.state_from_snapshot(2, state.options, view.snapshot())
        assert rebuilt.outcome() == outcome
    lines = state.render().splitlines()
    assert lines[-1].endswith(f"= 9, komi {komi:+g} = {9 + komi:g}")
    assert lines[-2].endswith("= 17")


def test_komi_with_four_players_counts_the_seat_position() -> None:
    rng = random.Random(3)
    given = {"final_round_trigger": 2, "max_rounds": 4}
    plain = GAME.resolve_options(given)
    komi = GAME.resolve_options({**given, "komi": -1.5})
    setup = GAME.sample_setup(4, plain, rng)
    a, b = GAME.new_state(4, plain, setup), GAME.new_state(4, komi, setup)
    while not a.is_terminal():
        move = a.sample_chance(rng) if a.current_player == CHANCE else rng.choice(a.legal_moves())
        a.apply(move)
        b.apply(move)
    assert b.snapshot() == a.snapshot()  # the komi changes nothing in play
    totals = a.outcome().scores
    assert b.outcome().scores == tuple(t - 1.5 * s for s, t in enumerate(totals))
    hands = [len(h) for h in b.hands]
    assert b.outcome().winners == winners(b.sheets, hands, komi=-1.5)


def test_komi_is_checked_and_left_out_at_its_default() -> None:
    assert "komi" not in GAME.resolve_options({})
    assert "komi" not in GAME.resolve_options({"komi": 0.0})
    assert GAME.resolve_options({"komi": 4.5})["komi"] == 4.5
    with pytest.raises(GameOptionError, match="must be a multiple of 0.5; got 1.25"):
        GAME.resolve_options({"komi": 1.25})
    with pytest.raises(GameOptionError, match="must be at least -50; got -51"):
        GAME.resolve_options({"komi": -51})
