"""A strategy program that breaks the protocol in the way its first argument names, for
tests/test_isolation.py. Until then it plays the first legal move."""

import json
import os
import sys
import time

MODE = sys.argv[1]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if MODE == "exit_handshake":
    sys.exit(7)
moves = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if MODE == "silent_handshake":
            time.sleep(60)
        send({"type": "ready", "protocol": 1})
    elif kind == "choose":
        moves += 1
        if moves < 3:
            send({"type": "move", "index": 0})
        elif MODE == "garbage":
            print("I think spot 7 looks nice")
            sys.stdout.flush()
        elif MODE == "illegal":
            send({"type": "move", "move": 99})
        elif MODE == "late":
            time.sleep(3)
            send({"type": "move", "index": 0})
        elif MODE == "silent":
            time.sleep(60)
        elif MODE == "close_stdout":
            os.close(1)
            time.sleep(60)
        elif MODE == "exit":
            sys.exit(9)
        elif MODE == "flood":
            while True:
                sys.stderr.write("x" * 65535 + "\n")
        elif MODE == "bad_index":
            send({"type": "move", "index": 1000})
        elif MODE == "wrong_type":
            send({"type": "hello"})
        else:
            send({"type": "move", "move": message["legal"][0]})
    elif kind == "quit":
        break
