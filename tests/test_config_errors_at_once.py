"""Every mistake of a config file in one message (up to 20), each with the file, line,
key and a close match; exit 2, nothing written."""

from __future__ import annotations

from click.testing import CliRunner

from simcli.cli.main import cli

TYPOS = """\
name: typos
game: libraria
optons: {opening: two_counters}
strategies:
  - {name: greedy, use: greedy, params: {epsilin: 0.1}}
  - {name: rnd, use: randm}
  - {name: g2, use: greedy, isolaton: process}
formt: round_robin
games: 7
seed: -1
workers: many
move_time_limit: 0
executor: dsk
gate: {candidate: greedyy, baseline: rnd}
asserts:
  - no_erors
  - win_rate: {strategy: rdn, at_least: 0.5}
"""


def _validate(tmp_path, text: str):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return path, CliRunner().invoke(cli, ["validate", str(path), "--probe", "0"])


def test_every_mistake_at_once_in_line_order(tmp_path) -> None:
    path, result = _validate(tmp_path, TYPOS)
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == f"error: {path}: 13 problems:"
    expected = [  # line, key, what (a close match where there is one)
        (3, "optons", "(did you mean 'options'?)"),
        (5, "strategies[0].params.epsilin", "(did you mean 'epsilon'?)"),
        (6, "strategies[1].use", "(did you mean 'random'?)"),
        (7, "strategies[2].isolaton", "(did you mean 'isolation'?)"),
        (8, "formt", "(did you mean 'format'?)"),
        (9, "games", "must be a multiple of 2"),  # the format's default, round_robin
        (10, "seed", "must be at least 0; got -1"),
        (11, "workers", "expected a whole number"),
        (12, "move_time_limit", "expected seconds > 0"),
        (13, "executor", "(did you mean 'dask'?)"),
        (14, "gate.candidate", "(did you mean 'greedy'?)"),
        (16, "asserts[0]", "unknown assertion 'no_erors' (did you mean 'no_errors'?)"),
        (17, "asserts[1].win_rate.strategy", "(did you mean 'rnd'?)"),
    ]
    assert len(lines) == 1 + len(expected)
    for line, (number, key, what) in zip(lines[1:], expected, strict=True):
        assert line.startswith(f"  {path}:{number}: key '{key}': "), line
        assert what in line, line
    # run says the same and writes nothing
    out = tmp_path / "o"
    run = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "-q"])
    assert run.exit_code == 2 and run.output.strip().splitlines()[0] == lines[0]
    assert not out.exists()


def test_a_failed_check_does_not_cascade(tmp_path) -> None:
    # the game is misspelt: its players, options and variants cannot be checked and are
    # not reported; the checks that do not need the game still are
    text = "game: librria\nstrategies: [greedy, random]\nseed: -1\n"
    path, result = _validate(tmp_path, text)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines[0] == f"error: {path}: 2 problems:"
    assert lines[1].startswith(f"  {path}:1: key 'game': ") and "libraria" in lines[1]
    assert lines[2].startswith(f"  {path}:3: key 'seed': ")


def test_one_mistake_is_one_line(tmp_path) -> None:
    path, result = _validate(tmp_path, "game: libraria\nstrategies: [greedy, random]\nseeds: 3\n")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {path}:3: key 'seeds': unknown key (did you mean 'seed'?); allowed here: "
        "name, game, options, players, strategies, format, games, seed, workers, output, "
        "variants, move_time_limit, executor, scheduler, gate, asserts, isolation, balance"
    ]


def test_at_most_twenty(tmp_path) -> None:
    extra = "".join(f"bogus{i}: 1\n" for i in range(25))
    path, result = _validate(tmp_path, "game: libraria\nstrategies: [greedy, random]\n" + extra)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines[0] == f"error: {path}: 20 problems (stopped after the first 20):"
    assert len(lines) == 21 and lines[-1].startswith(f"  {path}:22: key 'bogus19'")
