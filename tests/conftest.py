"""Shared fixtures, the one Dask cluster of a session, and the CPU limit that keeps
``pytest -m "not slow"`` a fast inner loop."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest_plugins = ["pytester"]  # tests/test_cpu_limit.py runs pytest on small test files

# -- the CPU limit of tests not marked slow ---------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "cpu_limit",
        "CPU seconds a test not marked slow may take (its own process and the child "
        "processes it waited for); a test over it fails. 0 turns the check off.",
        default="1.0",
    )
    parser.addoption(
        "--cpu-top",
        type=int,
        default=0,
        metavar="N",
        help="list the N tests not marked slow that took the most CPU, and their total",
    )


def cpu_seconds() -> float:
    """User and system CPU time of this process and of the children it has waited for."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


UNMARKED_CPU = pytest.StashKey[dict[str, float]]()  # node id -> CPU seconds of its call


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    start = cpu_seconds()
    result = yield  # a test that fails on its own keeps its own failure
    used = cpu_seconds() - start
    if item.get_closest_marker("slow") is not None:
        return result
    item.config.stash.setdefault(UNMARKED_CPU, {})[item.nodeid] = used
    limit = float(item.config.getini("cpu_limit"))
    if 0 < limit < used:
        pytest.fail(
            f"{used:.2f} s of CPU (this process and the child processes it waited for), over "
            f"the {limit:g} s a test not marked slow may take: make it cheaper or mark it "
            "@pytest.mark.slow",
            pytrace=False,
        )
    return result


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    top = config.getoption("--cpu-top")
    spent = config.stash.get(UNMARKED_CPU, {})
    if top and spent:
        terminalreporter.section("CPU of the calls of the tests not marked slow")
        terminalreporter.write_line(f"{sum(spent.values()):.2f} s in {len(spent)} tests")
        for nodeid, seconds in sorted(spent.items(), key=lambda kv: -kv[1])[:top]:
            terminalreporter.write_line(f"{seconds:6.2f} s  {nodeid}")


@pytest.fixture
def write_config(tmp_path):
    """Write a YAML config into tmp_path and return its path."""

    def write(text: str, name: str = "config.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


@pytest.fixture(scope="session")
def play_config():
    """Play a config text in ``folder`` (files beside it, e.g. a strategy module, given as
    ``{name: text}``) in this process, quietly and without plots; return the run folder."""
    import os

    from click.testing import CliRunner

    from simcli.cli.main import cli

    def play(folder: Path, text: str, files: dict[str, str] | None = None) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for name, content in (files or {}).items():
            (folder / name).write_text(content)
        (folder / "c.yaml").write_text(text)
        out = folder / "out"
        old = os.getcwd()
        os.chdir(folder)  # strategy files are found beside the config
        try:
            args = ["run", "c.yaml", "-q", "--no-plots", "--workers", "0", "--out", str(out)]
            result = CliRunner().invoke(cli, args)
        finally:
            os.chdir(old)
        assert result.exit_code == 0, result.output
        return out

    return play


MIXED_RUN = """\
name: {name}
game: libraria
strategies:
  - {{name: random, use: random}}
  - {{name: greedy, use: greedy}}
  - {{name: raiser, use: bad.py:Raiser}}
variants:
  - {{name: two, options: {{opening: two_counters}}}}
  - {{name: one, options: {{opening: one_counter}}}}
format: round_robin
games: 4
seed: {seed}
"""

RAISER = """\
from simcli.strategy import Strategy


class Raiser(Strategy):
    def choose(self, view, legal_moves):
        if len(legal_moves) < 33 and self.rng.random() < 0.5:
            raise RuntimeError("boom")
        return legal_moves[0]
"""


@pytest.fixture(scope="session")
def mixed_run(tmp_path_factory, play_config):
    """Play a small Libraria run with forfeits (a strategy that raises half the time late
    in a game) in two variants, named ``name``, from ``seed``; return its folder."""

    def play(name: str, seed: int) -> Path:
        folder = tmp_path_factory.mktemp(name)
        return play_config(folder, MIXED_RUN.format(name=name, seed=seed), {"bad.py": RAISER})

    return play


# -- one Dask cluster for the session ------------------------------------------------------------


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests on the Dask cluster run last, one after the other: the cluster starts
    once, and stops at the end of the session instead of idling (its heartbeats cost
    several seconds of CPU a minute) while the rest of the suite runs."""
    on_dask = [item for item in items if "dask_cluster" in getattr(item, "fixturenames", ())]
    if on_dask:
        moved = set(map(id, on_dask))
        items[:] = [item for item in items if id(item) not in moved] + on_dask


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


@pytest.fixture(scope="session")
def dask_cluster(tmp_path_factory):
    """The scheduler address of the session's one Dask cluster: a ``dask scheduler`` and
    two ``dask worker`` programs on localhost, each its own process as on separate
    machines. No process of it is left once the session ends."""
    distributed = pytest.importorskip("distributed")
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


# -- a headless browser for the HTML pages -------------------------------------------------------


def _chromium() -> str | None:
    import shutil

    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser():
    """The system's headless Chromium driven by playwright (never a browser build of
    playwright's own). Missing browser or playwright: the test skips with the reason, unless
    SIMCLI_REQUIRE_BROWSER=1 (set by .ci/run), where it fails."""
    required = os.environ.get("SIMCLI_REQUIRE_BROWSER") == "1"
    executable = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    reason = None
    if executable is None:
        reason = "no chromium on PATH (apt-get install chromium)"
    elif sync_playwright is None:
        reason = "playwright is not installed (pip install -e '.[test]')"
    if reason:
        if required:
            pytest.fail(f"browser tests need a browser: {reason}", pytrace=False)
        pytest.skip(reason)
    with sync_playwright() as pw:
        launched = pw.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser):
    """A fresh page that records console errors in ``page.console_errors`` and every
    request in ``page.requests``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.console_errors = []
    opened.requests = []
    opened.on(
        "console",
        lambda msg: opened.console_errors.append(msg.text) if msg.type == "error" else None,
    )
    opened.on("pageerror", lambda exc: opened.console_errors.append(str(exc)))
    opened.on("request", lambda req: opened.requests.append(req.url))
    try:
        yield opened
    finally:
        context.close()
