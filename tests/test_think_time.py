"""Think time per strategy: measured by the referee, kept out of games.jsonl, written to
timing.json, shown as a table by `report` and `run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.report.api import produce_report
from simcli.report.document import UNTIMED
from simcli.tournament.think import (
    SeatClock,
    ThinkTimes,
    bin_of,
    bin_upper,
    read_timing,
    think_rows,
    unpack,
)

DIAGNOSTICS = Path(__file__).resolve().parent / "data" / "diagnostics.py"


def test_summaries_by_hand() -> None:
    # seat 0: 19 moves of 1 ms and one of 100 ms: mean (0.019 + 0.1) / 20 = 0.00595 s, max
    # 0.1 s; the 95th percentile is the 19th of 20 moves: 1 ms, read as the upper edge of
    # its bin (at most 12% above)
    a, b = SeatClock(), SeatClock()
    for _ in range(19):
        a.add(0.001)
    a.add(0.1)
    b.add(0.5)
    think = ThinkTimes()
    think.add(["x", "y"], (a.packed(), b.packed()))
    think.add(["y", "x"], ())  # a game without timing (lost with its worker) adds nothing
    x, y = think_rows(think)
    assert think.games == 1
    assert x["strategy"] == "x" and x["moves"] == 20
    assert x["mean"] == pytest.approx(0.00595) and x["max"] == 0.1
    assert 0.001 <= x["p95"] <= 0.001 * 10 ** (1 / 20)
    assert y["mean"] == y["p95"] == y["max"] == 0.5  # the quantile is capped at the maximum
    assert bin_upper(bin_of(0.001) - 1) <= 0.001 < bin_upper(bin_of(0.001))
    # the JSON form reads back to the same figures
    again = ThinkTimes.from_json(json.loads(json.dumps(think.to_json())))
    assert think_rows(again) == think_rows(think)


def _think_section(text: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index("Think time per move")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Timed by"))
    return lines[start : end + 1]


def test_the_report_shows_think_time_in_milliseconds(tmp_path) -> None:
    # the rows of test_summaries_by_hand: x 5.95 ms mean, p95 the upper edge of the 1 ms
    # bin (1.122 ms), max 100 ms; a strategy without timed moves shows n/a and the reason
    rows = [
        {"strategy": "x", "moves": 20, "mean": 0.00595, "p95": 0.001122, "max": 0.1},
        {"strategy": "z", "moves": 0, "mean": None, "p95": None, "max": None},
    ]
    report = produce_report([], tmp_path, plots=False, think_time=rows)
    assert [r.to_dict() for r in report.summary.think_time] == rows  # summary.json
    stored = json.loads((tmp_path / "summary.json").read_text())
    assert stored["think_time"] == rows
    section = _think_section(report.text)
    table = [line.split() for line in section if line.startswith(("x ", "z "))]
    assert table == [["x", "20", "5.950", "1.122", "100.000"], ["z", "0", "n/a", "n/a", "n/a"]]
    assert UNTIMED in " ".join(section)
    # without timing (a bare log) there is no section and no key
    bare = produce_report([], tmp_path / "b", plots=False)
    assert "Think time" not in bare.text and "think_time" not in bare.summary.to_dict()


CONFIG = f"""\
name: think
game: libraria
strategies:
  - {{name: sleepy, use: '{DIAGNOSTICS}:Sleepy'}}
  - {{name: random, use: random}}
