"""The viewer page: one self-contained HTML file (style, script and every board inline, no
network request) that steps through a replayed record."""

from __future__ import annotations

import base64
import gzip
import json
import re
from dataclasses import asdict
from html import escape

from simcli.viewer.assets import PAGE, SCRIPT, STYLE
from simcli.viewer.frames import Replayed

#: Above this many characters of data, the page holds it gzipped (base64) and the
#: browser unpacks it (DecompressionStream): the boards of consecutive plies repeat most
#: of their markup, so a long game's page shrinks ten-fold or more.
PACK_ABOVE = 16_000


def data_element(value: object) -> str:
    """The page's data as a ``<script>`` element: JSON, or gzipped JSON in base64."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if len(text) <= PACK_ABOVE:
        safe = text.replace("</", "<\\/").replace("<!--", "<\\!--")
        return f'<script type="application/json" id="view-data">{safe}</script>'
    packed = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
    encoded = base64.b64encode(packed).decode("ascii")
    return f'<script type="application/gzip" id="view-data-gz">{encoded}</script>'


_DATA = re.compile(
    r'<script type="application/(json|gzip)" id="view-data(?:-gz)?">(.*?)</script>', re.S
)


def page_data(html: str) -> dict:
    """The data of a viewer page (for tests and tools), its boards unpacked: the inverse
    of :func:`data_element` and of :func:`view_data`'s packing."""
    from simcli.viewer.pack import unpack

    match = _DATA.search(html)
    if match is None:
        raise ValueError("not a viewer page")
    kind, body = match.groups()
    if kind == "gzip":
        data = json.loads(gzip.decompress(base64.b64decode(body)).decode("utf-8"))
    else:
        data = json.loads(body.replace("<\\/", "</").replace("<\\!--", "<!--"))
    data["boards"] = unpack(data.pop("pieces"), data["boards"])
    return data


def _heading(done: Replayed) -> tuple[str, str]:
    """The page's title, and the game in one line as ``simcli replay`` lists it (who
    played which seat, the result, a forfeit's reason) with its seed."""
    from simcli.cli.replay import summary_line

    record = done.record
    title = f"{done.game.title}, game {record['index']}"
    return title, f"{summary_line(record)}; seed {record['seed']}"


def _failure_html(done: Replayed) -> str:
    failure = done.failure
    if failure is None:
        return ""
    ply = failure["ply"]
    where = (
        f"at ply {ply}; plies 0 to {ply - 1} can be viewed"
        if ply is not None
        else "at the end: the record claims an ending the rules do not give"
    )
    return (
        f'<div id="failure" class="failure" data-ply="{"" if ply is None else ply}">'
        f"<strong>This record fails verification {escape(where)}.</strong> "
        f"{escape(failure['message'])}</div>"
    )


def view_data(done: Replayed) -> dict:
    """What the page's script reads: boards (packed, :mod:`simcli.viewer.pack`), frames,
    observers, the recorded entries."""
    from simcli.viewer.frames import entry_text
    from simcli.viewer.pack import pack, references

    moves = done.record["moves"]
    refs = references([frame.boards for frame in done.frames], len(done.boards))
    pieces, boards = pack(done.boards, refs)
    return {
        "plies": len(moves),
        "observers": done.observers,
        "pieces": pieces,
        "boards": boards,
        "frames": [asdict(frame) for frame in done.frames],
        "entries": [entry_text(entry) for entry in moves],
        "chance": [isinstance(entry, dict) for entry in moves],
        "failure": done.failure,
        "seats": [str(s) for s in done.record["seats"]],
    }


def render_page(done: Replayed) -> str:
    """The whole page as a string."""
    title, facts = _heading(done)
    parts = {
        "TITLE": escape(title),
        "FACTS": escape(facts),
        "FAILURE": _failure_html(done),
        "STYLE": STYLE,
        "SCRIPT": SCRIPT,
        "DATA": data_element(view_data(done)),
    }
    return re.sub(r"%%([A-Z]+)%%", lambda m: parts[m.group(1)], PAGE)
