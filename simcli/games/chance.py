"""Common random numbers for the chance events after the setup.

The same seed gives the same setup; it should also give the same chance events, whatever
the players did in between, so that two strategies compared on a seed (a solo run, or the
two games of a seat-swapped pair) meet the same luck through the whole game. So no chance
event draws from the driver's RNG in sequence. Instead:

* the game's *key* is drawn from the driver's RNG as the last draw of the setup and kept
  in it (``setup.chance_key``), so it depends on the seed only;
* the ``n``-th event of a kind (``"reshuffle"``, ...) draws from its own RNG,
  ``event_random(key, kind, n)``;
* a shuffle gives every card of the game (the whole *universe*, numbered) a random sort
  key from that RNG and orders the cards to shuffle by their keys. The cards two games
  have in common come out in the same relative order, whatever else is in the piles;
* a random pick takes the card with the smallest key among those to pick from.

The outcome of each event still goes into the record, so records replay without any RNG.
The key and the count of events of each kind are part of the state's snapshot
(``"chance": {"key": K, "events": {kind: n}}``), so a state rebuilt from its snapshot
draws the same future. A view has no key (``null``): a strategy cannot foresee the real
shuffles, and a view, or a state dealt from a view, takes a key from the RNG its first
chance event is given (so does a state built from a hand-made setup without a key).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

from simcli.game import IllegalMoveError
from simcli.seeding import SEED_BITS, event_random

T = TypeVar("T")


class ChanceStreams:
    """The key (``None`` in views and until a keyless state's first event) and the
    event counts."""

    __slots__ = ("key", "counts")

    def __init__(self, key: int | None = None, counts: dict[str, int] | None = None) -> None:
        self.key = key
        self.counts: dict[str, int] = dict(counts or {})

    def copy(self) -> ChanceStreams:
        return ChanceStreams(self.key, self.counts)

    def hidden(self) -> ChanceStreams:
        """For a view: the counts (public) without the key."""
        return ChanceStreams(None, self.counts)

    def random(self, driver: random.Random, kind: str) -> random.Random:
        """The RNG of the next event of ``kind``; a state without a key takes one from
        ``driver`` first."""
        if self.key is None:
            self.key = driver.getrandbits(SEED_BITS)
        return event_random(self.key, kind, self.counts.get(kind, 0))

    def happened(self, kind: str) -> None:
        """Count an applied event of ``kind``."""
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def snapshot(self) -> dict[str, Any]:
        return {"key": self.key, "events": dict(sorted(self.counts.items()))}

    @classmethod
    def from_snapshot(cls, value: Any, kinds: Collection[str], where: str) -> ChanceStreams:
        """The streams of a state rebuilt from its snapshot's ``chance`` value; ``kinds``
        are the game's event kinds."""
        events = value.get("events") if isinstance(value, Mapping) else None
        if (
            not isinstance(value, Mapping)
            or sorted(value) != ["events", "key"]
            or not isinstance(events, Mapping)
            or not all(kind in kinds and type(n) is int and n >= 0 for kind, n in events.items())
        ):
            raise IllegalMoveError(
                f"{where}: chance must be {{'key': KEY or null, 'events': {{KIND: COUNT}}}} "
                f"with kinds {', '.join(sorted(kinds))}; got {value!r}"
            )
        return cls(setup_key(value["key"], where), dict(events))


def draw_key(rng: random.Random) -> int:
    """The key of a game's chance streams: the last draw of its setup."""
    return rng.getrandbits(SEED_BITS)


def setup_key(value: Any, where: str) -> int | None:
    """A key read from a setup or a snapshot (``None`` when absent)."""
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < 2**SEED_BITS:
        raise IllegalMoveError(
            f"{where}: chance_key must be an integer 0..2**{SEED_BITS}-1 or absent; got {value!r}"
        )
    return value


def keyed_order(
    items: Sequence[T], number: Callable[[T], int], universe: int, rng: random.Random
) -> list[T]:
    """``items`` sorted by per-card keys: ``rng`` draws one key for each of the
    ``universe`` cards (numbered by ``number``), in card-number order."""
    keys = [rng.random() for _ in range(universe)]
    return sorted(items, key=lambda item: keys[number(item)])


def keyed_pick(
    items: Sequence[T], number: Callable[[T], int], universe: int, rng: random.Random
) -> T:
    """The item with the smallest key (the first card of ``keyed_order``)."""
    keys = [rng.random() for _ in range(universe)]
    return min(items, key=lambda item: keys[number(item)])


def first_copies(universe: Sequence[str]) -> dict[str, int]:
    """card -> the number of its first copy in ``universe`` (for :func:`copy_numbers`)."""
    first: dict[str, int] = {}
    for i, card in enumerate(universe):
        first.setdefault(card, i)
    return first


def copy_numbers(
    cards: Sequence[str], universe: Sequence[str], first: Mapping[str, int] | None = None
) -> list[int]:
    """Numbers for cards that exist in several identical copies: the ``j``-th card of a
    kind in ``cards`` is copy ``j`` of that kind in ``universe`` (every copy, those of a
    kind next to each other; ``first``: its :func:`first_copies`, when the caller keeps
    them)."""
    if first is None:
        first = first_copies(universe)
    seen: dict[str, int] = {}
    out = []
    for card in cards:
        j = seen.get(card, 0)
        seen[card] = j + 1
        out.append(first[card] + j)
    return out
