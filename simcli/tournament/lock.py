"""One writer per run folder.

A run (``run``, ``run --resume``, ``gate``) holds an exclusive ``flock`` on
``OUT/.simcli.lock`` from before it checks the folder until it has written its last
file; the lock file names the holder (pid, host, start time). A second run on the same
folder stops with exit code 2 naming the holder. The kernel releases the lock when its
holder dies, however it dies, so a lock left by a killed run is simply taken over.
Readers (``report``, ``replay``, ``export``) do not lock: records are appended line by
line, and they say when the folder is still being written.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simcli.errors import FolderInUseError, OutputPathError

LOCK_NAME = ".simcli.lock"


class RunLock:
    """``with RunLock(out):`` holds the folder's lock; the folder is created if needed
    and removed again if the run leaves nothing in it."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._fd: int | None = None
        self._created = False
        self._new_file = False

    def __enter__(self) -> RunLock:
        folder = self.folder
        if folder.exists() and not folder.is_dir():
            raise OutputPathError(f"{folder}: exists and is not a folder")
        self._created = not folder.exists()
        folder.mkdir(parents=True, exist_ok=True)
        self._new_file = not (folder / LOCK_NAME).exists()
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        if not _take(fd):
            holder = _describe(_read(fd))
            os.close(fd)
            raise FolderInUseError(
                f"{folder}: another simcli run is writing this folder ({holder}); wait for "
                "it to finish or stop it, or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(_me()).encode(), 0)
        self._fd = fd
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        lock = self.folder / LOCK_NAME
        leftover = [p for p in self.folder.iterdir() if p.name != LOCK_NAME]
        if (self._created and not leftover) or (kind is not None and self._new_file):
            lock.unlink(missing_ok=True)  # a refused or empty run leaves the folder as it was
            os.close(fd)
            if self._created and not leftover:
                try:
                    self.folder.rmdir()
                except OSError:
                    pass
            return
        os.ftruncate(fd, 0)
        os.close(fd)  # releases the lock (the file stays: removing it would race)


#: How long to wait for the lock of a run whose process is gone (its workers, which
#: share the lock, die with it within moments).
DYING_SECONDS = 10.0


def _take(fd: int) -> bool:
    """Take the lock; wait for it only while its holder is a process that no longer
    exists on this host (a killed run whose workers are still going down)."""
    deadline = time.monotonic() + DYING_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if _alive(_read(fd)) or time.monotonic() > deadline:
                return False
            time.sleep(0.05)


def _alive(holder: dict[str, Any]) -> bool:
    """Whether the recorded holder may still be running (unknown counts as running)."""
    pid = holder.get("pid")
    if not isinstance(pid, int) or holder.get("host") != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def writer_of(folder: Path) -> str | None:
    """Who is writing ``folder`` now (``pid 1234 on host, since ...``), or ``None``."""
    path = folder / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _describe(_read(fd))
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _me() -> dict[str, Any]:
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _read(fd: int) -> dict[str, Any]:
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _describe(holder: dict[str, Any]) -> str:
    if not holder:
        return "a run that is starting"
    return (
        f"pid {holder.get('pid', '?')} on {holder.get('host', '?')}, since "
        f"{holder.get('since', '?')}"
    )


def note_if_running(path: Path) -> bool:
    """For readers: say on standard error when ``path`` (a run folder, or a log in one)
    is still being written, so that its figures cover only the games written so far (and
    a last line without its newline is one being written, not a fault)."""
    import click

    folder = path if path.is_dir() else path.parent
    writer = writer_of(folder)
    if writer is not None:
        click.echo(
            f"note: {folder} is still being written by a run ({writer}); this covers the "
            "games written so far",
            err=True,
        )
    return writer is not None
