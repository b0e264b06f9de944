"""The referee's side of the strategy protocol: strategies in their own processes.

A :class:`RemoteSeatFactory` stands for one configured strategy with ``isolation:
process`` or a ``cmd:`` command. For each seat it sits in, a worker keeps one
:class:`RemoteSeat`: a strategy process that serves all of that seat's games (start-up is
paid once), reset per game by a ``start`` message. The process is started again when it
died or was stopped, and before a game whose deal (seat seed) it has already seen: a
process never sees the same deal twice, so nothing it kept from one game tells it about
another's hidden cards. (Seat-swapped games share a deal but not a seat, so they are
played by two different processes.)

Everything a strategy process can do wrong is its seat's forfeit, named in the record's
``detail``: it cannot start or exits (``crashed``), answers late or never (``timeout``,
and the process is stopped), writes something that is not a protocol message or floods
its standard error (``protocol``), raises (``exception``, reported by the client) or
answers an illegal move (``illegal_move``).
"""

from __future__ import annotations

import shlex
import sys
import time
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simcli.moves import IllegalAnswer, find_move, short
from simcli.protocol import EXTENSIONS, PROTOCOL_VERSION
from simcli.tournament.faults import Forfeit
from simcli.tournament.strategy_process import (
    StrategyFault,
    StrategyProcess,
)

#: How long a move may take when the config sets no ``move_time_limit``.
DEFAULT_MOVE_SECONDS = 300.0


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


def choose_message(index: int, seat: int, view: Any, legal: list[Any]) -> dict[str, Any]:
    """A ``choose`` request as a message of its own."""
    message: dict[str, Any] = {"type": "choose", "index": index, "seat": seat}
    if view is not None:
        message["view"] = view
    message["legal"] = legal
    return message


