"""Strategies in their own processes: the same records as in-process, nothing hidden
leaks, every protocol fault is a named forfeit, and no strategy process outlives a run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.protocol import decode, encode
from simcli.protocol.sandbox import landlock_abi

# Worker pools, strategy processes, signals and Dask: seconds each (pytest -m "not slow" skips).
pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parent / "data"
ADVERSARIES = DATA / "adversaries.py"
FAULTY = DATA / "faulty_bot.py"
ROOT = Path(__file__).resolve().parent.parent

#: game, players, strategies (each game's greedy looks at its view; hidden-card games
#: determinize it, so the rebuilt view must be exact for the records to match)
GAMES = [
    ("libraria", 2, ["random", "greedy"], 4),
    ("library", 2, ["random", "greedy"], 2),
    ("ex_libris", 2, ["random", "greedy"], 2),
    ("adas_library", 2, ["random", "greedy"], 2),
    ("bibliogamo", 1, ["random", "greedy"], 2),
]


def run(tmp_path: Path, text: str, *args: str, name: str = "c.yaml") -> tuple[int, str, Path]:
    config = tmp_path / name
    config.write_text(text)
    out = tmp_path / (config.stem + "-out")
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", "--force", *args]
    )
    return result.exit_code, result.output, out


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def config_text(game: str, players: int, strategies: list[str], games: int, extra: str = "") -> str:
    fmt = "solo" if players == 1 else "round_robin"
    body = "\n".join(f"  - {s}" for s in strategies)
    return (
        f"game: {game}\nplayers: {players}\nformat: {fmt}\nseed: 11\ngames: {games}\n"
        f"strategies:\n{body}\n{extra}"
    )


@pytest.mark.parametrize(("game", "players", "strategies", "games"), GAMES)
def test_records_are_identical_in_process_isolated_and_external(
    tmp_path, game, players, strategies, games
):
    text = config_text(game, players, strategies, games)
    code, output, inproc = run(tmp_path, text, "--workers", "0", name="a.yaml")
    assert code == 0, output
    code, output, isolated = run(
        tmp_path, text, "--workers", "0", "--isolation", "process", name="b.yaml"
    )
    assert code == 0, output
    client = f"{sys.executable} -m simcli.protocol.client --use"
    external = [f"{{name: {s}, use: 'cmd:{client} {s}'}}" for s in strategies]
    code, output, ext = run(
        tmp_path, config_text(game, players, external, games), "--workers", "0", name="c.yaml"
    )
    assert code == 0, output
    expected = (inproc / "games.jsonl").read_bytes()
    assert (isolated / "games.jsonl").read_bytes() == expected
    assert (ext / "games.jsonl").read_bytes() == expected
    assert all(r["termination"] in ("normal", "move_limit") for r in records(inproc))


def test_two_workers_give_the_same_isolated_records(tmp_path):
    text = config_text("libraria", 2, ["random", "greedy"], 6)
    _, _, one = run(tmp_path, text, "--workers", "0", name="a.yaml")
    code, output, two = run(tmp_path, text, "--workers", "2", "--isolation", "process")
    assert code == 0, output
    assert (two / "games.jsonl").read_bytes() == (one / "games.jsonl").read_bytes()


# -- hidden information ---------------------------------------------------------------

HIDDEN = [("ex_libris", 2, 2), ("adas_library", 2, 2), ("bibliogamo", 1, 2)]


@pytest.mark.skipif(landlock_abi() < 1, reason="the kernel has no Landlock: no file sandbox")
@pytest.mark.parametrize(("game", "players", "games"), HIDDEN)
def test_a_spy_learns_nothing_beyond_its_view_under_isolation(tmp_path, game, players, games):
    """The spy forfeits (raising Leak) as soon as it finds a full state in its callers'
    frames or among the garbage collector's objects, a deal it saw before, or a readable
    file of the run's folder. In-process it finds the referee's state at once; in its own
    process it finds nothing, over games that share deals (seat-swapped pairs)."""
    out_folder = tmp_path / "c-out"
    spy = f"{{name: spy, use: '{ADVERSARIES}:Spy', params: {{folder: '{out_folder}'}}}}"
    others = ["random"] if players == 2 else []
    strategies = [spy, *others] if players == 2 else [spy, "random"]
    text = config_text(game, players, strategies, games)
    code, output, out = run(tmp_path, text, "--workers", "0", "--isolation", "process")
    assert code == 0, output
    played = records(out)
    assert played and all(r["termination"] != "forfeit" for r in played), [
        r.get("detail") for r in played
    ]
    code, output, out = run(tmp_path, text, "--workers", "0", name="inproc.yaml")
    spied = [r for r in records(out) if r["termination"] == "forfeit"]
    assert spied and all(r["detail"]["message"].startswith("Leak: ") for r in spied)


@pytest.mark.skipif(landlock_abi() < 6, reason="Landlock ABI 6 (signal scoping) needed")
def test_a_strategy_process_cannot_interrupt_the_run(tmp_path):
    text = config_text(
        "libraria", 2, [f"{{name: sig, use: '{ADVERSARIES}:SignalParent'}}", "random"], 4
    )
    code, output, out = run(tmp_path, text, "--workers", "0", "--isolation", "process")
    assert code == 0, output
    assert json.loads((out / "run.json").read_text())["status"] == "complete"
    assert [r["termination"] for r in records(out)] == ["normal"] * 4


# -- protocol faults ------------------------------------------------------------------


def faulty(mode: str) -> str:
    return f"{{name: bot, use: 'cmd:{sys.executable} {FAULTY} {mode}'}}"


@pytest.mark.parametrize(
    ("mode", "kind", "text"),
    [
        ("garbage", "protocol", "wrote not JSON: 'I think spot 7 looks nice'"),
        ("illegal", "illegal_move", "99 is not a legal move"),
        ("bad_index", "illegal_move", "index 1000 is not a legal move"),
        ("wrong_type", "protocol", "answered a choose request with a 'hello' message"),
        ("late", "timeout", "move time limit exceeded"),
        ("silent", "timeout", "move time limit exceeded"),
        ("close_stdout", "protocol", "closed its standard output"),
        ("exit", "crashed", "strategy process exited with code 9 during its move"),
        ("flood", "protocol", "wrote more than 1048576 bytes to standard error"),
    ],
)
def test_every_protocol_fault_is_a_named_forfeit(tmp_path, mode, kind, text):
    limit = "move_time_limit: 1\n"
    config = config_text("libraria", 2, [faulty(mode), "random"], 2, extra=limit)
    started = time.monotonic()
    code, output, out = run(tmp_path, config, "--workers", "0")
    assert code == 0, output
    assert time.monotonic() - started < 60  # nothing hangs
    played = records(out)
    assert len(played) == 2
    for record in played:
        assert record["termination"] == "forfeit"
        assert record["detail"]["kind"] == kind
        assert record["detail"]["message"].startswith(text) or text in record["detail"]["message"]
        assert len(record["moves"]) >= 4  # two good answers each before the fault
    assert not _processes_with(str(FAULTY))


def test_a_stalled_process_is_replaced_for_the_next_game(tmp_path):
    config = config_text(
        "libraria", 2, [faulty("silent"), "random"], 2, extra="move_time_limit: 0.5\n"
    )
    code, output, out = run(tmp_path, config, "--workers", "0")
    assert code == 0, output
    # each game's bot answered its first two moves: a fresh process after the timeout
    assert [r["detail"]["kind"] for r in records(out)] == ["timeout", "timeout"]


@pytest.mark.parametrize(
    ("mode", "text"),
    [
        ("exit_handshake", "exited with code 7 during the handshake"),
    ],
)
def test_a_bot_that_fails_the_handshake_is_bad_input(tmp_path, mode, text):
    config = tmp_path / "c.yaml"
    config.write_text(config_text("libraria", 2, [faulty(mode), "random"], 2))
    result = CliRunner().invoke(cli, ["validate", str(config)])
    assert result.exit_code == 2
    assert text in result.output
    code, output, out = run(tmp_path, config.read_text(), "--workers", "0", name="r.yaml")
    assert code == 2 and text in output
    assert not out.exists()


def test_a_missing_command_is_bad_input(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(
        config_text("libraria", 2, ["{name: bot, use: 'cmd:./nope --fast'}", "random"], 2)
    )
    result = CliRunner().invoke(cli, ["validate", str(config)])
    assert result.exit_code == 2
    assert "program './nope' not found" in result.output
    config.write_text(
        config_text("libraria", 2, ["{name: bot, command: 'no-such-bot-xyz'}", "random"], 2)
    )
    result = CliRunner().invoke(cli, ["validate", str(config)])
    assert result.exit_code == 2
    assert "program 'no-such-bot-xyz' not found on PATH" in result.output


def test_memory_limit_stops_a_greedy_strategy(tmp_path):
    hog = tmp_path / "hog.py"
    hog.write_text(
        "from simcli.strategy import Strategy\n"
        "class Hog(Strategy):\n"
        "    def choose(self, view, legal):\n"
        "        self.keep = bytearray(2_000_000_000)\n"
        "        return legal[0]\n"
    )
    text = config_text(
        "libraria",
        2,
        ["{name: hog, use: 'hog.py:Hog', isolation: process, memory_limit: 600}", "random"],
        2,
    )
    code, output, out = run(tmp_path, text, "--workers", "0")
    assert code == 0, output
    details = [r["detail"] for r in records(out)]
    assert [d["kind"] for d in details] == ["exception", "exception"]
    assert all(d["message"].startswith("MemoryError") for d in details)


def test_memory_limit_needs_a_process(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(config_text("libraria", 2, ["{use: greedy, memory_limit: 100}", "random"], 2))
    result = CliRunner().invoke(cli, ["validate", str(config)])
    assert result.exit_code == 2
    assert "memory_limit needs 'isolation: process'" in result.output


@pytest.mark.skipif(shutil.which("node") is None, reason="node (JavaScript) is not installed")
def test_the_javascript_example_bot_plays(tmp_path):
    bot = ROOT / "examples" / "random_bot.js"
    text = config_text("libraria", 2, [f"{{name: js, use: 'cmd:node {bot}'}}", "random"], 4)
    code, output, out = run(tmp_path, text, "--workers", "0")
    assert code == 0, output
    first = records(out)
    assert [r["termination"] for r in first] == ["normal"] * 4
    code, output, again = run(tmp_path, text, "--workers", "0", name="again.yaml")
    assert (again / "games.jsonl").read_bytes() == (out / "games.jsonl").read_bytes()


# -- no orphans -----------------------------------------------------------------------


def _processes_with(marker: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in cmdline and int(pid) != os.getpid():
            found.append(int(pid))
    return found


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_strategy_process_outlives_its_run(tmp_path, sig):
    """Kill the parent of a 2-worker isolated run mid-game: within seconds no worker and no
    strategy process of the run is left."""
    slow = tmp_path / "slowbot.py"
    slow.write_text(
        "import time\nfrom simcli.strategy import Strategy\n"
        "class Slow(Strategy):\n"
        "    def choose(self, view, legal):\n"
        "        time.sleep(0.05)\n"
        "        return legal[0]\n"
    )
    config = tmp_path / "c.yaml"
    config.write_text(
        config_text("libraria", 2, ["{name: slow, use: 'slowbot.py:Slow'}", "random"], 40)
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "simcli",
            "run",
            str(config),
            "--out",
            str(tmp_path / "o"),
            "--workers",
            "2",
            "--isolation",
            "process",
            "-q",
            "--no-plots",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    marker = str(tmp_path)
    deadline = time.monotonic() + 30
    while len(_processes_with(marker)) < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(_processes_with(marker)) >= 4  # the run, its workers, strategy processes
    proc.send_signal(sig)
    if sig != signal.SIGKILL:
        proc.send_signal(sig)  # a second interrupt stops at once
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _processes_with(marker)


def test_interleaved_games_give_the_records_of_one_at_a_time_even_when_a_process_dies(tmp_path):
    """A worker keeps many games in flight on a strategy process unless a move time limit
    applies. A process that dies mid-batch (here: at a seeded moment of some games) must
    cost exactly the games it would cost played one at a time."""
    crash = tmp_path / "crashbot.py"
    crash.write_text(
        "import os\nfrom simcli.strategy import Strategy\n"
        "class Crash(Strategy):\n"
        "    def choose(self, view, legal):\n"
        "        if len(legal) == 20 and self.rng.random() < 0.3:\n"
        "            os._exit(5)\n"
        "        return self.rng.choice(legal)\n"
    )
    strategies = ["{name: crash, use: 'crashbot.py:Crash', isolation: process}", "random"]
    text = config_text("libraria", 2, strategies, 40)
    code, output, interleaved = run(tmp_path, text, "--workers", "0", name="a.yaml")
    assert code == 0, output
    one_at_a_time = text + "move_time_limit: 60\n"  # a time limit turns interleaving off
    code, output, alone = run(tmp_path, one_at_a_time, "--workers", "0", name="b.yaml")
    assert code == 0, output
    code, output, two = run(tmp_path, text, "--workers", "2", name="c.yaml")
    assert code == 0, output
    expected = (alone / "games.jsonl").read_bytes()
    crashed = [r for r in records(alone) if r["termination"] == "forfeit"]
    assert 3 <= len(crashed) <= 37  # some games crash, most do not
    assert all(r["detail"]["kind"] == "crashed" for r in crashed)
    assert (interleaved / "games.jsonl").read_bytes() == expected
    assert (two / "games.jsonl").read_bytes() == expected


def test_isolated_strategies_on_a_dask_cluster(tmp_path, dask_cluster):
    """Same records on Dask workers, and no strategy process left on the (still running)
    cluster once the run is over."""
    text = config_text("libraria", 2, ["random", "greedy"], 6)
    _, _, local = run(tmp_path, text, "--workers", "0", name="a.yaml")
    code, output, remote = run(
        tmp_path,
        text,
        "--isolation",
        "process",
        "--executor",
        "dask",
        "--scheduler",
        dask_cluster,
        name="b.yaml",
    )
    assert code == 0, output
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
    deadline = time.monotonic() + 10
    while _processes_with(f"--base-dir {tmp_path}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _processes_with(f"--base-dir {tmp_path}")


TROJAN = """\
import random

