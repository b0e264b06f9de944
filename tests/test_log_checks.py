"""Every reader checks a log for what it claims: a repeated line, a game index beyond the
run, and a game cut short and relabelled ``error`` are caught by replay, report and
resume alike (each passed before)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.games import get_game

CONFIG = "game: libraria\nseed: 8\ngames: 20\nstrategies: [random, greedy]\n"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def run(tmp_path, play_config):
    out = play_config(tmp_path, CONFIG)
    return tmp_path / "c.yaml", out


def edit(out, change):
    log = out / "games.jsonl"
    lines = log.read_text().splitlines()
    change(lines)
    log.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: lines.insert(6, lines[5]), "line 7: game index 5 appears twice"),
        (
            lambda lines: lines.append(json.dumps({**json.loads(lines[0]), "index": 99})),
            "line 21: game index 99 is beyond the run's 20 games",
        ),
    ],
)
@pytest.mark.slow
def test_repeated_and_foreign_lines_are_caught_by_every_reader(run, change, message):
    path, out = run
    edit(out, change)
    for command in (["replay", str(out), "--verify"], ["report", str(out), "--no-plots"]):
        result = invoke(*command)
        assert result.exit_code == 2, (command, result.output)
        assert message in result.output


def _cut_short(lines):
    record = json.loads(lines[3])
    game = get_game("libraria")
    state = game.new_state(2, game.resolve_options(record["options"]), record["setup"])
    for move in record["moves"][:10]:
        state.apply(move)
    record.update(
        moves=record["moves"][:10],
        termination="error",
        scores=None,
        winners=[],
        final_hash=state.final_hash(),
        detail={"kind": "game_error", "message": "KeyError: 3"},
    )
    lines[3] = json.dumps(record)


@pytest.mark.slow
def test_a_game_cut_short_and_relabelled_error_does_not_verify(run):
    path, out = run
    edit(out, _cut_short)
    result = invoke("replay", str(out), "--verify")
    assert result.exit_code == 1
    assert "rules run cleanly at its last position" in result.output
    edit(out, lambda lines: lines.__delitem__(slice(10, None)))  # an interrupted run
    result = invoke("run", str(path), "--out", str(out), "--resume", "-q", "--no-plots")
    assert result.exit_code == 2
    assert "line 4: the record does not replay" in result.output


@pytest.fixture
def other_run(tmp_path_factory, play_config):
    """The same config with another seed: its lines have the right indexes and replay,
    but they are another run's games."""
    return play_config(tmp_path_factory.mktemp("other"), CONFIG.replace("seed: 8", "seed: 9"))


def _foreign(other_out, index):
    def change(lines):
        lines[index] = (other_out / "games.jsonl").read_text().splitlines()[index]

    return change


def _options_changed(lines):
    record = json.loads(lines[7])
    record["options"] = {**record["options"], "tiebreak": "first_player"}
    lines[7] = json.dumps(record)


@pytest.mark.slow
def test_a_line_of_another_run_is_caught_by_every_reader(run, other_run):
    # Before, a line of another run at its own index (it replays: it is a real game)
    # passed replay --verify and was counted by report and the statistics.
    from simcli.errors import RecordError
    from simcli.report.api import report_run_folder

    path, out = run
    for change, message in [
        (_foreign(other_run, 5), "line 6: seed is"),
        (_options_changed, "line 8: options is"),
    ]:
        original = (out / "games.jsonl").read_text()
        edit(out, change)
        for command in (["replay", str(out), "--verify"], ["report", str(out), "--no-plots"]):
            result = invoke(*command)
            assert result.exit_code == 2, (command, result.output)
            assert message in result.output and "not from this run" in result.output
        with pytest.raises(RecordError, match=message):
            report_run_folder(out, plots=False)  # the statistics' load (run's own report)
        (out / "games.jsonl").write_text(original)
    assert invoke("replay", str(out), "--verify").exit_code == 0


@pytest.mark.slow
def test_a_log_without_its_run_json_is_read_without_the_schedule(run, other_run):
    path, out = run
    edit(out, _foreign(other_run, 5))
    (out / "run.json").unlink()  # a bare log: no schedule to check it against
    assert invoke("replay", str(out), "--verify").exit_code == 0


@pytest.mark.slow
def test_a_run_json_whose_config_makes_no_schedule_is_named(run):
    path, out = run
    info = json.loads((out / "run.json").read_text())
    info["config"]["strategies"] = [{"name": "random", "usage": "random"}]
    (out / "run.json").write_text(json.dumps(info))
    result = invoke("replay", str(out))
    assert result.exit_code == 2
    assert "run.json: its config does not give the run's schedule" in result.output


def _set(key, value):
    def change(lines):
        record = json.loads(lines[2])
        record[key] = value
        lines[2] = json.dumps(record)

    return change


def _first_move(value):
    def change(lines):
        record = json.loads(lines[2])
        record["moves"][0] = value
        lines[2] = json.dumps(record)

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("scores", [float("nan"), 1]), "'scores' must be null or a list of 2 finite"),
        (_set("scores", [float("inf"), 1]), "'scores' must be null or a list of 2 finite"),
        (_first_move(True), "'moves' holds true"),
        (_first_move(13.0), "'moves' holds 13.0"),
        (_first_move({"chance": float("nan")}), "'moves' holds {\"chance\": NaN}"),
        (_set("final_hash", None), "'final_hash' is null in a game that ended 'normal'"),
        (_set("detail", None), "'detail' must be an object"),
    ],
)
@pytest.mark.slow
def test_records_of_the_wrong_types_are_named_by_every_reader(run, change, message):
    # Before, report counted these (a NaN score became "n/a"), replay listed them and
    # resume kept them.
    path, out = run
    edit(out, change)
    resume = ["run", str(path), "--out", str(out), "--resume", "-q", "--no-plots"]
    for command in (["replay", str(out)], ["report", str(out), "--no-plots"], resume):
        result = invoke(*command)
        assert result.exit_code == 2, (command, result.output)
        assert f"line 3: {message}" in result.output
