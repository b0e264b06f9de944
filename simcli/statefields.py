"""Declared state fields: a state lists its fields once, and its snapshot, clone, view and
snapshot checks follow from the list.

A state class sets ``state_fields`` (a :class:`StateFields`): one :class:`Field` per
snapshot key, in snapshot order, each with its *kind* (the value's shape: how it is
copied, written to JSON, checked and masked) and who may see it:

* :data:`PUBLIC`: every seat;
* :data:`OWNER`: a per-seat list whose entry ``s`` only seat ``s`` sees (a hand);
* :data:`ALL`: nobody (the order of the deck).

A :class:`DeclaredState` derives ``snapshot()``, ``clone()`` and ``view(seat)`` from the
declaration, and :func:`load` derives the game's ``state_from_snapshot``: every key
present, of its kind, in range; a view may hold the kind's *unknown* value (``-1``, or
``None``) where it hides something. A game keeps a hand-written method where it is
faster; ``simcli check-game`` (the ``fields`` check) proves it equal to the derived one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from simcli.game import Game, IllegalMoveError, State

PUBLIC = "public"  #: every seat sees it
OWNER = "owner"  #: entry ``s`` of a per-seat list: only seat ``s`` sees it
ALL = "all"  #: hidden from every seat
UNKNOWN = -1  #: the usual stand-in for a hidden number

Limit = int | str | None  # a number, or the name of one in the limits (DeclaredState.field_limits)


def _limit(value: Limit, limits: Mapping[str, Any]) -> int | None:
    return limits[value] if isinstance(value, str) else value


class Bad(Exception):
    """Raised by :meth:`Kind.decode`: the value does not fit; ``what`` it must be."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Kind:
    """The shape of a field's value. Scalars are immutable: copying returns them."""

    #: the stand-in a view shows for a hidden value of this kind
    unknown: Any = UNKNOWN
    #: True when the value is immutable (copied by reference)
    scalar = True
    #: True when the value is its own JSON (encoded as it is)
    plain = True
    #: True when writing the JSON needs the state (names from its components): then
    #: :meth:`encode_in` is used
    contextual = False

    def copy(self, value: Any) -> Any:
        return value

    def encode(self, value: Any) -> Any:
        return value

    def mask(self, value: Any) -> Any:
        return self.unknown

    def encode_in(self, state: Any, value: Any) -> Any:
        """The JSON of ``value`` for a :attr:`contextual` kind."""
        return self.encode(value)

    # The fast forms, built once per declaration: ``None`` for "the value as it is".
    def encoder(self) -> Callable[[Any], Any] | None:
        return None if self.plain else self.encode

    def copier(self) -> Callable[[Any], Any] | None:
        return None if self.scalar else self.copy

    def masker(self) -> Callable[[Any], Any]:
        if self.plain:
            unknown = self.unknown
            return lambda value: unknown
        return self.mask

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        """The value of JSON ``raw`` (``masked``: the stand-in is allowed); :class:`Bad`
        if it does not fit."""
        raise NotImplementedError

    def decode_all(self, raws: list[Any], limits: Mapping[str, Any], masked: bool) -> list[Any]:
        """:meth:`decode` of every entry of the list ``raws`` (a kind may do it faster)."""
        return [self.decode(x, limits, masked) for x in raws]


@dataclass(frozen=True)
class Int(Kind):
    """An integer ``lo <= x < hi`` (either bound a number, a name in the limits, or
    ``None`` for no bound); ``unknown`` is what a view shows for it when hidden."""

    lo: Limit = None
    hi: Limit = None
    unknown: Any = UNKNOWN

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        if masked and raw == self.unknown and type(raw) is type(self.unknown):
            return raw
        lo, hi = _limit(self.lo, limits), _limit(self.hi, limits)
        if type(raw) is not int or (lo is not None and raw < lo) or (hi is not None and raw >= hi):
            if lo is not None and hi == lo + 1:  # one value allowed (the player count, say)
                raise Bad(f"{lo}")
            if lo is not None and hi is not None:
                raise Bad(f"an integer {lo}..{hi - 1}")
            raise Bad(f"an integer >= {lo}" if lo is not None else "an integer")
        return raw

    def decode_all(self, raws: list[Any], limits: Mapping[str, Any], masked: bool) -> list[Any]:
        """The bounds looked up once for the whole list; :meth:`decode` for an entry
        out of them (the stand-in, or :class:`Bad`)."""
        if type(self).decode is not Int.decode:  # a subclass checks its own way
            return super().decode_all(raws, limits, masked)
        lo, hi = _limit(self.lo, limits), _limit(self.hi, limits)
        lo = float("-inf") if lo is None else lo
        hi = float("inf") if hi is None else hi
        for x in raws:
            if type(x) is not int or not lo <= x < hi:
                self.decode(x, limits, masked)
        return list(raws)


