"""The tidy table: ``simcli export`` (csv, jsonl, parquet) and ``simcli.load_run``, on
hand-made records whose rows are worked out by hand, and ``--parts`` on played games."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest
from click.testing import CliRunner

import simcli
from simcli.cli.main import cli
from simcli.games import GAMES, get_game


def rec(index, seats, scores, winners, termination="normal", moves=(1, 2, 3), **extra):
    return {
        "schema": 1,
        "game": "libraria",
        "options": {"opening": "two_counters", "tiebreak": "none"},
        "index": index,
        "seed": 1000 + index,
        "seats": list(seats),
        "setup": None,
        "moves": list(moves),
        "scores": scores,
        "winners": winners,
        "termination": termination,
        "final_hash": None if termination == "error" else "0" * 16,
        **extra,
    }


RECORDS = [
    rec(0, ["a", "b"], [5, 3], [0]),
    rec(1, ["b", "a"], [4, 4], []),
    rec(
        2,
        ["a", "b"],
        None,
        [0],
        "forfeit",
        moves=(1, {"chance": 3}, 2),
        detail={"seat": 1, "kind": "exception", "message": "RuntimeError: boom"},
    ),
    rec(3, ["a", "b"], None, [], "error", detail={"kind": "game_error", "message": "bug"}),
    rec(4, ["a", "b", "c"], [2, 7, 2], [1], variant="v3"),
    rec(5, ["a"], [9], [0]),
]

# (game_index, seat): strategy, points, rank, win, draw, decisive, win_share, score,
# forfeited, moves, margin. win_share and score are the report's: a draw is no win share
# and 1/n of a score
EXPECTED = {
    (0, 0): ("a", 5, 1, True, False, True, 1.0, 1.0, False, 3, 2),
    (0, 1): ("b", 3, 2, False, False, True, 0.0, 0.0, False, 3, 2),
    (1, 0): ("b", 4, 1, False, True, False, 0.0, 0.5, False, 3, 0),  # equal points: a draw
    (1, 1): ("a", 4, 1, False, True, False, 0.0, 0.5, False, 3, 0),
    (2, 0): ("a", None, 1, True, False, True, 1.0, 1.0, False, 2, None),  # chance: no move
    (2, 1): ("b", None, 2, False, False, True, 0.0, 0.0, True, 2, None),
    (3, 0): ("a", None, None, False, False, False, None, None, False, 3, None),  # an error
    (3, 1): ("b", None, None, False, False, False, None, None, False, 3, None),
    (4, 0): ("a", 2, 2, False, False, True, 0.0, 0.0, False, 3, 5),  # 7 - 2; a, c tie second
    (4, 1): ("b", 7, 1, True, False, True, 1.0, 1.0, False, 3, 5),
    (4, 2): ("c", 2, 2, False, False, True, 0.0, 0.0, False, 3, 5),
    (5, 0): ("a", 9, 1, True, False, False, 1.0, 1.0, False, 3, None),  # solitaire: won
}
FIELDS = (
    "strategy",
    "points",
    "rank",
    "win",
    "draw",
    "decisive",
    "win_share",
    "score",
    "forfeited",
    "moves",
    "margin",
)


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    return path


def check_rows(rows) -> None:
    assert [(r["game_index"], r["seat"]) for r in rows] == list(EXPECTED)
    for row in rows:
        got = tuple(row[f] for f in FIELDS)
        key = row["game_index"], row["seat"]
        assert got == EXPECTED[key], key
        assert "index" not in row  # it would clash with a DataFrame's own index
        forfeit = row["game_index"] == 2
        assert row["forfeit_seat"] == (1 if forfeit else None)
        assert row["forfeit_kind"] == ("exception" if forfeit else None)
        assert row["forfeit_message"] == ("RuntimeError: boom" if forfeit else None)
        assert row["variant"] == ("v3" if row["game_index"] == 4 else None)
        assert row["players"] == len(RECORDS[row["game_index"]]["seats"])
        assert row["option_opening"] == "two_counters"


def test_load_run_without_pandas_gives_dicts(log, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas -> ImportError
    rows = simcli.load_run(log.parent)
    assert isinstance(rows, list)
    check_rows(rows)


@pytest.mark.slow
def test_load_run_gives_a_dataframe(log) -> None:
    pd = pytest.importorskip("pandas")
    frame = simcli.load_run(log)
    assert isinstance(frame, pd.DataFrame)
    assert len(frame) == len(EXPECTED)
    assert list(frame.columns[:7]) == "game_index game variant seed players seat strategy".split()
    assert frame.groupby("strategy")["win"].sum().to_dict() == {"a": 3, "b": 1, "c": 0}
    # games with points: mean points per strategy (a: 5, 4, 2, 9; b: 3, 4, 7; c: 2)
    means = frame.dropna(subset=["points"]).groupby("strategy")["points"].mean()
    assert means.to_dict() == {"a": 5.0, "b": 14 / 3, "c": 2.0}


def test_export_csv_to_stdout(log) -> None:
    result = CliRunner().invoke(cli, ["export", str(log)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == len(EXPECTED)
    first = rows[0]
    assert first["strategy"] == "a" and first["points"] == "5" and first["win"] == "True"
    forfeiter = rows[5]
    assert forfeiter["forfeited"] == "True" and forfeiter["points"] == ""
    assert forfeiter["forfeit_kind"] == "exception" and forfeiter["moves"] == "2"


def test_export_jsonl_to_a_file(log, tmp_path) -> None:
    out = tmp_path / "t.jsonl"
    result = CliRunner().invoke(cli, ["export", str(log), "--format", "jsonl", "--out", str(out)])
    assert result.exit_code == 0, result.output
    check_rows([json.loads(line) for line in out.read_text().splitlines()])
    assert not (tmp_path / "t.jsonl.tmp").exists()


@pytest.mark.slow
def test_export_parquet(log, tmp_path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "t.parquet"
    result = CliRunner().invoke(cli, ["export", str(log), "--format", "parquet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    check_rows(pq.read_table(out).to_pylist())


def test_parquet_without_pyarrow_is_a_one_line_error(log, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    out = tmp_path / "t.parquet"
    result = CliRunner().invoke(cli, ["export", str(log), "--format", "parquet", "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: --format parquet needs pyarrow, which is not installed "
        "(pip install 'simcli[analysis]', or use --format csv or jsonl)"
    ]
    assert not out.exists()


def test_parquet_needs_out(log) -> None:
    result = CliRunner().invoke(cli, ["export", str(log), "--format", "parquet"])
    assert result.exit_code == 2 and "give --out FILE" in result.stderr


def test_bad_line_is_named(log) -> None:
    with log.open("a") as fh:
        fh.write("garbage\n")
    result = CliRunner().invoke(cli, ["export", str(log)])
    assert result.exit_code == 2 and "line 7: not JSON" in result.stderr
    assert "Traceback" not in result.output


def test_missing_run(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["export", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "no such game log" in result.stderr


EX_LIBRIS = """\
name: exl
game: ex_libris
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
format: round_robin
games: 2
seed: 3
"""

BIBLIOGAMO = """\
name: bib
game: bibliogamo
strategies:
  - {name: random, use: random}
