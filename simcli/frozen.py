"""Read-only containers for what the referee shares with the rules and the strategies.

A game's options and component data are handed to every state, every clone and every
view; a strategy that writes into them would change the game it is playing (and, in the
same worker, every later game). :func:`freeze` makes a deep, read-only copy whose
containers are still ``dict`` and ``list`` subclasses, so rules code, ``isinstance``
checks, JSON encoding, pickling and ``copy.deepcopy`` all keep working; only the
mutating methods refuse with ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def thaw(value: Any) -> Any:
    """A plain mutable deep copy (dicts and lists) of a frozen or JSON-like value."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(item) for item in value]
    return value
