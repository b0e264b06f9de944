"""Logging of a run: the parent and every worker log into ``OUT/run.log``.

Worker processes are forked after :func:`open_run_log`, and multiprocessing-logging's
handler carries their records to the parent through a queue, so one file holds every
process's lines without interleaving partial writes.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

FORMAT = "%(asctime)s %(levelname)-7s %(processName)s %(name)s: %(message)s"


class FirstForfeits(logging.StreamHandler):
    """With ``-v``: the first forfeit of each kind (strategy, forfeit kind and, for an
    exception, its type) on the screen, with its traceback; the rest are in ``run.log``.
    It filters in ``emit``, which runs in the parent process also for the lines of
    worker processes, so "first" holds across workers."""

    def __init__(self, stream: Any = None) -> None:
        super().__init__(stream if stream is not None else sys.stderr)
        self.seen: set[tuple[str, ...]] = set()

    def emit(self, record: logging.LogRecord) -> None:
        forfeit = getattr(record, "forfeit", None)
        if not forfeit:
            return
        strategy, kind, message = forfeit
        key = (strategy, kind, message.split(":")[0] if kind == "exception" else "")
        if key in self.seen:
            return
        self.seen.add(key)
        super().emit(record)


class RunLog:
    def __init__(self, path: Path, verbose: bool, use_mp: bool):
        self.logger = logging.getLogger("simcli")
        self.logger.setLevel(logging.DEBUG if verbose else logging.INFO)
        self.logger.propagate = False
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter(FORMAT))
        self.logger.addHandler(handler)
        if verbose:
            screen = FirstForfeits()
            screen.setLevel(logging.WARNING)
            screen.setFormatter(
                logging.Formatter("%(message)s\n(further forfeits of this kind: run.log only)")
            )
            self.logger.addHandler(screen)
        self.use_mp = use_mp
        if use_mp:
            import multiprocessing_logging

            multiprocessing_logging.install_mp_handler(self.logger)

    def close(self) -> None:
        for handler in list(self.logger.handlers):
            self.logger.removeHandler(handler)
            handler.close()  # the mp handler drains its queue into the file first
            sub = getattr(handler, "sub_handler", None)
            if sub is not None:
                sub.close()


def open_run_log(path: Path, verbose: bool = False, use_mp: bool = True) -> RunLog:
    return RunLog(path, verbose, use_mp)