@dataclass(frozen=True)
class Bool(Kind):
    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        if type(raw) is not bool:
            raise Bad("true or false")
        return raw


@dataclass(frozen=True)
class Choice(Kind):
    """One of a few values (``choices``); ``unknown`` is what a view shows when hidden."""

    choices: tuple[Any, ...] = ()
    unknown: Any = UNKNOWN

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        if masked and raw == self.unknown and type(raw) is type(self.unknown):
            return raw
        if not any(raw == c and type(raw) is type(c) for c in self.choices):
            raise Bad(" or ".join(repr(c) for c in self.choices))
        return raw


@dataclass(frozen=True)
class Member(Kind):
    """An integer among the values the limits name ``among`` (a card id of the game's
    components, say)."""

    among: str = ""
    unknown: Any = UNKNOWN

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        if masked and raw == self.unknown and type(raw) is type(self.unknown):
            return raw
        if type(raw) is not int or raw not in limits[self.among]:
            raise Bad(f"one of the {self.among} ids")
        return raw


@dataclass(frozen=True)
class Maybe(Kind):
    """``kind`` or nothing: JSON ``null``, held as ``none`` (``None`` unless the state
    keeps a sentinel such as ``-1``)."""

    kind: Kind = Int()
    none: Any = None
    plain = False

    def encode(self, value: Any) -> Any:
        return None if value == self.none else self.kind.encode(value)

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        if raw is None:
            return self.none
        try:
            return self.kind.decode(raw, limits, masked)
        except Bad as bad:
            raise Bad(f"null or {bad.what}") from None


@dataclass(frozen=True)
class Seq(Kind):
    """A list of ``item`` values: ``length`` of them if set (a number or a name in the
    limits), in ascending order if ``ordered``; held as a tuple if ``frozen`` (then shared
    by copies), else as a list."""

    item: Kind = Int()
    length: Limit = None
    ordered: bool = False
    frozen: bool = False
    plain = False

    @property
    def scalar(self) -> bool:  # type: ignore[override]
        return self.frozen and self.item.scalar

    def copy(self, value: Any) -> Any:
        if self.frozen and self.item.scalar:
            return value
        if self.item.scalar:
            return list(value)
        copied = [self.item.copy(x) for x in value]
        return tuple(copied) if self.frozen else copied

    def encode(self, value: Any) -> Any:
        if self.item.plain:
            return list(value)
        return [self.item.encode(x) for x in value]

    def mask(self, value: Any) -> Any:
        if self.item.plain:
            unknown = self.item.unknown
            masked = [unknown] * len(value)
        else:
            masked = [self.item.mask(x) for x in value]
        return tuple(masked) if self.frozen else masked

    def encoder(self) -> Callable[[Any], Any] | None:
        inner = self.item.encoder()
        if inner is None:
            return list
        return lambda value: [inner(x) for x in value]

    def masker(self) -> Callable[[Any], Any]:
        if self.item.plain and not self.frozen:
            unknown = self.item.unknown
            return lambda value: [unknown] * len(value)
        return self.mask

    def copier(self) -> Callable[[Any], Any] | None:
        inner = self.item.copier()
        if inner is None:
            return None if self.frozen else list
        if self.frozen:
            return lambda value: tuple([inner(x) for x in value])
        return lambda value: [inner(x) for x in value]

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        n = _limit(self.length, limits)
        if type(raw) is not list or (n is not None and len(raw) != n):
            raise Bad(self.describe(limits))
        try:
            values = self.item.decode_all(raw, limits, masked)
        except Bad:
            raise Bad(self.describe(limits)) from None
        if self.ordered and values != sorted(values):
            raise Bad(f"{self.describe(limits)} in ascending order")
        return tuple(values) if self.frozen else values

    def describe(self, limits: Mapping[str, Any]) -> str:
        n = _limit(self.length, limits)
        count = f"{n} " if n is not None else ""
        try:
            self.item.decode(object(), limits, False)
        except Bad as bad:
            return f"a list of {count}entries, each {bad.what}"
        return f"a list of {count}entries"  # pragma: no cover - every kind refuses object()


