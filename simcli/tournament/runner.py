"""Run a tournament: schedule -> executor -> ``games.jsonl`` + ``run.json`` + ``run.log``.

The parent only streams: it writes played games in schedule order (holding back the few
that finish early), updates the progress bar and a running tally, and never holds the
records of the run. Because the log is always written in index order, an interrupted run
leaves a prefix of the schedule, and ``--resume`` continues right after it: the resumed
log is byte for byte the log of an uninterrupted run.

Ctrl-C or SIGTERM stop dispatching and let the games in flight finish (a second one stops
at once); ``run.json`` then says ``interrupted`` and the resume command is printed.
"""

from __future__ import annotations

import json
import logging
import platform
import signal
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simcli.config import Config
from simcli.errors import RecordError, SimcliError
from simcli.records import Record
from simcli.run_info import RUN_INFO, read_run_info
from simcli.tournament.clock import StopNow, stop_now
from simcli.tournament.executor import (
    Executor,
    chunk_ranges,
    default_chunk_size,
    make_executor,
    pool_size,
)
from simcli.tournament.gamelog import BadLine, GameLog
from simcli.tournament.identity import RunIdentity
from simcli.tournament.lock import RunLock
from simcli.tournament.output import check_output, prepare_output, write_json_atomic
from simcli.tournament.rules import game_source_for
from simcli.tournament.schedule import PairedSchedule, Schedule, schedule_for
from simcli.tournament.tally import Tally
from simcli.tournament.think import ThinkTimes, read_timing, write_timing
from simcli.tournament.worker import Chunk, check_strategy_processes, outcome_of
from simcli.version import __version__

log = logging.getLogger("simcli.runner")


class ResumeError(SimcliError):
    """A run folder that cannot be resumed with this config."""


@dataclass
class RunResult:
    out: Path
    tally: Tally
    seconds: float
    total: int
    status: str = "complete"
    resumed_from: int = 0
    affected: list[tuple[int, str]] = field(default_factory=list)
    #: Games made void because their records as played did not replay: (index, why).
    #: They are ``error`` games, so they count in :attr:`errors` too.
    void: list[tuple[int, str]] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return self.tally.errors


def versions() -> dict[str, str]:
    from simcli.native import active_path  # "compiled" or "pure" engines (docs/running.md)

    return {"simcli": __version__, "python": platform.python_version(), "engines": active_path()}


class _Stopper:
    """SIGINT/SIGTERM: the first asks the executor to stop dispatching, the second
    aborts. Handlers are restored on exit."""

    def __init__(self) -> None:
        self.executor: Executor | None = None
        self.requested = 0
        self._saved: dict[int, Any] = {}

    def __enter__(self) -> _Stopper:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._saved[sig] = signal.signal(sig, self._handle)
        return self

    def _handle(self, signum, frame) -> None:
        self.requested += 1
        if self.requested == 1:
            print(
                "\nstopping: finishing the games in flight (press Ctrl-C again to stop now)",
                file=sys.stderr,
            )
            if self.executor is not None:
                self.executor.stop()
        else:
            raise stop_now()

    def __exit__(self, *exc) -> None:
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)


def run_tournament(
    config: Config,
    out: Path,
    *,
    force: bool = False,
    resume: bool = False,
    quiet: bool = False,
    verbose: bool = False,
    chunk_size: int | None = None,
    observer: Any = None,
    schedule: Schedule | PairedSchedule | None = None,
    truncate: bool = False,
) -> RunResult:
    """Play every game of ``config`` (or, with ``resume``, every game missing from
    ``out``) into ``out``. ``observer`` (optional) sees every game's outcome in schedule
    order through ``add(index, outcome)``; when its ``done`` becomes true no more games are
    dispatched, and its ``status()`` text is shown beside the progress bar. ``schedule``
    (default: built from ``config``) is handed to whatever plays the games. The run holds
    the folder's lock throughout: a second writer stops with exit code 2 (``lock.py``).
    ``truncate`` (with ``resume``): cut the log at its first bad line instead of stopping
    there."""
    with RunLock(out):
        return _run_locked(
            config, out, force, resume, quiet, verbose, chunk_size, observer, schedule, truncate
        )


