"""The board viewer: one self-contained HTML page per logged game that draws the board at
every ply (``simcli view RUN --game N``). See docs/viewer.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcli.errors import RecordError, SimcliError


class ViewOutputError(SimcliError):
    """The viewer page cannot be written where asked."""


def find_record(run_dir: Path, index: int | None = None) -> dict[str, Any]:
    """The record of game ``index`` (the record's own index, as ``simcli replay --game``)
    in the log of ``run_dir`` (a run folder or a games.jsonl file); the first game when
    ``index`` is None. :class:`RecordError` when there is no such game."""
    from simcli.tournament.gamelog import BadLine, read_log

    first = last = None
    bad = []
    for _, item in read_log(run_dir):
        if isinstance(item, BadLine):
            bad.append(item.message)
            continue
        if index is None or item["index"] == index:
            return item
        first = item["index"] if first is None else first
        last = item["index"]
    held = f"it holds games {first} to {last}" if first is not None else "it holds no game"
    if bad:
        held += f"; {len(bad)} line(s) could not be read ({bad[0]})"
    raise RecordError(f"{run_dir}: no game with index {index} ({held})")


def view_html(run_dir: Path, index: int | None = None) -> str:
    """The viewer page of game ``index`` of ``run_dir`` (first game when None) as HTML."""
    return record_html(find_record(Path(run_dir), index))


def record_html(record: dict[str, Any]) -> str:
    """The viewer page of one record."""
    from simcli.viewer.frames import replay_for_view
    from simcli.viewer.page import render_page

    return render_page(replay_for_view(record))


def default_path(run_dir: Path, index: int) -> Path:
    """Where the page of game ``index`` goes: ``RUN/view/game-{index}.html`` (beside the
    log when ``run_dir`` is the log file)."""
    run_dir = Path(run_dir)
    folder = run_dir if run_dir.is_dir() else run_dir.parent
    return folder / "view" / f"game-{index}.html"


def write_view(run_dir: Path, index: int | None, out: Path | None = None) -> Path:
    """Write the viewer page of game ``index`` of ``run_dir`` (a run folder or its
    games.jsonl; None: its first game) to ``out`` (default ``RUN/view/game-{index}.html``);
    return the path."""
    record = find_record(Path(run_dir), index)
    return _write(record_html(record), out or default_path(run_dir, record["index"]))


def _write(html: str, out: Path) -> Path:
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
    except OSError as exc:
        why = exc.strerror or exc
        raise ViewOutputError(f"{out}: cannot write the viewer page ({why})") from None
    return out


__all__ = [
    "ViewOutputError",
    "default_path",
    "find_record",
    "record_html",
    "view_html",
    "write_view",
]
