"""The test suite's figures, measured rather than remembered: how many tests the whole
suite and the fast inner loop (``pytest -m "not slow"``) hold, the CPU the inner loop
takes (pytest and every process it waited for: the measure of its budget, which does not
depend on how busy the machine is), its wall time, and its heaviest tests.

    python benchmarks/suite_figures.py            # the inner loop
    python benchmarks/suite_figures.py --full     # and the whole suite
    python benchmarks/suite_figures.py --top 30   # more of the heaviest tests

Run it from anywhere; it runs pytest in the repository. The per-test CPU comes from the
CPU limit of tests/conftest.py (``--cpu-top``).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pytest(*args: str) -> tuple[str, float, float]:
    """Run pytest in the repository: its output, CPU seconds and wall seconds."""
    cpu, wall = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    return done.stdout + done.stderr, children_cpu() - cpu, time.perf_counter() - wall


def collected(*args: str) -> int:
    output, _, _ = pytest("--collect-only", "-q", *args)
    found = re.search(r"(\d+)(?:/\d+)? tests? collected", output)
    if not found:
        sys.exit(f"pytest collected nothing:\n{output}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=15, help="heaviest tests to list")
    parser.add_argument("--full", action="store_true", help="also time the whole suite")
    args = parser.parse_args()

    print(f"whole suite: {collected()} tests; inner loop: {collected('-m', 'not slow')} tests")
    output, cpu, wall = pytest("-m", "not slow", "-q", f"--cpu-top={args.top}")
    summary = output.strip().splitlines()[-1]
    print(f'pytest -m "not slow": {cpu:.1f} s of CPU, {wall:.1f} s wall ({summary.strip("= ")})')
    section = output.split("CPU of the calls of the tests not marked slow", 1)
    if len(section) == 2:
        lines = section[1].splitlines()[1:]
        print("of which the test calls:", lines[0])
        for line in lines[1 : args.top + 1]:
            if not re.match(r"\s*\d+\.\d\d s  ", line):
                break
            print(line)
    if args.full:
        output, cpu, wall = pytest("-q")
        summary = output.strip().splitlines()[-1]
        print(f"pytest: {cpu:.1f} s of CPU, {wall:.1f} s wall ({summary.strip('= ')})")


if __name__ == "__main__":
    main()
