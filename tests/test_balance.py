"""simcli balance: the stopping rule, the tuner's guarantees on a game whose fair value
is known exactly (tests/data/shift_duel.py: fair komi = -shift), determinism, resume,
the metrics on hand-worked games, and bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simcli.balancing.metrics import _lead_changes, record_metrics, replay_metrics
from simcli.balancing.plan import PROBE, Planner, Played
from simcli.balancing.stopping import SeatCounts
from simcli.balancing.tuner import Probe, fair_value, race_survivors
from simcli.cli.main import cli
from simcli.configfile import load_config
from simcli.games import load_game

DATA = Path(__file__).parent / "data"
DUEL = f"{DATA / 'shift_duel.py'}:ShiftDuel"


def write(tmp_path: Path, text: str, name: str = "b.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def duel_config(tmp_path: Path, balance: str, extra: str = "") -> Path:
    return write(tmp_path, f"name: duel\ngame: {DUEL}\nseed: 3\n{extra}balance:\n{balance}")


def run_balance(config: Path, out: Path, *args: str) -> dict:
    result = CliRunner().invoke(cli, ["balance", str(config), "--out", str(out), "-q", *args])
    assert result.exit_code == 0, result.output
    return json.loads((out / "balance.json").read_text())


# -- the stopping rule ------------------------------------------------------------------


@pytest.mark.slow
def test_a_rung_stops_at_the_first_game_at_which_the_precision_holds(tmp_path) -> None:
    config = duel_config(tmp_path, "  ladder: [random]\n  precision: 0.05\n  min_games: 10\n")
    data = run_balance(config, tmp_path / "out", "--no-plots")
    rung = data["rungs"][0]
    assert rung["stopped_by"] == "precision"
    records = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(records) == rung["games"] and [r["index"] for r in records] == list(
        range(len(records))
    )
    counts = SeatCounts(2)
    widths = []
    for r in records:
        counts.add(r["winners"])
        widths.append(counts.widest())
    assert widths[-1] <= 0.05 < max(widths[9:-1])  # it held at the last game only
    assert all(w > 0.05 for w in widths[9:-1])
    # about (1.96 / 0.05)^2 / 4 = 384 decisive games are needed at a share near 1/2
    assert 300 < rung["decisive"] < 420


@pytest.mark.slow
def test_a_rung_stops_at_max_games(tmp_path) -> None:
    config = duel_config(tmp_path, "  ladder: [random]\n  precision: 0.01\n  max_games: 50\n")
    data = run_balance(config, tmp_path / "out", "--no-plots")
    assert data["rungs"][0]["games"] == 50 and data["rungs"][0]["stopped_by"] == "max_games"


# -- the tuner ---------------------------------------------------------------------------


def duel_share(komi: float, shift: int = 10) -> tuple[float, float]:
    """Exact P(seat 0 wins) and P(draw) of Shift Duel at ``komi``: numbers 0..99."""
    a = np.arange(100)[:, None]
    b = np.arange(100)[None, :] + shift + komi
    return float(np.mean(a > b)), float(np.mean(a == b))


def simulate_search(config_path: Path, rng: np.random.Generator):
    """Drive the planner's search with games drawn from the exact model."""
    config = load_config(config_path)
    planner = Planner(config)
    played = [Played(planner.segments([]), [[0]], "max_games")]  # the rung (unused)
    while (segment := planner.segments(played)) is not None and segment.kind == PROBE:
        win, draw = duel_share(segment.value)
        draws = rng.binomial(segment.games, draw)
        wins = rng.binomial(segment.games - draws, win / (1 - draw))
        winners = [[0]] * wins + [[1]] * (segment.games - draws - wins) + [[]] * draws
        played.append(Played(segment, winners, "max_games"))
    return planner.fair(played[1:]), sum(len(p.winners) for p in played[1:])


