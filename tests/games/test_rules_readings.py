"""The options that select another reading of a game's rule text (issue 37): each
non-default value passes the conformance checker (``simcli check-game``'s checks) on
seeded playouts, and is left out of the resolved options at its default so that
records of the default reading stay byte-identical."""

from __future__ import annotations

import pytest

from simcli.conformance import check_game
from simcli.games import get_game

#: game id -> {option: its non-default values}
READINGS: dict[str, dict[str, tuple]] = {
    "adas_library": {"exchange_position": ("mirrored",)},
    "library": {
        "turn_order": ("d1_d7_g4_a4",),
        "push_wall": ("sideways", "both"),
        "topple_chain": ("line",),
        "sphere_push": ("toward_own",),
        "walls_per_player": (5,),
    },
    "ex_libris": {"home_action": ("optional",)},
    "bibliogamo": {"blocked_cards": ("small_icon", "either"), "sale_redraw": ("chain",)},
}


def _cases():
    for game_id, options in READINGS.items():
        game = get_game(game_id)
        for name, values in options.items():
            for value in values:
                for players in game.player_counts:
                    yield pytest.param(
                        game_id, players, {name: value}, id=f"{game_id}-{players}p-{name}={value}"
                    )


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players", "options"), list(_cases()))
def test_each_reading_passes_the_conformance_checks(game_id, players, options) -> None:
    report = check_game(get_game(game_id), players=[players], games=1, seed=1, options=options)
    assert {n: report.results[n].failure for n in report.failed()} == {}


@pytest.mark.parametrize(
    ("game_id", "name"), [(g, n) for g, options in READINGS.items() for n in options]
)
def test_each_reading_is_left_out_of_the_options_at_its_default(game_id, name) -> None:
    game = get_game(game_id)
    default = game.options[name].default
    assert name not in game.resolve_options({})
    assert name not in game.resolve_options({name: default})
    for value in READINGS[game_id][name]:
        assert value != default
        assert game.resolve_options({name: value})[name] == value
