import gzip
import json

import numpy as np
import pytest
from click.testing import CliRunner
from synth_records import two_player_round_robin

import simcli.report.html  # noqa: F401  (imported at collection, not in the timed calls)
import simcli.viewer  # noqa: F401
from simcli.cli.report import report
from simcli.errors import RecordError, SimcliError


def _write_run(folder, records, run_info=None):
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "games.jsonl", "w") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")
    if run_info is not None:
        (folder / "run.json").write_text(json.dumps(run_info))
    return folder


@pytest.fixture
def records():
    return two_player_round_robin({"A": 0.0, "B": -0.4}, 20, rng=np.random.default_rng(0))


def _invoke(*args):
    return CliRunner().invoke(report, [str(a) for a in args])


def test_report_run_folder_writes_summary_and_markdown(tmp_path, records):
    run = _write_run(
        tmp_path / "run",
        records,
        {
            "status": "complete",
            "config": {
                "name": "demo",
                "game": "libraria",
                "format": "round_robin",
                "players": 2,
                "strategies": [
                    {"name": "B", "use": "greedy", "params": {}},
                    {"name": "A", "use": "random", "params": {}},
                ],
            },
        },
    )
    result = _invoke(run, "--no-plots", "--format", "json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)  # warnings go to stderr
    assert printed["run"]["config"]["name"] == "demo"
    assert printed["totals"]["games"] == len(records)
    saved = json.loads((run / "summary.json").read_text())
    assert saved["totals"] == printed["totals"]
    assert (run / "report.md").read_text().startswith("# simcli report: libraria (run 'demo')")
    assert not (run / "plots").exists()


def test_report_jsonl_path_with_out_and_csv(tmp_path, records):
    run = _write_run(tmp_path / "run", records)
    out = tmp_path / "elsewhere"
    result = _invoke(
        run / "games.jsonl",
        "--out",
        out,
        "--no-plots",
        "--format",
        "csv",
        "--ci-method",
        "exact",
        "--correction",
        "none",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("section,group,variant")
    assert (out / "summary.csv").read_text() == result.stdout
    saved = json.loads((out / "summary.json").read_text())
    assert saved["settings"]["ci_method"] == "exact"
    assert saved["groups"][0]["strategies"][0]["win_rate"]["method"] == "exact"
    assert not (run / "summary.json").exists()


def test_report_text_is_default_and_gz_logs_work(tmp_path, records):
    folder = tmp_path / "gz"
    folder.mkdir()
    with gzip.open(folder / "games.jsonl.gz", "wt") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")
    result = _invoke(folder, "--no-plots")
    assert result.exit_code == 0, result.output
    assert "Seat bias" in result.output and "Findings" in result.output


def _error(result):
    assert result.exit_code != 0
    assert isinstance(result.exception, SimcliError), result.exception
    return str(result.exception)


def test_missing_path(tmp_path):
    msg = _error(_invoke(tmp_path / "nope"))
    assert "no such run folder or game log" in msg


def test_folder_without_log(tmp_path):
    assert "no games.jsonl" in _error(_invoke(tmp_path))


def test_not_json_lines_names_the_line(tmp_path, records):
    run = _write_run(tmp_path / "run", records[:3])
    with open(run / "games.jsonl", "a") as fh:
        fh.write("\n{not json\n")
    result = _invoke(run, "--no-plots")
    assert isinstance(result.exception, RecordError)
    assert "games.jsonl: line 5: not JSON" in str(result.exception)


def test_unknown_schema(tmp_path, records):
    bad = dict(records[0], schema=7)
    run = _write_run(tmp_path / "run", [records[1], bad])
    msg = _error(_invoke(run, "--no-plots"))
    assert "line 2: unknown record schema 7" in msg


def test_not_a_record(tmp_path):
    run = _write_run(tmp_path / "run", [[1, 2, 3]])
    assert "must be a JSON object" in _error(_invoke(run))


def test_empty_log(tmp_path):
    run = _write_run(tmp_path / "run", [])
    assert "holds no game records" in _error(_invoke(run))


def test_malformed_run_json(tmp_path, records):
    run = _write_run(tmp_path / "run", records)
    (run / "run.json").write_text("{oops")
    assert "run.json" in _error(_invoke(run))


def test_binary_log(tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "games.jsonl").write_bytes(b"\xff\xfe\x00garbage\n")
    assert "not UTF-8 text" in _error(_invoke(folder))


def test_unwritable_output(tmp_path, records):
    run = _write_run(tmp_path / "run", records)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    msg = _error(_invoke(run, "--no-plots", "--out", blocker / "sub"))
    assert "cannot create the report folder" in msg


def test_cli_choices_match_the_statistics_package():
    import importlib

    from simcli.report.render import FORMATS

    report_module = importlib.import_module("simcli.cli.report")
    from simcli.stats.intervals import CI_METHODS
    from simcli.stats.significance import CORRECTION_METHODS

    assert report_module.FORMATS == FORMATS
    assert report_module.CI_METHODS == CI_METHODS
    assert report_module.CORRECTIONS == tuple(CORRECTION_METHODS)


@pytest.mark.slow
def test_help_does_not_need_scipy():
    import subprocess
    import sys

    code = (
        "import sys; import simcli.cli.report, simcli.report, simcli.stats; "
        "heavy = [m for m in ('scipy', 'numpy', 'matplotlib') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