from simcli.games.libraria import LibrariaState
from simcli.strategy import Strategy

LibrariaState.outcome = lambda self: __import__("simcli.game").game.Outcome((0, 9), (0,))


class Trojan(Strategy):
    def choose(self, view, legal):
        return self.rng.choice(legal)
"""

READS_CONFIG = """\
import glob
import os
import sys

from simcli.strategy import Strategy

i = sys.argv.index("--base-dir")
FOUND = glob.glob(os.path.join(sys.argv[i + 1], "*.yaml"))
READ = []
for path in FOUND:
    try:
        READ.append(open(path).read())
    except OSError:
        pass


class Peek(Strategy):
    def choose(self, view, legal):
        if READ:
            raise RuntimeError("read the config: " + READ[0][:40])
        return self.rng.choice(legal)
"""


def test_an_isolated_strategys_module_never_runs_in_the_referee(tmp_path):
    """Its module patches the rules at import: in-process that would be the referee's
    rules; isolated, only its own process's (the config check does not import it)."""
    (tmp_path / "trojan.py").write_text(TROJAN)
    text = config_text(
        "libraria", 2, ["{name: t, use: 'trojan.py:Trojan', isolation: process}", "random"], 6
    )
    (tmp_path / "v.yaml").write_text(text)
    assert CliRunner().invoke(cli, ["validate", str(tmp_path / "v.yaml")]).exit_code == 0
    for workers in ("0", "2"):
        code, output, out = run(tmp_path, text, "--workers", workers, name=f"w{workers}.yaml")
        assert code == 0, output
        for record in records(out):
            scores, winners = record["scores"], record["winners"]
            assert scores != [0, 9]
            assert winners == (
                [0] if scores[0] > scores[1] else [1] if scores[1] > scores[0] else []
            )


