"""``simcli gate CONFIG``: a sequential test of a candidate strategy against a baseline."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from simcli.cli.options import config_overrides, repeat_command, verbosity

PASSED, REGRESSION, UNDECIDED = 0, 1, 3


@click.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@config_overrides
@click.option("--force", is_flag=True, help="Replace the run in a non-empty output folder.")
@click.option(
    "--resume",
    is_flag=True,
    help="Continue an interrupted gate in the output folder: the games kept are counted "
    "again and the test goes on from there.",
)
@click.option(
    "--junit",
    "junit_path",
    type=click.Path(dir_okay=False),
    help="Write the verdict as JUnit XML to this file.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse to start when max_games cannot reach a decision (see gate sizing).",
)
@verbosity
def gate(
    config_path,
    out,
    workers,
    seed,
    games,
    isolation,
    force,
    resume,
    junit_path,
    strict,
    quiet,
    verbose,
) -> None:
    """Play CANDIDATE against BASELINE (the config's `gate:` section) until the SPRT
    decides.

    Two-player games are played in seat-swapped pairs on shared seeds and counted as
    pentanomial pair outcomes; other games compare the two strategies seed by seed in the
    same seat against the same field. The test is evaluated on the games in schedule
    order, so the games played and the verdict depend on the config and seed alone (not
    on --workers). Exit codes: 0 passed (H1 accepted), 1 regression (H0 accepted), 3 no
    decision within max_games, 2 bad input, 130 interrupted (continue with --resume).
    """
    from simcli.configfile import load_config
    from simcli.errors import ConfigError, SimcliError
    from simcli.gating.observer import GateObserver
    from simcli.tournament.runner import run_tournament
    from simcli.tournament.schedule import schedule_for

    if games is not None:
        raise SimcliError(
            "--games does not apply to a gate: it plays pairs until the SPRT decides, "
            "at most gate.max_games (set that in the config)"
        )
    if resume and force:
        raise SimcliError("--resume continues a gate, --force replaces it: choose one")
    config = load_config(
        config_path,
        {"seed": seed, "workers": workers, "isolation": isolation},
    )
    if config.gate is None:
        raise ConfigError(
            f"{config_path}: no 'gate:' section (candidate, baseline, elo0, "
            f"elo1, ...); see docs/gating.md"
        )
    config = dataclasses.replace(config, gating=True)
    target = Path(out) if out else gate_folder(config.output)
    if resume:
        check_same_test(target, config.gate)
    schedule = schedule_for(config)
    spec = config.gate
    if not quiet:
        click.echo(
            f"gate {spec.candidate} vs {spec.baseline} on {config.game}: SPRT elo0 "
            f"{spec.elo0:g}, elo1 {spec.elo1:g}, alpha {spec.alpha:g}, beta {spec.beta:g}, "
            f"at most {spec.max_games} games -> {target}",
            err=True,
        )
    from simcli.gating.sizing import check_gate

    sizing = check_gate(
        config_path,
        spec,
        config.players,
        strict=strict,
        echo=(lambda *a, **k: None) if quiet else (lambda t, err=False: click.echo(t, err=True)),
    )
    if quiet and not sizing.ok:
        click.echo(
            f"warning: gate.max_games {spec.max_games} costs {100 * sizing.loss:.1f} points "
            f"of power; about {sizing.needed_games} games needed",
            err=True,
        )
    observer = GateObserver(spec, schedule, notify=lambda t: click.echo(t, err=True))
    observer.sizing = sizing
    # small ranges, so that few games are in flight when the test decides
    chunk = max(1, min(spec.batch, 2 * spec.batch // max(config.workers, 1)))
    try:
        result = run_tournament(
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
    except OSError as exc:
        raise SimcliError(f"{target}: {exc.strerror or exc}") from None
    interrupted = result.status == "interrupted"
    if result.resumed_from and not quiet:
        click.echo(f"resumed after {result.resumed_from} games already played", err=True)
    verdict, code, text = summarize(observer, result.tally.games, interrupted)
    click.echo(text)
    _save(target, observer, verdict)
    if junit_path:
        from simcli.gating.junit import Case, write_junit

        status = {PASSED: "pass", REGRESSION: "fail"}.get(code, "inconclusive")
        name = f"gate {spec.candidate} vs {spec.baseline}"
        write_junit(
            Path(junit_path), "gate", [Case(name, status, f"{verdict}\n{text}", result.seconds)]
        )
    if interrupted:
        head = ["simcli", "gate", config_path, "--resume", "--out", str(target)]
        again = repeat_command(click.get_current_context(), head, ("out", "force", "resume"))
        click.echo(f"to continue:\n  {again}", err=True)
    raise SystemExit(130 if interrupted else code)


for _param in gate.params:  # shared with `run`, refused here: keep it out of --help
    if _param.name == "games":
        _param.hidden = True


def check_same_test(target: Path, spec) -> None:
    """A resumed gate must run the test it started (``max_games`` may grow): other
    changes to the ``gate:`` section would move the point where it stopped."""
    from simcli.errors import SimcliError
    from simcli.run_info import read_run_info

    info = read_run_info(target) or {}
    stored = (info.get("config") or {}).get("gate")
    if not isinstance(stored, dict):
        return  # nothing to resume, or not a gate: the runner says so
    now = dataclasses.asdict(spec)
    changed = [k for k in now if k != "max_games" and stored.get(k) != now[k]]
    if changed:
        parts = "; ".join(f"{k}: {stored.get(k)} -> {now[k]}" for k in changed)
        raise SimcliError(
            f"{target}: the gate changed since it started ({parts}); resume with the same "
            f"gate: section (only max_games may change), or start again with --force"
        )


def gate_folder(output: str) -> Path:
    """The gate's default folder: the config's output with "-gate" added once (a config
    named ``x-gate`` writes to ``results/x-gate``, not ``results/x-gate-gate``)."""
    return Path(output if output.endswith("-gate") else output + "-gate")


def summarize(observer, games: int, interrupted: bool = False) -> tuple[str, int, str]:
    from simcli.gating.estimate import corrected_estimate
    from simcli.gating.sprt import elo_estimate

    spec, st = observer.spec, observer.state
    estimate = elo_estimate(observer.counts)
    corrected = corrected_estimate(observer.counts, spec.elo0, spec.elo1, spec.alpha, spec.beta)
    counts = ", ".join(
        f"{label} {n}" for label, n in zip(observer.labels, observer.counts, strict=True)
    )
    unit = "pairs" if len(observer.counts) == 5 else "seeds"
    if st.verdict in ("H1", "H0"):
        verdict = verdict_text(spec, st.verdict, two_player=len(observer.counts) == 5)
        code = PASSED if st.verdict == "H1" else REGRESSION
    elif interrupted:
        verdict, code = f"INTERRUPTED after {games} games, before a decision", 130
    else:
        verdict, code = f"NO DECISION within {spec.max_games} games", UNDECIDED
    lines = [
        f"games {games}, {unit} counted {observer.pairs}"
        + (
            f" ({observer.skipped_pairs} skipped: a game ended in error)"
            if observer.skipped_pairs
            else ""
        ),
        f"{unit}: {counts}",
        _corrected_line(corrected, two_player=len(observer.counts) == 5),
        _elo_line(estimate, two_player=len(observer.counts) == 5),
        f"LLR {st.llr:+.3f} (bounds {st.lower:+.3f}, {st.upper:+.3f}; elo0 {spec.elo0:g}, "
        f"elo1 {spec.elo1:g}, alpha {spec.alpha:g}, beta {spec.beta:g})",
        verdict,
    ]
    return verdict, code, "\n".join(lines)


def verdict_text(spec, verdict: str, *, two_player: bool = True) -> str:
    """The verdict relative to the bounds: an SPRT only says which of elo0 and elo1 the
    data favour, not that the candidate "regressed" or "is not weaker"."""
    scale = "Elo" if two_player else "per-seed logistic units (not head-to-head Elo)"
    who = f"{spec.candidate} - {spec.baseline}"
    e0, e1 = f"{spec.elo0:g}", f"{spec.elo1:g}"
    if verdict == "H1":
        return f"PASSED: H1 accepted: the data favour elo1 = {e1} over elo0 = {e0} ({who}, {scale})"
    return (
        f"FAILED: H0 accepted: {spec.candidate} is not shown to be at elo1 = {e1}; the data "
        f"favour elo0 = {e0} over elo1 = {e1} ({who}, {scale})"
    )


def _save(target: Path, observer, verdict: str) -> None:
    import dataclasses

    from simcli.gating.estimate import corrected_estimate
    from simcli.gating.sprt import elo_estimate
    from simcli.tournament.output import write_json_atomic

    spec = observer.spec
    estimate = elo_estimate(observer.counts)
    corrected = corrected_estimate(observer.counts, spec.elo0, spec.elo1, spec.alpha, spec.beta)
    sizing = {}
    for key, sz in (("sizing", observer.sizing), ("sizing_after_first_batch", observer.resized)):
        if sz is not None:
            sizing[key] = {
                "expected_games_at_elo0": sz.games_per_unit * sz.at_elo0.expected_units,
                "expected_games_at_elo1": sz.games_per_unit * sz.at_elo1.expected_units,
                "pass_rate_at_elo0": sz.at_elo0.passed,
                "pass_rate_at_elo1": sz.at_elo1.passed,
                "undecided_at_elo1": sz.at_elo1.undecided,
                "power_lost_to_max_games": sz.loss,
                "games_needed": sz.needed_games,
            }
    write_json_atomic(
        target / "gate.json",
        {
            "gate": dataclasses.asdict(observer.spec),
            "counts": dict(zip(observer.labels, observer.counts, strict=True)),
            "pairs": observer.pairs,
            "skipped_pairs": observer.skipped_pairs,
            "llr": observer.state.llr,
            "bounds": [observer.state.lower, observer.state.upper],
            "elo": {
                "estimate": _finite(estimate.elo),
                "low": _finite(estimate.low),
                "high": _finite(estimate.high),
                "los": estimate.los,
                "label": "uncorrected (ignores the stopping rule; biased after an early stop)",
            },
            "elo_corrected": corrected.to_dict(),
            "scale": "Elo" if len(observer.counts) == 5 else "per-seed logistic (not Elo)",
            **sizing,
            "verdict": verdict,
        },
    )


def _finite(x: float) -> float | None:
    import math

    return x if math.isfinite(x) else None


def _corrected_line(c, *, two_player: bool = True) -> str:
    name = "Elo" if two_player else "Per-seed logistic score"
    head = f"{name} corrected for the SPRT stop"
    if c.elo is None:
        return f"{head}: n/a ({c.note})"
    low = f"{c.low:+.1f}" if c.low is not None else "n/a"
    high = f"{c.high:+.1f}" if c.high is not None else "n/a"
    return f"{head}: {c.elo:+.1f} [{low}, {high}] (95%), LOS {c.los:.1%}"


def _elo_line(estimate, *, two_player: bool = True) -> str:
    import math

    name = "Uncorrected Elo" if two_player else "Uncorrected per-seed logistic score (not Elo)"
    if not math.isfinite(estimate.elo):
        side = "won" if estimate.elo > 0 else "lost"
        return (
            f"{name} {estimate.elo:+} (every counted {side}: no finite estimate), "
            f"LOS {estimate.los:.1%}"
        )
    return f"{name} {estimate.elo:+.1f} ± {estimate.margin:.1f} (95%), LOS {estimate.los:.1%}"
