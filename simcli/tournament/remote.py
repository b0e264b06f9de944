"""The referee's side of the strategy protocol: strategies in their own processes.

A :class:`RemoteSeatFactory` stands for one configured strategy with ``isolation:
process`` or a ``cmd:`` command. For each seat it sits in, a worker keeps one
:class:`RemoteSeat`: a strategy process that serves all of that seat's games (start-up is
paid once), reset per game by a ``start`` message. The process is started again when it
died or was stopped, and before a game whose deal it has already seen (in a sweep of
variants that share seeds): a process never sees the same deal twice, so nothing it kept
from one game tells it about another's hidden cards.

Everything a strategy process can do wrong is its seat's forfeit, named in the record's
``detail``: it cannot start or exits (``crashed``), answers late or never (``timeout``,
and the process is stopped), writes something that is not a protocol message or floods
its standard error (``protocol``), raises (``exception``, reported by the client) or
answers an illegal move (``illegal_move``).
"""

from __future__ import annotations

import logging
import os
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simcli.moves import IllegalAnswer, find_move, short
from simcli.protocol import MAX_LINE, PROTOCOL_VERSION, ProtocolError, decode, encode, quote
from simcli.protocol.sandbox import child_setup
from simcli.tournament.faults import Forfeit

log = logging.getLogger("simcli.strategy")

#: How long a strategy process may take to start and answer ``hello``.
HANDSHAKE_SECONDS = 30.0
#: How long a move may take when the config sets no ``move_time_limit``.
DEFAULT_MOVE_SECONDS = 300.0
#: Standard error a strategy process may write over its life before it is stopped.
STDERR_CAP = 1 << 20
#: Lines of a strategy's standard error copied into the run's log.
STDERR_LOG_LINES = 200


