"""Operating-system limits for strategy processes (Linux).

* :func:`child_setup` returns the function a strategy process runs between ``fork`` and
  ``exec``: die with the worker that started it (``PR_SET_PDEATHSIG``), an optional cap
  on its address space (``RLIMIT_AS``), and, where the kernel has Landlock ABI 6 or
  later, no signals to processes outside its own sandbox (it cannot interrupt the run).
* :func:`restrict_reads` is called by the Python client before any code of the
  strategy runs (its module is imported afterwards): from then on the process can read
  only the Python installation, simcli's own packages and the strategy's own file or
  package, can write no file and (Landlock ABI 4) open no TCP connection. The run's
  output folder, its config and every other file are out of reach. UDP and other
  socket kinds are not covered by Landlock: run hostile code in a container.

Every function degrades to doing nothing where the kernel lacks the feature;
:func:`landlock_abi` says what is available.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
from collections.abc import Callable, Iterable

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_RULE_PATH_BENEATH = 1
_CREATE_RULESET_VERSION = 1

# handled_access_fs bits, by the ABI that introduced them
_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1, 2, 4, 8
_FS_ABI1 = (1 << 13) - 1  # execute .. make_sym
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1, 2
_NET_BIND_TCP, _NET_CONNECT_TCP = 1, 2

try:
    _libc = ctypes.CDLL(None, use_errno=True)
    _syscall = _libc.syscall
    _syscall.restype = ctypes.c_long
    _prctl = _libc.prctl
except (OSError, AttributeError):  # not Linux/glibc: no limits beyond rlimits
    _libc = _syscall = _prctl = None


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: none)."""
    if _syscall is None or not sys.platform.startswith("linux"):
        return 0
    abi = _syscall(
        _SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION)
    )
    return max(int(abi), 0)


def _attr_size(abi: int) -> int:
    return 24 if abi >= 6 else 16 if abi >= 4 else 8


def _restrict(attr: _RulesetAttr, abi: int, rules: Iterable[tuple[int, int]] = ()) -> bool:
    """Create a ruleset, add ``(fd, access)`` path rules, and enforce it on this thread's
    process. Returns whether it took effect."""
    fd = _syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(_attr_size(abi)), 0)
    if fd < 0:
        return False
    try:
        for path_fd, access in rules:
            rule = _PathBeneathAttr(access, path_fd)
            _syscall(_SYS_ADD_RULE, fd, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
        if _prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return _syscall(_SYS_RESTRICT_SELF, fd, 0) == 0
    finally:
        os.close(fd)


def die_with_parent() -> None:
    """Have the kernel kill this process when its parent dies (a worker or timing probe
    whose run was killed must not play on, nor keep holding the run folder's lock, which
    it shares with the run). A process of ``multiprocessing`` whose parent died before
    the request took effect ends at once."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:
        os._exit(1)


def child_setup(parent_pid: int, memory_limit: int | None) -> Callable[[], None]:
    """The ``preexec_fn`` of a strategy process (everything it needs is prepared here, in
    the parent, so the child only makes system calls)."""
    abi = landlock_abi()
    scope = _RulesetAttr(0, 0, _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET) if abi >= 6 else None

    def setup() -> None:
        if _prctl is not None:
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent_pid:  # the parent died before the line above
                os._exit(1)
        if memory_limit:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        if scope is not None:
            _restrict(scope, abi)

    return setup


def _fs_access(abi: int) -> int:
    access = _FS_ABI1
    if abi >= 2:
        access |= _FS_REFER
    if abi >= 3:
        access |= _FS_TRUNCATE
    if abi >= 5:
        access |= _FS_IOCTL_DEV
    return access


def readable_roots() -> list[str]:
    """What a sandboxed Python strategy may still read: the interpreter's installation,
    its site-packages, the system libraries, and simcli's own packages."""
    import site
    from importlib.util import find_spec

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots.update(site.getsitepackages())
    roots.add(site.getusersitepackages())
    # the packages' folders, found without importing them (the API imports this module)
    packages = ("simcli", "simcli_strategies")  # the strategies/ folder's import name
    roots.update(os.path.dirname(find_spec(name).origin) for name in packages)
    roots.update(("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/share/zoneinfo"))
    roots.update(("/etc/ld.so.cache", "/etc/localtime", "/proc/cpuinfo"))
    roots.update(("/sys/devices/system/cpu", "/dev/null", "/dev/urandom"))
    return sorted(r for r in roots if r and os.path.exists(r))


def restrict_reads(roots: Iterable[str]) -> bool:
    """Allow this process to read (and execute) only below ``roots`` and to write no
    file. Returns whether the kernel enforced it."""
    abi = landlock_abi()
    if abi < 1:
        return False
    handled = _fs_access(abi)
    read_dir = _FS_READ_FILE | _FS_READ_DIR | _FS_EXECUTE
    rules, fds = [], []
    try:
        for root in roots:
            try:
                fd = os.open(root, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            fds.append(fd)
            is_dir = os.path.isdir(root)
            rules.append((fd, read_dir if is_dir else _FS_READ_FILE | _FS_EXECUTE))
        scoped = _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET if abi >= 6 else 0
        net = _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0  # no TCP at all
        return _restrict(_RulesetAttr(handled, net, scoped), abi, rules)
    finally:
        for fd in fds:
            os.close(fd)
