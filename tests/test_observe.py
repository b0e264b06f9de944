"""``Strategy.observe`` and ``Strategy.end_game``, in-process and through the protocol
(the ``observe`` extension: ``moved`` and ``end`` messages), checked by hand on Peek
(tests/data/peek_game.py): a chance deal seen by seat 0 alone, seat 0's claim, a public
coin, seat 1's answer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import simcli
from simcli.cli.main import cli
from simcli.game import CHANCE
from simcli.games import load_game
from simcli.protocol import decode, encode
from simcli.strategy import Strategy, hooks_of, load_strategy_class
from simcli.tournament.play import drive, game_play
from simcli.tournament.remote import RemoteSeatFactory
from simcli_strategies.random_play import RandomStrategy

DATA = Path(__file__).resolve().parent / "data"
PEEK = f"{DATA / 'peek_game.py'}:Peek"
PEEK_DEFAULT = f"{DATA / 'peek_game.py'}:PeekDefault"
RECORDER = load_strategy_class(f"{DATA / 'peek_game.py'}:Recorder")
MEDDLER = load_strategy_class(f"{DATA / 'peek_game.py'}:Meddler")
SEED = 7


def entries(log: Path, kind: str, seat: int) -> list[list]:
    """What seat ``seat`` was told, of one kind, in order."""
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return [e[2:] for e in lines if e[0] == seat and e[1] == kind]


def expected(card: int, coin: int, hidden_card: bool, hidden_coin: bool) -> dict[int, list]:
    """Hand-worked: what each seat observes in a Peek game where both seats play their
    first legal move (seat 0 claims "low", seat 1 calls), with the view after each move
    (the other seat's card shows -1; seat 1 is never dealt a card: 0)."""

    def snap(seat: int, ply: int) -> dict:
        cards = [card if ply >= 1 else 0, 0]
        cards[1 - seat] = -1
        return {
            "cards": cards,
            "coin": coin if ply >= 3 else -1,
            "claim": 0 if ply >= 2 else -1,
            "answer": 0 if ply >= 4 else -1,
            "ply": ply,
        }

    out = {}
    for seat in (0, 1):
        shown_card = None if hidden_card and (seat == 1 or hidden_coin) else card
        shown_coin = None if hidden_coin else coin
        out[seat] = [
            [CHANCE, shown_card, snap(seat, 1)],
            [0, "low", snap(seat, 2)],
            [CHANCE, shown_coin, snap(seat, 3)],
            [1, "call", snap(seat, 4)],
        ]
    return out


def recorders(log: Path) -> list[dict]:
    return [{"name": f"r{s}", "use": RECORDER, "params": {"log": str(log)}} for s in (0, 1)]


def test_hooks_are_found_once_per_class_and_only_when_overridden():
    assert hooks_of(RandomStrategy) == (False, False)
    assert hooks_of(RECORDER) == (True, True)

    class EndOnly(Strategy):
        def end_game(self, outcome, view):
            pass

    assert hooks_of(EndOnly) == (False, True)


def test_in_process_strategies_observe_every_move_as_the_game_shows_it(tmp_path):
    log = tmp_path / "log.jsonl"
    record = simcli.play(PEEK, recorders(log), seed=SEED)
    card, coin = record["moves"][0]["chance"], record["moves"][2]["chance"]
    assert record["moves"][1:4:2] == ["low", "call"]
    want = expected(card, coin, hidden_card=True, hidden_coin=False)
    for seat in (0, 1):
        assert entries(log, "observe", seat) == want[seat]
        final = want[seat][-1][2]
        assert entries(log, "end", seat) == [[record["scores"], record["winners"], "normal", final]]
    # seat 1 never learns the card: not in a move, not in a view
    assert all(e[1] != card or e[0] != CHANCE for e in entries(log, "observe", 1)[:1])


def test_without_the_game_s_reading_every_chance_outcome_is_hidden(tmp_path):
    log = tmp_path / "log.jsonl"
    record = simcli.play(PEEK_DEFAULT, recorders(log), seed=SEED)
    card, coin = record["moves"][0]["chance"], record["moves"][2]["chance"]
    want = expected(card, coin, hidden_card=True, hidden_coin=True)
    for seat in (0, 1):
        assert entries(log, "observe", seat) == want[seat]


def _remote_play(log: Path, command: list[str]) -> dict:
    game = load_game(PEEK)
    factory = RemoteSeatFactory(
        "rec", command, game=PEEK, players=2, params={"log": str(log)}, move_seconds=60
    )
    try:
        return drive(game_play(game, {}, 0, SEED, ["rec", "rec"], {"rec": factory}))
    finally:
        factory.close()  # the queued end messages go out with quit


@pytest.mark.slow
def test_a_strategy_in_its_own_process_is_told_the_same(tmp_path):
    inproc = tmp_path / "a.jsonl"
    simcli.play(PEEK, recorders(inproc), seed=SEED)
    isolated = tmp_path / "b.jsonl"
    client = [sys.executable, "-m", "simcli.protocol.client"]
    use = f"{DATA / 'peek_game.py'}:Recorder"
    record = _remote_play(isolated, [*client, "--use", use, "--no-sandbox"])  # it writes
    assert record["termination"] == "normal"
    for kind in ("choose", "observe", "end"):
        for seat in (0, 1):
            assert entries(isolated, kind, seat) == entries(inproc, kind, seat), (kind, seat)


@pytest.mark.slow
def test_a_program_gets_moved_and_end_messages_only_when_it_asks(tmp_path):
    log = tmp_path / "bot.jsonl"
    bot = [sys.executable, str(DATA / "observe_bot.py"), str(log)]
    record = _remote_play(log, bot)
    card, coin = record["moves"][0]["chance"], record["moves"][2]["chance"]
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    hello = messages[0]
    assert hello["type"] == "hello" and hello["extensions"] == ["batch", "observe"]
    want = expected(card, coin, hidden_card=True, hidden_coin=False)
    for seat in (0, 1):
        moved = [m for m in messages if m["type"] == "moved" and m["seat"] == seat]
        assert [[m["player"], m["move"], m["view"]] for m in moved] == want[seat]
        (end,) = [m for m in messages if m["type"] == "end" and m["seat"] == seat]
        assert end["view"] == want[seat][-1][2] and end["scores"] == record["scores"]
    # a program that does not take the extension: the messages it knew, no more
    plain_log = tmp_path / "plain.jsonl"
    again = _remote_play(plain_log, [*bot[:2], str(plain_log), "--plain"])
    kinds = {json.loads(line)["type"] for line in plain_log.read_text().splitlines()}
    assert kinds == {"hello", "start", "choose", "end", "quit"}
    ends = [json.loads(line) for line in plain_log.read_text().splitlines()]
    assert all("view" not in m for m in ends if m["type"] == "end")
    assert again == record


@pytest.mark.slow
def test_the_python_client_takes_observe_only_for_a_class_that_observes():
    def ready(use: str, extensions: list[str]) -> dict:
        hello = {"type": "hello", "protocol": 1, "game": PEEK, "players": 2, "options": {}}
        command = [sys.executable, "-m", "simcli.protocol.client", "--use", use, "--no-sandbox"]
        result = subprocess.run(
            command,
            input=encode({**hello, "extensions": extensions}),
            capture_output=True,
            timeout=60,
            check=True,
        )
        return decode(result.stdout.splitlines()[0])

    recorder = f"{DATA / 'peek_game.py'}:Recorder"
    assert ready(recorder, ["batch", "observe"])["extensions"] == ["batch", "observe"]
    assert "extensions" not in ready(recorder, [])
    assert ready("random", ["batch", "observe"])["extensions"] == ["batch"]


class _Meddle(RandomStrategy):
    """Random play (the same draws as ``random``) that empties every move it observes
    and rewrites its views."""

    wants_view = True

    def observe(self, seat, move, view):
        if isinstance(move, list):
            move.clear()
        if view is not None:
            view.rows[0].clear()
            view.hands[self.seat].clear()

    def end_game(self, outcome, view):
        view.rows[1].clear()


@pytest.mark.parametrize("index", [0, 1])
def test_a_strategy_that_changes_what_it_is_told_changes_nothing(index):
    """Ada's Library: moves are lists and views hold lists; a strategy that empties
    them gives the game of the plain random strategy, record for record."""
    meddler = {"name": "x", "use": _Meddle}
    plain = {"name": "x", "use": RandomStrategy}
    seats = [meddler, "random"] if index == 0 else ["random", meddler]
    honest = [plain if s is meddler else s for s in seats]
    record = simcli.play("adas_library", seats, seed=20 + index, index=index)
    assert record["termination"] in ("normal", "move_limit")
    assert record == simcli.play("adas_library", honest, seed=20 + index, index=index)


def test_peek_meddler_changes_nothing_and_a_failing_observe_forfeits_at_the_next_turn(
    tmp_path,
):
    log = tmp_path / "log.jsonl"
    seats = recorders(log)
    record = simcli.play(PEEK, seats, seed=SEED)
    seats[1] = {"name": "r1", "use": MEDDLER, "params": {"log": str(tmp_path / "m.jsonl")}}
    assert simcli.play(PEEK, seats, seed=SEED) == record

    class Fails(RECORDER):
        def observe(self, seat, move, view):
            raise ValueError("cannot follow")

    failing = simcli.play(PEEK, [recorders(log)[0], {"name": "r1", "use": Fails}], seed=SEED)
    assert failing["termination"] == "forfeit"
    assert failing["detail"]["seat"] == 1 and failing["detail"]["kind"] == "exception"
    assert "ValueError: cannot follow" in failing["detail"]["message"]
    assert failing["moves"] == record["moves"][:3]  # seat 1 forfeits at its turn, ply 3


@pytest.mark.slow
def test_a_cmd_bot_observes_in_a_run(tmp_path):
    """The same messages in a run (``cmd:`` strategy, a plug-in game by file)."""
    log = tmp_path / "bot.jsonl"
    config = tmp_path / "c.yaml"
    config.write_text(
        f"game: {PEEK}\nplayers: 2\nformat: round_robin\nseed: 3\ngames: 2\n"
        f"strategies:\n  - {{name: bot, use: 'cmd:{sys.executable} {DATA / 'observe_bot.py'}"
        f" {log}'}}\n  - random\n"
    )
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(tmp_path / "out"), "-q", "--no-plots"]
    )
    assert result.exit_code == 0, result.output
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    moved = [m for m in messages if m["type"] == "moved"]
    assert len(moved) == 2 * 4 and {m["player"] for m in moved} == {CHANCE, 0, 1}
    assert all(m["move"] is None for m in moved if m["seat"] == 1 and m["view"]["ply"] == 1)


