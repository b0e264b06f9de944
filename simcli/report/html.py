"""``report.html``: the report as one self-contained page (style, script and charts
inline; no request leaves the file).

It is built from the same document as ``report.md`` (:func:`build_document`), so the
findings, sentences and table cells are the same text: the findings first, then the seat
balance chart, the balance command's skill curve when the folder holds one, the games to
look at (linked to the viewer's pages) and the details, each table sortable and each
chart an inline SVG (:mod:`simcli.report.svgcharts`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from simcli.report import svgcharts as charts
from simcli.report.document import Bullets, Heading, Image, Lines, Para, Table, build_document
from simcli.report.html_assets import CSS, SORT_JS
from simcli.report.picks import PickList
from simcli.stats.summary import Group, Summary


@dataclass
class BalanceParts:
    """A balance run's own report: ``balance.md`` (its answer and tables) and the skill
    curve's figures from ``balance.json``."""

    markdown: str
    data: dict[str, Any]


def read_balance(folder: Path) -> BalanceParts | None:
    """The balance report of a run folder, or None when it holds none (or an unreadable
    one: the standard report does not depend on it)."""
    md, js = folder / "balance.md", folder / "balance.json"
    if not (md.is_file() and js.is_file()):
        return None
    try:
        data = json.loads(js.read_text(encoding="utf-8"))
        return BalanceParts(md.read_text(encoding="utf-8"), data if isinstance(data, dict) else {})
    except (OSError, ValueError):
        return None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


@dataclass
class _Page:
    """The page's parts as they are written, and the table of contents."""

    parts: list[str] = field(default_factory=list)
    nav: list[tuple[str, str]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)

    def add(self, html: str) -> None:
        self.parts.append(html)

    def heading(self, level: int, text: str, *, nav: bool = False) -> None:
        anchor = _slug(text)
        while anchor in self.ids:
            anchor += "-x"
        self.ids.add(anchor)
        if nav:
            self.nav.append((anchor, text))
        self.add(f'<h{level} id="{anchor}">{escape(text)}</h{level}>')


# ----------------------------------------------------------------------------- blocks


def _finding(text: str) -> str:
    """A finding, its "(descriptive: ...)" aside set apart (same text)."""
    head, sep, aside = text.partition(" (descriptive: ")
    if not sep:
        return escape(text)
    return f'{escape(head)}<span class="aside">{escape(sep + aside)}</span>'


def _table(t: Table) -> str:
    ncol = len(t.headers)
    align = t.align or ("l" + "r" * (ncol - 1))
    cls = [
        "" if (align[i] if i < len(align) else "r") == "l" else ' class="r"' for i in range(ncol)
    ]
    head = "".join(f"<th{cls[i]}>{escape(h)}</th>" for i, h in enumerate(t.headers))
    rows = "".join(
        "<tr>" + "".join(f"<td{cls[i]}>{escape(c)}</td>" for i, c in enumerate(row)) + "</tr>"
        for row in t.rows
    )
    caption = f"<caption>{escape(t.caption)}</caption>" if t.caption else ""
    return (
        f'<div class="scroll"><table class="sortable">{caption}<thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def block_html(block: Any, *, findings: bool = False) -> str:
    """One block of the report document as HTML."""
    if isinstance(block, Para):
        return f"<p>{escape(block.text)}</p>"
    if isinstance(block, Lines):
        return "<pre>" + escape("\n".join(block.lines)) + "</pre>"
    if isinstance(block, Bullets):
        if findings:
            items = "".join(f"<li>{_finding(i)}</li>" for i in block.items)
            return f'<ul class="findings">{items}</ul>'
        return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in block.items) + "</ul>"
    if isinstance(block, Table):
        return _table(block)
    return ""  # Image: the charts are inline


def _sections(blocks: list[Any]) -> list[tuple[Heading | None, list[Any]]]:
    """The document split at its level-2 headings."""
    out: list[tuple[Heading | None, list[Any]]] = [(None, [])]
    for b in blocks:
        if isinstance(b, Heading) and b.level <= 2:
            out.append((b, []))
        else:
            out[-1][1].append(b)
    return out


# ----------------------------------------------------------------------------- page


def build_html(
    summary: Summary,
    picks: list[PickList] | None = None,
    *,
    balance: BalanceParts | None = None,
) -> str:
    """The whole page."""
    doc = build_document(summary, detail=True)
    title = doc.blocks[0].text if doc.blocks and isinstance(doc.blocks[0], Heading) else "report"
    sections = {h.text if h else "": body for h, body in _sections(doc.blocks[1:])}
    page = _Page()
    level = round(100 * summary.settings.confidence)
    _top(page, summary, sections)
    seat_chart = charts.seat_balance(summary.groups, level)
    if seat_chart:
        page.heading(2, "Seat balance", nav=True)
        page.add(f"<figure>{seat_chart}</figure>")
    if balance is not None:
        _balance(page, balance)
    if picks:
        _games(page, picks)
    _details(page, summary, sections, level)
    nav = " ".join(f'<a href="#{a}">{escape(t)}</a>' for a, t in page.nav)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body><main>"
        f"<h1>{escape(title)}</h1><nav>{nav}</nav>"
        + "".join(page.parts)
        + f"</main><script>{SORT_JS}</script></body></html>\n"
    )


