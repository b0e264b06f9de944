"""Issue 36, class 7 (the protocol's limits): lines are at most 4 MiB, exactly.

The referee refused a line longer than the limit only while its end had not arrived: a
line whose newline came in the same read as the bytes past the limit (up to 64 KiB over)
was accepted. Its own batched requests were not held to the limit either.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.protocol import MAX_LINE, decode
from simcli.tournament.strategy_process import StrategyFault, StrategyProcess

BOT = Path(__file__).resolve().parent / "data" / "hardening_bot.py"


def pending(data: bytes) -> StrategyProcess:
    """A strategy process's reader holding ``data`` as read from its pipe."""
    reader = StrategyProcess.__new__(StrategyProcess)
    reader._buffer = bytearray(data)
    return reader


def line_of(size: int) -> bytes:
    """A move message of exactly ``size`` bytes (newline not counted)."""
    head, tail = b'{"type": "move", "index": 0, "pad": "', b'"}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


@pytest.mark.slow
def test_a_line_of_exactly_the_limit_is_read():
    reader = pending(line_of(MAX_LINE) + b"\n" + b'{"type": "move"')
    assert reader._next_message("its move")["index"] == 0
    assert reader._next_message("its move") is None  # the next line is still coming


@pytest.mark.parametrize("over", [1, 60_000])
def test_a_longer_line_is_refused_when_its_end_came_in_the_same_read(over):
    reader = pending(line_of(MAX_LINE + over) + b"\n")
    with pytest.raises(StrategyFault, match=f"wrote a line longer than {MAX_LINE} bytes"):
        reader._next_message("its move")


def test_a_longer_line_without_its_end_is_refused_as_before():
    with pytest.raises(StrategyFault, match="longer than"):
        pending(b"x" * (MAX_LINE + 1))._next_message("its move")


@pytest.mark.slow
def test_a_batch_of_requests_is_split_into_lines_within_the_limit():
    from simcli.tournament.strategy_process import _batch_lines

    view = {"pad": "v" * (MAX_LINE // 5)}
    requests = [[index, 0, [0, 1], view] for index in range(12)]
    lines = _batch_lines(requests)
    assert len(lines) > 1
    assert all(len(line) <= MAX_LINE + 1 for line in lines)
    assert [r for line in lines for r in decode(line[:-1])["requests"]] == requests
    small = [[index, 0, [0, 1]] for index in range(128)]
    assert len(_batch_lines(small)) == 1


def _run(tmp_path: Path, size: int) -> list[dict]:
    config = tmp_path / "c.yaml"
    config.write_text(
        "game: libraria\ngames: 2\nmove_time_limit: 30\nstrategies:\n"
        f"  - {{name: bot, use: 'cmd:{sys.executable} {BOT} long_line {size}'}}\n  - random\n"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", "--workers", "0"]
    )
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_a_bot_writing_a_line_one_byte_over_the_limit_forfeits(tmp_path):
    """The issue's example, through a real pipe: the line is written at once."""
    for record in _run(tmp_path, MAX_LINE + 1):
        assert record["termination"] == "forfeit"
        assert record["detail"]["kind"] == "protocol"
        assert record["detail"]["message"] == f"wrote a line longer than {MAX_LINE} bytes"


@pytest.mark.slow
def test_a_bot_writing_a_line_of_the_limit_plays_on(tmp_path):
    assert {r["termination"] for r in _run(tmp_path, MAX_LINE)} == {"normal"}


@pytest.mark.slow
def test_batches_split_over_several_lines_give_the_same_records(tmp_path, monkeypatch):
    """With a limit small enough that batches of views are split, the isolated records
    are still the in-process ones."""
    import simcli.tournament.strategy_process as process

    config = tmp_path / "c.yaml"
    config.write_text("game: libraria\nseed: 2\ngames: 100\nstrategies:\n  - greedy\n  - random\n")
    split = []
    whole = process._batch_lines

    def spy(requests):
        lines = whole(requests)
        split.append(len(lines))
        return lines

    logs = []
    for isolation in ("inprocess", "process"):
        if isolation == "process":
            monkeypatch.setattr(process, "MAX_LINE", 600)
            monkeypatch.setattr(process, "_batch_lines", spy)
        out = tmp_path / isolation
        result = CliRunner().invoke(
            cli,
            ["run", str(config), "--out", str(out), "-q", "--no-plots", "--workers", "0"]
            + ["--isolation", isolation],
        )
        assert result.exit_code == 0, result.output
        logs.append((out / "games.jsonl").read_bytes())
    assert logs[0] == logs[1]
    assert max(split) > 1  # some batches did go out as several lines
