"""Issue 36, class 1: a string that cannot be encoded (a lone surrogate) never ends a run.

Every string that comes from a strategy or a bot (exception messages, error messages,
answers, the handshake's refusal) is made safe before it is logged, written to a record or
printed: the surrogate becomes its ``\\udXXX`` escape. A config that holds one is bad
input. Before the fix each of these ended the run with ``internal error:
UnicodeEncodeError`` (exit 70) and an empty ``games.jsonl``, or (isolated) cost the seat
a ``crashed`` forfeit where in-process gave ``exception``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

DATA = Path(__file__).resolve().parent / "data"
BOTS = DATA / "hardening_bots.py"
BOT = DATA / "hardening_bot.py"


def run(tmp_path: Path, text: str, *args: str, name: str = "c") -> tuple[int, str, Path]:
    config = tmp_path / f"{name}.yaml"
    config.write_text(text)
    out = tmp_path / f"{name}-out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", "--force", *args]
    )
    return result.exit_code, result.output, out


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def config(strategy: str, games: int = 2, extra: str = "") -> str:
    return (
        f"game: libraria\nseed: 5\ngames: {games}\nstrategies:\n  - {strategy}\n  - random\n{extra}"
    )


def bots(cls: str) -> str:
    return f"{{name: s, use: '{BOTS}:{cls}'}}"


def bot(mode: str) -> str:
    return f"{{name: bot, use: 'cmd:{sys.executable} {BOT} {mode}'}}"


def test_safe_text_escapes_lone_surrogates_only():
    from simcli.tournament.faults import Forfeit, describe, safe_text

    assert safe_text("plain é ✓") == "plain é ✓"
    assert safe_text("a\ud800b\udfff") == "a\\ud800b\\udfff"
    assert safe_text("😀") == "😀"  # a pair is a character, encoded as such
    assert Forfeit(0, "exception", "x\ud800", "trace \udc80").trace == "trace \\udc80"
    assert describe(ValueError("no \ud800")) == "ValueError: no \\ud800"


@pytest.mark.parametrize("workers", ["0", "2"])
@pytest.mark.slow
def test_an_exception_message_with_a_lone_surrogate_is_a_forfeit(tmp_path, workers):
    """The issue's example: the run ended with exit 70 and an empty games.jsonl."""
    code, output, out = run(tmp_path, config(bots("SurrogateError")), "--workers", workers)
    assert code == 0, output
    played = records(out)
    assert len(played) == 2
    for record in played:
        assert record["termination"] == "forfeit"
        assert record["detail"]["message"] == "ValueError: no good move \\ud800 here"
    assert "\\ud800" in (out / "run.log").read_text(encoding="utf-8")
    # --resume plays the missing game again, to the same bytes
    log = out / "games.jsonl"
    whole = log.read_bytes()
    log.write_bytes(whole[: whole.index(b"\n") + 1])
    result = CliRunner().invoke(
        cli,
        ["run", str(tmp_path / "c.yaml"), "--out", str(out), "--resume", "-q", "--no-plots"],
    )
    assert result.exit_code == 0, result.output
    assert log.read_bytes() == whole


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        ("SurrogateStr", "_SurrogateStr: str() \\ud800 of mine"),
        ("SurrogateInStart", "RuntimeError: cannot start \\ud800"),
    ],
)
def test_other_strategy_messages_with_a_lone_surrogate(tmp_path, cls, message):
    """The same through a ``__str__`` of the strategy's own, and from ``start_game``."""
    code, output, out = run(tmp_path, config(bots(cls)), "--workers", "0")
    assert code == 0, output
    assert [r["detail"]["message"] for r in records(out)] == [message, message]


def test_a_verbose_run_prints_the_forfeit_with_the_escape(tmp_path):
    code, output, out = run(tmp_path, config(bots("SurrogateError")), "--workers", "0", "-v")
    assert code == 0, output
    assert "no good move \\ud800 here" in output


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("surrogate_error", "lost \\ud800 my way"),  # the example
        ("surrogate_batch", "batch \\ud800"),  # an entry of a batched answer
    ],
)
def test_a_bots_error_message_with_a_lone_surrogate_is_a_forfeit(tmp_path, mode, message):
    code, output, out = run(tmp_path, config(bot(mode)), "--workers", "0")
    assert code == 0, output
    played = records(out)
    assert [r["detail"]["message"] for r in played] == [message, message]
    assert all(len(r["moves"]) >= 4 for r in played)  # two good answers first


@pytest.mark.slow
def test_a_handshake_refused_with_a_lone_surrogate_is_one_line_of_bad_input(tmp_path):
    text = config(bot("surrogate_handshake"))
    (tmp_path / "v.yaml").write_text(text)
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "v.yaml")])
    assert result.exit_code == 2
    refusal = "error: strategy 'bot': refused the handshake: cannot play \\ud800 this\n"
    assert result.output == refusal
    code, output, out = run(tmp_path, text, "--workers", "0")
    assert code == 2 and "cannot play \\ud800 this" in output
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize("cls", ["SurrogateError", "SurrogateMove"])
def test_isolated_strategies_give_the_in_process_records(tmp_path, cls):
    """In its own process the strategy's message (or its answer) must travel as JSON:
    before the fix the client failed to encode it and the seat forfeited as
    ``crashed``."""
    text = config(bots(cls))
    code, output, inproc = run(tmp_path, text, "--workers", "0", name="a")
    assert code == 0, output
    code, output, isolated = run(
        tmp_path, text, "--workers", "0", "--isolation", "process", name="b"
    )
    assert code == 0, output
    assert (isolated / "games.jsonl").read_bytes() == (inproc / "games.jsonl").read_bytes()
    assert {r["detail"]["kind"] for r in records(inproc)} <= {"exception", "illegal_move"}


@pytest.mark.parametrize(
    ("entry", "key"),
    [
        ('{name: "r\\ud800", use: random}', "strategies[0].name"),
        ('{use: random, params: {seed_text: "x\\udc80"}}', "strategies[0].params.seed_text"),
    ],
)
def test_a_config_holding_a_lone_surrogate_is_bad_input(tmp_path, entry, key):
    """A strategy's name went into every record: exit 70 and a half-written folder."""
    code, output, out = run(tmp_path, config(entry), "--workers", "0")
    assert code == 2, output
    assert f"key '{key}': holds \\u" in output
    assert "lone surrogate" in output and len(output.splitlines()) == 1
    assert not out.exists()
