"""The CPU limit of tests/conftest.py: a test not marked slow that takes more CPU than
``cpu_limit`` fails, naming its CPU time and the fix; a slow one and a quick one pass.
Each case runs pytest in this process on a small test file under the real conftest, with
a limit of a few hundredths of a second so that the burns stay short."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")
LIMIT = 0.02
BURN = 0.05  # CPU seconds a burning test spins for: well over the limit

TESTS = f"""
import subprocess
import sys
import time

import pytest

BURN = "import time\\nend = time.process_time() + {BURN}\\nwhile time.process_time() < end: pass"


def test_quick():
    assert sum(range(100)) == 4950


def test_burns():
    exec(BURN)


@pytest.mark.slow
def test_burns_but_is_marked_slow():
    exec(BURN)


def test_burns_in_a_child_process():
    subprocess.run([sys.executable, "-c", BURN], check=True)


def test_burns_and_fails_on_its_own():
    exec(BURN)
    assert 1 == 2, "its own failure"
"""
MESSAGE = (
    f"s of CPU (this process and the child processes it waited for), over the {LIMIT:g} s "
    "a test not marked slow may take: make it cheaper or mark it @pytest.mark.slow"
)


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # no plugins: a quicker run
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_burning=TESTS)

    def run(limit: float, *args: str) -> pytest.RunResult:
        pytester.makeini(f"[pytest]\nmarkers = slow: slow tests\ncpu_limit = {limit}\n")
        return pytester.runpytest("-p", "no:cacheprovider", *args)

    return run


def test_unmarked_tests_over_the_limit_fail_naming_their_cpu_time_and_the_fix(run):
    outcome = run(LIMIT)
    outcome.assert_outcomes(passed=2, failed=3)  # the quick test and the slow one pass
    outcome.stdout.fnmatch_lines(
        [
            "*_ test_burns _*",
            f"0.* {MESSAGE}",
            # the CPU of a child process counts once the test has waited for it
            "*_ test_burns_in_a_child_process _*",
            f"0.* {MESSAGE}",
            # a test that fails on its own keeps its own failure
            "*_ test_burns_and_fails_on_its_own _*",
            "*AssertionError: its own failure",
        ]
    )
    lines = outcome.outlines
    header = next(i for i, line in enumerate(lines) if line.strip("_ ") == "test_burns")
    assert BURN <= float(lines[header + 1].split()[0]) < 1


@pytest.mark.slow
def test_a_limit_of_0_turns_the_check_off(run):
    run(0, "-k", "burns and not own").assert_outcomes(passed=3)
