"""A real Dask cluster (a ``dask scheduler`` and two ``dask worker`` processes on
localhost, each its own program as on separate machines) gives the records of the local
pool, clean and with a strategy that kills its process: the retry and blame policy is
the pool's on both executors (before, Dask blamed every game of a task whose worker died
and recorded ``KilledWorker`` errors, games that play normally on their own among them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_fault_tolerance import invoke, records, write

# Runs on both executors, on the session's one cluster of three programs (dask_cluster in
# tests/conftest.py): seconds each.
pytestmark = pytest.mark.slow


def _run_both(tmp_path: Path, config: Path, address: str) -> tuple[Path, Path, int, int]:
    local, remote = tmp_path / "local", tmp_path / "dask"
    on_pool = invoke("run", str(config), "--out", str(local), "-q", "--workers", "2")
    on_dask = invoke(
        "run", str(config), "--out", str(remote), "-q", "--executor", "dask",
        "--scheduler", address,
    )  # fmt: skip
    return local, remote, on_pool.exit_code, on_dask.exit_code


def test_a_dask_cluster_gives_the_local_records(tmp_path, dask_cluster) -> None:
    config = write(tmp_path, "greedy", games=10)
    local, remote, pool_code, dask_code = _run_both(tmp_path, config, dask_cluster)
    assert (pool_code, dask_code) == (0, 0)
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
    assert json.loads((remote / "run.json").read_text())["timings"]["executor"] == "dask"


def test_a_strategy_that_kills_its_process_gives_the_same_records_on_dask(
    tmp_path, dask_cluster
) -> None:
    # Suicide exits its process at a 5% chance per move, from the game's own RNG: a game
    # that kills once kills again on its retry, and a game that does not never does.
    config = write(tmp_path, "bad.py:Suicide", games=12)
    local, remote, pool_code, dask_code = _run_both(tmp_path, config, dask_cluster)
    assert (pool_code, dask_code) == (1, 1)  # lost games are errors
    recs = records(local)
    lost = [r for r in recs if r["termination"] == "error"]
    assert lost and len(lost) < len(recs)
    assert {r["detail"]["message"] for r in lost} == {"worker process died (exit code 3)"}
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
    affected = [
        sorted((a["index"], a["what"]) for a in json.loads((out / "run.json").read_text())[
            "results"]["affected_games"])
        for out in (local, remote)
    ]  # fmt: skip
    assert affected[0] == affected[1]


def test_a_move_that_never_returns_is_stopped_on_dask_as_on_the_pool(
    tmp_path, dask_cluster
) -> None:
    # Deaf blocks the alarm and sleeps: on the pool its worker is stopped past the limit
    # and a grace period, the game retried once and recorded as error. Before, on Dask
    # the move blocked a worker thread for its whole minute.
    config = write(tmp_path, "bad.py:Deaf", games=2)
    config.write_text(config.read_text() + "move_time_limit: 0.2\n")
    local, remote, pool_code, dask_code = _run_both(tmp_path, config, dask_cluster)
    assert (pool_code, dask_code) == (1, 1)
    kinds = {r["detail"]["kind"] for r in records(local) if r["termination"] == "error"}
    assert kinds == {"worker_stopped"}
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