@dataclass(frozen=True)
class Record(Kind):
    """A fixed list of scalars, one per kind in ``items``: a tuple in the state."""

    items: tuple[Kind, ...] = ()
    plain = False

    def encode(self, value: Any) -> Any:
        return list(value)

    def encoder(self) -> Callable[[Any], Any] | None:
        return list

    def mask(self, value: Any) -> Any:
        return tuple(k.unknown for k in self.items)

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        if type(raw) is not list or len(raw) != len(self.items):
            raise Bad(f"a list of {len(self.items)} values")
        return tuple(k.decode(x, limits, masked) for k, x in zip(self.items, raw, strict=True))


@dataclass(frozen=True)
class Field:
    """One snapshot key: ``name`` (the attribute, and the key unless ``key`` is set), its
    ``kind``, who sees it (``hidden``: :data:`PUBLIC`, :data:`OWNER` or :data:`ALL`).
    ``optional``: the key is left out of the snapshot while the value is ``None``.
    ``maybe_unknown``: a view may show the stand-in here even where the field is public
    (a value not dealt yet). ``also``: more attributes that the one key holds together
    with ``name`` (the kind then reads and writes the tuple of their values)."""

    name: str
    kind: Kind
    hidden: str = PUBLIC
    key: str = ""
    optional: bool = False
    maybe_unknown: bool = False
    also: tuple[str, ...] = ()

    def get(self, state: Any) -> Any:
        if self.also:
            return tuple(getattr(state, name) for name in (self.name, *self.also))
        return getattr(state, self.name)

    def set(self, state: Any, value: Any) -> None:
        if self.also:
            for name, part in zip((self.name, *self.also), value, strict=True):
                setattr(state, name, part)
        else:
            setattr(state, self.name, value)

    def __post_init__(self) -> None:
        if self.hidden not in (PUBLIC, OWNER, ALL):
            raise ValueError(f"Field {self.name}: hidden must be public, owner or all")
        if self.hidden == OWNER and not isinstance(self.kind, Seq):
            raise ValueError(f"Field {self.name}: an owner-hidden field is a per-seat Seq")
        if not self.key:
            object.__setattr__(self, "key", self.name)


@dataclass(frozen=True, init=False)
class StateFields:
    """A state's declared fields, in snapshot order. ``viewer``: the field (if any) that
    names the seat a view belongs to (``None`` in a full state); ``label`` starts the
    messages of the snapshot checks (``"ex_libris snapshot"``)."""

    fields: tuple[Field, ...]
    viewer: str | None = None
    label: str = "snapshot"

    def __init__(self, *fields: Field, viewer: str | None = None, label: str = "snapshot"):
        object.__setattr__(self, "fields", tuple(fields))
        object.__setattr__(self, "viewer", viewer)
        object.__setattr__(self, "label", label)
        keys = [f.key for f in self.fields]
        if len(set(keys)) != len(keys):
            raise ValueError(f"StateFields: a key is declared twice in {keys}")
        if viewer is not None and viewer not in {f.name for f in self.fields}:
            raise ValueError(f"StateFields: the viewer field {viewer!r} is not declared")
        #: the snapshot keys, in order
        object.__setattr__(self, "keys", tuple(keys))
        #: the fields hidden from some seat
        object.__setattr__(self, "secret", tuple(f for f in self.fields if f.hidden != PUBLIC))
        #: (field, encoder) per field, and (field, copier) per mutable field: built once
        encoders = tuple(
            (f, f.kind.encode_in if f.kind.contextual else f.kind.encoder(), f.kind.contextual)
            for f in self.fields
        )
        object.__setattr__(self, "encoders", encoders)
        copiers = ((f, f.kind.copier()) for f in self.fields)
        object.__setattr__(self, "copiers", tuple((f, c) for f, c in copiers if c is not None))
        #: (field, mask(value, seat)) per hidden field: built once
        object.__setattr__(self, "maskers", tuple((f, _masker(f)) for f in self.secret))

    keys: tuple[str, ...]
    secret: tuple[Field, ...]
    encoders: tuple[tuple[Field, Callable[..., Any] | None, bool], ...]
    copiers: tuple[tuple[Field, Callable[[Any], Any]], ...]
    maskers: tuple[tuple[Field, Callable[[Any, int], Any]], ...]

    @property
    def hides(self) -> bool:
        """True when some field is hidden from some seat."""
        return bool(self.secret)