class RemoteSeat:
    """The player of one seat whose strategy runs in a process (see the module doc).

    Requests are answered in the order they were sent, so a driver may have several
    games waiting on one process (``pending``, oldest first: see ``interleave.py``)."""

    def __init__(self, factory: RemoteSeatFactory, game: str | None = None):
        self.factory = factory
        #: the game its processes load (``hello``'s ``game``): a variant may bring its own
        self.game = game if game is not None else factory.game
        self.process: StrategyProcess | None = None
        self.seen: set[int] = set()  # the seat seeds (deals) this process has played
        self.pending: deque[Any] = deque()  # what waits for an answer, oldest first
        self.options_sent: Any = None
        self.fault: StrategyFault | None = None  # why a launched process failed to start

    @property
    def wants_view(self) -> bool:
        return self.process is None or self.process.wants_view

    @property
    def observes(self) -> bool:
        """Whether the process took the ``observe`` extension (``moved`` messages)."""
        return self.process is not None and self.process.observes

    def needs_fresh_process(self, seed: int) -> bool:
        """Whether starting a game with this seat seed means a new process (the old one
        has seen this deal, or is gone)."""
        process = self.process
        return process is not None and (not process.alive() or seed in self.seen)

    def launch(self, options: Mapping[str, Any]) -> None:
        """Start this seat's process ahead of its first game without waiting for its
        handshake (see :meth:`ready`), so that the processes of several seats start side
        by side."""
        if self.process is None and self.fault is None:
            try:
                self.process = self.factory.spawn(options, wait=False, game=self.game)
                self.options_sent = options
            except StrategyFault as fault:
                self.fault = fault

    def ready(self) -> None:
        """Complete the handshake of a launched process; a failure is kept for the seat's
        next game, which it forfeits as if the process had started then."""
        process = self.process
        if process is None or process.started:
            return
        try:
            process.handshake()
        except StrategyFault as fault:
            self.process = None
            self.fault = fault
            return
        self.factory.interleaves = process.interleaves

    def start_game(self, index: int, seat: int, seed: int, options: Mapping[str, Any]) -> None:
        if self.needs_fresh_process(seed):
            self.close()
        self.ready()
        process = self.process
        try:
            if self.fault is not None:
                fault, self.fault = self.fault, None
                raise fault
            if process is None:
                process = self.process = self.factory.spawn(options, game=self.game)
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
        """Queue a choose request (sent by the process's next ``flush``): in the
        ``choose_batch`` line of a program that took the ``batch`` extension, else as a
        message of its own."""
        process = self.process
        assert process is not None
        if process.batches:
            process.queue_request(
                [index, seat, legal] if view is None else [index, seat, legal, view]
            )
        else:
            process.queue(choose_message(index, seat, view, legal))

    def choose(self, index: int, seat: int, view: Any, legal: list[Any]) -> Any:
        """Ask for a move and wait for it: the checked legal move, or the seat's
        :class:`Forfeit` (a process that failed is stopped)."""
        try:
            deadline = time.monotonic() + self.factory.move_seconds
            assert self.process is not None
            self.process.send(choose_message(index, seat, view, legal), deadline)
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

    def answer_entry(self, seat: int, entry: Any, legal: list[Any]) -> Any:
        """The legal move one entry of a ``moves`` line names (``batch`` extension): a
        move, ``{"index": i}`` or ``{"error": kind, "message": text}``; :class:`Forfeit`
        as for a message of its own."""
        if type(entry) is not dict:
            try:
                return find_move(legal, entry)
            except IllegalAnswer as exc:
                raise Forfeit(seat, "illegal_move", str(exc)) from None
        if "error" in entry:
            reply = {"type": "error", "kind": entry["error"], "message": entry.get("message", "")}
        else:
            reply = {"type": "move", **{k: entry[k] for k in ("index", "move") if k in entry}}
        return self.answer(seat, reply, legal)

    def observe(self, index: int, seat: int, actor: int, move: Any, view: Any) -> None:
        """Queue a ``moved`` message (``observe`` extension): ``actor`` (a seat, or -1
        for a chance event) made ``move``, as this seat may see it; ``view`` is the seat's
        snapshot after it, or ``None``. It goes out with the next message."""
        process = self.process
        if process is None:
            return
        message: dict[str, Any] = {
            "type": "moved",
            "index": index,
            "seat": seat,
            "player": actor,
            "move": move,
        }
        if view is not None:
            message["view"] = view
        process.queue(message)

    def end_game(self, index: int, seat: int, record: Mapping[str, Any], view: Any = None) -> None:
        """Queue the ``end`` message (with the seat's final view for a process that took
        the ``observe`` extension and wants views)."""
        process = self.process
        if process is None:
            return
        notice = {
            "type": "end",
            "index": index,
            "seat": seat,
            "scores": record.get("scores"),
            "winners": record.get("winners"),
            "termination": record.get("termination"),
        }
        if view is not None:
            notice["view"] = view
        process.queue(notice)  # goes out with the next message (if the process lives on)

    def close(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None
        self.seen = set()
        self.pending.clear()


class RemoteSeatFactory:
    """One configured strategy that runs out of process, with one :class:`RemoteSeat`
    per seat it sits in (in this worker) and game it plays: a variant that plays its own
    game class (``variants: [{game: file.py:Class}]``) has processes of its own, which
    load that game (``games``: variant name -> its game, where it differs)."""

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
        games: Mapping[str, str] | None = None,
    ):
        self.name = name
        self.command = list(command)
        self.game = game
        self.games = dict(games or {})
        self.players = players
        self.params = dict(params)
        self.move_seconds = move_seconds or DEFAULT_MOVE_SECONDS
        self.memory_limit = memory_limit
        self.cwd = cwd
        self.seats: dict[tuple[int, str], RemoteSeat] = {}
        #: Whether its processes play several games at once (known from the handshake;
        #: the Python client does).
        self.interleaves = command[1:3] == ["-m", "simcli.protocol.client"]

    def for_seat(self, seat: int, variant: str | None = None) -> RemoteSeat:
        """The player of ``seat`` in a game of ``variant`` (its processes load the
        variant's game)."""
        game = self.games.get(variant, self.game) if variant is not None else self.game
        player = self.seats.get((seat, game))
        if player is None:
            player = self.seats[seat, game] = RemoteSeat(self, game)
        return player

    def hello(self, options: Mapping[str, Any], game: str | None = None) -> dict[str, Any]:
        return {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "game": self.game if game is None else game,
            "players": self.players,
            "options": dict(options),
            "params": self.params,
            "name": self.name,
            "extensions": list(EXTENSIONS),
        }

    def spawn(
        self, options: Mapping[str, Any], wait: bool = True, game: str | None = None
    ) -> StrategyProcess:
        """A new process of this strategy (with ``wait`` false, its handshake is for the
        caller to complete: see :meth:`StrategyProcess.handshake`), playing ``game``
        (default: the config's)."""
        process = StrategyProcess(
            self.name,
            self.command,
            self.hello(options, game),
            cwd=self.cwd,
            memory_limit=self.memory_limit,
            wait=wait,
        )
        if wait:
            self.interleaves = process.interleaves
        return process

    def quit(self) -> None:
        """Send ``quit`` to every process, so that they exit side by side (then
        :meth:`close`)."""
        for player in self.seats.values():
            if player.process is not None:
                player.process.quit()

    def close(self) -> None:
        self.quit()
        for player in self.seats.values():
            player.close()


def check_handshakes(
    factories: Sequence[RemoteSeatFactory],
    options: Mapping[str, Any],
    games: Sequence[tuple[str | None, Mapping[str, Any]]] = (),
) -> None:
    """Start every program at once, complete the handshakes and stop them:
    ``ValueError`` naming the strategy and the reason for the first that fails (``simcli
    validate`` and ``run`` call this before any game). ``games``: further (game, options)
    pairs each program is started for as well (variants with a game of their own)."""
    started: list[tuple[RemoteSeatFactory, StrategyProcess | StrategyFault]] = []
    for factory in factories:
        for game, opts in [(None, options), *games]:
            try:
                started.append((factory, factory.spawn(opts, wait=False, game=game)))
            except StrategyFault as fault:
                started.append((factory, fault))
    failure = None
    for factory, process in started:
        if isinstance(process, StrategyProcess):
            try:
                process.handshake()
                process.stop(grace=0)  # nothing to keep: no need to let it exit
                continue
            except StrategyFault as fault:
                process = fault
        failure = failure or f"strategy '{factory.name}': {process.message}"
    if failure is not None:
        raise ValueError(failure)
