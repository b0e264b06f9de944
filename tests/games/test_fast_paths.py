"""The engines' fast paths agree with the slow ones at every ply of random games.

* ``apply_trusted`` (the unchecked apply that search uses) leaves the same snapshot as the
  validated ``apply`` for every legal move and chance outcome;
* incrementally kept legal moves equal the ones of the same position rebuilt from its
  snapshot (``state_from_snapshot`` computes everything from scratch) and of a clone;
  Libraria's also equal a plain scan of the 36 spots.
"""

from __future__ import annotations

import random

import pytest
from slow_cases import slow_unless

from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli.games.libraria import EMPTY, SPOTS, score_board

CASES = [
    ("libraria", 2, {}),
    ("libraria", 2, {"opening": "one_counter"}),
    ("library", 2, {}),
    ("library", 4, {}),
    ("adas_library", 2, {}),
    ("adas_library", 4, {}),
    ("ex_libris", 2, {}),
    ("ex_libris", 4, {}),
    ("ex_libris", 3, {"mode": "advanced"}),
    ("bibliogamo", 1, {}),
    ("bibliogamo", 1, {"last_cubes": "choose", "block_scope": "any"}),
]
#: The seat compensation options away from their default (the rules as written): slow
#: tests, the quick ones are in tests/games/test_*_komi.py and test_*_extra_*.py.
COMPENSATED = [
    ("libraria", 2, {"komi": 6.5}),
    ("library", 2, {"extra_actions": 1}),
    ("library", 4, {"extra_actions": 2}),
    ("adas_library", 2, {"extra_cards": 1}),
    ("adas_library", 4, {"extra_cards": 3}),
    ("ex_libris", 2, {"komi": -2.5}),
]
CASES += [pytest.param(*case, marks=pytest.mark.slow) for case in COMPENSATED]
#: The options of the text's other readings away from their defaults (issue 37): slow
#: tests too, the quick ones are in tests/games/test_*_readings.py and the like.
READINGS = [
    ("library", 2, {"push_wall": "both", "topple_chain": "line", "walls_per_player": 8}),
    (
        "library",
        4,
        {"push_wall": "sideways", "sphere_push": "toward_own", "turn_order": "d1_d7_g4_a4"},
    ),
    ("adas_library", 2, {"exchange_position": "mirrored"}),
    ("adas_library", 4, {"exchange_position": "mirrored"}),
    ("ex_libris", 3, {"home_action": "optional"}),
    ("ex_libris", 2, {"home_action": "optional", "mode": "advanced"}),
    ("bibliogamo", 1, {"blocked_cards": "small_icon", "sale_redraw": "chain"}),
    ("bibliogamo", 1, {"blocked_cards": "either", "block_scope": "any"}),
]
CASES += [pytest.param(*case, marks=pytest.mark.slow) for case in READINGS]


def two_seats_at_most(game_id: str, players: int, options: dict) -> bool:
    """Cases cheap enough for the fast inner loop (the full suite runs them all)."""
    return game_id != "adas_library" and players <= 2 and "last_cubes" not in options


def random_game(game_id: str, players: int, options: dict, seed: int):
    """Yield every state of a seeded random game, from the setup to the end."""
    game = get_game(game_id)
    opts = game.resolve_options(options)
    rng = random.Random(seed)
    state = game.new_state(players, opts, game.sample_setup(players, opts, rng))
    for _ in range(5000):
        yield game, opts, state
        seat = state.current_player
        if seat == TERMINAL:
            return
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    raise AssertionError("the random game did not end")


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    slow_unless(CASES, lambda game_id, *_: game_id == "libraria"),
)
def test_trusted_apply_equals_validated_apply(game_id, players, options) -> None:
    for seed in (1, 2):
        plies = 0
        for _game, _opts, state in random_game(game_id, players, options, seed):
            seat = state.current_player
            if seat == TERMINAL:
                break
            if seat == CHANCE:
                outcomes = [state.sample_chance(random.Random(k)) for k in range(3)]
            else:
                moves = state.legal_moves()
                # every move at small branching, a seeded sample of them otherwise
                outcomes = moves if len(moves) <= 12 else random.Random(plies).sample(moves, 12)
            for move in outcomes:
                checked, trusted = state.clone(), state.clone()
                checked.apply(move)
                trusted.apply_trusted(move)
                assert trusted.snapshot() == checked.snapshot(), (seed, plies, move)
                assert trusted.current_player == checked.current_player
                assert trusted.legal_moves() == checked.legal_moves()
            plies += 1
        assert plies > 0


