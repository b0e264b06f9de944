"""The protocol examples in the docs are real messages: docs/protocol.md's handshake and
every game page's view example (*View (what a strategy receives)*), parsed out of the
markdown and compared with what the referee sends."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import simcli
from simcli.games import get_game
from simcli.strategy import Strategy
from simcli.tournament.play import drive, game_play
from simcli.tournament.remote import RemoteSeatFactory

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BOT = Path(__file__).resolve().parent / "data" / "observe_bot.py"
GAMES = ["libraria", "library", "ex_libris", "adas_library", "bibliogamo"]
EXAMPLE = re.compile(
    r"<!-- view example: players=(\d+) seed=(\d+) request=(\d+) -->\s*```json\n(.*?)```", re.S
)


def json_after(text: str, heading: str) -> Any:
    """The first JSON code block after ``heading`` in ``text``."""
    start = text.index(heading)
    block = re.search(r"```json\n(.*?)```", text[start:], re.S)
    assert block is not None, heading
    return json.loads(block.group(1))


def view_example(game: str) -> tuple[int, int, int, dict]:
    """(players, seed, request, view) of a game page's documented example."""
    text = (DOCS / "games" / f"{game}.md").read_text()
    section = text.split("## View (what a strategy receives)", 1)[1].split("\n## ", 1)[0]
    found = EXAMPLE.search(section)
    assert found is not None, f"docs/games/{game}.md: no view example in its View section"
    players, seed, request, body = found.groups()
    return int(players), int(seed), int(request), json.loads(body)


def test_the_handshake_example_is_the_real_hello():
    documented = json_after((DOCS / "protocol.md").read_text(), "### `hello`")
    game = get_game(documented["game"])
    factory = RemoteSeatFactory(
        documented["name"],
        ["unused"],
        game=documented["game"],
        players=documented["players"],
        params=documented["params"],
        move_seconds=None,
    )
    assert documented == factory.hello(game.resolve_options({}))


class _First(Strategy):
    """The first legal move; keeps the snapshot of every view it is handed."""

    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        self.seen = SEEN

    def choose(self, view, legal_moves):
        self.seen.append(view.snapshot())
        return legal_moves[0]


SEEN: list[dict] = []


@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_shows_a_real_view(game):
    """The example on the page is the view the referee hands at that decision."""
    players, seed, request, documented = view_example(game)
    SEEN.clear()
    simcli.play(game, _First, players=players, seed=seed)
    assert len(SEEN) >= request
    assert SEEN[request - 1] == documented


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_s_view_is_what_a_program_receives(game, tmp_path):
    """The same example through the protocol: a ``cmd:`` program that takes the first
    legal move logs the ``choose`` requests it gets."""
    players, seed, request, documented = view_example(game)
    log = tmp_path / "bot.jsonl"
    rules = get_game(game)
    factory = RemoteSeatFactory(
        "bot",
        [sys.executable, str(BOT), str(log), "--plain"],
        game=game,
        players=players,
        params={},
        move_seconds=60,
    )
    try:
        options = rules.resolve_options({})
        drive(game_play(rules, options, 0, seed, ["bot"] * players, {"bot": factory}))
    finally:
        factory.close()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    chooses = [m for m in messages if m["type"] == "choose"]
    real = chooses[request - 1]
    assert set(real) == {"type", "index", "seat", "view", "legal"}
    assert real["view"] == documented
    hello = next(m for m in messages if m["type"] == "hello")
    shown = json_after((DOCS / "protocol.md").read_text(), "### `hello`")
    assert set(hello) == set(shown)


def test_the_choose_example_has_the_real_keys():
    """docs/protocol.md's ``choose`` example is shortened, but its keys are the real
    ones: the message's and Libraria's view's."""
    documented = json_after((DOCS / "protocol.md").read_text(), "### `choose`")
    players, seed, request, real_view = view_example("libraria")
    assert set(documented) == {"type", "index", "seat", "view", "legal"}
    assert set(documented["view"]) == set(real_view)
