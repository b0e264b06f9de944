"""Issue 36, class 7 (the alarm): the referee decides a timeout from its own clock too.

Inside a worker the move time limit is an alarm signal. An in-process strategy that
switched the alarm off (``signal.setitimer(ITIMER_REAL, 0)``) overran the limit without
forfeiting, though the referee timed every move anyway. Now a move that took longer than
the limit by the referee's clock is a ``timeout`` whatever happened to the alarm, and the
clock and timer functions the referee uses cannot be replaced by a strategy.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.tournament.clock import MoveTimeout, SignalClock

BOTS = Path(__file__).resolve().parent / "data" / "hardening_bots.py"


@pytest.mark.parametrize("workers", ["0", pytest.param("2", marks=pytest.mark.slow)])
@pytest.mark.parametrize(
    "cls",
    [
        "AlarmOff",  # the example: setitimer(ITIMER_REAL, 0)
        "AlarmIgnored",  # signal(SIGALRM, SIG_IGN)
        "ClockPatched",  # the alarm off through time.monotonic/signal.setitimer replaced
    ],
)
def test_a_strategy_that_keeps_the_alarm_away_still_times_out(tmp_path, cls, workers):
    config = tmp_path / "c.yaml"
    config.write_text(
        f"game: libraria\ngames: 2\nmove_time_limit: 0.3\nstrategies:\n"
        f"  - {{name: slow, use: '{BOTS}:{cls}'}}\n  - random\n"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", "--workers", workers]
    )
    assert result.exit_code == 0, result.output
    played = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(played) == 2
    for record in played:
        assert record["termination"] == "forfeit", record
        assert record["detail"]["kind"] == "timeout"
        assert record["detail"]["message"] == "move time limit exceeded"


def _off_then_wait(seconds: float) -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.sigtimedwait([signal.SIGUSR2], seconds)  # waits, no signal arrives


@pytest.fixture
def alarm_handler():
    saved = signal.getsignal(signal.SIGALRM)
    yield
    signal.signal(signal.SIGALRM, saved)
    signal.setitimer(signal.ITIMER_REAL, 0)


def test_the_signal_clock_reads_the_time_as_well(alarm_handler):
    clock = SignalClock(0.05)
    with clock.move() as watch:
        _off_then_wait(0.2)
    assert watch.fired
    with clock.move() as watch:
        pass
    assert not watch.fired


def test_a_blocked_alarm_is_a_timeout_by_the_clock(alarm_handler):
    clock = SignalClock(0.05)
    with pytest.raises(MoveTimeout):  # the alarm arrives when the strategy unblocks it
        with clock.move() as watch:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            try:
                signal.sigtimedwait([signal.SIGUSR2], 0.2)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
    assert watch.fired


def test_a_handler_a_strategy_put_in_place_is_replaced_before_the_next_move(alarm_handler):
    """After a strategy ignored SIGALRM, the next move (of any strategy in the worker)
    is interrupted by the alarm again, not only judged late when it returns."""
    import time

    clock = SignalClock(0.05)
    with clock.move():
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
    with pytest.raises(MoveTimeout):
        with clock.move():
            time.sleep(5)
