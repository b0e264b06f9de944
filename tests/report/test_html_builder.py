"""report.html without a browser: parsed with html.parser, its figures compared with
summary.json, its self-containment checked, the games to look at picked by hand-made
records, and its size on a large summary bounded."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner
from synth_records import make_record, two_player_round_robin

from simcli.cli.main import cli
from simcli.report.api import produce_report
from simcli.report.html import markdown_html
from simcli.report.picks import CAP, TOP, GamePicker
from simcli.stats import wording as W


class Page(HTMLParser):
    """Every element's tag and attributes, the text of table rows, list items and
    ``data-key`` figures."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.tables: list[list[list[str]]] = []
        self.items: list[tuple[dict, str]] = []  # (li attributes, its text)
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._li: list[tuple[dict, list[str]]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "li":
            self._li.append((a, []))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1].append(self._row)
            self._row = None
        elif tag == "li" and self._li:
            a, text = self._li.pop()
            self.items.append((a, "".join(text)))
            if self._li:
                self._li[-1][1].extend(text)

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._li:
            self._li[-1][1].append(data)


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    return page


def _records():
    recs = two_player_round_robin(
        {"A": 0.0, "B": -0.6, "C": -1.2}, 30, rng=np.random.default_rng(3), seat_advantage=0.3
    )
    base = max(r["index"] for r in recs) + 1
    for k in range(CAP + 3):  # more forfeits than the list shows
        detail = {"seat": 1, "kind": "exception", "message": f"boom {k}"}
        recs.append(
            make_record(("A", "C"), [0], None, termination="forfeit", detail=detail, index=base + k)
        )
    recs.append(make_record(("B", "A"), [0], [40, 0], index=base + CAP + 3))  # margin 40, upset
    return recs


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    recs = _records()
    rep = produce_report(iter(recs), out, plots=False)
    html = (out / "report.html").read_text(encoding="utf-8")
    summary = json.loads((out / "summary.json").read_text())
    return SimpleNamespace(out=out, records=recs, report=rep, html=html, summary=summary)


def test_written_beside_report_md_and_self_contained(written):
    assert (written.out / "report.md").is_file()
    page = parse(written.html)
    tags = {tag for tag, _ in page.elements}
    assert {"svg", "table", "script", "style"} <= tags
    for tag, attrs in page.elements:
        for key in ("src", "href", "xlink:href", "data"):
            value = (attrs.get(key) or "").strip().lower()
            assert not value.startswith(("http:", "https:", "//", "ftp:")), (tag, attrs)
        assert not (tag == "script" and attrs.get("src")), attrs
        assert not (tag == "link" and attrs.get("rel") == "stylesheet"), attrs
        assert tag not in ("img", "iframe", "object", "embed"), tag
    assert "@import" not in written.html and "url(" not in written.html
    assert not any(key.endswith("-") for _, attrs in page.elements for key in attrs)


def test_totals_and_findings_are_summary_json(written):
    page = parse(written.html)
    figures = {a["data-key"]: int(a["data-value"]) for _, a in page.elements if "data-key" in a}
    totals = written.summary["totals"]
    assert figures == {
        k: totals[k] for k in ("games", "strategies", "groups", "forfeits", "errors")
    }
    findings = [text for a, text in page.items if not a]
    for finding in written.summary["findings"]:
        assert finding in findings


def test_strategy_table_cells_are_summary_json(written):
    page = parse(written.html)
    table = next(t for t in page.tables if t[0][:2] == ["strategy", "games"])
    col = table[0].index("win rate")
    rows = {row[0]: row for row in table[1:]}
    for st in written.summary["groups"][0]["strategies"]:
        assert rows[st["name"]][1] == str(st["games"])
        assert rows[st["name"]][col] == W.pct_ci(SimpleNamespace(**st["win_rate"]))


def test_seat_chart_points_are_summary_json(written):
    page = parse(written.html)
    points = [a for tag, a in page.elements if tag == "g" and a.get("class") == "pt"]
    seats = written.summary["groups"][0]["seat_bias"]["seats"]
    shares = [(float(a["data-est"]), float(a["data-low"]), float(a["data-high"])) for a in points]
    for seat in seats:
        rate = seat["decisive_rate"]
        assert (rate["estimate"], rate["low"], rate["high"]) in shares


