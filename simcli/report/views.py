"""The viewer pages of the games ``report.html`` lists: ``view/game-N.html`` beside the
report, drawn by :mod:`simcli.viewer` (imported when needed) from the records the picker
kept, so the log is not read again."""

from __future__ import annotations

import logging
from pathlib import Path

from simcli.report.picks import PickList

log = logging.getLogger(__name__)

#: Where the viewer's page of game N is, relative to report.html.
VIEW_LINK = "view/game-{index}.html"


def write_views(lists: list[PickList], run_dir: Path | None, out: Path) -> None:
    """Write one viewer page per listed game (once per game) and set each pick's link;
    a game whose page cannot be written keeps a note instead of a link, so that a
    viewer failure never loses the report."""
    picks = [p for pl in lists for p in pl.picks]
    if not picks:
        return
    if run_dir is None:
        for p in picks:
            p.note = "no viewer page: the records are not read from a run folder"
        return
    try:
        from simcli.viewer import record_html, write_view
    except ImportError:
        for p in picks:
            p.note = "no viewer page: the viewer is not installed"
        return
    done: dict[int, str | None] = {}
    for p in picks:
        if p.index not in done:
            path = out / VIEW_LINK.format(index=p.index)
            try:
                if p.record is None:  # not kept while the records streamed: read it again
                    write_view(run_dir, p.index, path)
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(record_html(p.record), encoding="utf-8")
                done[p.index] = None
            except Exception as exc:  # noqa: BLE001 - one page must not lose the report
                done[p.index] = f"no viewer page: {exc}"
        note = done[p.index]
        if note is None:
            p.link = VIEW_LINK.format(index=p.index)
        else:
            p.note = note
    failed = [(i, note) for i, note in done.items() if note]
    if failed:
        log.warning(
            "%d of the %d games report.html lists have no viewer page (game %s: %s)",
            len(failed),
            len(done),
            failed[0][0],
            failed[0][1].removeprefix("no viewer page: "),
        )
