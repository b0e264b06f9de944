"""Run a strategy class as a separate program that speaks the strategy protocol.

    python -m simcli.protocol.client --use greedy
    python -m simcli.protocol.client --use path/to/bot.py:MyBot --base-dir configs

This is what ``isolation: process`` starts, and it works as an external command too
(``use: "cmd:python -m simcli.protocol.client --use greedy"``). Each seat's view arrives
as the game's JSON snapshot and is rebuilt with ``Game.state_from_snapshot``, so a
strategy class runs unchanged. Before the strategy's code is loaded, the process is
sandboxed where the kernel allows it (see :mod:`simcli.protocol.sandbox`): it can read
only the Python installation, simcli and the strategy's own code, write no file, signal
no other process, and open no socket, shared memory or message queue.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from simcli.frozen import freeze, private_copy
from simcli.game import Outcome
from simcli.moves import is_plain_move, not_a_move, short
from simcli.protocol import BATCH, OBSERVE, PROTOCOL_VERSION, ProtocolError, decode, encode
from simcli.seeding import seeded_random
from simcli.tournament.faults import describe


class _Failure(NamedTuple):
    """Why a request gets no move: the forfeit's ``kind`` and ``message``."""

    kind: str
    message: str


class _Client:
    def __init__(self, use: str, base_dir: Path | None, sandbox: bool, out: BinaryIO):
        self.use = use
        self.base_dir = base_dir
        self.sandbox = sandbox
        self.out = out
        self.outbox: list[bytes] = []
        self.cls: Any = None
        self.game: Any = None
        self.players = 0
        self.params: dict[str, Any] = {}
        self.options: Any = None
        # (game index, seat) -> the bound choose of that game's strategy, or why it failed
        self.seats: dict[tuple[int, int], Any] = {}
        self.failed: dict[tuple[int, int], tuple[str, str]] = {}
        # the options of each game in flight (games of two variants may interleave)
        self.game_options: dict[tuple[int, int], Any] = {}
        # the game object of each seat's strategy in each game in flight
        self.seat_games: dict[tuple[int, int], Any] = {}
        # (game index, seat) -> the strategy's bound observe and end_game, where its class
        # overrides them (the observe extension)
        self.hooks: dict[tuple[int, int], tuple[Any, Any]] = {}
        self.observes = False

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.append(encode(message))

    def flush(self) -> None:
        """Write the answers to everything read so far, in one go."""
        if self.outbox:
            self.out.write(b"".join(self.outbox))
            self.out.flush()
            self.outbox.clear()

    def hello(self, message: dict[str, Any]) -> None:
        from simcli.games import load_game
        from simcli.strategy import hooks_of, load_strategy_class

        if message.get("protocol") != PROTOCOL_VERSION:
            raise ProtocolError(
                f"protocol {message.get('protocol')!r} is not supported (this client speaks "
                f"{PROTOCOL_VERSION})"
            )
        game_use = message["game"]
        if self.sandbox:  # before any code of the strategy's (or a plug-in game's) runs
            from simcli.protocol.sandbox import readable_roots, restrict_channels, restrict_reads

            code = code_paths(self.use, self.base_dir) + code_paths(game_use, None)
            restrict_reads(readable_roots() + code)
            restrict_channels()  # SysV IPC, POSIX message queues, sockets
        self.game = load_game(game_use)
        self.players = int(message["players"])
        self.options = freeze(message.get("options") or {})
        try:  # fill the game's caches once, not in every game's copy (see start)
            self.game.resolve_options(self.options)
        except Exception:  # noqa: BLE001 - the referee checked the options
            pass
        self.params = dict(message.get("params") or {})
        self.cls = load_strategy_class(self.use, self.base_dir)
        games = self.cls.games
        if games is not None and self.game.id not in games:
            raise ValueError(f"strategy '{self.use}' plays {', '.join(games)}, not {self.game.id}")
        try:
            self.cls(**self.params)  # bad params fail here, in the handshake
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{self.cls.__name__} rejects params {self.params!r}: {exc}") from None
        offered = message.get("extensions") or ()
        self.observes = OBSERVE in offered and any(hooks_of(self.cls))
        taken = [BATCH] if BATCH in offered else []
        if self.observes:
            taken.append(OBSERVE)
        self.send(
            {
                "type": "ready",
                "protocol": PROTOCOL_VERSION,
                "name": self.cls.__name__,
                "wants_view": getattr(self.cls, "wants_view", True) is not False,
                "interleave": True,
                **({"extensions": taken} if taken else {}),
            }
        )

    def start(self, message: dict[str, Any]) -> None:
        seat = int(message["seat"])
        key = (int(message["index"]), seat)
        if "options" in message:
            self.options = freeze(message["options"])
        self.game_options[key] = self.options
        # a game object of its own for this game, as in-process (its views refer to it)
        mine = self.seat_games[key] = private_copy(self.game)
        try:
            strategy = self.cls(**self.params)
            strategy.start_game(mine, seat, seeded_random(int(message["seed"])))
            choose = strategy.choose  # read once, as the in-process referee does
            if self.observes:
                from simcli.strategy import hooks_of

                observes, ends = hooks_of(type(strategy))
                self.hooks[key] = (
                    strategy.observe if observes else None,
                    strategy.end_game if ends else None,
                )
        except BaseException as exc:  # the referee forfeits the seat at its first move
            self.failed[key] = ("exception", describe(exc))
            traceback.print_exc()
            return
        self.seats[key] = choose

    def view(self, key: tuple[int, int], snapshot: Any) -> Any:
        """A seat's view rebuilt from its snapshot, referring to the seat's game object."""
        if snapshot is None:
            return None
        view = self.game.state_from_snapshot(self.players, self.game_options[key], snapshot)
        try:
            view.game = self.seat_games[key]
        except AttributeError:  # a state whose game cannot be set
            pass
        return view

    def moved(self, message: dict[str, Any]) -> None:
        """A move of a game in flight (``observe`` extension): the strategy's ``observe``.
        What it raises is the seat's forfeit at its next request, as in-process."""
        key = (int(message["index"]), int(message["seat"]))
        observe = self.hooks.get(key, (None, None))[0]
        if observe is None or key in self.failed:
            return
        try:
            observe(message["player"], message.get("move"), self.view(key, message.get("view")))
        except BaseException as exc:  # noqa: BLE001 - strategy code: the seat's forfeit
            traceback.print_exc()
            self.failed[key] = ("exception", describe(exc))
            self.seats.pop(key, None)

    def end(self, message: dict[str, Any]) -> None:
        """A game is over for a seat: the strategy's ``end_game`` (``observe``
        extension; what it raises changes nothing), then its game is dropped."""
        key = (int(message["index"]), int(message["seat"]))
        end = self.hooks.pop(key, (None, None))[1]
        if end is not None and key not in self.failed:
            scores = message.get("scores")
            outcome = Outcome(
                tuple(scores) if scores is not None else None,  # type: ignore[arg-type]
                tuple(message.get("winners") or ()),
                str(message.get("termination")),
            )
            try:
                end(outcome, self.view(key, message.get("view")))
            except BaseException:  # noqa: BLE001 - strategy code; the game is over
                traceback.print_exc()
        self.seats.pop(key, None)
        self.failed.pop(key, None)
        self.game_options.pop(key, None)
        self.seat_games.pop(key, None)

    def choose(self, message: dict[str, Any]) -> None:
        move = self.decide(
            int(message["index"]), int(message["seat"]), message["legal"], message.get("view")
        )
        if type(move) is _Failure:
            self.send({"type": "error", "kind": move.kind, "message": move.message})
        else:
            self.send({"type": "move", "move": move})

    def choose_batch(self, message: dict[str, Any]) -> None:
        """Several requests in one line (``batch`` extension), answered in one ``moves``
        line: each entry a move, or ``{"error": kind, "message": text}``."""
        decide = self.decide
        moves = []
        for index, seat, legal, *view in message["requests"]:
            move = decide(index, seat, legal, view[0] if view else None)
            if type(move) is _Failure:
                move = {"error": move.kind, "message": move.message}
            moves.append(move)
        self.send({"type": "moves", "moves": moves})

    def decide(self, index: int, seat: int, legal: list[Any], snapshot: Any) -> Any:
        """The strategy's move for one request, or the :class:`_Failure` that forfeits."""
        key = (index, seat)
        if key in self.failed:
            return _Failure(*self.failed.pop(key))
        view = self.view(key, snapshot)
        try:
            move = self.seats[key](view, legal)
        except BaseException as exc:  # SystemExit & co.: the seat's forfeit, as in-process
            traceback.print_exc()
            return _Failure("exception", describe(exc))
        if type(move) is not int:
            if not is_plain_move(move):
                return _Failure("illegal_move", not_a_move(move))
            if not _encodable(move):  # a lone surrogate: no legal move holds one
                return _Failure("illegal_move", f"{short(move)} is not a legal move")
        return move

    def serve(self, stdin: int) -> int:
        """Answer messages until ``quit`` or the end of input. Everything that arrived
        together is answered together (one write), so a referee that sends several
        games' requests at once wakes once for all the answers."""
        pending = b""
        try:
            while chunk := os.read(stdin, 1 << 16):
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    if self.handle(decode(line)):
                        return 0
                self.flush()
            return 0
        finally:
            self.flush()

    def handle(self, message: dict[str, Any]) -> bool:
        """Act on one message; True for ``quit``."""
        kind = message["type"]
        if kind == "choose_batch":
            self.choose_batch(message)
        elif kind == "choose":
            self.choose(message)
        elif kind == "start":
            self.start(message)
        elif kind == "moved":
            self.moved(message)
        elif kind == "end":
            self.end(message)
        elif kind == "hello":
            self.hello(message)
        elif kind == "quit":
            return True
        else:
            raise ProtocolError(f"unknown message type {kind!r}")
        return False


