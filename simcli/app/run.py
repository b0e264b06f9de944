"""``simcli.run``: play a tournament into a run folder and report it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from simcli.app.plan import plan
from simcli.config import Config
from simcli.configfile import load_config
from simcli.errors import SimcliError
from simcli.report.api import Report, report_run_folder
from simcli.tournament import schedule as schedules
from simcli.tournament.output import check_output
from simcli.tournament.runner import RunResult, run_tournament
from simcli.tournament.think import think_of

Notify = Callable[[str], Any]

#: Exit codes of a run: done, a failure the user must look at, interrupted.
DONE, FAILED, INTERRUPTED = 0, 1, 130


@dataclass
class RunOutcome:
    """What a run did: the runner's result, the report, the asserts' lines and the
    determinism check's lines (empty when not asked for)."""

    config: Config
    out: Path
    result: RunResult
    report: Report
    asserts_failed: bool = False
    assert_lines: list[str] = field(default_factory=list)
    determinism_failed: bool = False
    determinism_lines: list[str] = field(default_factory=list)

    @property
    def interrupted(self) -> bool:
        return self.result.status == "interrupted"

    @property
    def exit_code(self) -> int:
        """0 done; 1 a game ended in an error, an assert failed or a strategy did not
        reproduce its moves; 130 interrupted."""
        if self.interrupted:
            return INTERRUPTED
        if self.result.errors or self.asserts_failed or self.determinism_failed:
            return FAILED
        return DONE


def as_config(config: Config | str | PathLike[str], overrides: dict[str, Any] | None) -> Config:
    """``config`` itself, or the config file it names read with ``overrides``."""
    if isinstance(config, Config):
        if overrides and any(v is not None for v in overrides.values()):
            raise SimcliError("overrides apply to a config file, not to a Config object")
        return config
    return load_config(str(config), overrides or {})


def run(
    config: Config | str | PathLike[str],
    *,
    out: str | PathLike[str] | None = None,
    workers: int | None = None,
    seed: int | None = None,
    games: int | None = None,
    force: bool = False,
    resume: bool = False,
    truncate: bool = False,
    quiet: bool = True,
    verbose: bool = False,
    plots: bool = True,
    junit: str | None = None,
    check_determinism: int | None = None,
    probe_games: int = 0,
    notify: Notify | None = None,
    overrides: dict[str, Any] | None = None,
) -> RunOutcome:
    """Play the tournament of ``config`` (a :class:`Config` or a YAML file) into ``out``
    (default: the config's ``output``) and write its report.

    ``resume`` plays only the games missing from ``out``; ``force`` replaces a run there.
    ``notify`` (optional) receives what a user would read before the games start: what
    is played where, the smallest seat effect the run can detect and, with
    ``probe_games``, the estimated run time. ``check_determinism``: play that many
    games again with fresh strategy instances. User errors raise
    :class:`~simcli.errors.SimcliError`."""
    if resume and force:
        raise SimcliError("--resume continues a run, --force replaces it: choose one")
    if truncate and not resume:
        raise SimcliError("--truncate-at-bad-line goes with --resume")
    given = {"workers": workers, "seed": seed, "games": games, **(overrides or {})}
    config = as_config(config, given)
    target = Path(out) if out else Path(config.output)
    if not resume:
        check_output(target, force)  # before any header, probe or game
    schedule = schedules.schedule_for(config)
    if notify is not None:
        where = (
            f"{config.workers} workers"
            if config.executor == "local"
            else f"dask at {config.scheduler}"
        )
        notify(
            f"{config.name}: {schedule.total} games of {config.game} ({config.format}, "
            f"{len(config.strategies)} strategies, {where}) -> {target}"
        )
        if not resume:
            plan(config, schedule, probe_games, notify)
    result = play_into(
        config,
        target,
        force=force,
        resume=resume,
        quiet=quiet,
        verbose=verbose,
        schedule=schedule,
        truncate=truncate,
    )
    report = report_run_folder(target, plots=plots, think_time=think_of(target))
    outcome = RunOutcome(config, target, result, report)
    outcome.asserts_failed = assertions(config, report.summary, junit, outcome.assert_lines)
    if check_determinism and not outcome.interrupted:
        from simcli.tournament.determinism import check_determinism as replay_some
        from simcli.tournament.determinism import describe

        compared, found = replay_some(config, schedule, target, check_determinism)
        outcome.determinism_lines = describe(compared, found)
        outcome.determinism_failed = bool(found)
    return outcome


def play_into(config: Config, target: Path, **kwargs: Any) -> RunResult:
    """:func:`run_tournament` into ``target``, a file-system failure (a folder that
    cannot be written) turned into a one-line :class:`SimcliError`."""
    try:
        return run_tournament(config, target, **kwargs)
    except OSError as exc:
        raise SimcliError(f"{target}: {exc.strerror or exc}") from None


def assertions(config: Config, summary: Any, junit: str | None, lines: list[str]) -> bool:
    """Judge the config's asserts on ``summary`` (their lines into ``lines``, JUnit to
    ``junit``); True when one failed."""
    if not config.asserts:
        if junit:
            from simcli.gating.junit import write_junit

            write_junit(Path(junit), "asserts", [])
            lines.append(f"the config has no asserts: {junit} holds no test case")
        return False
    from simcli.gating.asserts import report_assertions

    return report_assertions(list(config.asserts), summary, junit, lines.append)