@pytest.mark.slow
def test_the_fair_value_interval_covers_the_truth_at_about_its_nominal_rate(tmp_path) -> None:
    config = duel_config(
        tmp_path,
        "  ladder: [random]\n  tune: {option: komi, low: -30, high: 10, probe_games: 300,"
        " max_games: 3000}\n",
    )
    rng = np.random.default_rng(20261203)
    hits = 0
    for _ in range(200):
        fair, _spent = simulate_search(config, rng)
        hits += fair.low is not None and fair.high is not None and fair.low <= -10 <= fair.high
    # 95% nominal; 200 repetitions: sd 1.5 points
    assert 0.90 <= hits / 200 <= 0.99


@pytest.mark.slow
def test_the_search_finds_the_fair_komi_and_confirms_it(tmp_path) -> None:
    config = duel_config(
        tmp_path,
        "  ladder: [random]\n  precision: 0.03\n  max_games: 3000\n"
        "  tune: {option: komi, low: -20, high: 5, probe_games: 400}\n",
        "workers: 2\n",
    )
    data = run_balance(config, tmp_path / "out", "--no-plots")
    tune = data["tune"]
    assert tune["in_range"] and tune["low"] <= -10 <= tune["high"]
    assert tune["confirm"]["value"] == round(2 * tune["fair"]) / 2  # nearest half point
    assert tune["confirm"]["headline"]["p"] > 0.01
    values = [p["value"] for p in tune["probes"]]
    assert values[:2] == [-20, 5]  # the ends first, then where the estimate is


@pytest.mark.slow
def test_no_value_in_the_range_evens_the_game(tmp_path) -> None:
    config = duel_config(
        tmp_path,
        "  ladder: [random]\n  max_games: 200\n"
        "  tune: {option: komi, low: 20, high: 40, probe_games: 200}\n",
    )
    data = run_balance(config, tmp_path / "out", "--no-plots")
    assert not data["tune"]["in_range"] and data["tune"]["confirm"] is None
    text = (tmp_path / "out" / "balance.md").read_text()
    assert "No value of komi in [20, 40] evens the game" in text


@pytest.mark.slow
def test_a_race_picks_the_truly_fairest_variant(tmp_path) -> None:
    variants = (
        "variants:\n"
        "  - {name: k-20, options: {komi: -20}}\n"
        "  - {name: k-10, options: {komi: -10}}\n"
        "  - {name: k-4, options: {komi: -4}}\n"
    )
    config = duel_config(
        tmp_path,
        "  ladder: [random]\n  max_games: 100\n"
        "  tune: {variants: [k-20, k-4, k-10], probe_games: 200, max_games: 4000}\n",
        variants,
    )
    data = run_balance(config, tmp_path / "out", "--no-plots")
    race = data["tune"]
    assert race["fairest"] == "k-10"
    rounds = {v["variant"]: v["rounds"] for v in race["variants"]}
    assert rounds["k-20"] < rounds["k-10"]  # the unfair one dropped out early


def test_race_survivors_keep_what_is_not_significantly_less_fair() -> None:
    assert race_survivors({"a": [500, 500], "b": [700, 300], "c": [510, 490]}) == ["a", "c"]


def test_fair_value_on_exact_counts_is_the_root() -> None:
    probes = [
        Probe(x, (round(1000 * p), 1000 - round(1000 * p)))
        for x, p in ((-4, 0.2), (0, 0.5), (4, 0.8))
    ]
    fair = fair_value(probes, -4, 4, 1)
    assert abs(fair.fair) < 1e-6 and fair.low < 0 < fair.high


# -- determinism and resume --------------------------------------------------------------


def strip_seconds(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "seconds"}


