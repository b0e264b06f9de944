"""`simcli power` and what `validate` and `run` say before playing."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli


def _power(*args: str):
    return CliRunner().invoke(cli, ["power", *args])


def test_games_needed_and_effect_detected() -> None:
    # the figures of tests/stats/test_planning_power.py, worded
    out = _power("--players", "2", "--share", "0.52").output
    assert out.startswith("4904 games to detect seat 0 winning 52.0% of the decisive games")
    assert "+13.9 Elo" in out and "(80% power, alpha 0.05)" in out
    # 10 Elo = 51.44%: 9478 decisive games; at 10% draws 9478 / 0.9 = 10531.1 -> 10532
    out = _power("--players", "2", "--elo", "10", "--draw-rate", "0.1").output
    assert out.startswith("10532 games (9478 decisive, 10% draws) to detect")
    out = _power("--players", "3", "--share", "0.36").output
    assert out.startswith("3011 games to detect seat 0 winning 36.0%") and "(even: 33.3%)" in out
    out = _power("--players", "2", "--share", "0.52", "--between-variants").output
    assert out.startswith("9806 games per variant to detect a change from even")
    out = _power("--players", "2", "--games", "4904").output
    assert out.startswith("4904 games detect (80% power, alpha 0.05) seat 0 winning 52.0%")
    out = _power("--players", "2", "--games", "2").output
    assert "no seat effect at all (too few games)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give one of --share, --elo"),
        (["--share", "0.6", "--games", "10"], "got --share, --games"),
        (["--elo", "10"], "--elo applies to two players"),
        (["--share", "0.3"], "--share must be above the even share 1/3"),
        (["--games", "100", "--between-variants"], "not --games"),
    ],
)
def test_bad_input_is_refused_in_one_line(args, message) -> None:
    result = (
        _power("--players", "3", *args)
        if args != ["--elo", "10"]
        else _power("--players", "3", *args)
    )
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert _power("--players", "1", "--share", "0.5").exit_code == 2


CONFIG = """\
name: plan
game: libraria
strategies:
  - {name: greedy, use: greedy}
  - {name: random, use: random}
games: 100
variants:
  - {name: a}
  - {name: b}
seed: 1
workers: 1
"""


@pytest.mark.slow
def test_validate_and_run_state_power_and_time(tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(CONFIG)
    result = CliRunner().invoke(cli, ["validate", str(path), "--probe", "0"])
    assert result.exit_code == 0, result.output
    # 1 table x 100 games per variant: seat 0 at 63.8% (power --games 100)
    assert (
        "power: 100 games per variant detect (80% power, alpha 0.05) seat 0 winning 63.8% "
        "of the decisive games (even: 50.0%; +99 Elo between equal strategies)"
    ) in result.output
    assert "timing probe" not in result.output
    probed = CliRunner().invoke(cli, ["validate", str(path), "--probe", "2"])
    assert "timing probe: 2 game(s) at " in probed.output
    assert "estimated run time about " in probed.output and "for 200 games on 1 process" in (
        probed.output
    )
    run = CliRunner().invoke(
        cli, ["run", str(path), "--out", str(tmp_path / "o"), "--probe", "1", "--no-plots"]
    )
    assert run.exit_code == 0, run.output
    assert "power: 100 games per variant detect" in run.output
    assert "timing probe: 1 game(s)" in run.output
    # the probe writes nothing and changes nothing: the log is the one of a run without it
    plain = CliRunner().invoke(
        cli, ["run", str(path), "--out", str(tmp_path / "p"), "-q", "--no-plots"]
    )
    assert plain.exit_code == 0
    assert (tmp_path / "o" / "games.jsonl").read_bytes() == (
        tmp_path / "p" / "games.jsonl"
    ).read_bytes()
    bad = CliRunner().invoke(cli, ["validate", str(path), "--probe", "-1"])
    assert bad.exit_code == 2


def test_the_probe_cannot_harm_the_command(tmp_path) -> None:
    from pathlib import Path

    exits = Path(__file__).resolve().parent / "data" / "diagnostics.py"
    path = tmp_path / "c.yaml"
    path.write_text(
        CONFIG.replace("{name: greedy, use: greedy}", f"{{name: exits, use: '{exits}:Exits'}}")
    )
    result = CliRunner().invoke(cli, ["validate", str(path), "--probe", "2"])
    # the probe's child process ended: no estimate, but the command goes on
    assert result.exit_code == 0, result.output
    assert "power: 100 games per variant" in result.output
    assert "timing probe" not in result.output


@pytest.mark.slow
def test_a_killed_command_leaves_no_probe_behind(tmp_path) -> None:
    """The timing probe plays in a forked child; killing the command (SIGKILL, which it
    cannot catch) while the probe is in a move that lasts a minute ends the probe too,
    within moments: a probe left running would go on holding a run folder's lock."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from chaos import _alive, _children

    stalls = Path(__file__).resolve().parent / "data" / "diagnostics.py"
    path = tmp_path / "c.yaml"
    path.write_text(
        CONFIG.replace("{name: greedy, use: greedy}", f"{{name: stalls, use: '{stalls}:Stalls'}}")
    )
    command = subprocess.Popen(
        [sys.executable, "-m", "simcli", "validate", str(path), "--probe", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def children() -> list[int]:
        return _children(command.pid)

    try:
        deadline = time.monotonic() + 30
        while not children() and time.monotonic() < deadline:
            time.sleep(0.05)
        probes = children()
        assert probes, "the command started no probe"
        time.sleep(0.5)  # the probe is in its minute-long move
        os.kill(command.pid, signal.SIGKILL)
        command.wait()
        deadline = time.monotonic() + 5
        while any(_alive(p) for p in probes) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(p) for p in probes)
    finally:
        if command.poll() is None:
            command.kill()
        for pid in probes if "probes" in locals() else []:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
