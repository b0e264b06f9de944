"""``simcli.balance``: seat balance up a ladder of skill, and the fair compensation.

The balance plays its segments (``simcli.balancing.plan``) one after the other, each an
ordinary run in ``OUT/parts/NN-label/``; a finished segment's games are appended to
``OUT/games.jsonl`` (numbered on from the games before it) and the part's own log is
removed. ``run.json`` records how far ``games.jsonl`` is complete, so ``--resume``
truncates a half-written append and goes on with the segment that was playing."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any

from simcli.app.run import as_config, play_into
from simcli.balancing.plan import SKILL, Planner, Played, Segment, stop_reason
from simcli.balancing.report import write_balance_report
from simcli.balancing.stopping import PrecisionStop
from simcli.balancing.summary import build_balance
from simcli.config import Config
from simcli.errors import ConfigError, SimcliError
from simcli.records import dumps
from simcli.report.api import Report, report_run_folder
from simcli.run_info import RUN_INFO, read_run_info
from simcli.tournament.gamelog import read_records
from simcli.tournament.lock import RunLock
from simcli.tournament.output import check_output, prepare_output, write_json_atomic
from simcli.tournament.runner import versions

LOG, PARTS = "games.jsonl", "parts"


@dataclass
class BalanceOutcome:
    """What a balance did: ``balance`` (the contents of balance.json), the standard
    report of its games, the balance report's text, and the seconds each segment took."""

    config: Config
    out: Path
    status: str
    balance: dict[str, Any] | None = None
    report: Report | None = None
    text: str = ""
    seconds: list[tuple[str, int, float]] = field(default_factory=list)

    @property
    def interrupted(self) -> bool:
        return self.status == "interrupted"

    @property
    def errors(self) -> int:
        """Games that ended in an error of the rules (their tracebacks: parts/*/run.log)."""
        return (self.balance or {}).get("errors", 0)

    @property
    def exit_code(self) -> int:
        """0 done; 1 a game ended in an error of the rules; 130 interrupted."""
        if self.interrupted:
            return 130
        return 1 if self.errors else 0


def balance(
    config: Config | str | PathLike[str],
    *,
    out: str | PathLike[str] | None = None,
    workers: int | None = None,
    seed: int | None = None,
    force: bool = False,
    resume: bool = False,
    quiet: bool = True,
    verbose: bool = False,
    plots: bool = True,
    notify: Callable[[str], Any] | None = None,
    overrides: dict[str, Any] | None = None,
) -> BalanceOutcome:
    """Play the config's ``balance:`` (see docs/balance.md) into ``out`` (default: the
    config's output) and write ``balance.json``, its report and the standard report.
    ``notify`` receives a line as each segment starts and ends."""
    if resume and force:
        raise SimcliError("--resume continues a balance, --force replaces it: choose one")
    config = as_config(config, {"workers": workers, "seed": seed, **(overrides or {})})
    if config.balance is None:
        raise ConfigError(
            f"{config.source or config.name}: no 'balance:' section (ladder, precision, "
            f"max_games, ...); see docs/balance.md"
        )
    target = Path(out) if out else Path(config.output)
    if not resume:
        check_output(target, force)  # before any segment
    say = notify or (lambda text: None)
    with RunLock(target):
        return _locked(config, target, force, resume, quiet, verbose, plots, say)


def _stored_config(config: Config) -> dict[str, Any]:
    """run.json's config: a balance's games are decided as it runs, so there is no
    ``games`` (and readers do not check the log against a fixed schedule)."""
    data = config.to_dict()
    data.pop("games", None)
    return data


def _locked(config, target, force, resume, quiet, verbose, plots, say) -> BalanceOutcome:
    log = target / LOG
    if resume:
        info = _check_resume(config, target)
        progress = info["balance"]["segments"]
        _truncate(log, progress[-1]["end"] if progress else 0)
    else:
        check_output(target, force)
        prepare_output(target, force)
        if force and (target / PARTS).exists():
            shutil.rmtree(target / PARTS)
        if force and (target / "balance.json").exists():
            (target / "balance.json").unlink()
        log.touch()
        info = {
            "status": "running",
            "config": _stored_config(config),
            "source": config.source,
            "versions": versions(),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "balance": {"segments": []},
        }
        progress = info["balance"]["segments"]  # appended to as segments finish
    info["status"] = "running"
    write_json_atomic(target / RUN_INFO, info)
    planner = Planner(config)
    played = _played_so_far(config, log, progress)
    outcome = BalanceOutcome(config, target, "running")
    spec = config.balance
    if not progress:
        say(
            f"{config.name}: balance of {config.game} ({config.players} players), rungs "
            f"{', '.join(spec.ladder)}; each stops at ±{spec.precision:.1%} or "
            f"{spec.max_games} games"
            + (f" or {spec.max_seconds:g} s" if spec.max_seconds else "")
            + f" -> {target}"
        )
    try:
        _segments(config, planner, played, progress, info, target, quiet, verbose, say)
    except KeyboardInterrupt:  # Ctrl-C between two segments' runs, or in a runner's
        # start: the log is whole up to the last segment recorded in run.json
        info["status"] = "interrupted"
        write_json_atomic(target / RUN_INFO, info)
        outcome.status = "interrupted"
        return outcome
    if info["status"] == "interrupted":
        outcome.status = "interrupted"
        return outcome
    outcome.seconds = [(p["label"], p["games"], p["seconds"]) for p in progress]
    info.update(status="complete", finished=datetime.now(UTC).isoformat(timespec="seconds"))
    write_json_atomic(target / RUN_INFO, info)
    outcome.status = "complete"
    outcome.balance = build_balance(config, read_records(log))
    # the one figure not in the games: how long each segment took, on this machine
    outcome.balance["seconds"] = {p["label"]: p["seconds"] for p in progress}
    write_json_atomic(target / "balance.json", outcome.balance)
    outcome.text = write_balance_report(outcome.balance, target, plots=plots)
    outcome.report = report_run_folder(target, plots=plots)
    return outcome