@pytest.mark.slow
def test_same_games_and_balance_for_one_and_two_workers(tmp_path) -> None:
    config = duel_config(
        tmp_path,
        "  ladder: [random, greedy]\n  precision: 0.06\n  skill_check: true\n"
        "  skill_games: 20\n  tune: {option: komi, low: -20, high: 5, probe_games: 100,"
        " max_games: 400}\n",
    )
    one = run_balance(config, tmp_path / "one", "--workers", "1", "--no-plots")
    two = run_balance(config, tmp_path / "two", "--workers", "2", "--no-plots")
    assert strip_seconds(one) == strip_seconds(two)
    logs = [(tmp_path / d / "games.jsonl").read_bytes() for d in ("one", "two")]
    assert logs[0] == logs[1]


@pytest.mark.slow
def test_a_balance_on_a_dask_cluster_gives_the_local_games_and_answer(
    tmp_path, dask_cluster
) -> None:
    """Every segment (rungs, skill check, probes, confirmation) goes to the cluster and
    comes back as the local pool plays it, byte for byte."""
    config = duel_config(
        tmp_path,
        "  ladder: [random, greedy]\n  precision: 0.1\n  skill_check: true\n"
        "  skill_games: 10\n  tune: {option: komi, low: -20, high: 5, probe_games: 40,"
        " max_games: 160}\n",
    )
    local = run_balance(config, tmp_path / "local", "--workers", "2", "--no-plots")
    remote = run_balance(
        config,
        tmp_path / "dask",
        "--executor",
        "dask",
        "--scheduler",
        dask_cluster,
        "--no-plots",
    )
    assert strip_seconds(local) == strip_seconds(remote)
    assert remote["tune"]["probes"]  # the tuner ran on the cluster too
    logs = [(tmp_path / d / "games.jsonl").read_bytes() for d in ("local", "dask")]
    assert logs[0] == logs[1]
    parts = sorted((tmp_path / "dask" / "parts").iterdir())
    assert parts and all(
        json.loads((p / "run.json").read_text())["timings"]["executor"] == "dask" for p in parts
    )


@pytest.mark.slow
def test_resume_after_an_interrupt_gives_the_same_games(tmp_path) -> None:
    config = write(
        tmp_path,
        "name: lib\ngame: libraria\nseed: 4\nworkers: 2\nbalance:\n  ladder: [random, greedy]\n"
        "  precision: 0.03\n  metric_games: 50\n",
    )
    full = run_balance(config, tmp_path / "full", "--no-plots")
    out = tmp_path / "cut"
    cmd = [sys.executable, "-m", "simcli", "balance", str(config), "--out", str(out), "--no-plots"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, start_new_session=True)
    for line in proc.stderr:
        if "rung greedy: up to" in line:
            break
    os.killpg(proc.pid, signal.SIGINT)
    proc.communicate(timeout=120)
    assert proc.returncode == 130
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "interrupted" and len(info["balance"]["segments"]) == 1
    resumed = run_balance(config, out, "--resume", "--no-plots")
    assert strip_seconds(resumed) == strip_seconds(full)
    assert (out / "games.jsonl").read_bytes() == (tmp_path / "full" / "games.jsonl").read_bytes()


@pytest.mark.slow
def test_report_replay_and_export_read_a_balance_folder(tmp_path) -> None:
    config = duel_config(tmp_path, "  ladder: [random]\n  precision: 0.1\n")
    run_balance(config, tmp_path / "out", "--no-plots")
    runner = CliRunner()
    for args in (
        ["replay", str(tmp_path / "out"), "--verify"],
        ["report", str(tmp_path / "out")],
        ["export", str(tmp_path / "out")],
    ):
        result = runner.invoke(cli, [*args])
        assert result.exit_code == 0, (args, result.output)


# -- metrics ------------------------------------------------------------------------------


