"""A real Dask cluster (a ``dask scheduler`` and two ``dask worker`` processes on
localhost, each its own program as on separate machines) gives the records of the local
pool, clean and with a strategy that kills its process: the retry and blame policy is
the pool's on both executors (before, Dask blamed every game of a task whose worker died
and recorded ``KilledWorker`` errors, games that play normally on their own among them)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from test_fault_tolerance import invoke, records, write

# A cluster of three programs and runs on both executors: about half a minute.
pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args: list[str], folder: Path, name: str) -> subprocess.Popen:
    log = (folder / f"{name}.log").open("w")
    return subprocess.Popen(
        args,
        cwd=folder,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: torn down whole
    )


def _stop(proc: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    try:  # nannies, workers and pool workers left in its group
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cluster")
    address = f"tcp://127.0.0.1:{_free_port()}"
    port = address.rsplit(":", 1)[1]
    procs = [
        _start(
            ["dask", "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
            folder,
            "scheduler",
        )
    ]
    try:
        for n in range(2):
            procs.append(
                _start(
                    [
                        "dask",
                        "worker",
                        address,
                        "--nthreads",
                        "1",
                        "--host",
                        "127.0.0.1",
                        "--no-dashboard",
                        "--local-directory",
                        str(folder / f"w{n}"),
                    ],
                    folder,
                    f"worker{n}",
                )
            )
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for proc in reversed(procs):
            _stop(proc)
    left = [p.pid for p in procs if p.poll() is None]
    assert not left, f"cluster processes left: {left}"


def _run_both(tmp_path: Path, config: Path, address: str) -> tuple[Path, Path, int, int]:
    local, remote = tmp_path / "local", tmp_path / "dask"
    on_pool = invoke("run", str(config), "--out", str(local), "-q", "--workers", "2")
    on_dask = invoke(
        "run", str(config), "--out", str(remote), "-q", "--executor", "dask",
        "--scheduler", address,
    )  # fmt: skip
    return local, remote, on_pool.exit_code, on_dask.exit_code


def test_a_dask_cluster_gives_the_local_records(tmp_path, cluster) -> None:
    config = write(tmp_path, "greedy", games=10)
    local, remote, pool_code, dask_code = _run_both(tmp_path, config, cluster)
    assert (pool_code, dask_code) == (0, 0)
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
    assert json.loads((remote / "run.json").read_text())["timings"]["executor"] == "dask"


def test_a_strategy_that_kills_its_process_gives_the_same_records_on_dask(
    tmp_path, cluster
) -> None:
    # Suicide exits its process at a 5% chance per move, from the game's own RNG: a game
    # that kills once kills again on its retry, and a game that does not never does.
    config = write(tmp_path, "bad.py:Suicide", games=12)
    local, remote, pool_code, dask_code = _run_both(tmp_path, config, cluster)
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


def test_a_move_that_never_returns_is_stopped_on_dask_as_on_the_pool(tmp_path, cluster) -> None:
    # Deaf blocks the alarm and sleeps: on the pool its worker is stopped past the limit
    # and a grace period, the game retried once and recorded as error. Before, on Dask
    # the move blocked a worker thread for its whole minute.
    config = write(tmp_path, "bad.py:Deaf", games=2)
    config.write_text(config.read_text() + "move_time_limit: 0.2\n")
    local, remote, pool_code, dask_code = _run_both(tmp_path, config, cluster)
    assert (pool_code, dask_code) == (1, 1)
    kinds = {r["detail"]["kind"] for r in records(local) if r["termination"] == "error"}
    assert kinds == {"worker_stopped"}
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
