"""Run a tournament: schedule -> executor -> ``games.jsonl`` + ``run.json`` + ``run.log``.

The parent only streams: it writes each chunk's lines in schedule order, updates the
progress bar and a running tally, and never holds the records of the run.
"""

from __future__ import annotations

import logging
import platform
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simcli import __version__
from simcli.config import Config
from simcli.tournament.executor import chunk_ranges, default_chunk_size, make_executor
from simcli.tournament.output import prepare_output, write_json_atomic
from simcli.tournament.tally import Tally

log = logging.getLogger("simcli.runner")


@dataclass
class RunResult:
    out: Path
    tally: Tally
    seconds: float
    total: int

    @property
    def errors(self) -> int:
        return self.tally.errors


def versions() -> dict[str, str]:
    return {"simcli": __version__, "python": platform.python_version()}


def run_tournament(
    config: Config,
    out: Path,
    *,
    force: bool = False,
    quiet: bool = False,
    verbose: bool = False,
    chunk_size: int | None = None,
) -> RunResult:
    """Play every game of ``config`` into ``out``. The folder must be new or empty
    (or ``force``); check it before calling to fail before anything is written."""
    from simcli.logsetup import open_run_log

    schedule = config.schedule()
    total = schedule.total
    workers = config.workers
    prepare_output(out, force)
    run_info: dict[str, Any] = {
        "status": "running",
        "config": config.to_dict(),
        "source": config.source,
        "games": total,
        "versions": versions(),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    write_json_atomic(out / "run.json", run_info)
    run_log = open_run_log(out / "run.log", verbose=verbose, use_mp=workers > 0)
    tally = Tally()
    started = time.perf_counter()
    status = "failed"
    try:
        log.info(
            "run '%s': %d games of %s, format %s, %d worker(s), seed %d",
            config.name,
            total,
            config.game,
            config.format,
            workers,
            config.seed,
        )
        size = chunk_size or default_chunk_size(total, workers)
        executor = make_executor(config, workers)
        try:
            with (out / "games.jsonl").open("w", encoding="utf-8") as sink:
                progress = _progress(total, quiet)
                try:
                    for chunk in executor.run(chunk_ranges(total, size)):
                        sink.write(chunk.lines)
                        for outcome in chunk.outcomes:
                            tally.add(*outcome)
                        progress.update(len(chunk.outcomes))
                    sink.flush()
                finally:
                    progress.close()
        finally:
            executor.close()
        status = "complete"
    finally:
        seconds = time.perf_counter() - started
        log.info("run %s: %d games in %.2f s", status, tally.games, seconds)
        run_info.update(
            status=status,
            finished=datetime.now(UTC).isoformat(timespec="seconds"),
            timings={
                "seconds": round(seconds, 3),
                "games_per_second": round(tally.games / seconds, 1) if seconds else None,
                "workers": workers,
                "chunk_size": size if "size" in locals() else None,
            },
            results={"played": tally.games, "terminations": dict(tally.terminations)},
        )
        write_json_atomic(out / "run.json", run_info)
        run_log.close()
    return RunResult(out=out, tally=tally, seconds=seconds, total=total)


def _progress(total: int, quiet: bool):
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit="game",
        disable=quiet,
        file=sys.stderr,
        mininterval=0.5,
        dynamic_ncols=True,
        smoothing=0.1,
    )