format: solo
games: 2
seed: 3
"""


@pytest.mark.slow
def test_parts_of_ex_libris_add_up_to_the_points(tmp_path, monkeypatch, play_config) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    rows = simcli.load_run(play_config(tmp_path, EX_LIBRIS), parts=True)
    assert len(rows) == 4
    for row in rows:
        parts = ("stability", "prominent", "banned", "variety", "focus")
        # the inspection form: the total is the sum of its parts
        assert sum(row["part_" + p] for p in parts) == row["points"]
        assert row["part_banned"] <= 0 and 1 <= row["rounds"] <= 20
    # both seats of a game share its rounds
    assert rows[0]["rounds"] == rows[1]["rounds"]


@pytest.mark.slow
def test_parts_of_bibliogamo_and_export_csv(tmp_path, play_config) -> None:
    out = play_config(tmp_path, BIBLIOGAMO)
    result = CliRunner().invoke(cli, ["export", str(out), "--parts"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 2
    for row in rows:
        # the rule text's scoring: books + florins // 5 + prestige points
        total = sum(
            int(row[k]) for k in ("part_books", "part_florin_points", "part_prestige_points")
        )
        assert total == int(row["points"]) and int(row["turns"]) > 0
    plain = CliRunner().invoke(cli, ["export", str(out)])
    assert "part_books" not in plain.stdout and "turns" not in plain.stdout.splitlines()[0]


def test_parts_refuses_a_record_that_does_not_replay(log) -> None:
    result = CliRunner().invoke(cli, ["export", str(log), "--parts"])
    assert result.exit_code == 2 and "simcli replay LOG --verify" in result.stderr


PARTS_ADD_UP = {
    "ex_libris": ("stability", "prominent", "banned", "variety", "focus"),
    "bibliogamo": ("books", "florin_points", "prestige_points"),
}


@pytest.mark.parametrize(
    ("game_id", "players"),
    [(g, n) for g in sorted(GAMES) for n in get_game(g).player_counts],
)
def test_facts_of_every_builtin_game_are_plain_numbers(game_id, players) -> None:
    import simcli
    from simcli.table import replayed_facts

    record = simcli.play(game_id, "random", players=players, seed=21)
    facts = replayed_facts(record)
    values = [*facts.game.values(), *(v for seat in facts.seats for v in seat.values())]
    assert all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    assert len(facts.seats) in (0, players)
    for unit in ("rounds", "turns"):
        if unit in facts.game:  # a round or turn has at least one move
            assert 1 <= facts.game[unit] <= len(record["moves"])
    for seat, parts in enumerate(facts.seats):
        if game_id in PARTS_ADD_UP:
            assert sum(parts[k] for k in PARTS_ADD_UP[game_id]) == record["scores"][seat]
