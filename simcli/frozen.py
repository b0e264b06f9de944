"""Read-only containers for what the referee shares with the rules and the strategies.

A game's options and component data are handed to every state, every clone and every
view; a strategy that writes into them would change the game it is playing (and, in the
same worker, every later game). :func:`freeze` makes a deep, read-only copy whose
containers are still ``dict`` and ``list`` subclasses, so rules code, ``isinstance``
checks, JSON encoding, pickling and ``copy.deepcopy`` all keep working; only the
mutating methods refuse with ``TypeError``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NoReturn


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is read-only: game options and components are shared")


class _Frozen:
    """What both read-only containers share: copies are the object itself, and pickling
    rebuilds it from a plain ``_plain`` (dict or list) copy."""

    __slots__ = ()
    _plain: type

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._plain(self),))

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._plain.__repr__(self)})"


class FrozenDict(_Frozen, dict):
    """A ``dict`` that cannot be changed after it is built."""

    __slots__ = ()
    _plain = dict
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse


class FrozenList(_Frozen, list):
    """A ``list`` that cannot be changed after it is built."""

    __slots__ = ()
    _plain = list
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse


def freeze(value: Any) -> Any:
    """A deep read-only copy of a JSON-like value: mappings become :class:`FrozenDict`,
    lists and tuples of containers :class:`FrozenList` (plain tuples stay tuples)."""
    if isinstance(value, FrozenDict | FrozenList):
        return value
    if isinstance(value, Mapping):
        return FrozenDict((key, freeze(item)) for key, item in value.items())
    if isinstance(value, list):
        return FrozenList(freeze(item) for item in value)
    if isinstance(value, tuple):
        return tuple(freeze(item) for item in value)
    if isinstance(value, set):
        return frozenset(value)
    return value


_SCALARS = frozenset((str, int, float, bool, type(None)))


def thaw(value: Any) -> Any:
    """A plain mutable deep copy (dicts and lists) of a frozen or JSON-like value."""
    kind = type(value)
    if kind in _SCALARS:  # the usual leaves, without the ABC checks below (once per game)
        return value
    if kind is FrozenDict or kind is dict:
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(item) for item in value]
    return value


def private_copy(obj: Any) -> Any:
    """A copy of ``obj`` (a game object) for one strategy in one game: an instance of the
    same class with attributes of its own, its dicts, lists and sets copied (read-only
    values are shared). Whatever the strategy sets, deletes or changes there (``evaluate``
    replaced, a cache emptied) stays there: no other seat, no other game and not the
    referee sees it. Deeper objects (component data) are read-only already."""
    cls = type(obj)
    if not _plain(cls):
        new = copy.copy(obj)
        attrs = getattr(new, "__dict__", None)
        if attrs is not None:
            _copy_containers(attrs, attrs)
        return new
    new = object.__new__(cls)
    attrs = obj.__dict__
    if attrs:  # a game object's attributes are often none at all: nothing to copy
        _copy_containers(attrs, new.__dict__)
    return new


def _copy_containers(source: dict[str, Any], target: dict[str, Any]) -> None:
    for key, value in list(source.items()):
        kind = type(value)
        target[key] = value.copy() if kind is dict or kind is list or kind is set else value


@lru_cache(maxsize=64)
def _plain(cls: type) -> bool:
    """Whether instances of ``cls`` are a plain ``__dict__`` built by ``object.__new__``
    (then copied directly, five times faster than :func:`copy.copy`)."""
    return (
        cls.__new__ is object.__new__
        and not any(vars(k).get("__slots__") for k in cls.__mro__)
        and "__dict__" in dir(cls)
        and cls.__reduce_ex__ is object.__reduce_ex__
        and getattr(cls, "__copy__", None) is None
    )
