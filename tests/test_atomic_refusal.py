"""Refused moves are atomic in every game: ``apply`` of a move that ``legal_moves`` does
not offer (or of an impossible chance outcome) raises ``IllegalMoveError`` and leaves the
state's snapshot exactly as it was.

Positions come from seeded random play of every registered game and player count. At each
sampled position the candidates are built from the game's own notation: every legal move
with one part changed (a number one up or down, out of range, of the wrong type; a word
swapped for another word the game uses; a part dropped or added), moves that were legal
at other moments of the same game (another phase, another seat), and plain junk values.
Candidates equal to a legal move are skipped. A chance event gets outcomes that cannot
happen: one item short, one duplicated, wrong types. The same checks run on the view of
the seat to move, which search code also applies moves to.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from slow_cases import slow_unless

from simcli.game import CHANCE, IllegalMoveError, State
from simcli.games import GAMES, get_game

CASES = (
    [
        pytest.param(game_id, players, {}, id=f"{game_id}-{players}p")
        for game_id in sorted(GAMES)
        for players in get_game(game_id).player_counts
    ]
    + [
        pytest.param(
            "ex_libris", players, {"mode": "advanced"}, id=f"ex_libris-{players}p-advanced"
        )
        for players in (2, 3, 4)
    ]
    + [pytest.param("bibliogamo", 1, {"last_cubes": "choose"}, id="bibliogamo-last-cubes")]
    + [pytest.param("bibliogamo", 1, {"last_cubes": "choose"}, id="bibliogamo-last-cubes")]
)
GAMES_PER_CASE = 2
POSITIONS_PER_GAME = 12
CANDIDATES_PER_POSITION = 40
JUNK: list[Any] = [None, True, False, 0, -1, 10**6, 1.5, "", "x", [], {}, [None], [[]], ["x"]]


def _words(moves: list[Any]) -> list[Any]:
    """The strings and numbers the notation uses, gathered from moves."""
    words: set[Any] = set()
    for move in moves:
        parts = move.split(" ") if isinstance(move, str) else move
        if isinstance(parts, list):
            for part in parts:
                if isinstance(part, (str, int)) and not isinstance(part, bool):
                    words.add(part)
    return sorted(words, key=repr)


def _changed_parts(move: Any, words: list[Any]) -> list[Any]:
    """``move`` with one part changed, dropped or added."""
    out: list[Any] = []
    if isinstance(move, str):
        tokens = move.split(" ")
        for i, token in enumerate(tokens):
            for new in ("x", "-1", "999", token + "0", "+" + token, "", str(words[i % len(words)])):
                out.append(" ".join([*tokens[:i], new, *tokens[i + 1 :]]))
        out += [" ".join(tokens[:-1]), move + " 1", move.upper(), move + " "]
        return out
    if isinstance(move, int) and not isinstance(move, bool):
        return [move - 1, move + 1, -1, str(move), float(move) + 0.5, [move]]
    if not isinstance(move, list):
        return out
    for i, part in enumerate(move):
        news: list[Any] = [None, True, "x", 1.5, [part]]
        if isinstance(part, int) and not isinstance(part, bool):
            news += [part - 1, part + 1, -1, 99, str(part)]
        if isinstance(part, str):
            news += [w for w in words if isinstance(w, str) and w != part][:6]
            news += [part.upper(), 0]
        for new in news:
            out.append([*move[:i], new, *move[i + 1 :]])
    out += [move[:-1], [*move, move[-1]] if move else ["x"], [*move, 0]]
    return out


def _candidates(state: State, seen: list[Any], pick: random.Random) -> list[Any]:
    legal = state.legal_moves()
    words = _words(legal + seen) or ["x"]
    pool: list[Any] = []
    for move in legal:
        pool += _changed_parts(move, words)
    pool += seen
    pick.shuffle(pool)
    chosen = [m for m in pool[: 4 * CANDIDATES_PER_POSITION] if not _offered(m, legal)]
    return [m for m in JUNK if not _offered(m, legal)] + chosen[:CANDIDATES_PER_POSITION]


def _offered(move: Any, legal: list[Any]) -> bool:
    try:
        return move in legal
    except Exception:
        return False


def _kind(state: State) -> str:
    """The kind of decision pending: chance, or the head of the first legal move."""
    if state.current_player == CHANCE:
        return "chance"
    first = state.legal_moves()[0]
    if isinstance(first, str):
        return first.split(" ")[0]
    if isinstance(first, list) and first:
        return f"{first[0]}/{len(first)}"
    return type(first).__name__


def _positions(state: State, trace: list[Any], pick: random.Random) -> set[int]:
    """One position of every kind of decision met in the game, plus random others."""
    first_of: dict[str, list[int]] = {}
    for step, move in enumerate(trace):
        first_of.setdefault(_kind(state), []).append(step)
        state.apply(move)
    chosen = {pick.choice(steps) for steps in first_of.values()}
    rest = [step for step in range(len(trace)) if step not in chosen]
    return chosen | set(pick.sample(rest, min(POSITIONS_PER_GAME, len(rest))))


def _impossible_outcomes(outcome: Any) -> list[Any]:
    out: list[Any] = [None, {}, 1.5, "no such thing", [None], [[]]]
    if isinstance(outcome, list):
        if outcome:
            out += [outcome[:-1], [*outcome, outcome[0]], [None, *outcome[1:]]]
        out += [[*outcome, "x"], [*outcome, 10**6]]
    else:
        out += [[outcome], -7]
    return out


def _assert_refused(state: State, move: Any, where: str) -> None:
    before = state.snapshot()
    trial = state.clone()
    try:
        trial.apply(move)
    except IllegalMoveError:
        pass
    else:
        pytest.fail(f"{where}: apply accepted {move!r}, which legal_moves does not offer")
    assert trial.snapshot() == before, f"{where}: refusing {move!r} changed the state"


@pytest.mark.parametrize(
    ("game_id", "players", "given"), slow_unless(CASES, lambda game_id, *_: game_id == "libraria")
)
def test_refused_moves_leave_the_state_unchanged(
    game_id: str, players: int, given: dict[str, Any]
) -> None:
    game = get_game(game_id)
    options = game.resolve_options(given)
    for n in range(GAMES_PER_CASE):
        rng = random.Random(3000 + n)
        pick = random.Random(4000 + n)
        state_setup = game.sample_setup(players, options, rng)
        state = game.new_state(players, options, state_setup)
        # a first pass to learn the game's length, so positions spread over all of it
        trace: list[Any] = []
        probe = state.clone()
        probe_rng = random.Random(5000 + n)
        while not probe.is_terminal() and len(trace) < 20_000:
            if probe.current_player == CHANCE:
                move = probe.sample_chance(probe_rng)
            else:
                move = probe_rng.choice(probe.legal_moves())
            trace.append(move)
            probe.apply(move)
        checks = _positions(game.new_state(players, options, state_setup), trace, pick)
        seen: list[Any] = []
        for step, move in enumerate(trace):
            where = f"{game_id} {players}p game {n} step {step}"
            if step in checks:
                seat = state.current_player
                if seat == CHANCE:
                    for outcome in _impossible_outcomes(move):
                        _assert_refused(state, outcome, where + " (chance)")
                else:
                    for candidate in _candidates(state, seen, pick):
                        _assert_refused(state, candidate, where)
                    view = state.view(seat)
                    if view.legal_moves():
                        for candidate in _candidates(view, seen, pick)[::3]:
                            _assert_refused(view, candidate, where + f" (view of {seat})")
            if state.current_player != CHANCE:
                legal = state.legal_moves()
                seen += pick.sample(legal, min(2, len(legal)))
                seen = seen[-30:]
            state.apply(move)