def _run_locked(
    config: Config,
    out: Path,
    force: bool,
    resume: bool,
    quiet: bool,
    verbose: bool,
    chunk_size: int | None,
    observer: Any,
    schedule: Schedule | PairedSchedule | None,
    truncate: bool,
) -> RunResult:
    from simcli.logsetup import open_run_log

    schedule = schedule if schedule is not None else schedule_for(config)
    total = schedule.total
    workers = config.workers
    tally = Tally()
    void: list[tuple[int, str]] = []
    if resume:
        start, run_info = prepare_resume(config, schedule, out, tally, truncate, observer, void)
        decided = observer is not None and observer.done
        if start >= total or decided:  # nothing to play: leave the finished run as it is
            return RunResult(out=out, tally=tally, seconds=0.0, total=total, resumed_from=start)
    else:
        check_output(out, force)  # the one check, before anything starts or is written
    # Start strategy programs and connect to the cluster before anything is written: a
    # strategy that cannot start or an unreachable scheduler leaves no half-made folder.
    check_strategy_processes(config)
    workers = _pool_size(config, total - (start if resume else 0))
    executor = make_executor(config, schedule, workers)
    if not resume:
        start, run_info = 0, _start_output(config, out, force, total, executor)
    run_info["status"] = "running"
    # Worker processes are forked after the log opens (their lines go through it)
    run_log = open_run_log(
        out / "run.log", verbose=verbose, use_mp=workers > 0 and config.executor == "local"
    )
    # think times: the sidecar's (games played before a resume), then this run's
    think = (read_timing(out) if resume else None) or ThinkTimes()
    started = time.perf_counter()
    status = "failed"
    size = chunk_size or default_chunk_size(total - start, workers)
    try:
        try:
            executor.start()  # a local pool's workers start up while the run's start is written
            write_json_atomic(out / RUN_INFO, run_info)
            _log_start(config, total, start, workers)
            writer = _InOrder(tally, think, observer, start, void)
            status = _stream(executor, chunk_ranges(start, total, size), out, writer, total, quiet)
        finally:
            seconds = time.perf_counter() - started
            affected = list(executor.affected)
            _finish_info(
                run_info, config, status, seconds, tally, start, size, affected, workers, void
            )
            write_json_atomic(out / RUN_INFO, run_info)
            write_timing(out, think)
    finally:
        try:
            # The workers were told to exit when the last range came in (_stream): they
            # go down while the run's end is written, and are waited for here, before the
            # log and the folder's lock (which they hold with the run) are let go.
            executor.close()
        finally:
            # The last line just before closing: the log's queue reader then finds the
            # log closed as soon as it has written it, instead of waiting out its poll.
            log.info("run %s: %d games in %.2f s", status, tally.games, seconds)
            run_log.close()
    return RunResult(
        out=out,
        tally=tally,
        seconds=seconds,
        total=total,
        status=status,
        resumed_from=start,
        affected=affected,
        void=void,
    )


def _pool_size(config: Config, games: int) -> int:
    """The worker processes of a local pool for ``games`` games to play: the config's
    ``workers``, capped (with a one-line notice) at what the run can use."""
    if config.executor != "local":
        return config.workers
    workers, why = pool_size(config.workers, games)
    if workers < config.workers:
        notice = f"workers: {config.workers} is more than this run can use; using {workers} ({why})"
        print(notice, file=sys.stderr)
    return workers