def test_record_metrics_by_hand() -> None:
    def rec(winners, scores, termination="normal"):
        return {"winners": winners, "scores": scores, "termination": termination}

    records = [
        rec([0], [10, 7]),  # seat 0 wins by 3
        rec([1], [4, 5]),  # seat 1 wins by 1
        rec([1], [2, 8]),  # seat 1 wins by 6
        rec([], [6, 6]),  # a draw
        rec([], None, "move_limit"),  # stopped by the move limit
    ]
    m = record_metrics(records, 2)
    assert m["completion"] == 3 / 5 and m["draws"] == 1 / 5 and m["timeouts"] == 1 / 5
    assert m["margin"]["mean"] == pytest.approx((3 + 1 + 6) / 3)
    # win rates 1/5 and 2/5: balance 1 - (2/5 - 1/5)
    assert m["win_rates"] == [0.2, 0.4] and m["balance"] == pytest.approx(0.8)


def test_replay_metrics_of_the_duel_by_hand() -> None:
    import simcli

    game = load_game(DUEL)
    records = [simcli.play(DUEL, "random", players=2, seed=s, index=s) for s in range(5)]
    m = replay_metrics(records, game)
    # two decisions a game, with 3 and 1 legal moves
    assert m["branching"] == 2 and m["decision_share"] == 0.5
    assert m["length"] == {"mean": 2.0, "sd": 0.0, "unit": "plies"}
    # the leader is the final winner from the deal on: no lead change, no comeback
    assert m["lead_changes"] == 0 and m["comebacks"] == 0


def test_lead_changes_count_changes_of_the_known_leader() -> None:
    assert _lead_changes([0, 0, None, 1, 1, 0]) == 2
    assert _lead_changes([None, None]) == 0


# -- bad input ----------------------------------------------------------------------------

