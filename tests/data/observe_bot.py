"""A protocol program for the tests of the ``observe`` extension: it takes ``observe``
when offered (unless run with ``--plain``), writes every line it receives to the file
named by its first argument, and answers each request with the first legal move."""

import json
import sys

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - open for the life of the bot
plain = "--plain" in sys.argv
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        ready = {"type": "ready", "protocol": 1, "name": "observer"}
        if not plain and "observe" in message.get("extensions", []):
            ready["extensions"] = ["observe"]
        print(json.dumps(ready), flush=True)
    elif kind == "choose":
        print(json.dumps({"type": "move", "index": 0}), flush=True)
    elif kind == "quit":
        break