def _start_output(
    config: Config, out: Path, force: bool, total: int, executor: Executor
) -> dict[str, Any]:
    """Make the run folder of a new run (closing ``executor`` if that fails) and return
    its first ``run.json`` contents."""
    try:
        prepare_output(out, force)
    except BaseException:
        executor.close()
        raise
    return {
        "status": "running",
        "config": config.to_dict(),
        "source": config.source,
        "games": total,
        "versions": versions(),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _log_start(config: Config, total: int, start: int, workers: int) -> None:
    log.info(
        "run '%s': %d games of %s, format %s, %d worker(s), seed %d%s",
        config.name,
        total - start,
        config.game,
        config.format,
        workers,
        config.seed,
        f", resuming at game {start}" if start else "",
    )


def _stream(
    executor: Executor,
    ranges: Any,
    out: Path,
    writer: _InOrder,
    total: int,
    quiet: bool,
) -> str:
    """Play ``ranges`` on ``executor`` and append the games to the log in schedule
    order. Returns the run's status: ``complete`` or ``interrupted``."""
    with _Stopper() as stopper, (out / "games.jsonl").open("a", encoding="utf-8") as sink:
        stopper.executor = executor
        progress = _progress(total, writer.next_index, quiet)
        try:
            for chunk in executor.run(ranges):
                if writer.take(chunk, sink, progress):  # the observer has just decided
                    executor.stop()
                sink.flush()
        except StopNow:
            log.warning("stopped at once by a second interrupt")
        finally:
            progress.close()
            executor.release()  # closed by the caller, once the run's end is written
        finished = writer.next_index >= total or (writer.decided and not stopper.requested)
        return "complete" if finished else "interrupted"


class _InOrder:
    """Writes played chunks to the log in schedule order, holding back the ones that
    finish early, and counts their games (terminations, think times, the observer)."""

    def __init__(
        self,
        tally: Tally,
        think: ThinkTimes,
        observer: Any,
        start: int,
        void: list[tuple[int, str]] | None = None,
    ) -> None:
        self.tally = tally
        self.think = think
        self.observer = observer
        self.next_index = start
        self.held: dict[int, Chunk] = {}
        self.void = void if void is not None else []

    @property
    def decided(self) -> bool:
        return self.observer is not None and self.observer.done

    def take(self, chunk: Chunk, sink: Any, progress: Any) -> bool:
        """Hold ``chunk`` and write every chunk that is next in order. True when this
        made the observer decide."""
        before = self.decided
        self.held[chunk.start] = chunk
        while self.next_index in self.held and not self.decided:
            ready = self.held.pop(self.next_index)
            kept = self._write(ready, sink)
            self.next_index = ready.start + kept
            progress.update(kept)
            if self.observer is not None:
                progress.set_postfix_str(self.observer.status(), refresh=False)
        return self.decided and not before

    def _write(self, ready: Chunk, sink: Any) -> int:
        """Write and count the chunk's games; with an observer only up to the game
        that lets it decide, the rest discarded (a gate's log, and so its verdict and
        its number of games, then depend on the schedule alone, not on how many games
        were in flight when the test decided). Returns how many games were kept."""
        if self.observer is None:
            sink.write(ready.lines)
            for offset, outcome in enumerate(ready.outcomes):
                self._count(ready.start + offset, outcome)
            return len(ready.outcomes)
        lines = ready.lines.split("\n")
        kept = 0
        for offset, outcome in enumerate(ready.outcomes):
            if self.observer.done:
                break
            sink.write(lines[offset] + "\n")
            self._count(ready.start + offset, outcome)
            self.observer.add(ready.start + offset, outcome)
            kept += 1
        return kept

    def _count(self, index: int, outcome: Any) -> None:
        self.tally.add(outcome.termination)
        self.think.add(outcome.seats, outcome.think)
        if outcome.void:
            self.void.append((index, outcome.void))


def _finish_info(
    run_info: dict[str, Any],
    config: Config,
    status: str,
    seconds: float,
    tally: Tally,
    start: int,
    size: int,
    affected: list[tuple[int, str]],
    workers: int,
    void: list[tuple[int, str]] = (),
) -> None:
    """Add the run's end, timings and results to ``run_info`` (``workers``: the worker
    processes the run used)."""
    played = tally.games
    run_info.update(
        status=status,
        finished=datetime.now(UTC).isoformat(timespec="seconds"),
        timings={
            "seconds": round(seconds, 3),
            "games_per_second": round((played - start) / seconds, 1) if seconds else None,
            "workers": workers,
            "executor": config.executor,
            "chunk_size": size,
        },
        results={
            "played": played,
            "terminations": dict(tally.terminations),
            "affected_games": [{"index": i, "what": w} for i, w in affected],
            "void_games": [{"index": i, "why": w} for i, w in void],
        },
    )
    if start:
        run_info.setdefault("resumed", []).append({"at": start})


def prepare_resume(
    config: Config,
    schedule: Schedule | PairedSchedule,
    out: Path,
    tally: Tally,
    truncate: bool = False,
    observer: Any = None,
    void: list[tuple[int, str]] | None = None,
) -> tuple[int, dict[str, Any]]:
    """Check that ``out`` holds an earlier run of this config; drop an unterminated last
    line (an interrupted write); tally the games already played (the void ones into
    ``void``). Returns the first missing index and the old run.json contents. Any other
    bad line (not a record, not this run's next game, or not replaying) stops the resume
    naming it, or with ``truncate`` the log is cut there."""
    log_path = out / "games.jsonl"
    try:
        info = read_run_info(out)
    except RecordError as exc:
        raise ResumeError(str(exc)) from None
    if info is None:
        raise ResumeError(f"{out}: nothing to resume (no run.json); run without --resume")
    if "config" not in info:
        raise ResumeError(f"{out / RUN_INFO}: not a simcli run.json (no config)")
    stored = info["config"]
    changed = config.differences(stored)
    if changed:
        parts = [
            f"{k}: {json.dumps(stored.get(k))} -> {json.dumps(config.to_dict()[k])}"
            for k in changed
        ]
        raise ResumeError(
            f"{out}: the config changed since this run started ({'; '.join(parts)}); "
            f"resume with the same config, or start a new run with --force"
        )
    total = schedule.total
    if not log_path.exists():  # killed after writing run.json, before its first game
        return 0, info
    good_bytes = 0
    index = 0
    sources: dict[str | None, dict[str, Any] | None] = {}
    identity = RunIdentity.of_config(config, schedule)
    for line in GameLog(log_path, identity).checked():
        if not line.terminated:
            break
        record = line.item
        why = _kept_problem(record, index, line.lineno)
        if why is not None:
            if not truncate:
                raise ResumeError(
                    f"{log_path}: {why}; a resumed log must be a clean prefix of the run: "
                    f"resume with --truncate-at-bad-line to cut the log there (games {index} "
                    f"on are played again), or start a new run with --force"
                )
            break
        _check_game_source(config, record, sources, log_path, index)
        tally.add(record["termination"])
        outcome = outcome_of(record)
        if observer is not None:
            observer.add(index, outcome)
        if outcome.void and void is not None:
            void.append((index, outcome.void))
        good_bytes = line.end
        index += 1
    size = log_path.stat().st_size
    if size > good_bytes:
        what = "as asked (--truncate-at-bad-line)" if truncate else "an incomplete last line"
        print(
            f"{log_path}: keeping games 0..{index - 1}; dropping line {index + 1} and after "
            f"({size - good_bytes} bytes: {what}); those games are played again",
            file=sys.stderr,
        )
        with log_path.open("r+b") as handle:
            handle.truncate(good_bytes)
    if index > total:
        raise ResumeError(f"{log_path}: holds {index} games, more than the {total} scheduled")
    return index, info


def _kept_problem(record: Record | BadLine, index: int, lineno: int) -> str | None:
    """Why a line cannot be kept as game ``index`` of a resumed log (``line N: ...``), or
    None. The reader already checked its shape and its identity against the schedule;
    here it must be the next game, and it must replay."""
    from simcli.verify import replay

    if isinstance(record, BadLine):
        return record.message
    if record["index"] != index:
        return f"line {lineno} is game {record['index']}, not game {index}"
    mismatches = replay(record)
    if mismatches:
        return f"line {lineno}: the record does not replay ({mismatches[0]})"
    return None


def _check_game_source(
    config: Config,
    record: dict[str, Any],
    sources: dict[str | None, dict[str, Any] | None],
    log_path: Path,
    index: int,
) -> None:
    """A plug-in game whose rules changed since the run started cannot be resumed: the
    log would mix games of two rule sets."""
    variant = record.get("variant")
    if variant not in sources:
        sources[variant] = game_source_for(config, variant)
    now = sources[variant]
    logged = record.get("game_source")
    then = logged.get("fingerprint") if isinstance(logged, dict) else None
    if then != (now or {}).get("fingerprint"):
        where = f"game '{record.get('game')}'" + (f" (variant '{variant}')" if variant else "")
        what = (
            f"its rules changed (fingerprint {then} -> {now['fingerprint']}, {now['use']})"
            if then and now
            else "it is now loaded from elsewhere"
        )
        raise ResumeError(
            f"{log_path}: line {index + 1}: {where}: {what} since this run started; "
            f"resume with the same rules, or start a new run with --force"
        )


def _progress(total: int, start: int, quiet: bool):
    from simcli.tournament.progress import progress_bar

    return progress_bar(total, start, quiet)