def _masker(f: Field) -> Callable[[Any, int], Any]:
    """``f``'s value as ``seat`` sees it (for a hidden field)."""
    if f.hidden == ALL:
        mask = f.kind.masker()
        return lambda value, seat: mask(value)
    kind: Seq = f.kind  # type: ignore[assignment]
    hide = kind.item.masker()
    if kind.frozen:
        return lambda value, seat: tuple([v if s == seat else hide(v) for s, v in enumerate(value)])
    return lambda value, seat: [v if s == seat else hide(v) for s, v in enumerate(value)]


# ---------------------------------------------------------------- derived methods


def fields_of(state: Any) -> StateFields:
    declared = getattr(type(state), "state_fields", None)
    if declared is None:
        raise NotImplementedError(f"{type(state).__name__} declares no state_fields")
    return declared


def snapshot(state: State) -> dict[str, Any]:
    """The snapshot the declaration gives: every field's JSON, in declaration order."""
    snap: dict[str, Any] = {}
    for f, encode, contextual in fields_of(state).encoders:
        value = getattr(state, f.name) if not f.also else f.get(state)
        if value is None and f.optional:
            continue
        if encode is None:
            snap[f.key] = value
        else:
            snap[f.key] = encode(state, value) if contextual else encode(value)
    return snap


def _attributes(state: State) -> dict[str, Any]:
    """Every instance attribute of ``state`` (its ``__dict__`` and its slots)."""
    found = dict(getattr(state, "__dict__", {}))
    for cls in type(state).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(state, name):
                found[name] = getattr(state, name)
    return found


def clone(state: State) -> State:
    """A copy: every attribute shared (the game, options, caches kept immutable), every
    declared field copied by its kind, then ``state.cloned(new)`` for the rest."""
    cls = type(state)
    new = cls.__new__(cls)
    for name, value in _attributes(state).items():
        setattr(new, name, value)
    for f, copy in fields_of(state).copiers:
        value = f.get(state)
        if value is not None:
            f.set(new, copy(value))
    hook = getattr(state, "cloned", None)
    if hook is not None:
        hook(new)
    return new


def view(state: State, seat: int, base: Callable[[], State] | None = None) -> State:
    """What ``seat`` may know: a copy (``base()``, else :func:`clone`) with every field
    hidden from the seat masked and the viewer field set, then ``state.viewed(new, seat)``
    for what the declaration cannot say."""
    declared = fields_of(state)
    new = base() if base is not None else clone(state)
    for f, mask in declared.maskers:  # the copy's values: a seat's own entry stays its own
        if f.also:
            f.set(new, mask(f.get(new), seat))
        else:
            setattr(new, f.name, mask(getattr(new, f.name), seat))
    if declared.viewer is not None:
        setattr(new, declared.viewer, seat)
    hook = getattr(state, "viewed", None)
    if hook is not None:
        hook(new, seat)
    return new