@pytest.mark.skipif(landlock_abi() < 1, reason="the kernel has no Landlock: no file sandbox")
def test_an_isolated_strategy_cannot_read_the_config_even_at_import(tmp_path):
    (tmp_path / "peek.py").write_text(READS_CONFIG)
    text = config_text(
        "adas_library", 2, ["{name: p, use: 'peek.py:Peek', isolation: process}", "random"], 2
    )
    code, output, out = run(tmp_path, text, "--workers", "0")
    assert code == 0, output
    assert all(r["termination"] != "forfeit" for r in records(out)), [
        r.get("detail") for r in records(out)
    ]


def test_variants_interleaved_on_one_process_keep_their_own_options(tmp_path):
    """Games of two variants in flight on one strategy process: each view is rebuilt with
    its own game's options (a strategy reading view.options plays as in-process)."""
    (tmp_path / "probe.py").write_text(
        "from simcli.strategy import Strategy\n"
        "class Probe(Strategy):\n"
        "    def choose(self, view, legal):\n"
        "        return legal[0] if view.options['tiebreak'] == 'none' else legal[-1]\n"
    )
    text = config_text("libraria", 2, ["{name: p, use: 'probe.py:Probe'}", "random"], 40) + (
        "variants:\n"
        "  - {name: none, options: {tiebreak: none}}\n"
        "  - {name: first, options: {tiebreak: first_player}}\n"
    )
    _, _, inproc = run(tmp_path, text, "--workers", "0", name="a.yaml")
    code, output, isolated = run(
        tmp_path, text, "--workers", "0", "--isolation", "process", name="b.yaml"
    )
    assert code == 0, output
    assert (isolated / "games.jsonl").read_bytes() == (inproc / "games.jsonl").read_bytes()


