"""The boards of a viewer page, stored small. Consecutive boards share most of their markup,
so each board is cut into pieces (an SVG element, or a line of a text picture), every
distinct piece is kept once, and a board is written as the list of its pieces' numbers,
given as a change of an earlier board: ``[ref, head, tail, middle]`` is board ``ref``'s
first ``head`` and last ``tail`` pieces around the pieces ``middle`` (``ref`` -1: the
board is ``middle`` alone). The page's script rebuilds the boards the same way
(:func:`unpack`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

_PIECES = re.compile(r"(?=<)|(?<=\n)")


def pieces(html: str) -> list[str]:
    """``html`` cut before every tag, and a text picture also after every line."""
    if html.startswith("<pre"):
        return [p for p in _PIECES.split(html) if p]
    head, *rest = html.split("<")
    return ([head] if head else []) + ["<" + p for p in rest]


def _change(ref_ids: list[int], ids: list[int]) -> tuple[int, int, list[int]]:
    """The longest common head and tail of two piece lists, and what lies between."""
    head = 0
    most = min(len(ref_ids), len(ids))
    while head < most and ref_ids[head] == ids[head]:
        head += 1
    tail = 0
    while tail < most - head and ref_ids[-1 - tail] == ids[-1 - tail]:
        tail += 1
    return head, tail, ids[head : len(ids) - tail]


def pack(boards: Sequence[str], refs: Sequence[int]) -> tuple[list[str], list[list]]:
    """``boards`` as (pieces, encoded boards); ``refs[i]`` is the earlier board that board
    ``i`` is written as a change of (-1: none)."""
    table: dict[str, int] = {}
    chunks: list[str] = []
    ids_of: list[list[int]] = []
    encoded: list[list] = []
    for html, ref in zip(boards, refs, strict=True):
        ids = []
        for piece in pieces(html):
            number = table.get(piece)
            if number is None:
                number = table[piece] = len(chunks)
                chunks.append(piece)
            ids.append(number)
        ids_of.append(ids)
        if ref < 0:
            encoded.append([-1, 0, 0, ids])
        else:
            encoded.append([ref, *_change(ids_of[ref], ids)])
    return chunks, encoded


def unpack(chunks: Sequence[str], encoded: Sequence[Sequence]) -> list[str]:
    """The boards that :func:`pack` packed."""
    ids_of: list[list[int]] = []
    for ref, head, tail, middle in encoded:
        if ref < 0:
            ids = list(middle)
        else:
            base = ids_of[ref]
            ids = base[:head] + list(middle) + (base[len(base) - tail :] if tail else [])
        ids_of.append(ids)
    return ["".join(chunks[i] for i in ids) for ids in ids_of]


def references(frames_boards: Sequence[Sequence[int]], count: int) -> list[int]:
    """For each of ``count`` boards, the board to write it as a change of: the same
    observer's board at the ply before the one where it first appears, else the
    previous observer's board at that ply, else none (-1)."""
    refs = [-1] * count
    seen = [False] * count
    for ply, boards in enumerate(frames_boards):
        for observer, board in enumerate(boards):
            if seen[board]:
                continue
            seen[board] = True
            if ply > 0:
                refs[board] = frames_boards[ply - 1][observer]
            elif observer > 0:
                refs[board] = boards[observer - 1]
    return refs
