"""The "games to look at" of the HTML report: a bounded list of game indices picked while
the records stream past (largest margin, shortest and longest, forfeits, errors, move-limit
games) and, once the ratings are known, the biggest upsets.

Memory stays bounded whatever the size of the log: a few heaps of :data:`TOP` entries, at
most :data:`CAP` games per kind of termination, and per group and pair of strategies the
first :data:`PER_PAIR` games the weaker-looking one won."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from simcli.stats import records as R
from simcli.stats.summary import Summary

#: Games listed per "extreme" kind (largest margin, shortest, longest, upsets).
TOP = 5
#: Games listed per kind of termination (forfeit, error, move limit); the rest are counted.
CAP = 10
#: Games kept per group and (winner, loser) pair of strategies for the upsets.
PER_PAIR = 2
#: Characters of a forfeit's or error's message shown.
MESSAGE = 100


@dataclass
class Pick:
    """One game to look at: its index (``simcli replay --game N``), a one-line description
    and, once the viewer page is written, its path relative to the report."""

    index: int
    text: str
    link: str | None = None
    note: str | None = None  # why there is no link
    record: dict[str, Any] | None = field(default=None, repr=False)  # for its viewer page


@dataclass
class PickList:
    """One kind of game to look at; ``more`` games of this kind are not listed."""

    key: str
    title: str
    picks: list[Pick]
    more: int = 0
    query: str | None = None  # the simcli replay options that list them all


def _players(rec: dict) -> str:
    return " vs ".join(str(s) for s in rec["seats"])


def _scores(rec: dict) -> str:
    scores = rec.get("scores")
    if scores is None:
        return "no scores"
    return "scores " + ", ".join(f"{v:g}" for v in scores)


def _message(rec: dict) -> str:
    msg = R.detail_message(rec) or ""
    msg = " ".join(msg.split())
    return msg if len(msg) <= MESSAGE else msg[: MESSAGE - 3] + "..."


def _desc(rec: dict) -> str:
    return f"{_players(rec)}: {_scores(rec)}"


def group_id(rec: dict) -> str:
    """The summary's group id of a record (``Group.id``: variant and seats)."""
    return f"{rec.get('variant') or 'all'}-{len(rec['seats'])}p"


@dataclass
class _Capped:
    picks: list[Pick] = field(default_factory=list)
    total: int = 0

    def add(self, pick: Pick) -> None:
        self.total += 1
        if len(self.picks) < CAP:
            self.picks.append(pick)


@dataclass
class _Pair:
    count: int = 0
    games: list[dict] = field(default_factory=list)


