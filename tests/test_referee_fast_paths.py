"""The referee's short ways give what the long ways give: the record line of the C encoder
built once is the generic encoder's, byte for byte; the random strategy draws the moves
``Random.choice`` draws; an int answer checked inline is refused as ``find_move`` refuses
it, and a ``ValueError`` of ``choose`` stays an exception."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import simcli
from simcli.games import GAMES
from simcli.jsonline import one_shot
from simcli.records import dumps
from simcli.strategy import Strategy, load_strategy_class
from simcli_strategies.random_play import RandomStrategy

#: The encoder every record line was written with before (records.py's settings).
GENERIC = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
BOTS = Path(__file__).resolve().parent / "data" / "answer_bots.py"


def test_a_record_line_written_by_hand() -> None:
    record = {
        "schema": 1,
        "game": "libraria",
        "options": {"opening": "two_counters", "tiebreak": "none"},
        "index": 5,
        "seed": 1964477044085631,
        "seats": ["random", "zoë"],
        "setup": {"tiles": [1, -1, 0]},
        "moves": [35, 11, {"chance": [2, "x"]}],
        "scores": [30, 28.5],
        "winners": [0],
        "termination": "normal",
        "final_hash": "0123456789abcdef",
    }
    assert dumps(record) == (
        '{"schema":1,"game":"libraria","options":{"opening":"two_counters","tiebreak":"none"},'
        '"index":5,"seed":1964477044085631,"seats":["random","zoë"],"setup":{"tiles":[1,-1,0]},'
        '"moves":[35,11,{"chance":[2,"x"]}],"scores":[30,28.5],"winners":[0],'
        '"termination":"normal","final_hash":"0123456789abcdef"}'
    )


def _value(rng: random.Random, depth: int = 0):
    """A random JSON-like value: every kind the encoder treats apart."""
    kind = rng.randrange(11 if depth < 4 else 8)
    if kind == 0:
        return rng.randrange(-(2**70), 2**70)
    if kind == 1:
        return rng.randrange(-40, 40)
    if kind == 2:
        return rng.choice([0.0, -0.0, 1e300, -2.5e-308, float("nan"), float("inf"), -1 / 3])
    if kind == 3:
        return rng.random() * 10 ** rng.randrange(-20, 20)
    if kind == 4:
        return "".join(rng.choice('aé"\\\n\t\x00\x1f\u2028\U0001f600\ud800/<') for _ in range(6))
    if kind == 5:
        return rng.choice([None, True, False])
    if kind == 6:
        return ""
    if kind == 7:
        return rng.choice(["normal", "random"])
    if kind in (8, 9):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {_key(rng): _value(rng, depth + 1) for _ in range(rng.randrange(5))}


def _key(rng: random.Random):
    return rng.choice(["moves", "é", "", "a\nb", "x" * rng.randrange(3)])


def test_lines_of_many_values_are_the_generic_encoders() -> None:
    rng = random.Random(2024)
    for _ in range(1500):
        record = {"schema": 1, "moves": [_value(rng) for _ in range(rng.randrange(8))]}
        record["setup"] = {_key(rng): _value(rng)}
        assert dumps(record) == GENERIC.encode(record)


@pytest.mark.parametrize("ascii_only", [True, False])
@pytest.mark.parametrize("sort_keys", [True, False])
def test_one_shot_is_encode_with_every_setting(ascii_only: bool, sort_keys: bool) -> None:
    encoder = json.JSONEncoder(
        separators=(",", ":"), ensure_ascii=ascii_only, sort_keys=sort_keys, check_circular=False
    )
    encode = one_shot(encoder)
    assert encode is not encoder.encode  # the C encoder is there on CPython
    rng = random.Random(int(ascii_only) + 2 * int(sort_keys))
    for _ in range(300):
        value = ["libraria", {_key(rng): _value(rng) for _ in range(4)}]
        assert encode(value) == encoder.encode(value)


def test_settings_encode_writes_itself_keep_encode() -> None:
    for encoder in (json.JSONEncoder(indent=2), json.JSONEncoder(check_circular=True)):
        assert one_shot(encoder) == encoder.encode


def test_what_cannot_be_encoded_fails_as_before() -> None:
    for bad in ({"moves": [object()]}, {"moves": {(1, 2): 3}}):
        with pytest.raises(TypeError):
            GENERIC.encode(bad)
        with pytest.raises(TypeError):
            dumps(bad)


def test_records_of_libraria_games_are_the_generic_encoders() -> None:
    for index in range(20):
        seats = ["random", "greedy"] if index % 2 else ["random", "random"]
        record = simcli.play("libraria", seats, seed=500 + index, index=index)
        assert dumps(record) == GENERIC.encode(record)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_records_of_every_game_are_the_generic_encoders(game_id: str) -> None:
    game = simcli.games.get_game(game_id)
    for players in game.player_counts:
        for index in range(3):
            record = simcli.play(game_id, ["random"] * players, seed=70 + index, index=index)
            assert dumps(record) == GENERIC.encode(record)


def _choices(strategy: Strategy, rng: random.Random, sizes: list[int]) -> list[int]:
    strategy.start_game(None, 0, rng)  # type: ignore[arg-type]  # it never reads its game
    return [strategy.choose(None, range(n)) for n in sizes]  # type: ignore[arg-type]


def test_the_random_strategy_draws_what_random_choice_draws() -> None:
    sizes = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 36, 100, 1000, 2**20 + 1] * 8
    for seed in range(30):
        drawn = _choices(RandomStrategy(), random.Random(seed), sizes)
        rng = random.Random(seed)
        assert drawn == [rng.choice(range(n)) for n in sizes]


def test_the_random_strategy_draws_from_lists_what_random_choice_draws() -> None:
    sizes = [1, 2, 3, 17, 36, 1000] * 20
    for seed in range(10):
        strategy = RandomStrategy()
        strategy.start_game(None, 0, random.Random(seed))  # type: ignore[arg-type]
        drawn = [strategy.choose(None, list(range(n))) for n in sizes]
        rng = random.Random(seed)
        assert drawn == [rng.choice(list(range(n))) for n in sizes]
        with pytest.raises(IndexError):  # as rng.choice([])
            strategy.choose(None, [])


class Fixed(random.Random):
    def choice(self, seq):
        return seq[-1]


def test_another_generator_draws_its_own_way() -> None:
    assert _choices(RandomStrategy(), Fixed(1), [3, 5, 9]) == [2, 4, 8]


def test_a_random_strategy_started_again_draws_from_its_new_generator() -> None:
    strategy = RandomStrategy()
    _choices(strategy, random.Random(1), [5, 5])
    assert _choices(strategy, Fixed(1), [3, 5, 9]) == [2, 4, 8]
    rng = random.Random(2)
    assert _choices(strategy, random.Random(2), [7] * 5) == [rng.choice(range(7)) for _ in "12345"]


def test_a_random_strategy_draws_from_the_generator_it_was_started_with() -> None:
    """Compiled (its choose is the generator's C pick) or pure (the method), the same draws
    when rng is replaced after start_game: those of the generator it was started with."""
    strategy = RandomStrategy()
    strategy.start_game(None, 0, random.Random(1))  # type: ignore[arg-type]
    strategy.rng = random.Random(99)
    drawn = [strategy.choose(None, list(range(10))) for _ in range(5)]
    rng = random.Random(1)
    assert drawn == [rng.choice(range(10)) for _ in range(5)]


def test_a_choose_set_by_a_subclass_survives_start_game() -> None:
    class Own(RandomStrategy):
        def __init__(self):
            self.choose = lambda view, legal_moves: legal_moves[0]

    strategy = Own()
    for _ in range(2):
        assert _choices(strategy, random.Random(3), [3, 5, 9]) == [0, 0, 0]


def test_a_subclass_of_the_random_strategy_keeps_its_own_choose() -> None:
    class Last(RandomStrategy):
        def choose(self, view, legal_moves):
            return legal_moves[-1]

    assert _choices(Last(), random.Random(3), [3, 5, 9]) == [2, 4, 8]


@pytest.mark.parametrize(
    ("bot", "kind", "message"),
    [
        ("AnswersNine", "illegal_move", "999 is not a legal move"),
        ("AnswersBool", "illegal_move", "a bool is not a move"),
        ("RaisesValueError", "exception", "ValueError: its own"),
    ],
)
def test_an_answer_is_refused_as_before_timed_or_not(bot: str, kind: str, message: str) -> None:
    cls = load_strategy_class(f"{BOTS}:{bot}")
    seats = [{"name": "bot", "use": cls}, "random"]
    untimed = simcli.play("libraria", seats, seed=9)
    timed = simcli.play("libraria", seats, seed=9, move_time_limit=5.0)
    for record in (untimed, timed):
        assert record["termination"] == "forfeit"
        assert record["detail"]["kind"] == kind
        assert record["detail"]["message"].startswith(message)
        # Libraria's opening seats 0, 1, 1, 0, 1, 0, 1, 0: the bot's fourth turn is ply 7
        assert len(record["moves"]) == 7
    assert untimed["detail"] == timed["detail"]


def test_the_think_time_table_bins_as_the_edges_do() -> None:
    from simcli.tournament import think

    table = think._table()
    assert len(table) == think._TABLE_NS
    assert all(table[ns] == think.bin_of_ns(ns) for ns in range(think._TABLE_NS))
    # bin 1 starts at the first nanosecond above FLOOR (100 ns), bin 21 at 1 µs (10 FLOOR)
    assert (table[100], table[101], table[999], table[1000]) == (0, 1, 20, 21)


@pytest.mark.parametrize("fmt", ["round_robin", "solo", "self_play"])
def test_schedule_seeds_are_derive_seeds_paths(fmt: str) -> None:
    from simcli.seeding import derive_seed
    from simcli.tournament.schedule import build_schedule

    names = ["a", "b", "c"]
    schedule = build_schedule(
        fmt, names, 1 if fmt == "solo" else 2, 5, 2**40 + 3, None, (None, "x")
    )
    for spec in schedule:
        rest = spec.index % schedule.games_per_variant
        table, within = divmod(rest, schedule.games_per_table)
        label = "v" if spec.variant is None else f"v:{spec.variant}"
        path = ("round",) if fmt == "solo" else ("table", table, "round")
        expected = derive_seed(2**40 + 3, label, *path, within // schedule.rotations)
        assert spec.seed == expected


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_final_hashes_are_the_generic_encoders(game_id: str) -> None:
    """``state_hash`` (its C encoder built once) against json.dumps of the same value."""
    import hashlib

    game = simcli.games.get_game(game_id)
    players = min(game.player_counts)
    options = game.resolve_options({})
    rng = random.Random(3)
    state = game.new_state(players, options, game.sample_setup(players, options, rng))
    for _ in range(12):
        if state.is_terminal():
            break
        seat = state.current_player
        state.apply(state.sample_chance(rng) if seat < 0 else rng.choice(state.legal_moves()))
        text = json.dumps([game_id, state.snapshot()], sort_keys=True, separators=(",", ":"))
        assert state.final_hash() == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_a_chunk_reaches_the_parent_as_it_was_sent() -> None:
    """A worker's chunk pickles its results as plain tuples (``Chunk.__reduce__``); the
    parent gets named results again, equal field for field."""
    import pickle
    from multiprocessing.reduction import ForkingPickler

    from simcli.tournament.think import pack, unpack
    from simcli.tournament.worker import Chunk, GameResult

    results = [
        GameResult(["a", "b"], [1], [0, 14], "normal", (pack([4208, 321]), pack([871]))),
        GameResult(["b", "a"], [], None, "error", (), "void: does not replay"),
    ]
    chunk = Chunk(7, "{}\n{}\n", results)
    back = pickle.loads(ForkingPickler.dumps(chunk))
    assert back == chunk and back.stop == 9
    assert [type(r) for r in back.outcomes] == [GameResult, GameResult]
    assert back.outcomes[1].void == "void: does not replay"
    assert unpack(back.outcomes[0].think[0]) == [4208, 321]


def test_a_player_built_before_the_fork_arms_no_alarm_until_it_is_ready(tmp_path) -> None:
    """A pool builds its player once, in the parent, without the move clock: a signal
    clock installs its SIGALRM handler where it is made, which must be the worker."""
    import signal

    from simcli.configfile import load_config
    from simcli.tournament.clock import SignalClock
    from simcli.tournament.schedule import schedule_for
    from simcli.tournament.worker import ChunkPlayer

    path = tmp_path / "c.yaml"
    path.write_text("game: libraria\nstrategies: [random]\nformat: self_play\ngames: 2\n")
    config = load_config(path, {"move_time_limit": 5.0})
    before = signal.getsignal(signal.SIGALRM)
    try:
        player = ChunkPlayer(config, schedule_for(config), ready=False)
        assert player.clock is None and signal.getsignal(signal.SIGALRM) is before
        assert player.ready() is player and isinstance(player.clock, SignalClock)
        assert signal.getsignal(signal.SIGALRM) == player.clock.handler
        # the same records as a player made ready at once
        played = [player.play_one(index)[0] for index in range(2)]
        assert played == [ChunkPlayer(config, schedule_for(config)).play_one(i)[0] for i in (0, 1)]
    finally:
        signal.signal(signal.SIGALRM, before)


@pytest.mark.parametrize(
    "text",
    [
        "game: libraria\nstrategies: [random]\nformat: self_play\ngames: 30\n",
        # 4 seats: five generators a game, so a batch of 24 holds four games
        "game: adas_library\nplayers: 4\nstrategies: [random]\nformat: self_play\ngames: 11\n",
    ],
)
def test_a_range_seeded_ahead_plays_the_games_played_one_by_one(tmp_path, text: str) -> None:
    """A range seeds the generators of its next games together (ChunkPlayer._seed_ahead):
    the same lines as each game played alone, whatever range the games are cut into."""
    from simcli.configfile import load_config
    from simcli.tournament.schedule import schedule_for
    from simcli.tournament.worker import ChunkPlayer

    path = tmp_path / "c.yaml"
    path.write_text(text)
    config = load_config(path, {})
    total = config.games
    alone = [ChunkPlayer(config, schedule_for(config)).play_one(i)[0] for i in range(total)]
    player = ChunkPlayer(config, schedule_for(config))
    for cut in (1, 7, 9, total):
        lines = []
        for start in range(0, total, cut):
            lines += [line for line, _ in player.play_range(start, min(start + cut, total))]
        assert lines == alone
    assert player.ahead == {}  # every game seeded ahead was played


def test_no_generator_is_made_ahead_where_a_strategy_not_built_in_plays(tmp_path) -> None:
    """Where an in-process strategy that is not built in plays, it could reach the next
    games' generators through gc if they existed: each game's are made as it starts."""
    from simcli.configfile import load_config
    from simcli.tournament import worker as worker_module
    from simcli.tournament.schedule import schedule_for
    from simcli.tournament.worker import ChunkPlayer

    (tmp_path / "first.py").write_text(
        "from simcli.strategy import Strategy\n\n\n"
        "class First(Strategy):\n"
        "    def choose(self, view, legal_moves):\n"
        "        return legal_moves[0]\n"
    )
    path = tmp_path / "c.yaml"
    path.write_text(
        "game: libraria\ngames: 6\nformat: round_robin\n"
        "strategies:\n  - {name: first, use: 'first.py:First'}\n  - random\n"
    )
    config = load_config(path, {})
    player = ChunkPlayer(config, schedule_for(config))
    assert player.checked_names == {"first"}
    made = []
    original = worker_module.many_game_rngs
    worker_module.many_game_rngs = lambda games: made.append(games) or original(games)
    try:
        lines = [line for line, _ in player.play_range(0, 6)]
        assert made == [] and player.ahead == {}
        path.write_text(path.read_text().replace("'first.py:First'", "greedy"))
        built_in = load_config(path, {})  # the same games, built-in strategies only
        list(ChunkPlayer(built_in, schedule_for(built_in)).play_range(0, 6))
        assert len(made) == 1 and len(made[0]) == 6  # seeded ahead, together
    finally:
        worker_module.many_game_rngs = original
    alone = ChunkPlayer(config, schedule_for(config))
    assert lines == [alone.play_one(i)[0] for i in range(6)]