def test_games_to_look_at(written):
    page = parse(written.html)
    lists: dict[str, list[int]] = {}
    kind = None
    for tag, a in page.elements:
        if tag == "ol":
            kind = a["data-kind"]
            lists[kind] = []
        elif tag == "li" and "data-index" in a and kind:
            lists[kind].append(int(a["data-index"]))
    forfeits = [r["index"] for r in written.records if r["termination"] == "forfeit"]
    assert lists["forfeit"] == forfeits[:CAP]
    assert f"and {len(forfeits) - CAP} more" in written.html
    odd = written.records[-1]["index"]
    assert lists["margin"][0] == odd  # margin 40, the largest
    assert len(lists["margin"]) == TOP
    first = next(r for r in written.records if r["index"] == lists["upsets"][0])
    assert first["seats"][first["winners"][0]] == "C" and "A" in first["seats"]  # widest gap
    # records without a run folder: listed, with the reason there is no link
    assert written.html.count("No viewer page: the records are not read from a run folder") == 1
    assert len(set(lists["upsets"])) == len(lists["upsets"])
    assert 'href="view/' not in written.html


def test_upsets_rank_the_widest_rating_gap_first():
    recs = two_player_round_robin(
        {"A": 0.0, "B": -0.5, "C": -2.5}, 40, rng=np.random.default_rng(1)
    )
    picker = GamePicker()
    produce = list(picker.watch(recs))
    assert produce == recs  # passed through unchanged
    from simcli.report.api import build_summary

    summary = build_summary(recs, natural=False)
    upsets = next(pl for pl in picker.lists(summary) if pl.key == "upsets")
    first = next(r for r in recs if r["index"] == upsets.picks[0].index)
    winner = first["seats"][first["winners"][0]]
    assert winner == "C" and "beat A" in upsets.picks[0].text  # C over A: the widest gap


def test_shortest_and_longest_only_when_lengths_differ():
    same = [make_record(("A", "B"), [0], [2, 1], moves=[0, 1, 2], index=i) for i in range(4)]
    picker = GamePicker()
    list(picker.watch(same))
    from simcli.report.api import build_summary

    keys = [pl.key for pl in picker.lists(build_summary(same, natural=False))]
    assert "shortest" not in keys and "longest" not in keys
    lengths = [5, 2, 9, 2, 7, 1, 9]
    recs = [
        make_record(("A", "B"), [0], [2, 1], moves=list(range(n)), index=i)
        for i, n in enumerate(lengths)
    ]
    picker = GamePicker()
    list(picker.watch(recs))
    lists = {pl.key: [p.index for p in pl.picks] for pl in picker.lists(build_summary(recs))}
    assert lists["shortest"] == [5, 1, 3, 0, 4]  # 1, 2, 2 (earlier first), 5, 7
    assert lists["longest"] == [2, 6, 4, 0, 1]  # 9, 9, 7, 5, 2


def test_balance_markdown_becomes_tables():
    md = [
        "The first player is favoured.",
        "",
        "![seat share by rung](plots/balance.png)",
        "## Seat shares by rung",
        "| rung | games |",
        "|---|---|",
        "| random | 40 |",
        "- a skill check",
    ]
    page = parse(markdown_html(md))
    assert page.tables == [[["rung", "games"], ["random", "40"]]]
    assert [t for _, t in page.items] == ["a skill check"]
    assert not any(tag == "img" for tag, _ in page.elements)