BAD = {
    "unknown option": ("  tune: {option: kmi, low: 0, high: 1}\n", "no option 'kmi'"),
    "not numeric": ("  tune: {option: opening, low: 0, high: 1}\n", "is not numeric"),
    "low >= high": ("  tune: {option: komi, low: 2, high: 2}\n", "high must be above low"),
    "empty ladder": ("  ladder: []\n", "the ladder is empty"),
    "at not in ladder": ("  tune: {option: komi, low: 0, high: 1, at: mcts}\n", "no rung named"),
    "precision": ("  precision: 0.5\n", "between 0 and 0.5"),
}


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", ["validate", "balance"])
def test_bad_balance_input_is_one_line_and_exit_2(tmp_path, case, command) -> None:
    text, expected = BAD[case]
    config = write(tmp_path, f"name: bad\ngame: libraria\nbalance:\n{text}")
    out = tmp_path / "out"
    args = [command, str(config)] + (["--out", str(out)] if command == "balance" else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert expected in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_a_one_player_game_has_no_balance(tmp_path) -> None:
    config = write(tmp_path, "name: bad\ngame: bibliogamo\nbalance: {precision: 0.1}\n")
    result = CliRunner().invoke(cli, ["balance", str(config), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "played by 1 player" in result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_an_existing_folder_is_not_overwritten_without_force(tmp_path) -> None:
    config = duel_config(tmp_path, "  ladder: [random]\n  precision: 0.2\n")
    run_balance(config, tmp_path / "out", "--no-plots")
    result = CliRunner().invoke(cli, ["balance", str(config), "--out", str(tmp_path / "out")])
    assert result.exit_code == 4 and "--force" in result.output  # its own code, see errors.py


# -- the default ladders -------------------------------------------------------------------

LADDER_CONFIGS = {
    "libraria": "libraria-ladder.yaml",
    "library": "library-ladder.yaml",
    "adas_library": "adas-library-ladder.yaml",
    "ex_libris": "ex-libris-ladder.yaml",
}


@pytest.mark.parametrize("game", sorted(LADDER_CONFIGS))
def test_each_default_ladder_is_its_ladder_config(game) -> None:
    from simcli.balancing.ladders import default_ladder

    config = load_config(Path(__file__).parent.parent / "configs" / LADDER_CONFIGS[game])
    expected = [(s.name, s.use, s.params) for s in config.strategies]
    entries = default_ladder(load_game(game))
    assert [(e["name"], e["use"], e.get("params", {})) for e in entries] == expected


def test_a_balance_config_without_a_ladder_climbs_the_default(tmp_path) -> None:
    config = load_config(write(tmp_path, "game: library\nbalance: {top: greedy}\n"))
    assert config.balance.ladder == ("random", "greedy") and config.format == "self_play"


@pytest.mark.slow
def test_balance_json_is_recomputed_from_the_games_alone(tmp_path) -> None:
    from simcli.balancing.summary import build_balance
    from simcli.tournament.gamelog import read_records

    config = duel_config(
        tmp_path,
        "  ladder: [random, greedy]\n  precision: 0.1\n  skill_check: true\n  skill_games: 10\n"
        "  tune: {option: komi, low: -20, high: 5, probe_games: 60, max_games: 240}\n",
    )
    data = run_balance(config, tmp_path / "out", "--no-plots")
    again = build_balance(load_config(config), read_records(tmp_path / "out" / "games.jsonl"))
    assert json.loads(json.dumps(again)) == strip_seconds(data)
    assert len(data["tune"]["probes"]) >= 2 and len(data["skill_checks"]) == 1


@pytest.mark.slow
def test_a_rules_error_in_a_balance_game_exits_1(tmp_path) -> None:
    (tmp_path / "broken.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(DATA)!r})\n"
        "from shift_duel import DuelState, ShiftDuel\n\n"
        "class BrokenState(DuelState):\n"
        "    def apply(self, move):\n"
        "        if self.moved == 1 and self.values[0] < 10:\n"
        "            raise RuntimeError('a bug in the rules')\n"
        "        super().apply(move)\n\n"
        "class BrokenDuel(ShiftDuel):\n"
        "    id = 'broken_duel'\n\n"
        "    def new_state(self, players, options, setup):\n"
        "        return BrokenState(self, options, list(setup['values']))\n"
    )
    config = write(
        tmp_path,
        "game: broken.py:BrokenDuel\nbalance: {ladder: [random], precision: 0.2}\n",
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["balance", str(config), "--out", str(out), "-q"])
    assert result.exit_code == 1, result.output
    data = json.loads((out / "balance.json").read_text())
    assert data["errors"] > 0 and "ended in an error of the rules" in result.output


def test_the_answer_says_when_the_top_rung_has_no_winner_or_the_confirmation_is_uneven():
    from simcli.balancing.report import answer

    def rung(name, wins, p):
        n = sum(wins)
        shares = [
            {"seat": s, "wins": k, "share": k / n if n else None, "low": 0.0, "high": 1.0}
            for s, k in enumerate(wins)
        ]
        return {
            "strategy": name,
            "decisive": n,
            "seat_share": shares,
            "stopped_by": "precision",
            "headline": {"test": "exact binomial", "p": p, "n": n},
        }

    data = {"precision": 0.02, "rungs": [rung("random", [50, 50], 1.0), rung("top", [0, 0], 1.0)]}
    assert answer(data).startswith("No game of the top rung (top) had a single winner")
    confirm = {**rung("c", [40, 60], 0.03), "value": 2, "games": 100}
    data["tune"] = {
        "option": "komi",
        "at": "top",
        "range": [-4, 4],
        "fair": 2.0,
        "low": 1.0,
        "high": 3.0,
        "in_range": True,
        "note": "",
        "confirm": confirm,
    }
    assert "that confirmation is not even" in answer(data)


def test_the_stopping_rule_uses_the_wilson_interval_of_the_stats_module() -> None:
    from simcli.stats.intervals import wilson_interval

    counts = SeatCounts(2, wins=[37, 63])
    expected = max(
        max(hi - k / 100, k / 100 - lo) for k in (37, 63) for lo, hi in [wilson_interval(k, 100)]
    )
    assert counts.widest() == pytest.approx(expected, abs=1e-12)
