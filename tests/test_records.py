"""The record module: one definition of the record (checked against the JSON Schema), one
line format, one reader with one validation and one policy for bad lines."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.errors import RecordError
from simcli.plugins import SOURCE_KEYS
from simcli.records import (
    KEYS,
    REQUIRED_KEYS,
    SCHEMA_PATH,
    SCHEMA_VERSION,
    TERMINATIONS,
    check,
    dumps,
    new_record,
)
from simcli.tournament.gamelog import BadLine, GameLog, decode, read_log, read_records

CONFIG = """\
name: rec
game: libraria
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
format: round_robin
games: 6
seed: 5
workers: 0
"""


def test_json_schema_matches_the_record_definition() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    assert list(schema["properties"]) == list(KEYS)  # every key, in the written order
    assert schema["required"] == list(REQUIRED_KEYS)
    assert set(KEYS) - set(REQUIRED_KEYS) == {"variant", "detail", "game_source"}
    assert schema["properties"]["schema"]["const"] == SCHEMA_VERSION
    assert schema["properties"]["termination"]["enum"] == list(TERMINATIONS)
    assert schema["properties"]["game_source"]["required"] == list(SOURCE_KEYS)


def test_new_record_writes_the_keys_in_order() -> None:
    plain = new_record("libraria", {"opening": "x"}, 3, 7, ("a", "b"))
    assert tuple(plain) == REQUIRED_KEYS
    record = new_record("libraria", {}, 3, 7, ["a", "b"], variant="v")
    record["final_hash"] = "0" * 16  # filled in later: keeps its place
    record["detail"] = {"kind": "game_error", "message": "m"}
    record["game_source"] = {"kind": "file", "use": "x.py:G", "fingerprint": "sha256:0"}
    assert tuple(record) == KEYS
    assert dumps(record).startswith('{"schema":1,"game":"libraria","options":{},"variant":"v",')
    assert decode((dumps(record) + "\n").encode(), 1) == record  # a valid record round-trips


@pytest.mark.parametrize(
    "line,message",
    [
        (b"{oops\n", "line 4: not JSON (Expecting property name"),
        (b"[1, 2]\n", "line 4: a game record must be a JSON object, not a JSON list"),
        (b'{"schema": 1}\n', "line 4: not a game record (missing game, options,"),
        (b"\xff\xfe\n", "line 4: not UTF-8 text"),
    ],
)
def test_bad_lines_are_named(line, message) -> None:
    bad = decode(line, 4)
    assert isinstance(bad, BadLine) and bad.message.startswith(message) and not bad.truncated


def test_truncated_last_line_and_unknown_schema() -> None:
    good = dumps(new_record("libraria", {}, 0, 1, ["a", "b"]))
    bad = decode(good[:30].encode(), 9, last=True)
    assert isinstance(bad, BadLine) and bad.truncated
    assert bad.message == "line 9: truncated last line"
    newer = good.replace('"schema":1', '"schema":2') + "\n"
    with pytest.raises(RecordError, match="line 2: unknown record schema 2"):
        decode(newer.encode(), 2)


def test_check_names_the_place() -> None:
    record = new_record("libraria", {}, 0, 1, ["a", "b"])
    record["winners"] = [0, 0]
    with pytest.raises(RecordError, match=r"^here: 'winners' must be a list of distinct seats"):
        check(record, "here")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("played")
    (folder / "c.yaml").write_text(CONFIG)
    out = folder / "out"
    args = ["run", str(folder / "c.yaml"), "--out", str(out), "-q", "--no-plots"]  # plots: 2 s
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture
def log(played, tmp_path):
    """A copy of a played run (config c.yaml beside its folder out/) for one test."""
    shutil.copytree(played, tmp_path, dirs_exist_ok=True)
    return tmp_path / "out" / "games.jsonl"


@pytest.mark.slow
def test_one_reader_for_plain_gzip_and_folders(log) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    expected = [json.loads(x) for x in lines]
    assert list(read_records(log)) == expected
    assert list(read_records(log.parent)) == expected  # the run folder
    packed = log.parent / "copy" / "games.jsonl.gz"
    packed.parent.mkdir()
    packed.write_bytes(gzip.compress(b"\n".join([b"", *lines])))  # a blank line is skipped
    assert list(read_records(packed.parent)) == expected
    ends = [line.end for line in GameLog(log).lines()]
    assert ends == [sum(map(len, lines[: i + 1])) for i in range(len(lines))]


def test_bad_line_policy(log) -> None:
    lines = log.read_text().splitlines(keepends=True)
    log.write_text(lines[0] + "#### garbage\n" + "".join(lines[1:]))
    items = list(read_log(log))  # replay: every line, the bad one named
    assert [type(x).__name__ for _, x in items] == ["dict", "BadLine", *["dict"] * 5]
    assert items[1] == (2, BadLine(2, "line 2: not JSON (Expecting value at column 1)"))
    with pytest.raises(RecordError, match=r"games.jsonl: line 2: not JSON"):
        list(read_records(log))  # report and statistics stop there
    log.write_text("")
    with pytest.raises(RecordError, match="holds no game records"):
        list(read_records(log))
    log.write_text("a\nb\nc\nd\ne\n" + "".join(lines))
    with pytest.raises(RecordError, match="not a JSON-lines game log"):
        list(read_log(log))


@pytest.mark.slow
def test_resume_stops_at_a_bad_line_in_the_middle(log) -> None:
    config = log.parent.parent / "c.yaml"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:2]) + "#### garbage\n" + "".join(lines[2:4]))
    result = CliRunner().invoke(cli, ["run", str(config), "--out", str(log.parent), "--resume"])
    assert result.exit_code == 2
    assert "line 3: not JSON" in result.output and "--force" in result.output
    log.write_text("".join(lines[:3]) + lines[3][:20])  # an interrupted write: dropped
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(log.parent), "--resume", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "keeping games 0..2; dropping line 4" in result.output
    assert log.read_text() == "".join(lines)