class StrategyFault(Exception):
    """A strategy process failed in a way that stops it: ``kind`` is ``crashed``,
    ``timeout`` or ``protocol``."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


def python_client_command(use: str, base_dir: Path | None) -> list[str]:
    """The command that runs a Python strategy class in its own process."""
    command = [sys.executable, "-m", "simcli.protocol.client", "--use", use]
    if base_dir is not None:
        command += ["--base-dir", str(base_dir.resolve())]  # it runs in a folder of its own
    return command


def parse_command(text: str) -> list[str]:
    """The argument list of a ``cmd:`` strategy; :class:`ValueError` if it is empty or
    badly quoted."""
    argv = shlex.split(text)
    if not argv:
        raise ValueError("the command is empty")
    return argv


class StrategyProcess:
    """One running strategy program and its two pipes."""

    def __init__(
        self,
        label: str,
        command: Sequence[str],
        hello: Mapping[str, Any],
        *,
        cwd: str | None = None,
        memory_limit: int | None = None,
        handshake_seconds: float = HANDSHAKE_SECONDS,
    ):
        self.label = label
        self.flooded = False
        self._buffer = bytearray()
        self._outbox: list[bytes] = []
        self._stderr_tail: list[str] = []
        self._private_cwd = None
        if cwd is None:
            self._private_cwd = tempfile.mkdtemp(prefix="simcli-strategy-")
            cwd = self._private_cwd
        try:
            self.proc = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                bufsize=0,
                start_new_session=True,  # the terminal's Ctrl-C is the referee's to handle
                preexec_fn=child_setup(os.getpid(), memory_limit),
            )
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            self._cleanup_dir()
            raise StrategyFault("crashed", f"cannot start {shlex.join(command)}: {exc}") from None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()
        deadline = time.monotonic() + handshake_seconds
        try:
            self.send(dict(hello), deadline)
            reply = self.receive(deadline, during="the handshake")
            if reply["type"] == "error":
                why = str(reply.get("message"))[:300]
                raise StrategyFault("protocol", f"refused the handshake: {why}")
            if reply["type"] != "ready" or reply.get("protocol") != PROTOCOL_VERSION:
                raise StrategyFault(
                    "protocol",
                    f"answered hello with {quote(encode(reply)[:-1])}, expected "
                    f'{{"type": "ready", "protocol": {PROTOCOL_VERSION}}}',
                )
        except StrategyFault:
            self.stop()
            raise
        self.wants_view = reply.get("wants_view", True) is not False
        self.interleaves = reply.get("interleave") is True

    # -- pipes ---------------------------------------------------------------------

    def _read_stderr(self) -> None:
        """Copy the process's standard error to the log (the first lines), keep the last
        line for messages, and stop a process that writes more than the cap."""
        total = lines = 0
        fd = self.proc.stderr.fileno()
        pending = b""
        while chunk := os.read(fd, 1 << 16):
            total += len(chunk)
            if total > STDERR_CAP:
                self.flooded = True
                self._kill()
                return
            *complete, pending = (pending + chunk).split(b"\n")
            for raw in complete:
                line = raw.decode("utf-8", "replace").rstrip()
                self._stderr_tail = [line]
                lines += 1
                if lines <= STDERR_LOG_LINES:
                    log.info("strategy %s: %s", self.label, line[:500])
                elif lines == STDERR_LOG_LINES + 1:
                    log.info("strategy %s: (further standard error not logged)", self.label)

    def queue(self, message: dict[str, Any]) -> None:
        """Add a message to what :meth:`flush` sends next."""
        self._outbox.append(encode(message))

    def send(self, message: dict[str, Any], deadline: float) -> None:
        """Send ``message`` (and anything queued before it) now."""
        self.queue(message)
        self.flush(deadline)

    def flush(self, deadline: float) -> None:
        if not self._outbox:
            return
        data = memoryview(b"".join(self._outbox))
        self._outbox.clear()
        while data:
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                self._wait(self._in, select.POLLOUT, deadline)
                continue
            except (BrokenPipeError, OSError):
                raise self._gone() from None
            data = data[written:]

    def receive(self, deadline: float, during: str = "its move") -> dict[str, Any]:
        """The next message; raises :class:`StrategyFault` for a late, missing or bad one."""
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                try:
                    return decode(line)
                except ProtocolError as exc:
                    raise StrategyFault("protocol", f"wrote {exc} during {during}") from None
            if len(buffer) > MAX_LINE:
                raise StrategyFault("protocol", f"wrote a line longer than {MAX_LINE} bytes")
            self._wait(self._out, select.POLLIN, deadline, during)
            chunk = os.read(self._out, 1 << 16)
            if not chunk:
                raise self._gone(during)
            buffer += chunk

    @property
    def stdout(self) -> int:
        return self._out

    def available(self) -> list[dict[str, Any]]:
        """The messages that have arrived (reads what is there; call after a poll said
        the output is readable). Raises :class:`StrategyFault` at the end of the output or
        for a line that is not a message."""
        chunk = os.read(self._out, 1 << 16)
        if not chunk:
            raise self._gone()
        buffer = self._buffer
        buffer += chunk
        messages = []
        while (end := buffer.find(b"\n")) >= 0:
            line = bytes(buffer[:end])
            del buffer[: end + 1]
            try:
                messages.append(decode(line))
            except ProtocolError as exc:
                raise StrategyFault("protocol", f"wrote {exc} during its move") from None
        if len(buffer) > MAX_LINE:
            raise StrategyFault("protocol", f"wrote a line longer than {MAX_LINE} bytes")
        return messages

    def _wait(self, fd: int, event: int, deadline: float, during: str = "its move") -> None:
        poller = select.poll()
        poller.register(fd, event | select.POLLHUP | select.POLLERR)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise StrategyFault("timeout", f"no answer within the time limit during {during}")
            if poller.poll(min(left, 3600.0) * 1000):
                return

    def _gone(self, during: str = "its move") -> StrategyFault:
        """The fault for a closed pipe: why the process went away."""
        try:
            code = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self._kill()
            return StrategyFault("protocol", f"closed its standard output during {during}")
        self._drain.join(timeout=1.0)
        if self.flooded:
            return StrategyFault(
                "protocol", f"wrote more than {STDERR_CAP} bytes to standard error"
            )
        how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        tail = f" (stderr: {self._stderr_tail[0][:200]})" if self._stderr_tail else ""
        return StrategyFault("crashed", f"strategy process {how} during {during}{tail}")

    # -- life ----------------------------------------------------------------------

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop(self, grace: float = 1.0) -> None:
        """Ask the process to quit, then kill its whole process group."""
        if self.alive():
            try:
                self.send({"type": "quit"}, time.monotonic() + 0.2)
            except StrategyFault:
                pass
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self._kill()
        try:
            self.proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
            pass
        self._drain.join(timeout=1.0)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        self._cleanup_dir()

    def _cleanup_dir(self) -> None:
        if self._private_cwd is not None:
            try:
                os.rmdir(self._private_cwd)
            except OSError:
                pass
            self._private_cwd = None


class RemoteSeat:
    """The player of one seat whose strategy runs in a process (see the module doc).

    Requests are answered in the order they were sent, so a driver may have several
    games waiting on one process (``pending``, oldest first: see ``interleave.py``)."""

    def __init__(self, factory: RemoteSeatFactory, seat: int):
        self.factory = factory
        self.seat = seat
        self.process: StrategyProcess | None = None
        self.seen: set[int] = set()  # the seat seeds (deals) this process has played
        self.pending: deque[Any] = deque()  # what waits for an answer, oldest first
        self.options_sent: Any = None

    @property
    def wants_view(self) -> bool:
        return self.process is None or self.process.wants_view

    @property
    def interleaves(self) -> bool:
        """Whether the program said it can play several games at once."""
        return self.process is not None and self.process.interleaves

    def needs_fresh_process(self, seed: int) -> bool:
        """Whether starting a game with this seat seed means a new process (the old one
        has seen this deal, or is gone)."""
        process = self.process
        return process is not None and (not process.alive() or seed in self.seen)

    def start_game(self, index: int, seat: int, seed: int, options: Mapping[str, Any]) -> None:
        if self.needs_fresh_process(seed):
            self.close()
        process = self.process
        try:
            if process is None:
                process = self.process = self.factory.spawn(options)
                self.options_sent = options
            message: dict[str, Any] = {"type": "start", "index": index, "seat": seat, "seed": seed}
            if options != self.options_sent:
                message["options"] = dict(options)
                self.options_sent = options
            process.queue(message)  # goes out with the game's first request
        except StrategyFault as fault:
            self.close()
            raise Forfeit(seat, fault.kind, fault.message) from None
        self.seen.add(seed)

    def request(self, index: int, seat: int, view: Any, legal: list[Any]) -> None:
        """Queue a choose request (sent by the process's next ``flush``)."""
        message: dict[str, Any] = {"type": "choose", "index": index, "seat": seat}
        if view is not None:
            message["view"] = view
        message["legal"] = legal
        assert self.process is not None
        self.process.queue(message)

    def choose(self, index: int, seat: int, view: Any, legal: list[Any]) -> Any:
        """Ask for a move and wait for it: the checked legal move, or the seat's
        :class:`Forfeit` (a process that failed is stopped)."""
        try:
            deadline = time.monotonic() + self.factory.move_seconds
            self.request(index, seat, view, legal)
            assert self.process is not None
            self.process.flush(deadline)
            return self.answer(seat, self.process.receive(deadline), legal)
        except StrategyFault as fault:
            self.close()
            message = "move time limit exceeded" if fault.kind == "timeout" else fault.message
            raise Forfeit(seat, fault.kind, message) from None

    def answer(self, seat: int, reply: dict[str, Any], legal: list[Any]) -> Any:
        """The legal move a reply names; :class:`Forfeit` for an error or an illegal
        answer (the process goes on), :class:`StrategyFault` for a reply that is no answer."""
        kind = reply["type"]
        try:
            if kind == "move":
                if "index" in reply and "move" not in reply:
                    i = reply["index"]
                    if type(i) is not int or not 0 <= i < len(legal):
                        raise IllegalAnswer(f"index {short(i)} is not a legal move")
                    return legal[i]
                return find_move(legal, reply.get("move"))
        except IllegalAnswer as exc:
            raise Forfeit(seat, "illegal_move", str(exc)) from None
        if kind == "error":
            err = reply.get("kind")
            err = err if err in ("exception", "illegal_move") else "exception"
            raise Forfeit(seat, err, str(reply.get("message", ""))[:500])
        raise StrategyFault("protocol", f"answered a choose request with a {kind!r} message")

    def end_game(self, index: int, seat: int, record: Mapping[str, Any]) -> None:
        process = self.process
        if process is None or not process.alive():
            return
        notice = {
            "type": "end",
            "index": index,
            "seat": seat,
            "scores": record.get("scores"),
            "winners": record.get("winners"),
            "termination": record.get("termination"),
        }
        process.queue(notice)  # goes out with the next message

    def close(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None
        self.seen = set()
        self.pending.clear()


class RemoteSeatFactory:
    """One configured strategy that runs out of process, with one :class:`RemoteSeat`
    per seat it sits in (in this worker)."""

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        *,
        game: str,
        players: int,
        params: Mapping[str, Any],
        move_seconds: float | None,
        memory_limit: int | None = None,
        cwd: str | None = None,
    ):
        self.name = name
        self.command = list(command)
        self.game = game
        self.players = players
        self.params = dict(params)
        self.move_seconds = move_seconds or DEFAULT_MOVE_SECONDS
        self.memory_limit = memory_limit
        self.cwd = cwd
        self.seats: dict[int, RemoteSeat] = {}
        #: Whether its processes play several games at once (known from the handshake;
        #: the Python client does).
        self.interleaves = command[1:3] == ["-m", "simcli.protocol.client"]

    def for_seat(self, seat: int) -> RemoteSeat:
        player = self.seats.get(seat)
        if player is None:
            player = self.seats[seat] = RemoteSeat(self, seat)
        return player

    def hello(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "game": self.game,
            "players": self.players,
            "options": dict(options),
            "params": self.params,
            "name": self.name,
        }

    def spawn(self, options: Mapping[str, Any]) -> StrategyProcess:
        process = StrategyProcess(
            self.name,
            self.command,
            self.hello(options),
            cwd=self.cwd,
            memory_limit=self.memory_limit,
        )
        self.interleaves = process.interleaves
        return process

    def close(self) -> None:
        for player in self.seats.values():
            player.close()


def check_handshake(factory: RemoteSeatFactory, options: Mapping[str, Any]) -> None:
    """Start the program, complete the handshake and stop it: ``ValueError`` with the
    reason when that fails (``simcli validate`` and ``run`` call this before any game)."""
    try:
        factory.spawn(options).stop()
    except StrategyFault as fault:
        raise ValueError(fault.message) from None
