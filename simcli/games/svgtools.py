"""Small helpers that the games' SVG pictures share (``Game.render_svg``): escaped text,
shapes with classes and data attributes, seat colours. Pure string building, no I/O."""

from __future__ import annotations

from html import escape

#: A fill colour per seat (seats 0-3), then a fallback for more seats.
SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#d68910")
UNKNOWN_FILL = "#9e9e9e"
FONT = "font-family:sans-serif"


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat] if 0 <= seat < len(SEAT_COLOURS) else "#616161"


def attrs(**values: object) -> str:
    """``key="value"`` pairs, escaped; ``cls`` becomes ``class``, ``data_x`` becomes
    ``data-x``; ``None`` values are left out."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = "class" if key == "cls" else key.replace("_", "-")
        shown = str(value)
        if "&" in shown or "<" in shown or ">" in shown or '"' in shown or "'" in shown:
            shown = escape(shown, quote=True)
        parts.append(f'{name}="{shown}"')
    return " ".join(parts)


def rect(x: float, y: float, w: float, h: float, **extra: object) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" {attrs(**extra)}/>'


def circle(cx: float, cy: float, r: float, **extra: object) -> str:
    return f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" {attrs(**extra)}/>'


def line(x1: float, y1: float, x2: float, y2: float, **extra: object) -> str:
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" {attrs(**extra)}/>'


def text(x: float, y: float, content: object, size: float = 12, **extra: object) -> str:
    """Text centred on ``x`` (``text_anchor`` overrides), baseline at ``y``."""
    extra.setdefault("text_anchor", "middle")
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" {attrs(**extra)}>'
        f"{escape(str(content))}</text>"
    )


def group(body: list[str] | str, **extra: object) -> str:
    inner = body if isinstance(body, str) else "".join(body)
    head = attrs(**extra)
    return f"<g {head}>{inner}</g>" if head else f"<g>{inner}</g>"


def document(width: float, height: float, body: list[str], game: str) -> str:
    """A complete ``<svg>`` element of ``width`` x ``height`` user units."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}" class="board" data-game="{escape(game)}" '
        f'style="{FONT}">' + "".join(body) + "</svg>"
    )
