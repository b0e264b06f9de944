"""A strategy program that takes the protocol's 'batch' extension, for
tests/test_protocol_batch.py. It interleaves games and answers each request the same
way whether it came in a 'choose' message or a 'choose_batch' line:

- its 3rd decision of a game whose index leaves 1 when divided by 3: an error answer;
- its 4th decision of a game whose index leaves 2: the move 99 (never legal in Libraria);
- any other decision: the legal move at (index + decisions so far) modulo the count,
  alternately as the move itself and as its index.

Its first argument: 'mixed' plays as above; 'bad_batch' answers every 'choose_batch'
line with a 'moves' line that is not a list (it plays plain 'choose' messages well).
"""

import json
import sys

MODE = sys.argv[1]
decisions = {}  # (index, seat) -> decisions so far


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def decide(index, seat, legal):
    key = (index, seat)
    n = decisions[key] = decisions.get(key, 0) + 1
    if n == 3 and index % 3 == 1:
        return "error", "no good move"
    if n == 4 and index % 3 == 2:
        return "move", 99
    pick = (index + n) % len(legal)
    return ("move", legal[pick]) if n % 2 else ("index", pick)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        taken = [e for e in message.get("extensions", []) if e == "batch"]
        send({"type": "ready", "protocol": 1, "interleave": True, "extensions": taken})
    elif kind == "choose":
        what, value = decide(message["index"], message["seat"], message["legal"])
        if what == "error":
            send({"type": "error", "kind": "exception", "message": value})
        else:
            send({"type": "move", what: value})
    elif kind == "choose_batch":
        if MODE == "bad_batch":
            sys.stderr.write("a bad moves line\n")
            send({"type": "moves", "moves": "all of them"})
            continue
        sys.stderr.write(f"choose_batch of {len(message['requests'])} requests\n")
        answers = []
        for index, seat, legal, *_ in message["requests"]:
            what, value = decide(index, seat, legal)
            if what == "error":
                answers.append({"error": "exception", "message": value})
            else:
                answers.append(value if what == "move" else {"index": value})
        send({"type": "moves", "moves": answers})
    elif kind == "end":
        decisions.pop((message["index"], message["seat"]), None)
    elif kind == "quit":
        break
