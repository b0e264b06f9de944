"""Logging of a run: the parent and every worker log into ``OUT/run.log``.

Worker processes are forked after :func:`open_run_log`, and multiprocessing-logging's
handler carries their records to the parent through a queue, so one file holds every
process's lines without interleaving partial writes.
"""

from __future__ import annotations

import logging
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)-7s %(processName)s %(name)s: %(message)s"


class RunLog:
    def __init__(self, path: Path, verbose: bool, use_mp: bool):
        self.logger = logging.getLogger("simcli")
        self.logger.setLevel(logging.DEBUG if verbose else logging.INFO)
        self.logger.propagate = False
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter(FORMAT))
        self.logger.addHandler(handler)
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