def test_a_python_strategy_that_cannot_start_isolated_is_bad_input_for_run(tmp_path):
    text = config_text(
        "libraria", 2, ["{use: greedy, isolation: process, params: {epsilon: 7}}", "random"], 2
    )
    code, output, out = run(tmp_path, text, "--workers", "0")
    assert code == 2
    assert "rejects params" in output
    assert not out.exists()


def test_isolation_needs_a_game_that_rebuilds_views(tmp_path):
    """A strategy process receives its view as JSON: a game without
    ``state_from_snapshot`` cannot give it one, and the config is refused."""
    (tmp_path / "norebuild.py").write_text(
        "from simcli.game import Game\n"
        "from simcli.games.libraria import Libraria\n\n\n"
        "class NoRebuild(Libraria):\n"
        "    state_from_snapshot = Game.state_from_snapshot\n"
    )
    text = (
        "game: 'norebuild.py:NoRebuild'\nplayers: 2\ngames: 2\n"
        "strategies: [random, greedy]\nisolation: process\n"
    )
    code, output, _ = run(tmp_path, text, "--workers", "0")
    assert code == 2, output
    assert "has no state_from_snapshot" in output


# -- the 'batch' extension --------------------------------------------------------------

BATCH_BOT = DATA / "batch_bot.py"
ONE_AT_A_TIME = "move_time_limit: 60\n"  # a time limit: plain 'choose' messages, no batches


