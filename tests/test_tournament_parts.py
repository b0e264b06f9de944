"""Small parts of the run path: slotted states, the worker's shared status, the executor
seam, the tally."""

from __future__ import annotations

import multiprocessing
import random
import time

import pytest

from simcli.configfile import load_config
from simcli.game import State
from simcli.games import load_game
from simcli.tournament.executor import Executor, InProcess
from simcli.tournament.pool import LocalPool
from simcli.tournament.schedule import schedule_for
from simcli.tournament.tally import Tally
from simcli.tournament.worker import WorkerStatus

CONFIG = """\
name: parts
game: libraria
strategies: [random, greedy]
games: 4
seed: 1
workers: 0
"""


@pytest.mark.parametrize("game_id,players", [("libraria", 2), ("library", 2), ("bibliogamo", 1)])
def test_declared_slots_take_effect(game_id, players) -> None:
    assert State.__slots__ == ()
    game = load_game(game_id)
    options = game.resolve_options({})
    state = game.new_state(players, options, game.sample_setup(players, options, random.Random(1)))
    assert "__slots__" in type(state).__dict__
    assert not hasattr(state, "__dict__")  # the slots are the only attributes
    with pytest.raises(AttributeError):
        state.not_a_field = 1


def test_worker_status_fields() -> None:
    status = WorkerStatus(multiprocessing.get_context("fork"))
    assert (status.game, status.move_started, status.stopping) == (-1, 0.0, False)
    status.game = 17
    now = time.monotonic()
    status.move_started = now
    status.request_stop()
    assert (status.game, status.move_started, status.stopping) == (17, now, True)


def _executors(tmp_path) -> tuple[InProcess, LocalPool]:
    """An in-process executor and a one-worker pool for CONFIG."""
    (tmp_path / "c.yaml").write_text(CONFIG)
    config = load_config(tmp_path / "c.yaml")
    schedule = schedule_for(config)
    return InProcess(config, schedule), LocalPool(config, schedule, 1)


def test_executors_meet_the_seam(tmp_path) -> None:
    local, pool = _executors(tmp_path)
    try:
        assert isinstance(local, Executor) and isinstance(pool, Executor)
        chunks = list(local.run(iter([(0, 2)])))
        assert [c.start for c in chunks] == [0, 1] and local.affected == []
    finally:
        local.close()
        pool.close()


def test_a_pool_forks_at_start_and_lets_released_workers_go(tmp_path) -> None:
    """start() forks the workers before the first range; release() tells idle ones to
    exit, and a range sent after it goes to a fresh worker (a released one reads no
    more): the same games as played in this process."""
    local, pool = _executors(tmp_path)
    try:
        pool.start()
        assert pool.spawned == 1 and pool.workers[0].process.is_alive()
        first = list(pool.run(iter([(0, 2)])))
        released = pool.workers[0]
        pool.release()
        second = list(pool.run(iter([(2, 4)])))  # at once: not to the worker going down
        assert pool.spawned == 2 and pool.affected == []
        assert released not in pool.workers and not released.process.is_alive()
        played = "".join(c.lines for c in sorted(first + second, key=lambda c: c.start))
        expected = "".join(c.lines for c in local.run(iter([(0, 4)])))
        assert played == expected
    finally:
        local.close()
        pool.close()


def test_tally_counts_terminations() -> None:
    tally = Tally()
    for termination in ("normal", "error", "normal", "forfeit"):
        tally.add(termination)
    assert tally.games == 4 and tally.errors == 1
    assert tally.terminations == {"normal": 2, "error": 1, "forfeit": 1}