games: 4
seed: 5
workers: 0
"""


def _moves_per_strategy(out: Path) -> dict[str, int]:
    """Count every non-chance move of the log by the strategy whose turn it was (by
    replaying the records: the seat to move before each entry)."""
    from simcli.verify import replay

    counts: dict[str, int] = {}
    for line in (out / "games.jsonl").read_text().splitlines():
        record = json.loads(line)
        assert not {"think", "timing"} & set(record)  # the records carry no timing

        def seen(ply, entry, state, seat, record=record):
            if ply and not isinstance(entry, dict):
                name = record["seats"][seat]
                counts[name] = counts.get(name, 0) + 1

        assert replay(record, seen) == []
    return counts


def test_a_run_writes_timing_json_and_prints_the_table(tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(CONFIG)
    out = tmp_path / "o"
    result = CliRunner().invoke(
        cli, ["run", str(path), "--out", str(out), "--no-plots", "--probe", "0"]
    )
    assert result.exit_code == 0, result.output
    think = read_timing(out)
    assert think is not None and think.games == 4
    rows = {r["strategy"]: r for r in think_rows(think)}
    # every move of the log is timed once, by the strategy that made it
    assert {k: r["moves"] for k, r in rows.items()} == _moves_per_strategy(out)
    # a sleep of 5 ms takes at least 5 ms: a lower bound, not a timed assertion
    assert rows["sleepy"]["mean"] >= 0.005 and rows["sleepy"]["p95"] >= 0.005
    assert rows["sleepy"]["max"] >= rows["sleepy"]["mean"]
    assert "Think time per move" in result.output and "sleepy" in result.output
    report = CliRunner().invoke(cli, ["report", str(out), "--no-plots"])
    assert report.exit_code == 0
    assert _think_section(report.output) == _think_section(result.output)
    stored = json.loads((out / "summary.json").read_text())["think_time"]
    assert stored == think_rows(think)
    # --force removes the sidecar with the rest of the run
    assert "timing.json" in __import__("simcli.tournament.output", fromlist=["x"]).RUN_FILES


@pytest.mark.slow
def test_strategy_processes_are_timed_and_the_log_does_not_change(tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(CONFIG)
    inproc, boxed = tmp_path / "a", tmp_path / "b"
    untimed = tmp_path / "c"
    isolated = ["--isolation", "process", "--workers", "2"]
    for out, extra in (
        (inproc, []),
        (boxed, [*isolated, "--move-time-limit", "20"]),  # one game at a time: timed
        (untimed, isolated),  # interleaved games on strategy processes: not timed
    ):
        result = CliRunner().invoke(
            cli, ["run", str(path), "--out", str(out), "-q", "--no-plots", *extra]
        )
        assert result.exit_code == 0, result.output
    assert (inproc / "games.jsonl").read_bytes() == (boxed / "games.jsonl").read_bytes()
    rows = {r["strategy"]: r for r in think_rows(read_timing(boxed))}
    assert rows["sleepy"]["moves"] == _moves_per_strategy(boxed)["sleepy"]
    assert rows["sleepy"]["mean"] >= 0.005
    assert (untimed / "games.jsonl").read_bytes() == (inproc / "games.jsonl").read_bytes()
    think = read_timing(untimed)
    assert {r["moves"] for r in think_rows(think)} == {0}
    report = CliRunner().invoke(cli, ["report", str(untimed), "--no-plots"])
    assert UNTIMED in " ".join(_think_section(report.output))


def _seat_clock_classes() -> list[type]:
    """The pure seat clock, and the compiled one where it is built from its source."""
    import importlib
    import os

    from simcli import native
    from simcli.tournament import think

    if think.KERNEL in native.select().current:
        return [think._SeatClock, importlib.import_module(think.KERNEL).SeatClock]
    if os.environ.get("SIMCLI_REQUIRE_COMPILED", "") not in ("", "0"):
        pytest.fail(f"{think.KERNEL} is not built from its current source")
    return [think._SeatClock]


def test_a_seat_clock_times_from_start_to_stop_compiled_or_pure() -> None:
    import time

    from simcli import native
    from simcli.tournament import think

    for cls in _seat_clock_classes():
        clock = cls()
        clock.start()
        clock.stop()
        clock.start()
        time.sleep(0.002)  # 2 ms take at least 2 ms: a lower bound, not a timed assertion
        clock.stop()
        clock.start()  # a start with no stop (a refused answer): nothing appended
        clock.add(0.5)
        times = clock.times
        # as the parent is sent them: the same nanoseconds, but for the rounding of a
        # counter's rate read again
        sent = unpack(clock.packed())
        assert len(sent) == 3, cls
        assert all(abs(x - y) <= 1 for x, y in zip(sent, times, strict=True)), cls
        assert len(times) == 3 and all(type(t) is int for t in times), cls
        assert 0 <= times[0] and times[1] >= 2_000_000 and times[2] == 500_000_000, cls
    compiled = think.SeatClock is not think._SeatClock
    assert compiled == (think.KERNEL in native.select().current and not native.select().forced)


def test_a_refused_answer_is_not_timed_with_or_without_a_move_limit(tmp_path) -> None:
    """The bot answers 999 at its fourth turn: Libraria's opening seats 0, 1, 1, 0, 1, 0,
    1, 0, so it made three moves and the random seat four, and only those are timed,
    whichever loop the referee plays (a move time limit takes the general one)."""
    from simcli.configfile import load_config
    from simcli.tournament.schedule import schedule_for
    from simcli.tournament.worker import ChunkPlayer

    bots = Path(__file__).resolve().parent / "data" / "answer_bots.py"
    path = tmp_path / "c.yaml"
    path.write_text(
        "game: libraria\ngames: 2\n"
        f"strategies:\n  - {{name: bot, use: '{bots}:AnswersNine'}}\n  - random\n"
    )
    for limit in ({}, {"move_time_limit": 5.0}):
        config = load_config(path, limit)
        line, result = ChunkPlayer(config, schedule_for(config)).play_one(0)
        assert result.termination == "forfeit" and result.seats == ["bot", "random"]
        assert [len(unpack(times)) for times in result.think] == [3, 4], limit


@pytest.mark.parametrize("counter", [True, False])
def test_the_compiled_clock_times_on_the_counter_and_on_the_clock(counter: bool) -> None:
    """Where the processor's time-stamp counter backs Linux's clock, the compiled seat
    clock reads the counter and turns it into nanoseconds at the end; elsewhere (and here,
    told so) it reads the clock. Either way each move lies between the clock's readings
    around it, in order, however many moves a seat makes."""
    import importlib
    import time

    from simcli.tournament import think

    if len(_seat_clock_classes()) == 1:  # fails instead where the kernel must be built
        pytest.skip("the seat clock kernel is not built")
    kernel = importlib.import_module(think.KERNEL)
    if counter and not kernel.COUNTER:
        pytest.skip("no invariant time-stamp counter behind the clock here")
    kernel._use_counter(counter)
    try:
        clock = kernel.SeatClock()
        spans = []
        for move in range(300):  # past the first few growths of its buffer
            before = time.perf_counter_ns()
            clock.start()
            if move % 100 == 0:
                time.sleep(0.001)
            clock.stop()
            spans.append(time.perf_counter_ns() - before)
        times = unpack(clock.packed())  # as the parent is sent them
        assert len(times) == 300 and all(type(t) is int for t in times)
        assert all(0 <= t <= span + 1 for t, span in zip(times, spans, strict=True))
        assert all(times[k] >= 1_000_000 for k in (0, 100, 200))
    finally:
        kernel._use_counter(True)