def test_ex_libris_shows_a_card_passed_hand_to_hand_to_those_two_seats_only():
    """Ex Libris (4 players): the Gelatinous Cube's random card (seat 1 gives, seat 0
    takes) and a card given to a Goblin Sneak (seat 1 to seat 2) are seen by the giver and
    the taker; a reshuffled deck by nobody; every other move by everyone."""
    from types import SimpleNamespace

    from simcli.games.ex_libris.assistants import Give, RandomCard
    from simcli.games.ex_libris.effects import ReshuffleDeck
    from simcli.tournament.observe import reading_of

    reading = reading_of(load_game("ex_libris"))
    cube = SimpleNamespace(tasks=[RandomCard(seat=1, taker=0)])
    assert [reading(cube, CHANCE, "C4", s) for s in range(4)] == ["C4", "C4", None, None]
    goblin = SimpleNamespace(tasks=[Give(seat=1, taker=2, category=0)])
    shown = [reading(goblin, 1, ["give", "A3"], s) for s in range(4)]
    assert shown == [["give", None], ["give", "A3"], ["give", "A3"], ["give", None]]
    shuffle = SimpleNamespace(tasks=[ReshuffleDeck()])
    assert [reading(shuffle, CHANCE, ["A1", "B2"], s) for s in range(4)] == [None] * 4
    assert reading(goblin, 3, ["loc", 12], 0) == ["loc", 12]


