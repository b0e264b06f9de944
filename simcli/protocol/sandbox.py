"""Operating-system limits for strategy processes (Linux).

* :func:`child_setup` returns the function a strategy process runs between ``fork`` and
  ``exec``: a shepherd that outlives no referee and leaves no process of the program
  behind (a subreaper, ``PR_SET_CHILD_SUBREAPER``, that kills the program's whole tree
  when it ends), an optional cap on its address space (``RLIMIT_AS``), and, where the
  kernel has Landlock ABI 6 or later, no signals to processes outside its own sandbox
  (it cannot interrupt the run, nor kill its shepherd).
* :func:`restrict_reads` is called by the Python client before any code of the
  strategy runs (its module is imported afterwards): from then on the process can read
  only the Python installation, simcli's own packages and the strategy's own file or
  package, can write no file and (Landlock ABI 4) open no TCP connection. The run's
  output folder, its config and every other file are out of reach.
* :func:`restrict_channels` (with it) closes, with seccomp, what Landlock does not
  cover: SysV shared memory, semaphores and message queues, POSIX message queues and
  sockets of every kind (x86_64 and aarch64), so that the processes of one strategy
  (the seats of a seat-swapped pair) share nothing.

Every function degrades to doing nothing where the kernel lacks the feature;
:func:`landlock_abi` says what is available.
"""

from __future__ import annotations

import ctypes
import errno
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
    the parent, so the child only makes system calls).

    Where the kernel has ``PR_SET_CHILD_SUBREAPER`` (Linux), the child forked by
    ``subprocess`` becomes the strategy's *shepherd*: it forks the process that goes on
    to run the program, and stays behind as its parent and subreaper, so that every
    process the program starts, in a process group or a session of its own, or
    orphaned by a double fork, remains its descendant. When the program exits, or the
    referee asks (``SIGTERM``), or the referee's process dies (its parent-death
    signal), the shepherd kills that whole tree, then exits as the program did (see
    :func:`_shepherd`). The program dies with its shepherd (``PR_SET_PDEATHSIG``)."""
    abi = landlock_abi()
    scope = _RulesetAttr(0, 0, _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET) if abi >= 6 else None

    def confine() -> None:
        if memory_limit:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        if scope is not None:
            _restrict(scope, abi)

    def setup() -> None:
        if _prctl is None:
            confine()
            return
        if _prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:  # no shepherd: as before
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent_pid:  # the parent died before the line above
                os._exit(1)
            confine()
            return
        for sig in _SHEPHERD_SIGNALS:
            signal.signal(sig, signal.SIG_DFL)  # (the worker may ignore SIGTERM)
        saved = signal.pthread_sigmask(signal.SIG_BLOCK, _SHEPHERD_SIGNALS)
        _prctl(_PR_SET_PDEATHSIG, signal.SIGHUP, 0, 0, 0)
        if os.getppid() != parent_pid:  # the parent died before the line above
            os._exit(1)
        shepherd = os.getpid()
        program = os.fork()
        if program == 0:  # goes on to run the program
            signal.pthread_sigmask(signal.SIG_SETMASK, saved)
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != shepherd:
                os._exit(1)
            confine()
            return
        _shepherd(program, parent_pid)

    return setup


_PR_SET_CHILD_SUBREAPER = 36
#: Whether strategy processes run under a shepherd here (see :func:`child_setup`).
SHEPHERDED = _prctl is not None and sys.platform.startswith("linux")
#: What the shepherd waits for: a child's end, the referee's request to stop (SIGTERM),
#: the referee's death (SIGHUP, its parent-death signal).
_SHEPHERD_SIGNALS = {signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP}


def _shepherd(program: int, parent_pid: int) -> None:
    """The shepherd's life (it never returns): hold no file (so the referee sees the
    program's pipes close, and a run folder's lock is not kept), wait until the program
    exits, the referee asks it to stop or the referee is gone, kill every process left
    below it, and exit with the program's status."""
    try:
        os.closerange(0, os.sysconf("SC_OPEN_MAX"))
    except (OSError, ValueError):
        os.closerange(0, 65536)
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (OSError, ValueError):
        pass
    status = None
    while status is None:
        try:
            info = signal.sigtimedwait(_SHEPHERD_SIGNALS, 1.0)
        except InterruptedError:  # pragma: no cover - retried by Python
            continue
        if os.getppid() != parent_pid:
            break  # the referee is gone (a backstop: its death signal says so too)
        if info is None:
            continue
        if info.si_signo != signal.SIGCHLD:
            break  # told to stop, or the referee died
        status = _reap(program)
    ended = kill_tree()
    if status is None:
        status = ended.get(program)
    if status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            if sig not in (signal.SIGKILL, signal.SIGSTOP):  # (those have no handler)
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
            os.kill(os.getpid(), sig)
        except (OSError, ValueError):
            pass
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if status is not None else 1)


def _reap(program: int) -> int | None:
    """Collect every child that has ended; the program's wait status if it was one."""
    found = None
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == program:
            found = status


