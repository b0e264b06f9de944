"""Golden records: every built-in strategy and every config in ``configs/`` plays exactly
the games it played when the golden files were written.

A refactoring of the strategies (or of anything they call) must not change a single move:
the same seed gives the same record, byte for byte. Two kinds of case:

* **strategies**: a short game (or a seat-swapped pair) of each name in
  :data:`simcli.strategy.BUILTIN` on a game it plays, with the parameters the configs use
  at small budgets, searches on several settings each (rewards, depths, pick rules);
* **configs**: one game of every table (pairing, self-play strategy or solo strategy) of
  every variant of each config in ``configs/``, the game the full run would play first at
  that table, with the same index and seed (a run's record of that game is the same line).

Each golden file (``tests/data/golden/<kind>/<case>.jsonl``) holds one line per game: the
record's place (index, seed, seats), its result, its number of plies, and the SHA-256 of
its moves and of its whole line as :func:`simcli.records.dumps` writes it into
``games.jsonl``. A mismatch names the first field that differs.

After an intended change of the moves (a strategy that plays differently on purpose) or of
the record format, write the files again and commit them with the change::

    SIMCLI_UPDATE_GOLDEN=1 pytest tests/test_golden_records.py -m "slow or not slow"
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

import simcli
from simcli.configfile import load_config
from simcli.records import dumps
from simcli.strategy import BUILTIN
from simcli.tournament.schedule import schedule_for

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden"
UPDATE = os.environ.get("SIMCLI_UPDATE_GOLDEN") == "1"

ADAS = {"follow_up": 0.9, "spite": 0.5, "spare": 0.05}
EX_LIBRIS = {"width": 5, "misfit": 0.6, "draw_value": 1.6}
ADAS_OPTIONS = {"max_turns": 400}
EX_LIBRIS_OPTIONS = {"mode": "beginner", "final_round_trigger": "auto", "max_rounds": 20}
BIBLIOGAMO_OPTIONS = {"prestige": "deal", "block_scope": "hire"}


def seat(use: str, params: dict[str, Any] | None = None, name: str | None = None) -> dict:
    return {"name": name or use, "use": use, "params": params or {}}


def case(game: str, seats: list[dict], seed: int, options: dict | None = None, swap=True):
    """A short config of one strategy: ``seats`` on ``seed`` (two players: then swapped,
    a seat-swapped pair as a run plays it)."""
    return {"game": game, "seats": seats, "seed": seed, "options": options or {}, "swap": swap}


#: Case id -> a short config; the first seat is the strategy under test.
STRATEGY_CASES: dict[str, dict[str, Any]] = {
    "random": case("libraria", [seat("random"), seat("greedy")], 11),
    "greedy": case("libraria", [seat("greedy", {"epsilon": 0.3}), seat("greedy")], 12),
    "mcts-libraria": case(
        "libraria", [seat("mcts", {"iterations": 60, "c": 0.4}), seat("greedy")], 13
    ),
    "mcts-libraria-greedy-rollout": case(
        "libraria",
        [seat("mcts", {"iterations": 10, "rollout": "greedy", "reuse": False}), seat("random")],
        14,
    ),
    "mcts-libraria-score": case(
        "libraria", [seat("mcts", {"iterations": 40, "reward": "score"}), seat("greedy")], 15
    ),
    "mcts-library-decisive": case(
        "library",
        [seat("mcts", {"iterations": 12, "rollout_depth": 20, "decisive": True}), seat("greedy")],
        16,
        {"max_turns": 60},
    ),
    "mcts-adas-library": case(
        "adas_library",
        [seat("mcts", {"iterations": 20, "rollout_depth": 10}), seat("adas_heuristic", ADAS)],
        17,
        ADAS_OPTIONS,
    ),
    "ismcts-ex-libris": case(
        "ex_libris",
        [seat("ismcts", {"iterations": 8, "rollout_depth": 6}), seat("greedy")],
        18,
        EX_LIBRIS_OPTIONS,
    ),
    "ismcts-adas-library-strategy-rollout": case(
        "adas_library",
        [
            seat("ismcts", {"iterations": 4, "rollout": "adas_heuristic", "rollout_depth": 3}),
            seat("greedy"),
        ],
        19,
        {"max_turns": 80},
    ),
    "ismcts-bibliogamo": case(
        "bibliogamo",
        [seat("ismcts", {"iterations": 6, "rollout_depth": 6, "reward": "score"})],
        20,
        BIBLIOGAMO_OPTIONS,
    ),
    "libraria_solver": case(
        "libraria",
        [seat("libraria_solver", {"exact_from": 10, "depth": 2}), seat("greedy")],
        21,
    ),
    "ex_libris_heuristic": case(
        "ex_libris",
        [seat("ex_libris_heuristic", EX_LIBRIS), seat("greedy")],
        22,
        EX_LIBRIS_OPTIONS,
    ),
    "bibliogamo_planner": case("bibliogamo", [seat("bibliogamo_planner")], 23, BIBLIOGAMO_OPTIONS),
    "adas_heuristic": case(
        "adas_library", [seat("adas_heuristic", ADAS), seat("greedy")], 24, ADAS_OPTIONS
    ),
    "library_heuristic": case(
        "library",
        [
            seat("library_heuristic", {"defense": 1.0, "threat_bonus": 0.5, "horizon": 2}),
            seat("greedy"),
        ],
        25,
        {"max_turns": 300},
    ),
    "rollout_search-adas-library": case(
        "adas_library",
        [
            seat(
                "rollout_search",
                {
                    "policy": "adas_heuristic",
                    "policy_params": ADAS,
                    "samples": 2,
                    "candidates": 2,
                    "depth": 6,
                    "reward": "score",
                },
            ),
            seat("adas_heuristic", ADAS),
        ],
        26,
        ADAS_OPTIONS,
    ),
    "rollout_search-ex-libris": case(
        "ex_libris",
        [
            seat(
                "rollout_search",
                {
                    "policy": "ex_libris_heuristic",
                    "policy_params": EX_LIBRIS,
                    "samples": 2,
                    "candidates": 2,
                    "depth": 4,
                    "reward": "win",
                },
            ),
            seat("ex_libris_heuristic", EX_LIBRIS),
        ],
        27,
        EX_LIBRIS_OPTIONS,
    ),
    "rollout_search-libraria-mixed": case(
        "libraria",
        [
            seat(
                "rollout_search",
                {"samples": 2, "candidates": 3, "reward": "mixed", "keep": 0.2},
            ),
            seat("greedy"),
        ],
        28,
    ),
    "rollout_search-bibliogamo": case(
        "bibliogamo",
        [
            seat(
                "rollout_search",
                {"policy": "greedy", "samples": 2, "candidates": 2, "depth": 3},
            )
        ],
        29,
        BIBLIOGAMO_OPTIONS,
    ),
    "ex_libris_endgame": case(
        "ex_libris",
        [
            seat("ex_libris_endgame", {"near": 0, "samples": 2, "candidates": 3}),
            seat("ex_libris_heuristic", EX_LIBRIS),
        ],
        30,
        EX_LIBRIS_OPTIONS,
    ),
    "bibliogamo_search": case(
        "bibliogamo",
        [
            seat(
                "bibliogamo_search",
                {
                    "samples": 2,
                    "candidates": 3,
                    "turns": 1,
                    "from_turn": 20,
                    "keep": 0.5,
                    "steps": ["hire", "unblock", "price"],
                },
            )
        ],
        31,
        BIBLIOGAMO_OPTIONS,
    ),
    "bibliogamo_search-to-the-end": case(
        "bibliogamo",
        [seat("bibliogamo_search", {"samples": 2, "candidates": 2, "from_turn": 34})],
        32,
        BIBLIOGAMO_OPTIONS,
    ),
    "bibliogamo_endgame": case(
        "bibliogamo",
        [
            seat(
                "bibliogamo_endgame",
                {"from_day": 35, "work": 30, "min_samples": 2, "max_samples": 4, "z": 1.0},
            )
        ],
        33,
        BIBLIOGAMO_OPTIONS,
    ),
    "adas_race": case(
        "adas_library",
        [seat("adas_race", {"samples": 3, "candidates": 3}), seat("adas_heuristic", ADAS)],
        34,
        ADAS_OPTIONS,
    ),
    "adas_reply": case(
        "adas_library",
        [
            seat(
                "adas_reply",
                {"samples": 3, "extra": 2, "finalists": 2, "candidates": 4, "z": 1},
            ),
            seat("adas_heuristic", ADAS),
        ],
        35,
        ADAS_OPTIONS,
    ),
    "adas_reply-worst-infer": case(
        "adas_library",
        [
            seat(
                "adas_reply",
                {
                    "samples": 2,
                    "candidates": 3,
                    "reply": "worst",
                    "reply_candidates": 2,
                    "rounds": 2,
                    "infer": 2,
                    "disruptive": 1,
                },
            ),
            seat("adas_heuristic", ADAS),
        ],
        36,
        ADAS_OPTIONS,
    ),
}

#: Cases that take a tenth of a second of CPU or more (the fast loop leaves them out).
SLOW_STRATEGY_CASES = {
    "adas_heuristic",
    "adas_race",
    "adas_reply",
    "adas_reply-worst-infer",
    "bibliogamo_endgame",
    "bibliogamo_planner",
    "bibliogamo_search",
    "bibliogamo_search-to-the-end",
    "ex_libris_endgame",
    "ex_libris_heuristic",
    "ismcts-adas-library-strategy-rollout",
    "ismcts-bibliogamo",
    "ismcts-ex-libris",
    "mcts-adas-library",
    "mcts-libraria",
    "mcts-libraria-greedy-rollout",
    "rollout_search-adas-library",
    "rollout_search-bibliogamo",
    "rollout_search-ex-libris",
    "rollout_search-libraria-mixed",
}
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
SLOW_CONFIGS = {
    "adas-library",
    "adas-library-balance",
    "adas-library-ladder",
    "adas-library-search",
    "bibliogamo",
    "bibliogamo-ladder",
    "ex-libris-2p",
    "ex-libris-4p",
    "ex-libris-balance",
    "ex-libris-ladder",
    "ex-libris-search",
    "libraria-balance",
    "libraria-ladder",
    "library-balance",
    "library-ladder",
}


# --------------------------------------------------------------------------- playing


def strategy_lines(spec: dict[str, Any]) -> list[str]:
    seats = spec["seats"]
    lineups = [seats]
    if spec["swap"] and len(seats) == 2:
        lineups.append(seats[::-1])
    return [
        dumps(simcli.play(spec["game"], lineup, options=spec["options"], seed=spec["seed"]))
        for lineup in lineups
    ]


def config_lines(path: Path) -> list[str]:
    """One game of every table of every variant of the config: the first game of that
    table in the full run's schedule (its index and seed)."""
    config = load_config(path)
    schedule = schedule_for(config)
    by_name = {s.name: seat(s.use, s.params, s.name) for s in config.strategies}
    lines = []
    for index in first_games(schedule):
        spec = schedule.spec(index)
        lineup = [by_name[name] for name in spec.seats]
        record = simcli.play(
            config.game,
            lineup,
            options=config.options_for(spec.variant),
            seed=spec.seed,
            index=spec.index,
        )
        if spec.variant is not None:  # where a run's record has it: after the options
            head = {k: record.pop(k) for k in ("schema", "game", "options")}
            record = {**head, "variant": spec.variant, **record}
        lines.append(dumps(record))
    return lines