def test_the_default_readings_of_the_other_games():
    """Perfect-information games show everything (nothing to mask); Ada's Library and
    Bibliogamo hide a reshuffle's order and show the seats' moves."""
    from simcli.tournament.observe import reading_of

    assert reading_of(load_game("libraria")) is None
    assert reading_of(load_game("library")) is None
    for game in ("adas_library", "bibliogamo"):
        reading = reading_of(load_game(game))
        assert reading(None, CHANCE, ["move1", "move2"], 0) is None
        assert reading(None, 1, ["move1", 0, "R"], 0) == ["move1", 0, "R"]


def test_a_game_says_what_a_seat_sees_through_its_own_method():
    """The masking is the game's: Ex Libris and the High Roll example carry
    ``observed_move``; High Roll's public rolls are shown although it hides information
    (the default would hide every chance outcome)."""
    from simcli.tournament.observe import reading_of

    ex_libris = load_game("ex_libris")
    assert reading_of(ex_libris) == ex_libris.observed_move
    examples = Path(__file__).resolve().parent.parent / "examples"
    high_roll = load_game(f"{examples / 'high_roll.py'}:HighRoll")
    assert not high_roll.perfect_information
    assert [reading_of(high_roll)(None, CHANCE, 5, s) for s in range(3)] == [5, 5, 5]
