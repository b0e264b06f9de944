"""``simcli.gate``: a sequential test of a candidate strategy against a baseline."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from simcli.app.run import as_config, play_into
from simcli.config import Config
from simcli.errors import ConfigError, SimcliError
from simcli.gating.observer import GateObserver
from simcli.gating.sizing import Sizing, check_gate
from simcli.gating.verdict import (
    PASSED,
    REGRESSION,
    check_same_test,
    gate_folder,
    save,
    summarize,
)
from simcli.tournament.output import check_output
from simcli.tournament.runner import RunResult
from simcli.tournament.schedule import schedule_for


@dataclass
class Verdict:
    """A gate's result: ``verdict`` (one line: PASSED, FAILED, NO DECISION or
    INTERRUPTED), ``exit_code`` (0 passed, 1 regression, 3 no decision, 130
    interrupted), ``text`` (the summary lines) and the observer's counts."""

    config: Config
    out: Path
    result: RunResult
    observer: GateObserver
    verdict: str
    exit_code: int
    text: str
    sizing: Sizing

    @property
    def passed(self) -> bool:
        return self.exit_code == PASSED

    @property
    def interrupted(self) -> bool:
        return self.result.status == "interrupted"

    @property
    def junit_status(self) -> str:
        return {PASSED: "pass", REGRESSION: "fail"}.get(self.exit_code, "inconclusive")


def gate(
    config: Config | str | PathLike[str],
    *,
    out: str | PathLike[str] | None = None,
    workers: int | None = None,
    seed: int | None = None,
    force: bool = False,
    resume: bool = False,
    strict: bool = False,
    quiet: bool = True,
    verbose: bool = False,
    junit: str | None = None,
    notify: Callable[[str], Any] | None = None,
    overrides: dict[str, Any] | None = None,
) -> Verdict:
    """Play the config's ``gate:`` candidate against its baseline until the SPRT decides
    (or ``max_games`` runs out), in ``out`` (default: the config's output + ``-gate``).
    ``notify`` receives the test's notes (and, unless ``quiet``, the sizing); ``strict``
    refuses a gate whose ``max_games`` cannot reach a decision."""
    if resume and force:
        raise SimcliError("--resume continues a gate, --force replaces it: choose one")
    config = as_config(config, {"workers": workers, "seed": seed, **(overrides or {})})
    if config.gate is None:
        raise ConfigError(
            f"{config.source or config.name}: no 'gate:' section (candidate, baseline, elo0, "
            f"elo1, ...); see docs/gating.md"
        )
    config = dataclasses.replace(config, gating=True)
    target = Path(out) if out else gate_folder(config.output)
    if resume:
        check_same_test(target, config.gate)
    else:
        check_output(target, force)  # before the header, the sizing and any game
    schedule = schedule_for(config)
    spec = config.gate
    say = notify or (lambda text: None)
    if not quiet:
        say(
            f"gate {spec.candidate} vs {spec.baseline} on {config.game}: SPRT elo0 "
            f"{spec.elo0:g}, elo1 {spec.elo1:g}, alpha {spec.alpha:g}, beta {spec.beta:g}, "
            f"at most {spec.max_games} games -> {target}"
        )
    sizing = check_gate(
        config.source or config.name,
        spec,
        config.players,
        strict=strict,
        echo=(lambda text, err=False: None) if quiet else (lambda text, err=False: say(text)),
    )
    observer = GateObserver(spec, schedule, notify=say)
    observer.sizing = sizing
    # small ranges, so that few games are in flight when the test decides
    chunk = max(1, min(spec.batch, 2 * spec.batch // max(config.workers, 1)))
    result = play_into(
        config,
        target,
        force=force,
        resume=resume,
        quiet=quiet,
        verbose=verbose,
        observer=observer,
        chunk_size=chunk,
        schedule=schedule,
    )
    interrupted = result.status == "interrupted"
    verdict, code, text = summarize(observer, result.tally.games, interrupted)
    save(target, observer, verdict)
    outcome = Verdict(config, target, result, observer, verdict, code, text, sizing)
    if junit:
        from simcli.gating.junit import Case, write_junit

        name = f"gate {spec.candidate} vs {spec.baseline}"
        write_junit(
            Path(junit),
            "gate",
            [Case(name, outcome.junit_status, f"{verdict}\n{text}", result.seconds)],
        )
    return outcome
