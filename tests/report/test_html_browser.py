"""report.html in headless Chromium: it loads with no console error and no request beyond
the file itself, its tables sort, its figures are summary.json's and its game links lead to
viewer pages that exist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simcli.stats import wording as W

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def run_dir(mixed_run) -> Path:
    return mixed_run("html", seed=11)


@pytest.fixture
def opened(page, run_dir):
    page.goto((run_dir / "report.html").as_uri())
    page.wait_for_load_state("load")
    return page


def test_loads_with_no_console_error_and_no_request_beyond_the_file(page, run_dir):
    stopped: list[str] = []

    def intercept(route):  # every request passes here; anything but the file is stopped
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            stopped.append(url)
            route.abort()

    page.route("**/*", intercept)
    page.goto((run_dir / "report.html").as_uri())
    page.wait_for_load_state("networkidle")
    assert stopped == []
    assert page.console_errors == []
    assert page.requests, "the page itself is a request"
    for url in page.requests:
        assert url.startswith(("file:", "data:")), url


def _column(page, table, col: int) -> list[str]:
    return table.evaluate(
        "(t, col) => Array.from(t.tBodies[0].rows, r => r.cells[col].textContent)", col
    )


def test_clicking_a_header_sorts_the_table(opened):
    table = opened.locator("table.sortable").filter(has=opened.locator("th", has_text="losses"))
    table = table.first
    headers = table.locator("thead th")
    names = [headers.nth(i).text_content() for i in range(headers.count())]
    col = names.index("losses")
    before = [float(x) for x in _column(opened, table, col)]
    headers.nth(col).click()
    up = [float(x) for x in _column(opened, table, col)]
    assert up == sorted(before)
    headers.nth(col).click()
    down = [float(x) for x in _column(opened, table, col)]
    assert down == sorted(before, reverse=True)
    first = names.index("strategy")
    headers.nth(first).click()
    assert _column(opened, table, first) == sorted(_column(opened, table, first))
    assert opened.console_errors == []


def test_the_figures_are_summary_json(opened, run_dir):
    summary = json.loads((run_dir / "summary.json").read_text())
    shown = opened.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('[data-key]'),"
        " e => [e.dataset.key, Number(e.dataset.value)]))"
    )
    assert shown == {k: summary["totals"][k] for k in shown} and shown["games"] == 24
    rows = opened.evaluate(
        "() => { const t = Array.from(document.querySelectorAll('table')).find("
        "x => x.tHead && x.tHead.rows[0].cells[0].textContent === 'strategy' && "
        "x.tHead.rows[0].cells[5] && x.tHead.rows[0].cells[5].textContent === 'win rate');"
        " return Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)); }"
    )
    first = summary["groups"][0]["strategies"]
    assert [r[0] for r in rows] == [s["name"] for s in first]
    for row, st in zip(rows, first, strict=True):
        rate = st["win_rate"]
        iv = type("Iv", (), rate)
        assert row[5] == W.pct_ci(iv)
    points = opened.evaluate(
        "() => Array.from(document.querySelectorAll('svg.seat-balance g.pt'),"
        " g => [Number(g.dataset.est), Number(g.dataset.low), Number(g.dataset.high)])"
    )
    wanted = [
        [s["decisive_rate"][k] for k in ("estimate", "low", "high")]
        for g in summary["groups"]
        for s in g["seat_bias"]["seats"]
        if s["decisive_rate"]["estimate"] is not None
    ]
    for triple in wanted:
        assert triple in points
    findings = opened.evaluate(
        "() => Array.from(document.querySelectorAll('ul.findings li'), li => li.textContent)"
    )
    assert findings == summary["findings"]


def test_every_game_link_leads_to_a_viewer_page(opened, run_dir):
    links = opened.evaluate(
        "() => Array.from(document.querySelectorAll('ol.games a'), a => a.getAttribute('href'))"
    )
    forfeits = opened.locator("ol.games[data-kind=forfeit] li").count()
    assert forfeits > 0 and links
    for href in links:
        assert href.startswith("view/game-") and (run_dir / href).is_file(), href
    opened.locator("ol.games a").first.click()
    opened.wait_for_load_state("load")
    assert opened.url.endswith(links[0])
    assert opened.console_errors == []
