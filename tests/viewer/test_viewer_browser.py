"""The viewer page in headless Chromium: it draws the known pieces at a ply, steps with the
keys, buttons, slider and jump box, shows a seat's view without the other hand, and opens
from disk without a console error or a network request."""

from __future__ import annotations

from pathlib import Path

import pytest
from viewer_support import played, write_log

from simcli.viewer import write_view

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def open_page(page, path: Path, fragment: str = "") -> None:
    page.goto(path.resolve().as_uri() + fragment)
    page.wait_for_selector("body[data-ready='1']")


def ply(page) -> int:
    return int(page.get_attribute("body", "data-ply"))


def counters(page) -> int:
    return page.locator("#board svg .counter").count()


def assert_clean(page) -> None:
    assert page.console_errors == []
    assert [url for url in page.requests if not url.startswith("file:")] == []


def test_libraria_steps_and_shows_the_counters_of_each_ply(page, libraria_run: Path):
    path = write_view(libraria_run, 4)
    assert 'id="view-data-gz"' in path.read_text()  # the packed form: unpacked in the browser
    open_page(page, path)
    assert ply(page) == 0 and counters(page) == 0
    assert page.get_attribute("body", "data-plies") == "36"  # the record's 36 placements
    assert page.get_attribute("#slider", "max") == "36"
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert ply(page) == 5 and counters(page) == 5  # one counter per placement
    page.keyboard.press("ArrowLeft")
    assert ply(page) == 4 and counters(page) == 4
    assert page.locator("#moves li.current").get_attribute("data-ply") == "4"
    page.fill("#jump", "20")
    page.dispatch_event("#jump", "change")
    assert ply(page) == 20 and counters(page) == 20
    page.click("#last")
    assert ply(page) == 36 and counters(page) == 36
    assert page.text_content("#turn") == "game over"
    page.click("#prev")
    assert ply(page) == 35
    page.click("#first")
    assert ply(page) == 0
    page.locator("#slider").fill("12")
    assert ply(page) == 12 and counters(page) == 12
    page.click("#moves li[data-ply='7']")
    assert ply(page) == 7
    assert_clean(page)


def test_seen_by_seat_0_hides_seat_1s_hand(page, tmp_path: Path):
    record = played("adas_library", ["greedy", "greedy"], seed=5)
    write_log(tmp_path / "run", [record])
    open_page(page, write_view(tmp_path / "run", 0), "#ply=3")
    assert ply(page) == 3
    assert page.get_attribute("body", "data-plies") == str(len(record["moves"]))
    board = page.locator("#board svg")
    assert board.locator(".card").count() == 10 and board.locator(".unknown").count() == 0
    page.select_option("#seenby", "1")  # seat 0
    hidden = board.locator(".card.unknown")
    assert hidden.count() == 5
    assert {hidden.nth(i).get_attribute("data-seat") for i in range(5)} == {"1"}
    assert board.locator(".card[data-seat='0']:not(.unknown)").count() == 5
    page.keyboard.press("ArrowRight")  # the choice of seat stays while stepping
    assert ply(page) == 4 and board.locator(".card.unknown").count() == 5
    page.select_option("#seenby", "0")
    assert page.locator("#board svg .card.unknown").count() == 0
    assert_clean(page)


def test_a_failing_record_is_viewable_up_to_the_failing_ply(page, tmp_path: Path):
    record = played("libraria", ["random", "random"], seed=2)
    record["moves"][5] = record["moves"][0]
    write_log(tmp_path / "run", [record])
    open_page(page, write_view(tmp_path / "run", 0))
    assert page.is_visible("#failure")
    assert page.get_attribute("#failure", "data-ply") == "6"
    page.click("#last")
    assert ply(page) == 5 and counters(page) == 5
    page.keyboard.press("ArrowRight")
    assert ply(page) == 5
    failed = page.locator("#moves li.failed")
    assert failed.count() == 1 and failed.get_attribute("data-ply") == "6"
    assert_clean(page)


HIGH_ROLL = f"{Path(__file__).resolve().parents[2]}/examples/high_roll.py:HighRoll"


@pytest.mark.parametrize(
    ("game", "players", "piece"),
    [
        ("library", 2, "svg .cell"),
        ("ex_libris", 2, "svg .location"),
        ("bibliogamo", 1, "svg .tower"),
        (HIGH_ROLL, 2, "pre.text-board"),  # a plug-in game without render_svg
    ],
)
def test_every_game_draws_without_errors(page, tmp_path: Path, game, players, piece):
    record = played(game, "random", players=players, seed=3)
    write_log(tmp_path / "run", [record])
    path = write_view(tmp_path / "run", 0)
    if game == HIGH_ROLL:
        assert 'id="view-data"' in path.read_text()  # short text boards: plain JSON
    open_page(page, path)
    page.click("#last")
    assert ply(page) == len(record["moves"])
    assert page.locator(f"#board {piece}").count() > 0
    assert_clean(page)
