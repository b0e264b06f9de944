"""Every game class in examples/ passes ``simcli check-game``, the command the docs tell a
designer to run; and the documented rules-variant pattern (subclass, override
``new_state``, rewrite ``state.tiles``) round-trips through ``state_from_snapshot``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.game import IllegalMoveError
from simcli.games import load_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _game_classes() -> list[str]:
    """``path:Class`` of every class in examples/*.py that loads as a game."""
    found = []
    for path in sorted(EXAMPLES.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                use = f"{path}:{node.name}"
                try:
                    load_game(use)
                except Exception:  # a state class or a helper, not a game
                    continue
                found.append(use)
    return found


GAMES = _game_classes()


def test_the_examples_hold_the_documented_games() -> None:
    names = {use.rpartition(":")[2] for use in GAMES}
    assert {"HighRoll", "MouseMinusTwo"} <= names


@pytest.mark.parametrize("use", GAMES, ids=[u.rpartition(":")[2] for u in GAMES])
def test_check_game_passes_on_every_example(use: str) -> None:
    result = CliRunner().invoke(cli, ["check-game", use, "--games", "2"])
    assert result.exit_code == 0, result.output
    assert "all checks pass" in result.output


def test_a_variant_with_other_tile_values_rebuilds_from_its_snapshot() -> None:
    """The shipped variant's mouse tiles are worth -2, values the rulebook's tile set
    does not have: its snapshot still rebuilds the same position."""
    game = load_game(f"{EXAMPLES / 'libraria_mouse.py'}:MouseMinusTwo")
    options = game.resolve_options({})
    tiles = [0, 1, 2, 3, -1] * 5
    state = game.new_state(2, options, {"tiles": tiles})
    assert sorted(set(state.tiles)) == [-2, 0, 1, 2, 3]
    for move in (0, 7, 8, 35):
        state.apply(move)
    rebuilt = game.state_from_snapshot(2, options, state.snapshot())
    assert rebuilt.snapshot() == state.snapshot()
    assert rebuilt.legal_moves() == state.legal_moves()


def test_a_snapshot_still_needs_25_integer_tiles() -> None:
    game = load_game("libraria")
    options = game.resolve_options({})
    snap = game.new_state(2, options, {"tiles": [0, 1, 2, 3, -1] * 5}).snapshot()
    for tiles in ([0] * 24, [0.5] * 25, [True] * 25, "tiles"):
        with pytest.raises(IllegalMoveError, match="25 tile values"):
            game.state_from_snapshot(2, options, {**snap, "tiles": tiles})


def test_a_variant_record_verifies_under_the_variant_and_not_the_rulebook() -> None:
    """Replay still checks what matters: the variant's tiles are in the final hash, so
    the same record replayed by the rulebook's rules does not match."""
    import simcli
    from simcli.verify import replay

    record = simcli.play(
        f"{EXAMPLES / 'libraria_mouse.py'}:MouseMinusTwo", "random", players=2, seed=3
    )
    assert record["game_source"]["kind"] == "file"
    assert replay(record) == []
    rulebook = {key: value for key, value in record.items() if key != "game_source"}
    assert "final_hash" in " ".join(m.message for m in replay(rulebook))


def test_a_variant_game_object_played_through_simcli_play_names_its_rules() -> None:
    """``simcli.play(game_object, ...)`` of a variant records where its class came from,
    as a run does, so the record replays under the variant (not the built-in game of the
    same id); the built-in game's own object records no source."""
    import simcli
    from simcli.games import get_game
    from simcli.verify import replay

    variant = load_game(f"{EXAMPLES / 'libraria_mouse.py'}:MouseMinusTwo")
    record = simcli.play(variant, "random", players=2, seed=3)
    assert record["game_source"]["kind"] == "file"
    assert record["game_source"]["use"].endswith("libraria_mouse.py:MouseMinusTwo")
    assert replay(record) == []
    assert "game_source" not in simcli.play(get_game("libraria"), "random", players=2, seed=3)
