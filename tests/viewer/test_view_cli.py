"""``simcli view`` and the viewer's data: the page of a game holds every ply of its record,
in the replay notation, with each seat's view; bad input exits 2 with one line; a record
that fails verification gets a page that says where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from viewer_support import played, write_log

from simcli.cli.main import cli
from simcli.records import dumps
from simcli.verify import replay
from simcli.viewer import record_html, write_view
from simcli.viewer.frames import picture
from simcli.viewer.page import page_data

ROOT = Path(__file__).resolve().parents[2]


def view(*args: str):
    return CliRunner().invoke(cli, ["view", *args])


def records(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "games.jsonl").read_text().splitlines()]


def test_view_writes_the_page_of_a_game_and_prints_its_path(libraria_run: Path):
    result = view(str(libraria_run), "--game", "4")
    assert result.exit_code == 0, result.output
    out = libraria_run / "view" / "game-4.html"
    assert result.output.strip() == str(out)
    data = page_data(out.read_text())
    record = records(libraria_run)[1]
    assert data["plies"] == len(record["moves"]) == 36
    assert [f["ply"] for f in data["frames"]] == list(range(37))  # the setup, then each ply
    assert data["entries"] == [json.dumps(m) for m in record["moves"]]
    assert data["observers"] == ["referee (full state)"]  # nothing hidden in Libraria
    assert data["frames"][-1]["turn"] == "game over"
    assert data["frames"][-1]["scores"] == record["scores"]
    assert data["failure"] is None


def test_without_game_the_first_game(libraria_run: Path):
    result = view(str(libraria_run))
    assert result.exit_code == 0, result.output
    assert Path(result.output.strip()) == libraria_run / "view" / "game-3.html"


def test_out_and_a_log_file_as_run(libraria_run: Path, tmp_path: Path):
    out = tmp_path / "pages" / "g.html"
    result = view(str(libraria_run / "games.jsonl"), "--game", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.is_file() and result.output.strip() == str(out)
    assert write_view(libraria_run / "games.jsonl", 4) == libraria_run / "view" / "game-4.html"


def test_index_out_of_range(libraria_run: Path):
    result = view(str(libraria_run), "--game", "9")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {libraria_run}: no game with index 9 (it holds games 3 to 4)"
    ]


def test_a_log_of_a_game_that_cannot_be_loaded(tmp_path: Path):
    record = played("libraria", ["random", "random"], seed=2)
    record["game_source"] = {
        "kind": "file",
        "use": str(tmp_path / "gone.py") + ":Gone",
        "fingerprint": "sha256:0000000000000000",
    }
    write_log(tmp_path / "run", [record])
    result = view(str(tmp_path / "run"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: game 0: ") and "gone.py" in lines[0]


def test_a_record_that_does_not_replay(tmp_path: Path):
    record = played("libraria", ["random", "random"], seed=2)
    record["setup"]["tiles"] = [0] * 25  # not the game's tiles
    write_log(tmp_path / "run", [record])
    result = view(str(tmp_path / "run"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: game 0 does not replay: setup cannot be rebuilt")
    assert not (tmp_path / "run" / "view").exists()


def test_a_record_that_fails_verification_gets_a_page_up_to_the_ply(tmp_path: Path):
    record = played("libraria", ["random", "random"], seed=2)
    record["moves"][5] = record["moves"][0]  # ply 6 places on a spot taken at ply 1
    write_log(tmp_path / "run", [record])
    result = view(str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    html = (tmp_path / "run" / "view" / "game-0.html").read_text()
    data = page_data(html)
    assert data["failure"]["ply"] == 6
    assert "is not legal" in data["failure"]["message"]
    assert [f["ply"] for f in data["frames"]] == [0, 1, 2, 3, 4, 5]
    assert data["plies"] == 36  # the move list still lists every recorded entry
    assert "This record fails verification at ply 6" in html


def test_a_wrong_final_claim_is_named_at_the_end(tmp_path: Path):
    record = played("libraria", ["random", "random"], seed=2)
    record["final_hash"] = "0" * 16
    data = page_data(record_html(record))
    assert data["failure"]["ply"] is None and "final_hash" in data["failure"]["message"]
    assert len(data["frames"]) == 37


def test_seen_by_is_each_seats_view_at_every_ply():
    record = played("adas_library", ["greedy", "greedy"], seed=5)
    data = page_data(record_html(record))
    assert data["observers"] == ["referee (full state)", "seat 0 (greedy)", "seat 1 (greedy)"]
    expected = []

    def on_state(ply, entry, state, seat):
        expected.append(
            [picture(state.game, state, None)]
            + [picture(state.game, state.view(s), s) for s in (0, 1)]
        )

    assert replay(record, on_state=on_state) == []
    shown = [[data["boards"][b] for b in frame["boards"]] for frame in data["frames"]]
    assert shown == expected
    assert all(frame[1] != frame[0] for frame in shown)  # seat 0 does not see seat 1's hand


def test_chance_events_are_marked():
    record = played("bibliogamo", "random", players=1, seed=5)
    data = page_data(record_html(record))
    chance = [isinstance(m, dict) for m in record["moves"]]
    assert any(chance)
    assert data["chance"] == chance
    assert [f["chance"] for f in data["frames"][1:]] == chance
    assert all(f["seat"] is None for f in data["frames"][1:] if f["chance"])
    assert all(e.startswith("chance ") for e, c in zip(data["entries"], chance, strict=True) if c)


def test_a_plug_in_game_without_render_svg_shows_its_text():
    record = played(f"{ROOT}/examples/high_roll.py:HighRoll", "random", players=2, seed=5)
    data = page_data(record_html(record))
    assert data["boards"] and all(b.startswith('<pre class="text-board">') for b in data["boards"])


@pytest.mark.parametrize("bad", ["</script><script>alert(1)</script>", "%%DATA%%"])
def test_names_cannot_break_the_page(tmp_path: Path, bad: str):
    record = played("libraria", ["random", "random"], seed=2)
    record["seats"] = [bad, "random"]
    html = record_html(record)
    assert html.count("</script>") == 2  # the data and the script only
    assert page_data(html)["seats"][0] == bad
    assert dumps(record)  # still a record


def test_boards_pack_as_changes_of_earlier_boards():
    from simcli.viewer.pack import pack, unpack

    boards = [
        '<svg><rect class="a"/><rect class="b"/><text>1</text></svg>',
        '<svg><rect class="a"/><circle class="c"/><rect class="b"/><text>1</text></svg>',
        '<svg><rect class="a"/><text>2</text></svg>',
        '<pre class="text-board">line one\nline two\n</pre>',
        '<pre class="text-board">line one\nline 2\n</pre>',
    ]
    pieces, encoded = pack(boards, [-1, 0, 1, -1, 3])
    assert unpack(pieces, encoded) == boards
    assert encoded[1] == [0, 2, 4, [pieces.index('<circle class="c"/>')]]  # one piece added
    assert encoded[4][1:] == [1, 1, [pieces.index("line 2\n")]]  # cut into lines
    assert len(pieces) == len(set(pieces))
