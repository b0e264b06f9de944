"""An output folder that already holds files is refused before any work (no header, no
probe, no sizing, no game), with its own exit code 4, not the 2 of a broken config: a CI
job on a persistent workspace can tell the two apart (or pass --force, as
docs/gating.md's snippet does)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import simcli.app.balance
import simcli.app.gate
import simcli.app.run  # noqa: F401  (imported at collection, not in the timed calls)
from simcli.cli.main import cli
from simcli.errors import OutputExistsError, SimcliError

RUN = """\
name: t
game: libraria
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
games: 2
seed: 3
workers: 0
"""

GATE = (
    RUN
    + """\
gate: {candidate: greedy, baseline: random, elo0: 0, elo1: 10, max_games: 40, batch: 2}
"""
)

BALANCE = """\
name: b
game: libraria
balance: {ladder: [random], precision: 0.3, max_games: 4}
seed: 3
workers: 0
"""


def occupied(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.jsonl").write_text("an earlier run\n")
    return out


@pytest.mark.parametrize(
    ("command", "text", "extra", "header"),
    [
        ("run", RUN, ["--probe", "4"], "games of libraria"),
        ("gate", GATE, [], "SPRT elo0"),
        ("balance", BALANCE, [], "random"),
    ],
)
def test_refused_before_any_work_with_its_own_code(tmp_path, command, text, extra, header):
    config = tmp_path / "c.yaml"
    config.write_text(text)
    out = occupied(tmp_path)
    args = (
        [command, str(config), "--out", str(out), "--no-plots"]
        if command != "gate"
        else [
            command,
            str(config),
            "--out",
            str(out),
        ]
    )
    result = CliRunner().invoke(cli, args + extra)
    assert result.exit_code == 4, result.output
    assert "already holds files" in result.output and "--force" in result.output
    assert header not in result.output  # nothing was announced, probed or sized
    assert "Traceback" not in result.output
    assert sorted(p.name for p in out.iterdir()) == ["games.jsonl"]
    assert (out / "games.jsonl").read_text() == "an earlier run\n"


@pytest.mark.slow
def test_the_header_is_printed_on_a_free_folder(tmp_path):
    """The refusal test above can fail: on a free folder the same command announces itself."""
    config = tmp_path / "c.yaml"
    config.write_text(RUN)
    result = CliRunner().invoke(cli, ["run", str(config), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "games of libraria" in result.output


def test_the_api_raises_it_and_it_is_a_user_error(tmp_path):
    import simcli

    config = tmp_path / "c.yaml"
    config.write_text(RUN)
    out = occupied(tmp_path)
    with pytest.raises(OutputExistsError) as caught:
        simcli.run(config, out=out)
    assert isinstance(caught.value, SimcliError) and caught.value.exit_code == 4


def test_the_gating_docs_ci_snippet_replaces_an_old_run():
    docs = (Path(__file__).resolve().parent.parent / "docs" / "gating.md").read_text()
    snippet = docs.split("## In a CI job", 1)[1].split("```", 2)[1]
    gate_line = next(line for line in snippet.splitlines() if "simcli gate" in line)
    assert "--force" in gate_line
    assert "| 4 |" in docs  # the exit-code table names the code
