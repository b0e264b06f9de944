"""Issue 36, class 2: whatever a strategy raises while it is loaded or built is bad input.

``SystemExit(0)`` in a constructor made ``simcli validate``, ``run`` and ``gate`` exit 0
having checked or played nothing (CI read it as a pass); ``KeyboardInterrupt`` was
reported as the user's Ctrl-C (exit 130); other exceptions were an internal error (70) or
a traceback (1). Now each is one line naming the strategy, exit 2, nothing written; exit
130 only when the user pressed Ctrl-C.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

BOTS = Path(__file__).resolve().parent / "data" / "hardening_bots.py"

CONSTRUCTORS = [
    ("ExitInInit", "SystemExit: 0"),  # the example: exit 0, nothing played
    ("InterruptInInit", "KeyboardInterrupt"),  # the example: exit 130
    ("BaseInInit", "CustomBase: gone"),  # a BaseException of its own: a traceback, exit 1
    ("GeneratorExitInInit", "GeneratorExit"),
    ("ErrorInInit", "RuntimeError: cannot build"),  # internal error, exit 70
]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def config(tmp_path: Path, strategy: str, extra: str = "") -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(
        f"game: libraria\ngames: 2\nstrategies:\n  - {{name: bad, use: '{strategy}'}}\n"
        f"  - random\n{extra}"
    )
    return path


def assert_bad_input(result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and len(result.output.splitlines()) == 1
    assert "strategy 'bad'" in result.output or "strategy '" in result.output
    for needle in needles:
        assert needle in result.output, result.output


@pytest.mark.parametrize(("cls", "what"), CONSTRUCTORS)
def test_a_constructor_that_leaves_fails_validate_and_run(tmp_path, cls, what):
    path = config(tmp_path, f"{BOTS}:{cls}")
    assert_bad_input(invoke("validate", str(path)), f"{cls}() fails: {what}")
    out = tmp_path / "out"
    result = invoke("run", str(path), "--out", str(out), "--workers", "0", "-q", "--no-plots")
    assert_bad_input(result, what)
    assert not out.exists()


@pytest.mark.parametrize(("cls", "what"), CONSTRUCTORS[:2])
def test_a_gate_candidate_that_leaves_is_not_a_pass(tmp_path, cls, what):
    path = config(
        tmp_path,
        f"{BOTS}:{cls}",
        "gate: {candidate: bad, baseline: random, elo0: 0, elo1: 10, max_games: 40}\n",
    )
    out = tmp_path / "out"
    result = invoke("gate", str(path), "--out", str(out), "--workers", "0", "-q")
    assert_bad_input(result, what)
    assert not out.exists()


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("raise SystemExit(0)\n", "SystemExit: 0"),
        ("raise KeyboardInterrupt\n", "KeyboardInterrupt"),
        ("class X(BaseException):\n    pass\nraise X('at import')\n", "X: at import"),
    ],
)
def test_a_module_that_leaves_while_imported_is_bad_input(tmp_path, source, what):
    (tmp_path / "leaving.py").write_text(source)
    path = config(tmp_path, "leaving.py:Bot")
    result = invoke("validate", str(path))
    assert_bad_input(result, "strategy 'leaving.py:Bot' fails to load", what)
    # nothing half-imported is left behind: a second load fails the same way
    assert_bad_input(invoke("validate", str(path)), what)


def test_the_users_own_ctrl_c_while_loading_is_still_an_interrupt(tmp_path):
    """A SIGINT that arrives while a strategy loads is the user's: exit 130."""
    (tmp_path / "slow.py").write_text(
        "import os, signal, time\n"
        "os.kill(os.getpid(), signal.SIGINT)  # as if the user pressed Ctrl-C now\n"
        "time.sleep(5)\n"
    )
    result = invoke("validate", str(config(tmp_path, "slow.py:Bot")))
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.output


def test_loading_leaves_the_sigint_handler_as_it_found_it(tmp_path):
    import signal

    (tmp_path / "quiet.py").write_text(
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "from simcli_strategies.random_play import RandomStrategy as Bot\n"
    )
    before = signal.getsignal(signal.SIGINT)
    assert invoke("validate", str(config(tmp_path, "quiet.py:Bot")), "--probe", "0").exit_code == 0
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.slow
@pytest.mark.parametrize(("cls", "what"), CONSTRUCTORS[:2])
def test_an_isolated_constructor_that_leaves_is_bad_input_too(tmp_path, cls, what):
    path = config(tmp_path, f"{BOTS}:{cls}", "isolation: process\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 2, result.output
    assert "strategy 'bad'" in result.output


def test_the_python_api_raises_the_strategy_load_error():
    from simcli.errors import StrategyLoadError
    from simcli.strategy import check_params, load_strategy_class

    cls = load_strategy_class(f"{BOTS}:ExitInInit")
    with pytest.raises(StrategyLoadError, match="ExitInInit\\(\\) fails: SystemExit: 0"):
        check_params("bad", cls, {})
    assert sys.exc_info() == (None, None, None)
