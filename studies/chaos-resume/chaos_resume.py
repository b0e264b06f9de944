"""Chaos trials: kill the parent or a worker of ``simcli run`` at random moments, resume
after every parent kill, and compare the final log with a clean run's, byte for byte.

    python studies/chaos-resume/chaos_resume.py [--trials 30] [--kills 6] [--games 600] \
        [--seed 100]

Each trial is seeded (trial ``i`` uses seed ``--seed + i``); the kills are those of
``tests/chaos.py`` (which ``tests/test_chaos.py`` runs for three seeds). Prints one line
per trial and the totals: logs equal to the clean one, kills of the parent and of a
worker, kills that left a half-written last line, and processes left behind.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from chaos import chaos_trial, clean_log, pause_for, write_config  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = write_config(folder, args.games)
        expected, clean_seconds = clean_log(config, folder / "clean")
        equal = parents = workers = at_start = cut = left = runs = 0
        started = time.perf_counter()
        for i in range(args.trials):
            trial = chaos_trial(
                config,
                folder / f"t{i}",
                expected,
                args.games,
                args.seed + i,
                args.kills,
                pause=pause_for(clean_seconds),
            )
            kinds = [k for k, _ in trial.kills]
            equal += trial.equal and trial.status == "complete"
            parents += kinds.count("parent")
            workers += kinds.count("worker")
            at_start += sum(1 for _, lines in trial.kills if lines == 0)
            cut += trial.cut_lines
            left += len(trial.left)
            runs += trial.runs
            print(
                f"trial {i} (seed {trial.seed}): {trial.status}, "
                f"{'equal' if trial.equal else 'DIFFERENT'}, runs {trial.runs}, kills "
                + ", ".join(f"{k}@{n}" for k, n in trial.kills),
                flush=True,
            )
        seconds = time.perf_counter() - started
    print(
        f"{args.trials} trials of {args.games} games, {args.kills} kills each (up to "
        f"{3 * args.kills} moments): "
        f"{equal} logs equal to the clean run; {parents} parent and {workers} worker kills "
        f"({at_start} before the first game line), {cut} half-written last lines, "
        f"{runs} runs started, {left} processes left; {seconds:.0f} s"
    )


if __name__ == "__main__":
    main()
