"""``--resume`` keeps only records that are this run's games and replay: a tampered score
or move, a line from another run, a forged forfeit or changed options stop it with exit
code 2 naming the line (before, each was kept and counted)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

CONFIG = "game: libraria\nseed: 3\ngames: 6\nstrategies: [random, greedy]\n"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def half_run(tmp_path, play_config):
    """A finished run cut back to its first 4 games (as an interrupted run leaves it)."""
    out = play_config(tmp_path, CONFIG)
    path = tmp_path / "c.yaml"
    log = out / "games.jsonl"
    lines = log.read_text().splitlines()[:4]
    log.write_text("\n".join(lines) + "\n")
    return path, out


def tamper(out, lineno, change):
    log = out / "games.jsonl"
    lines = log.read_text().splitlines()
    record = json.loads(lines[lineno - 1])
    change(record)
    lines[lineno - 1] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")


def resume(path, out):
    return invoke("run", str(path), "--out", str(out), "--resume", "-q", "--no-plots")


@pytest.mark.slow
def test_an_untouched_prefix_resumes(half_run):
    path, out = half_run
    result = resume(path, out)
    assert result.exit_code == 0, result.output
    assert len((out / "games.jsonl").read_text().splitlines()) == 6


def _swap_first_moves(record):
    moves = record["moves"]
    moves[0], moves[1] = moves[1], moves[0]


@pytest.mark.parametrize(
    ("lineno", "change", "message"),
    [
        (2, lambda r: r.update(scores=[99, 0]), "does not replay"),
        (3, _swap_first_moves, "does not replay"),
        (2, lambda r: r.update(seed=r["seed"] + 1), "seed is"),
        (4, lambda r: r.update(seats=list(reversed(r["seats"]))), "seats is"),
        (1, lambda r: r["options"].update(tiebreak="first_player"), "options is"),
        (
            3,
            lambda r: r.update(
                termination="forfeit",
                scores=None,
                winners=[1],
                detail={"seat": 0, "kind": "timeout", "message": "move time limit exceeded"},
            ),
            "does not replay",
        ),
    ],
)
def test_a_kept_record_that_is_not_this_runs_game_stops_the_resume(
    half_run, lineno, change, message
):
    path, out = half_run
    tamper(out, lineno, change)
    result = resume(path, out)
    assert result.exit_code == 2, result.output
    assert f"line {lineno}: " in result.output and message in result.output
    assert len((out / "games.jsonl").read_text().splitlines()) == 4  # nothing was dropped


@pytest.mark.slow
def test_a_bad_line_mid_log_stops_the_resume_naming_the_choices(tmp_path, play_config):
    # Before, a garbage line in the middle made resume drop every good line after it
    # without a word. Now it stops (exit 2) naming the line and both ways out; with
    # --truncate-at-bad-line the log is cut there and the run ends as a clean one.
    out = play_config(tmp_path, CONFIG)
    path = tmp_path / "c.yaml"
    clean = (out / "games.jsonl").read_bytes()
    lines = clean.decode().splitlines()
    (out / "games.jsonl").write_text("\n".join([*lines[:2], "{garbage", *lines[3:5]]) + "\n")
    result = resume(path, out)
    assert result.exit_code == 2, result.output
    assert "line 3: not JSON" in result.output
    assert "--truncate-at-bad-line" in result.output and "--force" in result.output
    assert len((out / "games.jsonl").read_text().splitlines()) == 5  # nothing was dropped
    result = invoke(
        "run", str(path), "--out", str(out), "--resume", "--truncate-at-bad-line", "-q",
        "--no-plots",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "keeping games 0..1; dropping line 3 and after" in result.output
    assert (out / "games.jsonl").read_bytes() == clean


def test_truncate_at_bad_line_needs_resume(tmp_path):
    (tmp_path / "c.yaml").write_text(CONFIG)
    result = invoke("run", str(tmp_path / "c.yaml"), "--truncate-at-bad-line")
    assert result.exit_code == 2 and "goes with --resume" in result.output


@pytest.mark.slow
def test_a_run_killed_before_its_first_game_resumes_or_restarts(tmp_path, play_config):
    # A parent killed after writing run.json but before opening games.jsonl (found by the
    # chaos trials): --resume used to say "nothing to resume"; it now plays every game.
    # Killed while writing its first run.json, it leaves run.json.tmp: a fresh run used
    # to call the folder not empty.
    out = play_config(tmp_path, CONFIG)
    path = tmp_path / "c.yaml"
    clean = (out / "games.jsonl").read_bytes()
    (out / "games.jsonl").unlink()
    result = resume(path, out)
    assert result.exit_code == 0, result.output
    assert (out / "games.jsonl").read_bytes() == clean
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "run.json.tmp").write_text('{"status": "runn')
    result = invoke("run", str(path), "--out", str(fresh), "-q", "--no-plots")
    assert result.exit_code == 0, result.output
    assert (fresh / "games.jsonl").read_bytes() == clean