def children(pid: int | None = None) -> list[int]:
    """The pids of ``pid``'s children (default: this process's)."""
    pid = pid or os.getpid()
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        pass
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue
            if int(stat[stat.rindex(b")") + 2 :].split()[1]) == pid:
                found.append(int(entry))
    return found


def kill_tree(rounds: int = 1000) -> dict[int, int]:
    """Kill every descendant of this process, a subreaper: its children first; what they
    leave behind is handed to it by the kernel and killed in the next round, until it has
    no child left. Returns the wait status of each child reaped."""
    ended: dict[int, int] = {}
    for _ in range(rounds):
        kids = children()
        if not kids:
            break
        for kid in kids:
            try:
                os.kill(kid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for kid in kids:
            try:
                ended[kid] = os.waitpid(kid, 0)[1]
            except ChildProcessError:
                pass
    return ended


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


# -- seccomp: channels Landlock does not cover ------------------------------------------

_SECCOMP_SET_MODE_FILTER, _SECCOMP_FILTER_FLAG_TSYNC = 1, 1
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_SECCOMP_RET_ALLOW = 0x7FFF0000
_SECCOMP_RET_ERRNO = 0x00050000
_X32_SYSCALL_BIT = 0x40000000
_BPF_LD_W_ABS, _BPF_JEQ_K, _BPF_JGE_K, _BPF_RET_K = 0x20, 0x15, 0x35, 0x06

#: Per machine: (audit arch, the seccomp syscall, the system calls refused): SysV shared
#: memory, semaphores and message queues, POSIX message queues, and socket() of any
#: family (socketpair() stays: it opens nothing outside the process).
_CLOSED_CALLS = {
    "x86_64": (
        0xC000003E,
        317,
        {
            "shmget": 29, "shmat": 30, "shmctl": 31, "shmdt": 67,
            "semget": 64, "semop": 65, "semctl": 66, "semtimedop": 220,
            "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71,
            "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242,
            "mq_timedreceive": 243, "mq_notify": 244, "mq_getsetattr": 245,
            "socket": 41,
        },
    ),
    "aarch64": (
        0xC00000B7,
        277,
        {
            "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197,
            "semget": 190, "semctl": 191, "semtimedop": 192, "semop": 193,
            "msgget": 186, "msgctl": 187, "msgrcv": 188, "msgsnd": 189,
            "mq_open": 180, "mq_unlink": 181, "mq_timedsend": 182,
            "mq_timedreceive": 183, "mq_notify": 184, "mq_getsetattr": 185,
            "socket": 198,
        },
    ),
}  # fmt: skip


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _channel_filter(machine: str) -> list[tuple[int, int, int, int]] | None:
    """The seccomp program (BPF) refusing :data:`_CLOSED_CALLS` with ``EPERM``, and
    every system call of another ABI (x32, 32-bit); None for a machine not listed."""
    known = _CLOSED_CALLS.get(machine)
    if known is None:
        return None
    arch, _, calls = known
    checks: list[tuple[int, int]] = [(_BPF_JEQ_K, nr) for nr in sorted(calls.values())]
    if machine == "x86_64":
        checks.insert(0, (_BPF_JGE_K, _X32_SYSCALL_BIT))
    # [arch] [jeq arch] [nr] checks... [allow] [deny]: each jump lands on "deny"
    program = [(_BPF_LD_W_ABS, 0, 0, 4)]
    deny = 3 + len(checks) + 1  # the index of the last instruction
    program.append((_BPF_JEQ_K, 0, deny - 2, arch))
    program.append((_BPF_LD_W_ABS, 0, 0, 0))
    for code, value in checks:
        program.append((code, deny - len(program) - 1, 0, value))
    program.append((_BPF_RET_K, 0, 0, _SECCOMP_RET_ALLOW))
    program.append((_BPF_RET_K, 0, 0, _SECCOMP_RET_ERRNO | errno.EPERM))
    return program


def restrict_channels() -> bool:
    """Refuse this process (every thread) and what it starts the channels Landlock does
    not cover, with seccomp: SysV shared memory, semaphores and message queues, POSIX
    message queues and sockets (UDP, raw, netlink, UNIX sockets to the host's services;
    ``socketpair`` stays). Called by the Python client with :func:`restrict_reads`,
    before any code of the strategy runs. Returns whether the kernel enforced it."""
    import platform

    program = _channel_filter(platform.machine())
    if program is None or _prctl is None or not sys.platform.startswith("linux"):
        return False
    filters = (_SockFilter * len(program))(*(_SockFilter(*i) for i in program))
    prog = _SockFprog(len(program), filters)
    if _prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    seccomp = _CLOSED_CALLS[platform.machine()][1]
    flags = _SECCOMP_FILTER_FLAG_TSYNC
    if _syscall(seccomp, _SECCOMP_SET_MODE_FILTER, flags, ctypes.byref(prog)) == 0:
        return True
    return _prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0