def first_games(schedule: Any) -> list[int]:
    """The index of the first game of every table of every variant."""
    tables = getattr(schedule, "tables", None)
    if tables is None:  # a gate's paired schedule: its first pair
        return [0, 1]
    per = schedule.games_per_table
    return [
        v * schedule.games_per_variant + t * per
        for v in range(len(schedule.variants))
        for t in range(len(tables))
    ]


# --------------------------------------------------------------------------- comparing


def digest(line: str) -> dict[str, Any]:
    record = json.loads(line)
    moves = json.dumps(record["moves"], separators=(",", ":"))
    return {
        "index": record["index"],
        "seed": record["seed"],
        "seats": record["seats"],
        "variant": record.get("variant"),
        "termination": record["termination"],
        "scores": record["scores"],
        "winners": record["winners"],
        "final_hash": record.get("final_hash"),
        "plies": len(record["moves"]),
        "moves_sha256": hashlib.sha256(moves.encode()).hexdigest(),
        "line_sha256": hashlib.sha256(line.encode()).hexdigest(),
    }


def check_golden(path: Path, lines: list[str]) -> None:
    got = [digest(line) for line in lines]
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in got))
        return
    assert path.is_file(), f"no golden file {path}: write it with SIMCLI_UPDATE_GOLDEN=1"
    want = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    assert len(got) == len(want), f"{path.name}: {len(got)} games, golden {len(want)}"
    for g, w in zip(got, want, strict=True):
        for key in w:
            assert g.get(key) == w[key], (
                f"{path.name}: game {w['index']} seats {w['seats']}: {key} differs: "
                f"now {g.get(key)!r}, golden {w[key]!r}"
            )


