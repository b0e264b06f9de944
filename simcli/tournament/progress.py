"""The run's progress on stderr: a tqdm bar on a terminal, plain lines elsewhere.

In a CI log or a file a bar's carriage returns pile up into one unreadable line, so
when stderr is not a terminal the progress is a plain line at every tenth of the run
(``progress: 300/3000 games (10%)``), at least one every :data:`EVERY` seconds while
games arrive (a run that stops early, as a gate or a balance rung does, may never reach
its next tenth), and one at the end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

STEPS = 10
EVERY = 30.0  # seconds between two lines at most, while games arrive


class PlainProgress:
    """The part of tqdm's interface the runner uses, writing whole lines."""

    def __init__(self, total: int, initial: int, stream: TextIO) -> None:
        self.total = total
        self.n = initial
        self.stream = stream
        self.status = ""
        self._tenth = self._tenths(initial)
        self._last = time.monotonic()

    def _tenths(self, n: int) -> int:
        return n * STEPS // self.total if self.total > 0 else 0

    def update(self, k: int = 1) -> None:
        self.n += k
        tenth = self._tenths(self.n)
        late = time.monotonic() - self._last > EVERY
        if (tenth > self._tenth or late) and self.n < self.total:
            self._line()
        self._tenth = tenth

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.status = text

    def close(self) -> None:
        self._line()

    def _line(self) -> None:
        share = f" ({100 * self.n // self.total}%)" if self.total else ""
        status = f", {self.status}" if self.status else ""
        self.stream.write(f"progress: {self.n}/{self.total} games{share}{status}\n")
        self.stream.flush()
        self._last = time.monotonic()


def progress_bar(total: int, start: int, quiet: bool, stream: TextIO | None = None):
    """A tqdm bar when ``stream`` (default stderr) is a terminal, else :class:`PlainProgress`;
    nothing shown with ``quiet``."""
    stream = sys.stderr if stream is None else stream
    if not quiet and not _is_terminal(stream):
        return PlainProgress(total, start, stream)
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=start,
        unit="game",
        disable=quiet,
        file=stream,
        mininterval=0.5,
        dynamic_ncols=True,
        smoothing=0.1,
    )


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