@pytest.mark.parametrize(("game_id", "players", "options"), slow_unless(CASES, two_seats_at_most))
def test_random_legal_move_is_the_drawn_legal_move(game_id, players, options) -> None:
    """``random_legal_move(randbelow)`` asks for one draw below the number of legal
    moves and returns a fresh copy of the legal move of that index (every index at
    small branching, a seeded sample otherwise), at every ply of a random game."""
    for _game, _opts, state in random_game(game_id, players, options, 5):
        if state.current_player < 0:
            continue
        moves = state.legal_moves()
        n = len(moves)
        for k in range(n) if n <= 12 else random.Random(n).sample(range(n), 12):
            asked = []

            def draw(count, k=k, asked=asked):
                asked.append(count)
                return k

            move = state.random_legal_move(draw)
            assert asked == [n]
            assert move == moves[k]
            if isinstance(move, list):
                move.append("changed")  # a copy: the state's moves stay as they were
        assert state.legal_moves() == moves


@pytest.mark.parametrize(("game_id", "players", "options"), slow_unless(CASES, two_seats_at_most))
def test_incremental_legal_moves_equal_a_rebuilt_position(game_id, players, options) -> None:
    for seed in (3, 4):
        for game, opts, state in random_game(game_id, players, options, seed):
            rebuilt = game.state_from_snapshot(players, opts, state.snapshot())
            moves = state.legal_moves()
            assert moves == rebuilt.legal_moves()
            assert moves == state.clone().legal_moves()
            assert state.current_player == rebuilt.current_player


def test_libraria_legal_moves_equal_a_scan_of_the_board() -> None:
    for seed in range(5, 25):
        for _game, _opts, state in random_game("libraria", 2, {}, seed):
            scan = [spot for spot in range(SPOTS) if state.board[spot] == EMPTY]
            assert state.legal_moves() == scan
            # the list handed out is a copy: changing it changes nothing
            state.legal_moves().clear()
            assert state.legal_moves() == scan


def test_libraria_trusted_playouts_end_like_validated_ones() -> None:
    """Whole games played by ``apply_trusted`` alone reach the same final state and
    outcome as the same moves played through ``apply``."""
    game = get_game("libraria")
    opts = game.resolve_options({})
    for seed in range(10):
        rng = random.Random(seed)
        setup = game.sample_setup(2, opts, rng)
        fast, slow = game.new_state(2, opts, setup), game.new_state(2, opts, setup)
        while not fast.is_terminal():
            move = rng.choice(fast.legal_moves())
            fast.apply_trusted(move)
            slow.apply(move)
        assert slow.is_terminal()
        assert fast.snapshot() == slow.snapshot()
        assert fast.outcome() == slow.outcome()
        # the end-of-game scorer agrees with the one for partial boards
        assert fast.scores() == score_board(fast.tiles, fast.board)


@pytest.mark.parametrize("players", [2, 4])
def test_library_legal_moves_equal_a_scan_of_the_board(players) -> None:
    """The whole list, in order, as a plain scan of cells and gaps finds it: plates,
    walls, wall pushes (by walking the run of walls, ``wall_push_target``), topples of
    the seat's walls (gap order, both ways) and sphere pushes (``sphere_push_end``,
    which rolls the sphere step by step), at every ply of random games."""
    from simcli.games.library.board import (
        CELLS,
        GAPS,
        PLATE_MOVES,
        PUSH_DIRS,
        PUSH_WALL_MOVES,
        SPHERE_MOVES,
        TOPPLE_DIRS,
        TOPPLE_MOVES,
        WALL_MOVES,
    )

    blocked = topples = rolls = 0
    for seed in range(6):
        for _game, _opts, state in random_game("library", players, {}, seed):
            if state.current_player < 0:
                continue
            seat = state.turn % players
            cells, walls = state.cells, state.walls
            moves = state.legal_moves()
            plates = [PLATE_MOVES[c] for c in range(CELLS) if cells[c] == -1]
            gaps = [WALL_MOVES[g] for g in range(GAPS) if walls[g] == -1]
            own = [(g, d) for g in range(GAPS) if walls[g] == seat for d in PUSH_DIRS[g]]
            pushes = [
                PUSH_WALL_MOVES[g][d] for g, d in own if state.wall_push_target(g, d) is not None
            ]
            falls = [
                TOPPLE_MOVES[g][d] for g in range(GAPS) if walls[g] == seat for d in TOPPLE_DIRS[g]
            ]
            spheres = [SPHERE_MOVES[d] for d in range(4) if state.sphere_push_end(d) is not None]
            blocked += len(own) - len(pushes)
            topples += len(falls)
            rolls += len(spheres)
            assert moves == (plates + gaps + pushes + falls + spheres or ["pass"])
    assert blocked > 0 and topples > 0 and rolls > 0  # the games reached all kinds