def load(
    game: Game,
    cls: type[State],
    players: int,
    options: Mapping[str, Any],
    snap: Mapping[str, Any],
) -> State:
    """The state (or view) whose snapshot is ``snap``: every declared key present and of
    its kind, in range; in a view (or in a state without a viewer field) a hidden field may
    show its stand-in. :class:`IllegalMoveError` names the first key that does not fit.
    ``cls.empty`` builds the blank state, ``State.loaded`` finishes it."""
    declared: StateFields = cls.state_fields  # type: ignore[attr-defined]
    label = declared.label
    if not isinstance(snap, Mapping):
        raise IllegalMoveError(f"{label}: not a JSON object")
    known = set(declared.keys)
    for f in declared.fields:
        if f.key not in snap and not f.optional:
            raise IllegalMoveError(f"{label}: missing '{f.key}'")
    limits = _hook(cls, "field_limits", _default_limits)(game, players, options)
    is_view = True
    if declared.viewer is not None:
        by_name = {f.name: f for f in declared.fields}
        vf = by_name[declared.viewer]
        is_view = _decode(vf, snap[vf.key], limits, False, label) is not None
    state = _hook(cls, "empty", partial(_blank, cls))(game, players, options)
    for f in declared.fields:
        raw = snap.get(f.key)
        if raw is None and f.optional:
            f.set(state, None)
            continue
        masked = is_view and (f.hidden != PUBLIC or f.maybe_unknown)
        f.set(state, _decode(f, raw, limits, masked, label))
    extras = getattr(cls, "extra_snapshot_keys", ())
    extra = [key for key in snap if key not in known and key not in extras]
    if extra:
        raise IllegalMoveError(f"{label}: unknown key '{extra[0]}'")
    hook = getattr(state, "loaded", None)
    if hook is not None:
        hook(snap)
    return state


def _hook(cls: type, name: str, default: Callable[..., Any]) -> Callable[..., Any]:
    """``cls``'s hook ``name``, or ``default`` for a state class that is no
    :class:`DeclaredState` (one with only a declaration, its methods written by hand)."""
    return getattr(cls, name, None) or default


def _default_limits(game: Game, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    return {"players": players}


def _blank(cls: type, game: Game, players: int, options: Mapping[str, Any]) -> Any:
    state = cls.__new__(cls)
    state.game, state.players, state.options = game, players, options
    return state


def _decode(f: Field, raw: Any, limits: Mapping[str, Any], masked: bool, label: str) -> Any:
    try:
        return f.kind.decode(raw, limits, masked)
    except Bad as bad:
        raise IllegalMoveError(
            f"{label}: '{f.key}' must be {bad.what}, got {_short(raw)}"
        ) from None


def _short(raw: Any) -> str:
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "..."


class DeclaredState(State):
    """A :class:`~simcli.game.State` whose ``snapshot``, ``clone`` and ``view`` come from
    its ``state_fields``. A subclass may still write any of them by hand (where speed
    needs it; ``simcli check-game`` proves it equal) and uses the hooks for what a
    declaration cannot say: :meth:`cloned`, :meth:`viewed`, :meth:`empty`,
    :meth:`field_limits` and :meth:`loaded`."""

    __slots__ = ()

    state_fields: ClassVar[StateFields]
    #: snapshot keys beside the declared ones that :func:`load` lets through (the state
    #: reads them in :meth:`loaded`)
    extra_snapshot_keys: ClassVar[tuple[str, ...]] = ()

    def snapshot(self) -> dict[str, Any]:
        return snapshot(self)

    def clone(self) -> State:
        return clone(self)

    def view(self, seat: int) -> State:
        return view(self, seat, self.clone) if self.state_fields.secret else self.clone()

    def cloned(self, new: State) -> None:
        """Finish the copy ``new``: copy the mutable attributes that are not fields."""

    def viewed(self, new: State, seat: int) -> None:
        """Finish the view ``new`` of ``seat``: hide what the declaration cannot."""

    @classmethod
    def empty(cls, game: Game, players: int, options: Mapping[str, Any]) -> DeclaredState:
        """A blank state for :func:`load` to fill in."""
        state = cls.__new__(cls)
        state.game, state.players, state.options = game, players, options
        return state

    @classmethod
    def field_limits(cls, game: Game, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The numbers that named bounds and lengths stand for (``"players"`` always),
        and the collections a :class:`Member` field names."""
        return {"players": players}

    def loaded(self, snap: Mapping[str, Any]) -> None:
        """Finish a state :func:`load` filled in from ``snap``: rebuild what is derived
        from the fields; :class:`IllegalMoveError` for fields that contradict each other."""
