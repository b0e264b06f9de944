"""``simcli replay`` queries: --where, --sort, --top, --format json, --show --ply/--final,
forfeits named in the list, and a closed pipe that ends quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def run_dir(mixed_run) -> Path:
    return mixed_run("q", seed=7)


@pytest.fixture(scope="module")
def records(run_dir) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "games.jsonl").read_text().splitlines()]


def replay(*args: str):
    return CliRunner().invoke(cli, ["replay", *args])


def indexes(output: str) -> list[int]:
    return [int(line.split(":")[0].split()[1]) for line in output.splitlines()]


def test_the_fixture_has_forfeits_variants_and_normal_games(records) -> None:
    assert len(records) == 2 * 3 * 4  # variants x pairings x games
    terminations = {r["termination"] for r in records}
    assert {"forfeit", "normal"} <= terminations
    assert {r["variant"] for r in records} == {"one", "two"}


def test_list_names_the_forfeiting_seat_and_the_reason(run_dir, records) -> None:
    lines = replay(str(run_dir)).stdout.splitlines()
    assert len(lines) == len(records)
    for line, rec in zip(lines, records, strict=True):
        assert line.startswith(f"game {rec['index']} ({rec['variant']}): ")
        if rec["termination"] == "forfeit":
            seat = rec["detail"]["seat"]
            assert rec["seats"][seat] == "raiser"
            assert f"[seat {seat} (raiser) forfeited: exception: " in line
            assert "boom" in line
        else:
            assert "forfeited" not in line


def test_where_strategy_and_result_hold_for_the_same_seat(run_dir, records) -> None:
    result = replay(str(run_dir), "--where", "strategy=raiser", "--where", "result=forfeit")
    expected = [r["index"] for r in records if r["termination"] == "forfeit"]
    assert expected and indexes(result.stdout) == expected
    # random never forfeits, so random + forfeit selects nothing
    none = replay(str(run_dir), "--where", "strategy=random", "--where", "result=forfeit")
    assert none.exit_code == 0 and none.stdout == ""


def test_where_seat_and_strategy(run_dir, records) -> None:
    result = replay(str(run_dir), "--where", "seat=0", "--where", "strategy=greedy")
    expected = [r["index"] for r in records if r["seats"][0] == "greedy"]
    assert len(expected) == 2 * 4 and indexes(result.stdout) == expected


def test_where_variant_termination_and_alternatives(run_dir, records) -> None:
    result = replay(str(run_dir), "--where", "variant=one", "--where", "termination=normal")
    expected = [
        r["index"] for r in records if r["variant"] == "one" and r["termination"] == "normal"
    ]
    assert expected and indexes(result.stdout) == expected
    both = replay(str(run_dir), "--where", "termination=normal", "--where", "termination=forfeit")
    assert indexes(both.stdout) == [r["index"] for r in records]


@pytest.mark.parametrize(
    ("term", "message"),
    [
        ("strat=greedy", "unknown key 'strat' (did you mean 'strategy'?)"),
        ("strategy", "expected KEY=VALUE"),
        ("seat=first", "a seat is a number"),
        ("result=won", "result must be one of win, loss, draw, forfeit (did you mean 'win'?)"),
        ("termination=forfiet", "(did you mean 'forfeit'?)"),
    ],
)
def test_bad_where_is_a_one_line_error(run_dir, term, message) -> None:
    result = replay(str(run_dir), "--where", term)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_sort_margin_largest_first_with_top(run_dir, records) -> None:
    result = replay(str(run_dir), "--sort", "margin", "--top", "3")
    scored = [r for r in records if r["scores"] is not None]

    def margin(r):
        a, b = sorted(r["scores"], reverse=True)[:2]
        return a - b

    expected = sorted(scored, key=lambda r: (-margin(r), r["index"]))[:3]
    assert indexes(result.stdout) == [r["index"] for r in expected]


def test_sort_puts_forfeits_last_and_ascending_reverses(run_dir, records) -> None:
    result = replay(str(run_dir), "--sort", "margin", "--ascending")
    got = indexes(result.stdout)
    forfeits = [r["index"] for r in records if r["scores"] is None]
    assert got[len(got) - len(forfeits) :] == forfeits  # no margin: last, in log order
    by_index = {r["index"]: r for r in records}
    margins = []
    for i in got[: len(got) - len(forfeits)]:
        a, b = sorted(by_index[i]["scores"], reverse=True)[:2]
        margins.append(a - b)
    assert margins == sorted(margins)


def test_sort_shows_the_figure_it_sorts_by(run_dir, records) -> None:
    by_index = {r["index"]: r for r in records}
    lines = replay(str(run_dir), "--sort", "margin").stdout.splitlines()
    assert lines
    for line, i in zip(lines, indexes("\n".join(lines)), strict=True):
        scores = by_index[i]["scores"]
        if scores is None:  # a forfeit: no scores, no margin
            assert line.endswith("[margin n/a (no scores)]"), line
        else:
            a, b = sorted(scores, reverse=True)[:2]
            assert line.endswith(f"[margin {a - b:g}]"), line
    shortest = replay(str(run_dir), "--sort", "length", "--top", "1", "--ascending").stdout
    length = min(len(r["moves"]) for r in records)  # no chance events in Libraria
    assert shortest.rstrip().endswith(f"[length {length} moves]")
    # without --sort the line is as before
    assert "[margin" not in replay(str(run_dir), "--top", "3").stdout


def test_sort_length(run_dir, records) -> None:
    result = replay(str(run_dir), "--sort", "length", "--top", "1", "--ascending")
    shortest = min(records, key=lambda r: (len(r["moves"]), r["index"]))
    assert indexes(result.stdout) == [shortest["index"]]


def test_top_without_sort_keeps_log_order(run_dir, records) -> None:
    assert indexes(replay(str(run_dir), "--top", "2").stdout) == [0, 1]


def test_format_json_one_object_per_game(run_dir, records) -> None:
    result = replay(str(run_dir), "--where", "termination=forfeit", "--format", "json")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    forfeits = [r for r in records if r["termination"] == "forfeit"]
    assert [row["index"] for row in rows] == [r["index"] for r in forfeits]
    for row, rec in zip(rows, forfeits, strict=True):
        assert row["forfeit"]["seat"] == rec["detail"]["seat"]
        assert row["forfeit"]["strategy"] == "raiser"
        assert row["forfeit"]["kind"] == "exception"
        assert "boom" in row["forfeit"]["message"]
        assert row["margin"] is None and row["length"] == len(rec["moves"])
        assert row["variant"] == rec["variant"] and row["seats"] == rec["seats"]


def test_show_final_prints_one_board(run_dir, records) -> None:
    rec = next(r for r in records if r["termination"] == "normal")
    result = replay(str(run_dir), "--game", str(rec["index"]), "--show", "--final")
    assert result.exit_code == 0
    plies = [line for line in result.stdout.splitlines() if line.startswith("ply ")]
    assert plies == [line for line in plies if line.startswith(f"ply {len(rec['moves'])}:")]
    assert len(plies) == 1 and "game over" in result.stdout


def test_show_ply_prints_that_board_only(run_dir, records) -> None:
    rec = records[0]
    first = rec["moves"][0]
    result = replay(str(run_dir), "--game", "0", "--show", "--ply", "1")
    plies = [line for line in result.stdout.splitlines() if line.startswith("ply ")]
    assert plies == [f"ply 1: seat 0 ({rec['seats'][0]}) plays {first}"]
    setup = replay(str(run_dir), "--game", "0", "--show", "--ply", "0")
    assert "setup:" in setup.stdout and "ply " not in setup.stdout


def test_show_ply_json_gives_the_snapshot(run_dir, records) -> None:
    result = replay(str(run_dir), "--game", "0", "--show", "--ply", "1", "--format", "json")
    (line,) = result.stdout.splitlines()
    row = json.loads(line)
    assert row["ply"] == 1 and row["seat"] == 0 and row["entry"] == records[0]["moves"][0]
    # Libraria's snapshot: the counter just placed belongs to seat 0
    assert row["state"]["board"][records[0]["moves"][0]] == 0


def test_show_ply_past_the_end_and_misused_options(run_dir, records) -> None:
    n = len(records[0]["moves"])
    past = replay(str(run_dir), "--game", "0", "--show", "--ply", str(n + 1))
    assert past.exit_code == 2 and f"has {n} plies" in past.stderr
    assert replay(str(run_dir), "--final").exit_code == 2
    assert replay(str(run_dir), "--show", "--final", "--ply", "2").exit_code == 2
    assert replay(str(run_dir), "--ascending").exit_code == 2


def test_verify_with_a_selection(run_dir) -> None:
    result = replay(str(run_dir), "--where", "variant=two", "--verify")
    assert result.exit_code == 0
    assert result.stdout.strip().endswith("verified 12 game(s): all match")


def _closed_stdout_run(*args: str) -> subprocess.CompletedProcess:
    """Run ``python -m simcli ARGS`` with a stdout pipe whose reading end is already
    closed: every write fails with EPIPE, as after ``| head -1`` has exited."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(
            [sys.executable, "-m", "simcli", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.mark.slow
def test_closed_pipe_ends_quietly_with_exit_0(run_dir) -> None:
    result = _closed_stdout_run("replay", str(run_dir))
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""


@pytest.mark.slow
def test_closed_pipe_with_help_and_json(run_dir) -> None:
    for args in (("--help",), ("replay", str(run_dir), "--format", "json")):
        result = _closed_stdout_run(*args)
        assert result.returncode == 0 and result.stderr == b"", (args, result.stderr)


def test_json_and_list_of_a_rules_error(tmp_path, records) -> None:
    rec = {**records[0], "scores": None, "winners": [], "termination": "error"}
    rec["detail"] = {"kind": "game_error", "message": "KeyError: 3"}
    log = tmp_path / "games.jsonl"
    log.write_text(json.dumps(rec) + "\n")
    (row,) = [json.loads(line) for line in replay(str(log), "--format", "json").stdout.splitlines()]
    assert row["error"] == {"kind": "game_error", "message": "KeyError: 3"}
    assert row["forfeit"] is None
    assert replay(str(log)).stdout.rstrip().endswith(": error [error: game_error: KeyError: 3]")
    losses = replay(str(log), "--where", "result=loss")
    assert indexes(losses.stdout) == [rec["index"]]  # an error is no seat's win or draw
