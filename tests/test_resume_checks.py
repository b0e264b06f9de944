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
