"""A strategy program for tests/test_hardening_*.py: it plays the first legal move and
attacks the run in the way its first argument names. Messages are written by hand (the
JSON escape of a lone surrogate, lines of an exact length) with ``json.dumps``'s default
``ensure_ascii``, so that what reaches the referee is exactly what a hostile bot sends.

Modes:
  surrogate_error      answers its third request with an error whose message holds \\ud800
  surrogate_handshake  refuses the handshake with such a message
  surrogate_batch      takes the batch extension; its third answer is such an error entry
  fork_setpgid         forks a child into a process group of its own (setpgid(0, 0))
  fork_setsid          forks a child into a session of its own (setsid)
  fork_plain           forks a plain child
  double_fork          forks a child that forks a grandchild and exits (a daemon)
  long_line N          answers its third request with a move line of exactly N bytes
  exit_second_start    fails its handshake whenever it is not the first of its run
                       (a marker file next to this script counts the starts)
Children sleep, ignoring SIGTERM and SIGHUP, with argv[2] (a marker) in their
command line, so that a test can find every process that outlived its run.
"""

import json
import os
import signal
import sys

MODE = sys.argv[1]
ARG = sys.argv[2] if len(sys.argv) > 2 else ""
LONE = "\\ud800"  # the JSON escape, written as is


def write(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def send(message):
    write(json.dumps(message))


def linger():
    """What a child does: outlive everything it can (the marker is in its argv)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    os.execv(
        sys.executable,
        [
            sys.executable,
            "-c",
            "import signal, time; "
            "signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "signal.signal(signal.SIGHUP, signal.SIG_IGN); time.sleep(120)",
            ARG,
        ],
    )


def spawn():
    if MODE == "fork_setpgid":
        if os.fork() == 0:
            os.setpgid(0, 0)
            linger()
    elif MODE == "fork_setsid":
        if os.fork() == 0:
            os.setsid()
            linger()
    elif MODE == "fork_plain":
        if os.fork() == 0:
            linger()
    elif MODE == "double_fork":
        pid = os.fork()
        if pid == 0:
            os.setsid()
            if os.fork() == 0:
                linger()
            os._exit(0)
        os.waitpid(pid, 0)


if MODE == "exit_second_start":
    counter = ARG
    starts = int(open(counter).read()) if os.path.exists(counter) else 0
    with open(counter, "w") as handle:
        handle.write(str(starts + 1))
    if starts:
        sys.exit(5)

if MODE.startswith("fork") or MODE == "double_fork":
    spawn()

requests = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if MODE == "surrogate_handshake":
            write('{"type": "error", "message": "cannot play ' + LONE + ' this"}')
            sys.exit(0)
        ready = {"type": "ready", "protocol": 1}
        if MODE == "surrogate_batch":
            ready.update(interleave=True, extensions=["batch"])
        send(ready)
    elif kind == "choose":
        requests += 1
        if requests == 3 and MODE == "surrogate_error":
            write('{"type": "error", "message": "lost ' + LONE + ' my way"}')
        elif requests == 3 and MODE == "long_line":
            head = '{"type": "move", "index": 0, "pad": "'
            tail = '"}'
            write(head + "x" * (int(ARG) - len(head) - len(tail)) + tail)
        else:
            send({"type": "move", "index": 0})
    elif kind == "choose_batch":
        entries = []
        for _ in message["requests"]:
            requests += 1
            if requests == 3:
                entries.append('{"error": "exception", "message": "batch ' + LONE + '"}')
            else:
                entries.append('{"index": 0}')
        write('{"type": "moves", "moves": [' + ", ".join(entries) + "]}")
    elif kind == "quit":
        break
