"""One strategy program running as a child process, and its two pipes.

A :class:`StrategyProcess` starts the program (in a session of its own, dying with its
parent, optionally under a memory cap: see :mod:`simcli.protocol.sandbox`), completes the
``hello``/``ready`` handshake, sends messages (queued, then flushed in one write) and reads
answers against deadlines. Standard error is drained by a thread into the log, capped.
Whatever goes wrong is a :class:`StrategyFault` whose ``kind`` and message end up in the
seat's forfeit (see ``remote.py``).
"""

from __future__ import annotations

import logging
import os
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from simcli.protocol import (
    BATCH,
    MAX_LINE,
    OBSERVE,
    PROTOCOL_VERSION,
    ProtocolError,
    decode,
    encode,
    quote,
)
from simcli.protocol.sandbox import SHEPHERDED, child_setup
from simcli.tournament.faults import safe_text

log = logging.getLogger("simcli.strategy")

#: How long a strategy process may take to start and answer ``hello``.
HANDSHAKE_SECONDS = 30.0
#: Standard error a strategy process may write over its life before it is stopped.
STDERR_CAP = 1 << 20
#: Lines of a strategy's standard error copied into the run's log.
STDERR_LOG_LINES = 200


class StrategyFault(Exception):
    """A strategy process failed in a way that stops it: ``kind`` is ``crashed``,
    ``timeout`` or ``protocol``."""

    def __init__(self, kind: str, message: str):
        message = safe_text(message)  # it may quote the program: made safe to print
        super().__init__(message)
        self.kind = kind
        self.message = message


def _batch_lines(requests: list[list[Any]]) -> list[bytes]:
    """The ``choose_batch`` lines of ``requests``: one, unless it would be longer than
    the protocol's limit (large views of many games), then as many as it takes (each
    is answered by a ``moves`` line of its own, in order)."""
    line = encode({"type": "choose_batch", "requests": requests})
    if len(line) <= MAX_LINE + 1 or len(requests) == 1:
        return [line]
    half = len(requests) // 2
    return _batch_lines(requests[:half]) + _batch_lines(requests[half:])


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
        wait: bool = True,
    ):
        """Start the program and send ``hello``; unless ``wait`` is false (then call
        :meth:`handshake` before anything else, so that several programs start at once),
        wait for its ``ready``."""
        self.label = label
        self.flooded = False
        self._buffer = bytearray()
        self._outbox: list[bytes] = []
        self._requests: list[list[Any]] = []  # choose requests for one choose_batch line
        self._stderr_tail = ""  # the last line written to standard error
        self._quit_sent = False
        if cwd is None:
            cwd = "/"  # a folder of nobody's: nothing relative to read or write there
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
            raise StrategyFault("crashed", f"cannot start {shlex.join(command)}: {exc}") from None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()
        self._handshake_deadline: float | None = time.monotonic() + handshake_seconds
        try:
            self.send(dict(hello), self._handshake_deadline)
        except StrategyFault:
            self.stop()
            raise
        self.wants_view = True
        self.interleaves = self.batches = self.observes = False
        if wait:
            self.handshake()

    @property
    def started(self) -> bool:
        """Whether the handshake is complete."""
        return self._handshake_deadline is None

    def handshake(self) -> None:
        """Wait for the answer to ``hello`` (once; :class:`StrategyFault` and the process
        stopped when it is not ``ready``)."""
        deadline = self._handshake_deadline
        if deadline is None:
            return
        try:
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
        self._handshake_deadline = None
        self.wants_view = reply.get("wants_view", True) is not False
        self.interleaves = reply.get("interleave") is True
        extensions = reply.get("extensions")
        self.batches = type(extensions) is list and BATCH in extensions
        self.observes = type(extensions) is list and OBSERVE in extensions

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
                self._stderr_tail = line
                lines += 1
                if lines <= STDERR_LOG_LINES:
                    log.info("strategy %s: %s", self.label, line[:500])
                elif lines == STDERR_LOG_LINES + 1:
                    log.info("strategy %s: (further standard error not logged)", self.label)

    def queue(self, message: dict[str, Any]) -> None:
        """Add a message to what :meth:`flush` sends next."""
        self._outbox.append(encode(message))

    def queue_request(self, request: list[Any]) -> None:
        """Add a choose request (``[index, seat, legal]``, plus the view when sent) to the
        ``choose_batch`` line :meth:`flush` sends next (``batch`` extension)."""
        self._requests.append(request)

    def send(self, message: dict[str, Any], deadline: float) -> None:
        """Send ``message`` (and anything queued before it) now."""
        self.queue(message)
        self.flush(deadline)

    def flush(self, deadline: float) -> None:
        """Write everything queued in one go: the messages, then the batched requests (a
        game's ``start`` goes before its first request, its ``end`` after its last)."""
        if self._requests:
            self._outbox.extend(_batch_lines(self._requests))
            self._requests = []
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
        while (message := self._next_message(during)) is None:
            self._wait(self._out, select.POLLIN, deadline, during)
            self._read(during)
        return message

    @property
    def stdout(self) -> int:
        return self._out

    def available(self) -> list[dict[str, Any]]:
        """The messages that have arrived (reads what is there; call after a poll said
        the output is readable). Raises :class:`StrategyFault` at the end of the output or
        for a line that is not a message."""
        self._read("its move")
        messages = []
        while (message := self._next_message("its move")) is not None:
            messages.append(message)
        return messages

    def _read(self, during: str) -> None:
        chunk = os.read(self._out, 1 << 16)
        if not chunk:
            raise self._gone(during)
        self._buffer += chunk

    def _next_message(self, during: str) -> dict[str, Any] | None:
        """The first complete line of what arrived, decoded; None when there is none yet."""
        buffer = self._buffer
        end = buffer.find(b"\n")
        if end < 0:
            if len(buffer) > MAX_LINE:
                raise StrategyFault("protocol", f"wrote a line longer than {MAX_LINE} bytes")
            return None
        if end > MAX_LINE:  # its end came in the same read as the bytes past the limit
            raise StrategyFault("protocol", f"wrote a line longer than {MAX_LINE} bytes")
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        try:
            return decode(line)
        except ProtocolError as exc:
            raise StrategyFault("protocol", f"wrote {exc} during {during}") from None

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
        tail = f" (stderr: {self._stderr_tail[:200]})" if self._stderr_tail else ""
        return StrategyFault("crashed", f"strategy process {how} during {during}{tail}")

    # -- life ----------------------------------------------------------------------

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _kill(self) -> None:
        """Have the process's shepherd kill the program and everything it started (see
        :func:`~simcli.protocol.sandbox.child_setup`), then exit."""
        if not SHEPHERDED:
            self._kill_group()
            return
        if self.proc.poll() is not None:  # gone and reaped: its pid may be another's now
            return
        try:
            os.kill(self.proc.pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass

    def _kill_group(self) -> None:
        """The last resort: kill the process group (where there is no shepherd)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def quit(self) -> None:
        """Send ``quit`` (once) without waiting: processes stopped together then exit
        side by side."""
        if not self._quit_sent and self.alive():
            self._quit_sent = True
            try:
                self.send({"type": "quit"}, time.monotonic() + 0.2)
            except StrategyFault:
                pass

    def stop(self, grace: float = 1.0) -> None:
        """Ask the process to quit, give it ``grace`` seconds to exit, then have its
        shepherd kill the whole tree (its process group, where there is none)."""
        self.quit()
        if grace > 0 and self.alive():
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self._kill()
        try:
            self.proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # no shepherd, or it could not end in time
            self._kill_group()
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