def _encodable(move: Any) -> bool:
    """Whether a plain move can be written as UTF-8 (what the referee's own check of
    the same answer would find illegal in-process, this process must not fail to send)."""
    if type(move) is str:
        try:
            move.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if type(move) is list:
        return all(_encodable(item) for item in move)
    return True


def code_paths(use: str, base_dir: Path | None) -> list[str]:
    """Where the code named by a ``use:`` (or ``game:``) value lives, found without running
    any of it: a ``file.py`` (the file alone, not its folder, which usually holds the
    config) or a module's top-level package. Built-in names live in simcli itself."""
    import importlib.util

    from simcli.plugins import is_file_target, resolve_file

    if ":" not in use:
        return []
    if is_file_target(use):
        try:
            return [str(resolve_file(use.rpartition(":")[0], base_dir, "code", ValueError))]
        except ValueError:
            return []  # the loader reports it
    top = use.rpartition(":")[0].split(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return list(spec.submodule_search_locations)
    return [spec.origin] if spec.origin else []


def _watch_parent(parent: int) -> None:
    """End this process when the referee is gone (a backstop where the kernel's
    parent-death signal does not apply, e.g. a strategy started from a thread)."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m simcli.protocol.client",
        description="Run a simcli strategy class as a protocol program (stdin/stdout).",
    )
    parser.add_argument("--use", required=True, help="strategy name, module:Class or file.py:Class")
    parser.add_argument("--base-dir", default=None, help="folder for relative strategy files")
    parser.add_argument(
        "--no-sandbox", action="store_true", help="do not restrict file access after loading"
    )
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the referee decides when to stop
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print() goes to stderr, not into the protocol stream
    sys.stdout = sys.stderr
    base = Path(args.base_dir) if args.base_dir else None
    client = _Client(args.use, base, not args.no_sandbox, out)
    try:
        return client.serve(sys.stdin.fileno())
    except Exception as exc:  # tell the referee why, then stop
        traceback.print_exc()
        try:
            client.send({"type": "error", "kind": "protocol", "message": describe(exc)})
            client.flush()
        except OSError:
            pass
        return 1


if __name__ == "__main__":
    sys.exit(main())