def marked(ids: list[str], slow: set[str]) -> list[Any]:
    return [pytest.param(i, id=i, marks=[pytest.mark.slow] if i in slow else []) for i in ids]


@pytest.mark.parametrize("case_id", marked(sorted(STRATEGY_CASES), SLOW_STRATEGY_CASES))
def test_strategy_golden(case_id: str) -> None:
    lines = strategy_lines(STRATEGY_CASES[case_id])
    check_golden(GOLDEN / "strategies" / f"{case_id}.jsonl", lines)


@pytest.mark.parametrize("name", marked([p.stem for p in CONFIGS], SLOW_CONFIGS))
def test_config_golden(name: str) -> None:
    lines = config_lines(ROOT / "configs" / f"{name}.yaml")
    check_golden(GOLDEN / "configs" / f"{name}.jsonl", lines)


def test_every_builtin_strategy_has_a_case() -> None:
    covered = {c["seats"][0]["use"] for c in STRATEGY_CASES.values()}
    assert sorted(set(BUILTIN) - covered) == []


def test_every_config_has_a_golden_file() -> None:
    names = {p.stem for p in CONFIGS}
    files = {p.stem for p in (GOLDEN / "configs").glob("*.jsonl")}
    assert sorted(names - files) == [] and sorted(files - names) == []