def _segments(config, planner, played, progress, info, target, quiet, verbose, say) -> None:
    """Play the segments still to play, appending each one's games to the log and
    recording it in run.json; an interrupted segment leaves ``info`` interrupted."""
    log = target / LOG
    spec = config.balance
    while (segment := planner.segments(played)) is not None:
        number = len(played) + 1
        folder = target / PARTS / segment.folder_name(number)
        status, seconds = _play(config, segment, folder, number, quiet, verbose, say)
        if status != "complete":
            info["status"] = "interrupted"
            write_json_atomic(target / RUN_INFO, info)
            return
        winners = _append(folder / LOG, log, sum(p["games"] for p in progress))
        games = len(winners)
        stop = stop_reason(segment, winners, config.players, spec)
        progress.append(
            {
                "label": segment.label,
                "folder": str(folder.relative_to(target)),
                "games": games,
                "end": log.stat().st_size,
                "stopped_by": stop,
                "seconds": round(seconds, 3),
            }
        )
        write_json_atomic(target / RUN_INFO, info)
        (folder / LOG).unlink()
        played.append(Played(segment, winners, stop))
        say(_segment_line(segment, played[-1], config.players, seconds))


def _play(config, segment: Segment, folder: Path, number: int, quiet, verbose, say):
    """Play (or resume) one segment into ``folder``; its status and seconds."""
    run_config = segment.config(config, f"{config.name}-{number:02d}", str(folder))
    observer = None
    if segment.stops:
        spec = config.balance
        observer = PrecisionStop(
            segment.label, config.players, spec.precision, spec.min_games, spec.max_seconds
        )
    info = read_run_info(folder) if (folder / RUN_INFO).exists() else None
    if info is not None and info.get("status") == "complete":
        return "complete", float(info.get("timings", {}).get("seconds") or 0.0)
    if not quiet:
        say(f"{segment.label}: up to {segment.games} games")
    result = play_into(
        run_config,
        folder,
        resume=info is not None,
        quiet=quiet,
        verbose=verbose,
        observer=observer,
        chunk_size=None if observer is None else max(1, min(50, segment.games // 20)),
    )
    return result.status, result.seconds


def _append(part: Path, log: Path, offset: int) -> list[list[int]]:
    """Append the part's records to ``log``, numbered on from ``offset``; their winners."""
    winners = []
    with log.open("a", encoding="utf-8") as sink:
        for record in read_records(part):
            record["index"] = offset + len(winners)
            sink.write(dumps(record) + "\n")
            winners.append(list(record["winners"]))
        sink.flush()
    return winners


def _truncate(log: Path, end: int) -> None:
    if log.exists() and log.stat().st_size > end:
        with log.open("r+b") as handle:
            handle.truncate(end)


def _played_so_far(config: Config, log: Path, progress: list[dict]) -> list[Played]:
    """The finished segments, from the log and the planner (who must agree)."""
    planner = Planner(config)
    played: list[Played] = []
    records = iter(read_records(log)) if progress else iter(())
    for step in progress:
        segment = planner.segments(played)
        if segment is None or segment.label != step["label"]:
            raise SimcliError(
                f"{log.parent}: segment {len(played) + 1} was {step['label']!r} but the "
                f"config now plans {segment.label if segment else 'nothing'!r}; resume with "
                f"the same config, or start again with --force"
            )
        winners = [list(next(records)["winners"]) for _ in range(step["games"])]
        played.append(Played(segment, winners, step["stopped_by"]))
    return played


def _check_resume(config: Config, target: Path) -> dict[str, Any]:
    info = read_run_info(target)
    if info is None or "balance" not in info:
        raise SimcliError(
            f"{target}: nothing to resume (no balance run.json); run without --resume"
        )
    stored = info.get("config") or {}
    now = _stored_config(config)
    keys = ("game", "options", "players", "strategies", "seed", "balance")
    changed = [k for k in keys if json.dumps(stored.get(k)) != json.dumps(now.get(k))]
    if changed:
        raise SimcliError(
            f"{target}: the config changed since this balance started ({', '.join(changed)}); "
            f"resume with the same config, or start again with --force"
        )
    return info


def _segment_line(segment: Segment, played: Played, players: int, seconds: float) -> str:
    head = f"{segment.label}: {len(played.winners)} games in {seconds:.1f} s"
    if segment.kind == SKILL:  # seat-swapped pairs: the upper rung sits first in even games
        upper, lower = segment.strategies
        decisive = [(i, w[0]) for i, w in enumerate(played.winners) if len(w) == 1]
        won = sum(1 for i, seat in decisive if seat == i % 2)
        share = f"{won / len(decisive):.1%}" if decisive else "-"
        return f"{head}; {upper} wins {share} of the decisive games against {lower}"
    counts = played.counts(players)
    n = counts.decisive
    shares = ", ".join(
        f"seat {s} {k / n:.1%}" if n else f"seat {s} -" for s, k in enumerate(counts.wins)
    )
    return f"{head} (stopped by {played.stop}); decisive games: {shares}"