def batch_bot(mode: str) -> str:
    return f"{{name: bot, use: 'cmd:{sys.executable} {BATCH_BOT} {mode}'}}"


def test_batched_answers_give_the_records_of_plain_messages(tmp_path):
    """Every kind of entry (a move, an index, an error, an illegal move) decides its own
    game as the same answer in a message of its own would."""
    text = config_text("libraria", 2, [batch_bot("mixed"), "random"], 12)
    code, output, batched = run(tmp_path, text, "--workers", "0", name="a.yaml")
    assert code == 0, output
    assert "choose_batch of" in (batched / "run.log").read_text()  # batches were used
    code, output, plain = run(tmp_path, text + ONE_AT_A_TIME, "--workers", "0", name="b.yaml")
    assert code == 0, output
    assert (batched / "games.jsonl").read_bytes() == (plain / "games.jsonl").read_bytes()
    # what the bot does by game index (see batch_bot.py): index % 3 == 1 an error at its
    # 3rd decision, == 2 the illegal move 99 at its 4th, == 0 a normal game
    details = [(r["index"] % 3, r["termination"], r.get("detail")) for r in records(batched)]
    for rest, termination, detail in details:
        if rest == 0:
            assert termination == "normal"
        else:
            assert termination == "forfeit"
            assert detail["kind"] == ("exception" if rest == 1 else "illegal_move")
            assert detail["message"] == ("no good move" if rest == 1 else "99 is not a legal move")