class GamePicker:
    """Pass the records through :meth:`watch`; read :meth:`lists` after the summary."""

    def __init__(self) -> None:
        # heaps of (key, -index, seq, record): min-heaps, so the largest keys stay
        self._margin: list[tuple[float, int, int, dict]] = []
        self._short: list[tuple[int, int, int, dict]] = []  # key: -length
        self._long: list[tuple[int, int, int, dict]] = []
        self._seq = 0
        self._lengths: set[int] = set()
        self._terms = {k: _Capped() for k in ("forfeit", "error", "move_limit")}
        self._pairs: dict[tuple[str, str, str], _Pair] = {}

    def watch(self, records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for rec in records:
            self.add(rec)
            yield rec

    def add(self, rec: dict[str, Any]) -> None:
        index = int(rec["index"])
        self._seq += 1
        term = rec.get("termination")
        if term == "forfeit":
            seat = R.forfeit_seat(rec)
            who = f"{rec['seats'][seat]} (seat {seat})" if seat is not None else "a seat"
            text = f"{_players(rec)}: {who} forfeited, {R.forfeit_kind(rec)}: {_message(rec)}"
            self._terms["forfeit"].add(Pick(index, text, record=rec))
            return
        if term == "error":
            self._terms["error"].add(Pick(index, f"{_players(rec)}: {_message(rec)}", record=rec))
            return
        length = R.game_length(rec.get("moves"))
        if term == "move_limit":
            text = f"{_desc(rec)}, {length} player moves"
            self._terms["move_limit"].add(Pick(index, text, record=rec))
        if length is not None and len(self._lengths) < 3:
            self._lengths.add(length)
        if length is not None:
            _keep(self._short, (-length, -index, self._seq, rec), TOP)
            _keep(self._long, (length, -index, self._seq, rec), TOP)
        margin = R.margin(rec.get("scores"))
        if margin is not None:
            _keep(self._margin, (margin, -index, self._seq, rec), TOP)
        winners, seats = rec.get("winners") or [], rec["seats"]
        if len(winners) == 1 and len(seats) > 1:
            winner, gid = seats[winners[0]], group_id(rec)
            for loser in dict.fromkeys(seats):
                if loser == winner:
                    continue
                pair = self._pairs.get((gid, winner, loser))
                if pair is None:
                    pair = self._pairs[gid, winner, loser] = _Pair()
                pair.count += 1
                if len(pair.games) < PER_PAIR:
                    pair.games.append(rec)

    def lists(self, summary: Summary) -> list[PickList]:
        """The lists to show (empty kinds left out), upsets ranked by the summary's
        ratings."""
        out = []
        if self._margin:
            picks = [_pick(e, f"margin {e[0]:g}") for e in _ranked(self._margin)]
            out.append(PickList("margin", "Largest margin", picks))
        if len(self._lengths) > 1:  # every game as long as the others: nothing to show
            picks = [_pick(e, f"{-e[0]} player moves") for e in _ranked(self._short)]
            out.append(PickList("shortest", "Shortest", picks))
            picks = [_pick(e, f"{e[0]} player moves") for e in _ranked(self._long)]
            out.append(PickList("longest", "Longest", picks))
        titles = {"forfeit": "Forfeits", "error": "Errors", "move_limit": "Move limit reached"}
        for key, capped in self._terms.items():
            if capped.total:
                more = capped.total - len(capped.picks)
                query = f"--where termination={key}"
                out.append(PickList(key, titles[key], capped.picks, more, query))
        upsets = self._upsets(summary)
        if upsets:
            out.append(PickList("upsets", "Biggest upsets by rating", upsets))
        return out

    def _upsets(self, summary: Summary) -> list[Pick]:
        groups = {g.id: g for g in summary.groups}
        ranked = []
        for (gid, winner, loser), pair in self._pairs.items():
            grp = groups.get(gid)
            rt = grp.rated if grp else None
            won, lost = (rt.row(winner), rt.row(loser)) if rt else (None, None)
            if won is None or lost is None or won.elo is None or lost.elo is None:
                continue
            gap = lost.elo - won.elo
            if gap > 0:
                ranked.append((gap, winner, loser, pair))
        ranked.sort(key=lambda t: (-t[0], t[1], t[2]))
        picks: list[Pick] = []
        for gap, winner, loser, pair in ranked:
            for rec in pair.games:
                if len(picks) < TOP and all(p.record is not rec for p in picks):
                    text = (
                        f"{winner} beat {loser}, rated {gap:.0f} model Elo higher "
                        f"({pair.count} such game{'s' if pair.count != 1 else ''}); {_desc(rec)}"
                    )
                    picks.append(Pick(int(rec["index"]), text, record=rec))
        return picks


def _ranked(heap: list[tuple]) -> list[tuple]:
    """A heap's entries, largest key first, then earliest game."""
    return sorted(heap, key=lambda e: (e[0], e[1]), reverse=True)


def _pick(entry: tuple, what: str) -> Pick:
    rec = entry[-1]
    return Pick(int(rec["index"]), f"{what}; {_desc(rec)}", record=rec)


def _keep(heap: list, item: tuple, size: int) -> None:
    if len(heap) < size:
        heapq.heappush(heap, item)
    elif item > heap[0]:
        heapq.heapreplace(heap, item)