def test_libraria_scoring_tables_match_the_rule_for_any_tile_value() -> None:
    """The table-driven scorers agree with the rule written out plainly, also for tile
    values outside the rulebook's (a plug-in variant may use them, e.g. a mouse of -2)."""
    from simcli.games.libraria import TILE_CORNERS, score_full_board

    def by_rule(tiles, board):
        totals = [0, 0]
        for value, corners in zip(tiles, TILE_CORNERS, strict=True):
            counts = [sum(board[s] == seat for s in corners) for seat in (0, 1)]
            for seat in (0, 1):
                mine, theirs = counts[seat], counts[1 - seat]
                if mine > theirs:  # majority: the books; total control: one more (or less)
                    bonus = 0 if theirs else (1 if value >= 0 else -1)
                    totals[seat] += value + bonus
        return totals

    rng = random.Random(7)
    for _ in range(300):
        tiles = [rng.choice([-2, -1, 0, 1, 2, 3, 5]) for _ in range(25)]
        full = [rng.randrange(2) for _ in range(SPOTS)]
        partial = [rng.randrange(-1, 2) for _ in range(SPOTS)]
        assert score_full_board(tiles, full) == by_rule(tiles, full)
        assert score_board(tiles, full) == by_rule(tiles, full)
        assert score_board(tiles, partial) == by_rule(tiles, partial)


@pytest.mark.slow
def test_adas_legal_moves_are_exactly_the_moves_apply_accepts() -> None:
    """Every candidate use of every card in hand (each position, each direction), tried
    with the checked ``apply`` on a copy: the accepted ones are exactly the legal moves
    (``apply`` refuses a play that changes nothing)."""
    from simcli.game import IllegalMoveError

    for seed in (5, 6):
        for _game, _opts, state in random_game("adas_library", 2, {}, seed):
            seat = state.current_player
            if seat < 0:
                continue
            size = max(len(state.rows[seat]), len(state.master))
            candidates = []
            for card in set(state.hands[seat]):
                candidates.append(["discard", card])
                candidates.append([card])
                candidates += [[card, i] for i in range(size)]
                candidates += [[card, i, d] for i in range(size) for d in ("L", "R")]
            accepted = []
            for move in candidates:
                try:
                    state.clone().apply(move)
                except IllegalMoveError:
                    continue
                accepted.append(move)
            assert sorted(map(repr, accepted)) == sorted(map(repr, state.legal_moves()))


@pytest.mark.parametrize(("game_id", "players", "options"), CASES[::2])
def test_the_referee_never_takes_the_trusted_path(game_id, players, options, monkeypatch) -> None:
    """A game played through the referee with ``apply_trusted`` made to fail unless the
    game's own ``apply`` calls it (after its checks, as Libraria's does): the referee
    checks every move with ``apply``."""
    import simcli

    game = get_game(game_id)
    opts = game.resolve_options(options)
    state = game.new_state(players, opts, game.sample_setup(players, opts, random.Random(1)))

    trusted, checked = type(state).apply_trusted, type(state).apply
    inside_apply = []  # not the caller's frame: a compiled apply has none (simcli/native.py)

    def apply(self, move):
        inside_apply.append(True)
        try:
            checked(self, move)
        finally:
            inside_apply.pop()

    def refuse(self, move):
        if not inside_apply:
            raise AssertionError("the referee used apply_trusted")
        trusted(self, move)

    monkeypatch.setattr(type(state), "apply", apply)
    monkeypatch.setattr(type(state), "apply_trusted", refuse)
    record = simcli.play(game, "random", players=players, options=opts, seed=3)
    assert record["termination"] in ("normal", "move_limit"), record.get("detail")


