"""Small things everyone meets: the results README, quartiles, the progress output in
logs, the resume command, the help of validate and list."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


def test_results_readme_lists_every_run_file_and_plot() -> None:
    from simcli.report.plots import OUR_FILES
    from simcli.tournament.output import RUN_FILES

    text = (ROOT / "results" / "README.md").read_text()
    for name in RUN_FILES:
        assert f"`{name}" in text, name
    for pattern in OUR_FILES:
        assert pattern.replace("*", "GROUP") in text, pattern


def test_quartiles_print_as_an_interval() -> None:
    from simcli.report.document import _dist_row
    from simcli.stats.summary import Dist

    def dist(**d):
        return Dist(exact=True, **d)

    row = _dist_row(
        "points",
        dist(n=9, median=-2, q1=-3, q3=0, mean=-1.5, sd=2.0, min=-9, max=8),
    )
    assert row[3] == "[-3, 0]"  # not "-3-0"
    assert (
        _dist_row("x", dist(n=2, median=1.5, q1=1.25, q3=1.75, mean=1.5, sd=0.7, min=1, max=2))[3]
        == "[1.2, 1.8]"
    )


def test_plain_progress_writes_a_line_per_tenth_and_no_carriage_return() -> None:
    from simcli.tournament.progress import PlainProgress, progress_bar

    stream = io.StringIO()
    bar = progress_bar(100, 0, quiet=False, stream=stream)
    assert isinstance(bar, PlainProgress)  # a StringIO is not a terminal
    for _ in range(14):
        bar.update(7)  # 7, 14, ..., 98
    bar.set_postfix_str("2 forfeits")
    bar.update(2)
    bar.close()
    text = stream.getvalue()
    assert "\r" not in text
    counts = [int(line.split()[1].split("/")[0]) for line in text.splitlines()]
    # a line when the count passes 10%, 20%, ...: 14, 21, 35, 42, 56, 63, 70, 84, 91; then the end
    assert counts == [14, 21, 35, 42, 56, 63, 70, 84, 91, 100]
    assert text.splitlines()[-1] == "progress: 100/100 games (100%), 2 forfeits"


def test_resumed_plain_progress_counts_from_the_start() -> None:
    from simcli.tournament.progress import PlainProgress

    stream = io.StringIO()
    bar = PlainProgress(50, 40, stream)  # 80% already played
    bar.update(3)  # 43: still 8 tenths
    bar.update(2)  # 45: 9 tenths
    assert stream.getvalue() == "progress: 45/50 games (90%)\n"


def test_quiet_progress_is_silent() -> None:
    from simcli.tournament.progress import progress_bar

    stream = io.StringIO()
    bar = progress_bar(10, 0, quiet=True, stream=stream)
    bar.update(10)
    bar.close()
    assert stream.getvalue() == ""


@pytest.mark.slow
def test_a_run_logs_progress_lines_when_stderr_is_not_a_terminal(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(
        "name: p\ngame: libraria\nstrategies:\n  - {name: a, use: random}\n"
        "  - {name: b, use: random}\nformat: round_robin\ngames: 10\nseed: 1\n"
    )
    result = CliRunner().invoke(
        cli, ["run", str(config), "--workers", "0", "--no-plots", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 0, result.output
    assert "\r" not in result.stderr
    assert "progress: 10/10 games (100%)" in result.stderr


def test_resume_command_keeps_the_flags_given() -> None:
    from simcli.cli.options import repeat_command
    from simcli.cli.run import run

    def resume_command(ctx, config, out):  # as run prints it after an interruption
        head = ["simcli", "run", config, "--resume", "--out", str(out)]
        return repeat_command(ctx, head, ("out", "force", "resume"))

    args = [
        "c.yaml",
        "--no-plots",
        "--seed",
        "9",
        "-q",
        "--workers",
        "2",
        "--force",
        "--out",
        "old",
        "--junit",
        "j.xml",
    ]
    ctx = run.make_context("run", args)
    command = resume_command(ctx, "c.yaml", Path("res/x"))
    assert command == (
        "simcli run c.yaml --resume --out res/x --workers 2 --seed 9 --junit j.xml "
        "--no-plots --quiet"
    )
    plain = resume_command(run.make_context("run", ["c.yaml"]), "c.yaml", Path("o"))
    assert plain == "simcli run c.yaml --resume --out o"


def test_validate_and_list_help_say_what_they_do_with_an_example() -> None:
    validate = CliRunner().invoke(cli, ["validate", "--help"]).output
    assert "Check CONFIG" in validate and "playing" in validate
    assert "simcli validate configs/quickstart.yaml" in validate
    assert "Exit codes" in validate
    listing = CliRunner().invoke(cli, ["list", "--help"]).output
    assert "simcli list games" in listing and "options" in listing


def test_plain_progress_writes_a_line_when_a_long_while_passed(monkeypatch) -> None:
    """A run that stops early (a gate, a balance rung) may not reach its next tenth:
    a line still comes every EVERY seconds while games arrive."""
    from simcli.tournament import progress

    now = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    stream = io.StringIO()
    bar = progress.PlainProgress(20000, 0, stream)
    bar.update(5)  # quick: no line
    now[0] += progress.EVERY + 1
    bar.update(5)  # late: a line
    bar.update(5)  # just after it: none
    assert stream.getvalue() == "progress: 10/20000 games (0%)\n"