def test_a_bad_moves_line_replays_the_games_one_at_a_time(tmp_path):
    """A 'moves' line that is not a list is a protocol fault: the games in flight are
    played again with plain messages, which this bot answers well."""
    text = config_text("libraria", 2, [batch_bot("bad_batch"), "random"], 12)
    code, output, replayed = run(tmp_path, text, "--workers", "0", name="a.yaml")
    assert code == 0, output
    assert "a bad moves line" in (replayed / "run.log").read_text()  # the fault happened
    plain_text = config_text("libraria", 2, [batch_bot("mixed"), "random"], 12) + ONE_AT_A_TIME
    code, output, plain = run(tmp_path, plain_text, "--workers", "0", name="b.yaml")
    assert code == 0, output
    assert (replayed / "games.jsonl").read_bytes() == (plain / "games.jsonl").read_bytes()


def _client(*lines: dict) -> list[dict]:
    """The Python client's answers to ``lines`` (then the end of its input)."""
    command = [sys.executable, "-m", "simcli.protocol.client", "--use", "random", "--no-sandbox"]
    result = subprocess.run(
        command,
        input=b"".join(encode(line) for line in lines),
        capture_output=True,
        timeout=60,
        check=True,
    )
    return [decode(line) for line in result.stdout.splitlines()]


HELLO = {"type": "hello", "protocol": 1, "game": "libraria", "players": 2, "options": {}}


def test_the_python_client_takes_batch_only_when_offered():
    (ready,) = _client(HELLO)
    assert ready["type"] == "ready" and "extensions" not in ready
    (ready,) = _client({**HELLO, "extensions": ["batch", "something-newer"]})
    assert ready["extensions"] == ["batch"]


def test_the_python_client_answers_a_batch_in_one_line_and_plain_requests_too():
    starts = [{"type": "start", "index": i, "seat": 0, "seed": 100 + i} for i in (4, 5)]
    batch = {"type": "choose_batch", "requests": [[4, 0, [7, 8, 9]], [5, 0, [1, 2]]]}
    plain = {"type": "choose", "index": 4, "seat": 0, "legal": [3, 6]}
    ready, moves, move = _client({**HELLO, "extensions": ["batch"]}, *starts, batch, plain)
    assert moves["type"] == "moves"
    first, second = moves["moves"]
    assert first in (7, 8, 9) and second in (1, 2)
    assert move["type"] == "move" and move["move"] in (3, 6)


def test_a_failing_request_in_a_batch_costs_its_entry_alone():
    """A request for a game that never started fails by itself: its entry is an error,
    the other requests of the line are answered."""
    start = {"type": "start", "index": 4, "seat": 1, "seed": 104}
    batch = {"type": "choose_batch", "requests": [[9, 0, [1]], [4, 1, [5]]]}
    _, moves = _client({**HELLO, "extensions": ["batch"]}, start, batch)
    failed, played = moves["moves"]
    assert failed["error"] == "exception" and failed["message"].startswith("KeyError")
    assert played == 5


def _orphaned_child() -> None:
    from simcli.protocol.sandbox import die_with_parent

    os.getppid = lambda: 1  # as if the parent had died before the request took effect
    die_with_parent()
    os._exit(0)  # reached only by a process that plays on


def test_a_process_whose_parent_is_already_gone_ends_at_once():
    """die_with_parent asks the kernel to kill the process with its parent, which cannot
    cover a parent that died before the request: such a process (its parent pid no longer
    the one it was forked from) ends with exit code 1 instead of playing on."""
    import multiprocessing

    child = multiprocessing.get_context("fork").Process(target=_orphaned_child)
    child.start()
    child.join(30)
    assert child.exitcode == 1
