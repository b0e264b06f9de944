"""Each built-in game's page (``docs/games/<id>.md``) holds its options and rules
decisions in one table: decision, the text's words, the default reading, the other
readings, the option, and whether the choice can change balance results. Every option
``simcli list games`` shows has a row naming it."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.games import GAMES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
HEADER = "| decision | the text | default | other readings | option | can change balance results |"


@cache
def listed_options() -> dict[str, list[str]]:
    """game id -> the option names ``simcli list games`` prints under it."""
    result = CliRunner().invoke(cli, ["list", "games"])
    assert result.exit_code == 0, result.output
    options: dict[str, list[str]] = {}
    game = None
    for line in result.output.splitlines():
        head = re.match(r"^  (\w+)\s+\d", line)
        if head:
            game = head.group(1)
            options[game] = []
            continue
        option = re.match(r"^      (\w+) = ", line)
        if option and game is not None:
            options[game].append(option.group(1))
    return options


def table_rows(game_id: str) -> list[list[str]]:
    """The cells of every row of the page's one options-and-decisions table."""
    lines = (DOCS / f"{game_id}.md").read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == HEADER]
    assert len(starts) == 1, f"{game_id}.md: {len(starts)} tables with the header {HEADER}"
    rows = []
    for line in lines[starts[0] + 2 :]:
        if not line.startswith("|"):
            break
        # cells split on " | " (a "|" inside a cell is escaped or inside backticks)
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        rows.append(cells)
    return rows


def test_list_games_shows_every_built_in_game_with_options() -> None:
    listed = listed_options()
    assert set(listed) == set(GAMES)
    assert all(listed[g] for g in GAMES)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_option_of_list_games_has_a_row_in_the_games_table(game_id: str) -> None:
    rows = table_rows(game_id)
    assert rows, f"{game_id}.md: the table has no rows"
    for cells in rows:
        assert len(cells) == 6, f"{game_id}.md: a row without 6 cells: {cells}"
        assert all(cells[:4]) and cells[4] and cells[5], f"{game_id}.md: an empty cell: {cells}"
        assert re.match(r"(yes|no)\b", cells[5]), (
            f"{game_id}.md: 'can change balance results' starts with yes or no: {cells[5]!r}"
        )
    option_cells = " ".join(cells[4] for cells in rows)
    missing = [
        name
        for name in listed_options()[game_id]
        if not re.search(rf"`{re.escape(name)}[:`]", option_cells)
    ]
    assert missing == [], f"{game_id}.md: no row names the option(s) {missing}"