@pytest.mark.slow
def test_cli_html_prints_the_page_path(tmp_path, written):
    run = tmp_path / "run"
    run.mkdir()
    with open(run / "games.jsonl", "w") as fh:
        for r in written.records[:40]:
            fh.write(json.dumps(r) + "\n")
    result = CliRunner().invoke(cli, ["report", str(run), "--no-plots", "--format", "html"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(run / "report.html")
    assert (run / "report.html").is_file()


def test_bad_input_is_the_report_commands_error(tmp_path):
    for fmt in ("text", "html"):
        bad = CliRunner().invoke(cli, ["report", str(tmp_path / "missing"), "--format", fmt])
        assert bad.exit_code == 2
        assert "no such run folder or game log" in bad.output


def test_print_formats_agree():
    from simcli.cli import report as cli_report
    from simcli.report import api

    assert cli_report.PRINT_FORMATS == api.PRINT_FORMATS


def test_run_folder_files_include_the_page_and_its_viewer_pages():
    from simcli.tournament.output import RUN_FILES

    assert "report.html" in RUN_FILES and "view" in RUN_FILES


@pytest.mark.slow
def test_size_stays_bounded_on_a_large_summary(tmp_path):
    """Twelve strategies in three variants with scores spread over hundreds of points:
    the page holds aggregates only, so it stays far below the 5 MB of a 100,000-game run."""
    rng = np.random.default_rng(5)
    names = {f"strategy-{k:02d}": -0.15 * k for k in range(12)}
    recs = []
    for v in ("v1", "v2", "v3"):
        part = two_player_round_robin(names, 6, rng=rng, variant=v, seed_base=len(recs))
        for r in part:
            r["scores"] = [int(s * rng.integers(1, 60)) for s in r["scores"]]
        recs += part
    produce_report(iter(recs), tmp_path, plots=False)
    size = (tmp_path / "report.html").stat().st_size
    assert size < 1_000_000, size


def _rung(name: str, wins: list[int]) -> dict:
    from simcli.stats.intervals import wilson_interval

    n = sum(wins)
    shares = []
    for seat, k in enumerate(wins):
        low, high = wilson_interval(k, n)
        shares.append({"seat": seat, "wins": k, "share": k / n, "low": low, "high": high})
    return {
        "label": f"rung {name}",
        "strategy": name,
        "games": n,
        "decisive": n,
        "draws": 0,
        "stopped_by": "precision",
        "seat_share": shares,
        "headline": {"test": "exact binomial", "p": 0.01, "n": n},
        "metrics": {"completion": 1.0, "draws": 0.0, "timeouts": 0.0, "balance": 0.9},
    }


def test_a_balance_folder_shows_its_skill_curve(tmp_path):
    from simcli.balancing.report import write_balance_report

    data = {
        "game": "libraria",
        "players": 2,
        "precision": 0.03,
        "rungs": [_rung("random", [52, 48]), _rung("greedy", [30, 70])],
        "skill_checks": [],
    }
    (tmp_path / "balance.json").write_text(json.dumps(data))
    write_balance_report(data, tmp_path, plots=False)
    recs = two_player_round_robin({"A": 0.0, "B": -0.4}, 10, rng=np.random.default_rng(2))
    produce_report(iter(recs), tmp_path, plots=False)
    html = (tmp_path / "report.html").read_text()
    page = parse(html)
    assert "Balance by skill" in html and "favoured" in html
    curve = [
        (float(a["data-est"]), float(a["data-low"]), float(a["data-high"]))
        for tag, a in page.elements
        if tag == "g" and a.get("class") == "pt"
    ]
    for rung in data["rungs"]:
        for s in rung["seat_share"]:
            assert (s["share"], s["low"], s["high"]) in curve
    assert any(
        t[0] == ["rung", "games", "decisive", "seat 0 share", "seat 1 share", "test"]
        for t in page.tables
    )


def test_an_upset_over_several_seats_is_listed_once():
    """Three seats: C, rated lowest, beat A and B in the same games; each game once."""
    from simcli.report.api import build_summary

    recs = []
    for i in range(60):
        seats = [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B")][i % 3]
        winner = "C" if i % 10 == 0 else ("A" if i % 3 else "B")
        scores = [3 if s == winner else 1 for s in seats]
        recs.append(make_record(seats, [seats.index(winner)], scores, seed=i // 3, index=i))
    picker = GamePicker()
    list(picker.watch(recs))
    upsets = next(
        pl for pl in picker.lists(build_summary(recs, natural=False)) if pl.key == "upsets"
    )
    indexes = [p.index for p in upsets.picks]
    assert len(indexes) == len(set(indexes))
    assert indexes[0] % 10 == 0 and "C beat A" in upsets.picks[0].text