@pytest.mark.slow
def test_adas_play_tables_equal_a_scan_of_the_row() -> None:
    """The plays looked up by a row's boundary key (tables built once per row length,
    blocks of several cards kept as met) are those the scan of the row finds, for rows
    of every length with a table, every shifting card and sets of them; longer rows
    are scanned."""
    from simcli.games.adas_library.rows import (
        SHIFT_N,
        TABLE_MAX_LENGTH,
        boundary_key,
        end_targets,
        move_targets,
        shift_block,
        shift_tables,
    )

    def scan(card, row):
        n = SHIFT_N[card]
        targets = end_targets(row) if n is None else move_targets(row, n)
        return [[card, p, d] for p, d, _ in targets]

    rng = random.Random(8)
    cards = sorted(SHIFT_N)
    for _ in range(400):
        row = [rng.randrange(3) for _ in range(rng.randint(2, TABLE_MAX_LENGTH + 3))]
        key = boundary_key(row)
        assert key == tuple(row[i] != row[i + 1] for i in range(len(row) - 1))
        tables = shift_tables(len(row))
        chosen = tuple(rng.sample(cards, rng.randint(1, 4)))
        for card in chosen:
            if len(row) <= TABLE_MAX_LENGTH:
                assert list(tables[card][key]) == scan(card, row)
            else:
                assert not tables  # scanned instead
        block = shift_block(chosen, row)
        assert list(block) == [move for card in chosen for move in scan(card, row)]
        assert shift_block(chosen, row, key) == block  # kept, or scanned again alike


def adas_scan(state) -> list:
    """The legal moves of an Ada's Library position by a plain scan of the seat's row,
    the master order and the partner's row with the functions of ``rows`` (which the
    engine's tables do not use), card by card in the fixed card order, then the
    discards."""
    from simcli.games.adas_library.components import CARD_TYPES
    from simcli.games.adas_library.rows import (
        MASTER_N,
        MOVE_N,
        SWITCH_N,
        end_targets,
        exchange_positions,
        move_targets,
        switch_pairs,
    )

    seat = state.current_player
    row, master = state.rows[seat], state.master
    cards = [card for card in CARD_TYPES if card in state.hands[seat]]
    moves = []
    for card in cards:
        if card in MOVE_N:
            moves += [[card, p, d] for p, d, _ in move_targets(row, MOVE_N[card])]
        elif card == "move_end":
            moves += [[card, p, d] for p, d, _ in end_targets(row)]
        elif card in SWITCH_N:
            moves += [[card, i] for i in switch_pairs(row, SWITCH_N[card])]
        elif card == "reverse":
            moves += [[card]] if row[0] != row[-1] else []
        elif card in MASTER_N:
            moves += [[card, p, d] for p, d, _ in move_targets(master, MASTER_N[card])]
        else:
            other = state.rows[state.partner(seat)]
            moves += [[card, i] for i in exchange_positions(row, other)]
    return moves + [["discard", card] for card in cards]


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (4, {}), (4, {"exchange_partner": "diagonal"})]
)
@pytest.mark.slow
def test_adas_legal_moves_equal_a_scan_at_every_ply(players, options) -> None:
    """At every ply of random games (trusted moves), the legal moves, in order, are the
    plain scan's; a move list handed out is a fresh copy (changing it, or a move in it,
    changes nothing)."""
    game = get_game("adas_library")
    opts = game.resolve_options(options)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state(players, opts, game.sample_setup(players, opts, rng))
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply_trusted(state.sample_chance(rng))
                continue
            moves = state.legal_moves()
            assert moves == adas_scan(state)
            moves[0].append("x")
            moves[-1][1] = "x"
            assert state.legal_moves() == adas_scan(state)
            state.apply_trusted(state.legal_moves()[rng.randrange(len(moves))])


def test_adas_long_rows_are_scanned() -> None:
    """Rows longer than the tables (a data file with 14 books each) get the scan's
    moves."""
    from simcli.games.adas_library.rows import TABLE_MAX_LENGTH

    game = get_game("adas_library")
    comp = game.resolve_options({})["components"]
    comp = {**comp, "players": {"2": {"tiles": 30, "books_each": 14}, "4": comp["players"]["4"]}}
    opts = game.resolve_options({"components": comp})
    rng = random.Random(3)
    state = game.new_state(2, opts, game.sample_setup(2, opts, rng))
    assert len(state.rows[0]) > TABLE_MAX_LENGTH
    for _ in range(300):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        moves = state.legal_moves()
        assert moves == adas_scan(state)
        state.apply(moves[rng.randrange(len(moves))])
