"""A YAML document that remembers the line of every key, and the typed checks that name
the file, line and key of a bad value (with a close match for a misspelt name).

A document also gathers the errors of its checks (:meth:`Doc.attempt`, :meth:`Doc.add`)
so that a config with several mistakes reports them all at once, up to
:data:`MAX_ERRORS` (:meth:`Doc.finish` raises them together as one
:class:`~simcli.errors.ConfigError`, in line order)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import yaml

from simcli.errors import ConfigError
from simcli.suggest import did_you_mean

KeyPath = tuple[Any, ...]

#: The most bytes a config file may hold, and the most values it may expand to (YAML
#: aliases repeat a value by reference: ten lines can stand for billions of values).
MAX_BYTES = 1 << 20
MAX_VALUES = 100_000
#: The most errors one config reports at once.
MAX_ERRORS = 20

T = TypeVar("T")


class _Enough(Exception):
    """The document has :data:`MAX_ERRORS` errors: stop checking."""


class LineError(ConfigError):
    """A config error at a line of the file (``line`` for sorting several of them)."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


class ConfigErrors(ConfigError):
    """Several errors of one config file, one per line of the message."""

    def __init__(self, path: Path, errors: list[ConfigError], complete: bool):
        self.errors = errors
        head = f"{path}: {len(errors)} problems" + (
            "" if complete else f" (stopped after the first {len(errors)})"
        )
        super().__init__("\n".join([head + ":", *(f"  {e}" for e in errors)]))


def expanded_size(node: yaml.Node, cap: int = MAX_VALUES) -> int:
    """How many values ``node`` stands for with every alias expanded (counted once per
    distinct node, so a bomb is measured without being expanded); stops past ``cap``."""
    sizes: dict[int, int] = {}

    def size(n: yaml.Node, depth: int) -> int:
        known = sizes.get(id(n))
        if known is not None:
            return known
        if depth > 200:
            return cap + 1
        total = 1
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                total += size(k, depth + 1) + size(v, depth + 1)
                if total > cap:
                    break
        elif isinstance(n, yaml.SequenceNode):
            for item in n.value:
                total += size(item, depth + 1)
                if total > cap:
                    break
        sizes[id(n)] = total
        return total

    return size(node, 0)


class Doc:
    """A parsed YAML document with the line of every key, for error messages."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.marks: dict[KeyPath, int] = {}
        self.errors: list[ConfigError] = []
        self.complete = True
        if len(text.encode()) > MAX_BYTES:
            raise ConfigError(f"{path}: the config is larger than {MAX_BYTES} bytes")
        try:
            loader = yaml.SafeLoader(text)
            try:
                node = loader.get_single_node()
                if node is not None and expanded_size(node) > MAX_VALUES:
                    raise ConfigError(
                        f"{path}: the config expands to more than {MAX_VALUES} values "
                        "(YAML aliases repeating aliases?)"
                    )
                self.data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
            problem = exc.problem or exc.context or "invalid YAML"
            raise ConfigError(f"{where}: YAML syntax error: {problem}") from None
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: YAML error: {exc}") from None
        except RecursionError:
            raise ConfigError(f"{path}: YAML nests too deeply (a recursive alias?)") from None
        if node is not None:
            try:
                self._walk(node, ())
            except RecursionError:
                raise ConfigError(f"{path}: YAML nests too deeply (a recursive alias?)") from None

    def _walk(self, node: yaml.Node, path: KeyPath) -> None:
        self.marks.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, value_node in node.value:
                key = key_node.value
                if key in seen:
                    raise ConfigError(
                        f"{self.path}:{key_node.start_mark.line + 1}: key "
                        f"'{dotted((*path, key))}' appears twice"
                    )
                seen.add(key)
                self.marks[(*path, key)] = key_node.start_mark.line + 1
                self._walk(value_node, (*path, key))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._walk(item, (*path, i))

    def line(self, path: KeyPath) -> int | None:
        while path and path not in self.marks:
            path = path[:-1]
        return self.marks.get(path)

    def error(self, path: KeyPath, message: str) -> ConfigError:
        line = self.line(path)
        where = f"{self.path}:{line}" if line else str(self.path)
        key = f" key '{dotted(path)}':" if path else ""
        return LineError(f"{where}:{key} {message}", line)

    def add(self, error: ConfigError) -> None:
        """Note an error and go on checking (until there are :data:`MAX_ERRORS`)."""
        self.errors.append(error)
        if len(self.errors) >= MAX_ERRORS:
            self.complete = False
            raise _Enough

    def attempt(self, check: Callable[..., T], *args: Any, default: Any = None) -> T | Any:
        """``check(*args)``, or ``default`` after noting the :class:`ConfigError` it
        raised."""
        try:
            return check(*args)
        except _Enough:
            raise
        except ConfigError as exc:
            self.add(exc)
            return default

    def gathering(self, check: Callable[[], T]) -> T:
        """Run ``check`` (the whole parse); raise every error noted, or the first one
        alone when there is one, else return what it returned."""
        try:
            result = check()
        except _Enough:
            result = None
        except ConfigError as exc:
            if not self.errors:
                raise
            self.errors.append(exc)
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            ordered = sorted(self.errors, key=lambda e: getattr(e, "line", None) or 0)
            raise ConfigErrors(self.path, ordered, self.complete)
        return result


def dotted(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def check_keys(doc: Doc, path: KeyPath, value: Any, allowed: tuple[str, ...]) -> dict:
    """``value`` without its unknown keys, each of them noted as an error (with a close
    match) in ``doc``."""
    if not isinstance(value, dict):
        raise doc.error(path, f"expected a mapping of {', '.join(allowed)}; got {kind_of(value)}")
    for key in value:
        if key not in allowed:
            doc.add(
                doc.error(
                    (*path, key),
                    f"unknown key{did_you_mean(str(key), allowed)}; allowed here: "
                    f"{', '.join(allowed)}",
                )
            )
    return {k: v for k, v in value.items() if k in allowed}


def kind_of(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: f"the text {value!r}"}.get(
        type(value), f"{value!r}"
    )


def int_at(doc: Doc, path: KeyPath, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise doc.error(path, f"expected a whole number; got {kind_of(value)}")
    if value < minimum:
        what = "positive" if minimum == 1 else f"at least {minimum}"
        raise doc.error(path, f"must be {what}; got {value}")
    return value


def str_at(doc: Doc, path: KeyPath, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise doc.error(path, f"expected a non-empty text; got {kind_of(value)}")
    return value


def choice_at(doc: Doc, path: KeyPath, value: Any, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``; else an error naming the key's kind, the
    choices and a close match."""
    if value not in choices:
        what = str(path[-1])
        raise doc.error(
            path,
            f"unknown {what} {value!r}{did_you_mean(str(value), choices)}; "
            f"expected one of: {', '.join(choices)}",
        )
    return value


def mapping_at(doc: Doc, path: KeyPath, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise doc.error(path, f"expected a mapping; got {kind_of(value)}")
    return dict(value)


def number_at(doc: Doc, path: KeyPath, value: Any) -> float:
    """A finite number (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise doc.error(path, f"expected a finite number; got {kind_of(value)}")
    return value