def _top(page: _Page, s: Summary, sections: dict[str, list[Any]]) -> None:
    """The figures at a glance, then the answer and the findings."""
    t = s.totals
    figures = [
        ("games", t.games),
        ("strategies", t.strategies),
        ("groups", t.groups),
        ("forfeits", t.forfeits),
        ("errors", t.errors),
    ]
    items = "".join(f'<li data-key="{k}" data-value="{v}"><b>{v}</b> {k}</li>' for k, v in figures)
    status = f"run status: {s.run.status}; " if s.run and s.run.status else ""
    page.add(f'<ul class="totals">{items}</ul>')
    page.add(f'<p class="meta">{escape(status)}source: {escape(s.source or "-")}</p>')
    page.heading(2, "Findings", nav=True)
    answer = sections.get("Answer")
    if answer:
        page.add('<div class="answer">' + "".join(block_html(b) for b in answer) + "</div>")
    found = "".join(block_html(b, findings=True) for b in sections.get("Findings", []))
    if found and answer:  # the answer above says it in short; each test in full here
        count = sum(len(b.items) for b in sections["Findings"] if isinstance(b, Bullets))
        found = f"<details><summary>Every finding in full ({count})</summary>{found}</details>"
    page.add(found)
    if not answer and not sections.get("Findings"):
        page.add("<p>No finding: the games give no seat or strength question to answer.</p>")


def _games(page: _Page, lists: list[PickList]) -> None:
    page.heading(2, "Games to look at", nav=True)
    page.add(
        "<p>Each game opens in the viewer (board at every ply); "
        "<code>simcli replay RUN --game N --show</code> prints it as text.</p>"
    )
    picks = [p for pl in lists for p in pl.picks]
    notes = {p.note for p in picks}
    shared = notes.pop() if len(notes) == 1 and not any(p.link for p in picks) else None
    if shared:  # the same reason for every game: said once
        page.add(f'<p class="more">{escape(shared[0].upper() + shared[1:])}.</p>')
    for pl in lists:
        page.heading(3, pl.title)
        items = []
        for pick in pl.picks:
            name = f"game {pick.index}"
            if pick.link:
                name = f'<a href="{escape(pick.link, quote=True)}">{name}</a>'
            note = ""
            if pick.note and not shared:
                note = f' <span class="more">({escape(pick.note)})</span>'
            items.append(f'<li data-index="{pick.index}">{name}: {escape(pick.text)}{note}</li>')
        page.add(f'<ol class="games" data-kind="{pl.key}">' + "".join(items) + "</ol>")
        if pl.more:
            query = f": <code>simcli replay RUN {escape(pl.query)}</code>" if pl.query else ""
            page.add(f'<p class="more">and {pl.more} more{query}</p>')


def _balance(page: _Page, parts: BalanceParts) -> None:
    """The balance command's answer, skill curve and tables (from balance.md)."""
    page.heading(2, "Balance by skill", nav=True)
    curve = charts.balance_curve(parts.data)
    lines = parts.markdown.splitlines()
    body = markdown_html(lines[1:] if lines and lines[0].startswith("# ") else lines)
    first, _, rest = body.partition("</p>")
    page.add(first + ("</p>" if rest or first else ""))
    if curve:
        page.add(f"<figure>{curve}</figure>")
    page.add(rest)


def markdown_html(lines: list[str]) -> str:
    """The markdown subset ``balance.md`` uses: headings, paragraphs, bullets, tables
    (images are left out: the chart is inline)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split(" | ")])
                i += 1
            out.append(_table(Table(rows[0], [r for r in rows[2:]], align="l" * len(rows[0]))))
            continue
        if line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(lines[i][2:].strip())
                i += 1
            out.append(block_html(Bullets(items)))
            continue
        if line.startswith("#"):
            level = min(4, len(line) - len(line.lstrip("#")) + 1)
            out.append(f"<h{level}>{escape(line.lstrip('#').strip())}</h{level}>")
        elif line and not line.startswith("!["):
            out.append(f"<p>{escape(line)}</p>")
        i += 1
    return "".join(out)


def _details(page: _Page, s: Summary, sections: dict[str, list[Any]], level: int) -> None:
    """Every section after the findings, charts beside their tables."""
    groups = {f"{g.label[0].upper()}{g.label[1:]}": g for g in s.groups}
    span, grid = charts.rating_span(s.groups), charts.distribution_grid(s.groups)
    for text, body in sections.items():
        if text in ("", "Answer", "Findings", "Plots"):
            continue
        page.heading(2, text, nav=True)
        grp = groups.get(text)
        pending: str | None = None
        for b in body:
            if isinstance(b, Heading):
                if pending:
                    page.add(f"<figure>{pending}</figure>")
                page.heading(3, b.text)
                pending = _chart_for(b.text, grp, level, span, grid) if grp else None
            elif not isinstance(b, Image):
                page.add(block_html(b))
        if pending:
            page.add(f"<figure>{pending}</figure>")


def _chart_for(heading: str, grp: Group, level: int, span, grid) -> str | None:
    """The chart shown at the end of a group's subsection, by its heading."""
    makers: dict[str, Callable[[], str | None]] = {
        "Pairwise": lambda: charts.score_matrix(grp, f"Score matrix: {grp.label}"),
        "Ratings": lambda: charts.ratings(grp, level, span),
        "Seat bias by strategy": lambda: charts.seat_strategies(grp),
        "Game length": lambda: charts.distributions(grp, grid),
    }
    for prefix, make in makers.items():
        if heading.startswith(prefix):
            return make()
    return None
