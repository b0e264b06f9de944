"""The strategy protocol: JSON lines between the referee and a strategy program.

One JSON object per line, UTF-8, on the program's standard input (referee to strategy)
and standard output (strategy to referee); standard error is free text for diagnostics.
``docs/protocol.md`` specifies every message. This module holds what both sides share:
the version, the extensions and the line codec.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The protocol version the referee speaks; ``hello`` carries it.
PROTOCOL_VERSION = 1
#: Extensions of version 1 the referee offers in ``hello``; a program takes those it
#: names in ``ready``. ``batch``: the requests to one program that wait together go out as
#: one ``choose_batch`` line, answered by one ``moves`` line. ``observe``: a ``moved``
#: message after every move of the program's games, and the final view in ``end`` (see
#: docs/protocol.md).
BATCH = "batch"
OBSERVE = "observe"
EXTENSIONS = (BATCH, OBSERVE)
#: The longest line either side may send (a view of the largest game is a few KiB).
MAX_LINE = 1 << 22  # 4 MiB

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_DECODE = json.JSONDecoder().decode


class ProtocolError(ValueError):
    """A line that is not a protocol message."""


def _line_encoder() -> Any:
    """The C encoder ``json`` builds on every call, built once (the per-message cost of
    building it is a good part of a small message's); the pure-Python one elsewhere."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython always has the C accelerator
        return lambda message: (_ENCODER.encode(message) + "\n").encode()

    def refuse(value: Any) -> Any:
        raise TypeError(f"{type(value).__name__} is not JSON")

    chunks = make(None, refuse, json.encoder.encode_basestring, None, ":", ",", False, False, False)
    return lambda message: ("".join(chunks(message, 0)) + "\n").encode()


_ENCODE_LINE = _line_encoder()


try:  # optional: several times faster for the long lines of batched requests
    import orjson
except ImportError:  # pragma: no cover - depends on the installation
    orjson = None


def _stdlib_decode(line: bytes) -> Any:
    return _DECODE(line.decode())


if orjson is not None:
    _FAST_DUMPS, _FAST_LOADS, _FAST_FAILS = orjson.dumps, orjson.loads, orjson.JSONDecodeError
    _NEWLINE = orjson.OPT_APPEND_NEWLINE

    def encode(message: dict[str, Any]) -> bytes:
        """One message as a line of bytes (newline included)."""
        try:
            return _FAST_DUMPS(message, option=_NEWLINE)
        except TypeError:  # what orjson does not take (e.g. integers beyond 64 bits)
            return _ENCODE_LINE(message)

    # orjson reads an integer beyond 64 bits as a float: such lines (any run of 19 digits)
    # go to json, which keeps it an integer.
    _LONG_NUMBER = re.compile(rb"\d{19}").search

    def _parse(line: bytes) -> Any:
        if _LONG_NUMBER(line) is not None:
            return _stdlib_decode(line)
        try:
            return _FAST_LOADS(line)
        except _FAST_FAILS:  # what orjson refuses, json may take (NaN, 1e400, surrogates):
            return _stdlib_decode(line)  # the same messages are accepted either way

else:  # pragma: no cover - depends on the installation
    _parse = _stdlib_decode

    def encode(message: dict[str, Any]) -> bytes:
        """One message as a line of bytes (newline included)."""
        return _ENCODE_LINE(message)


def decode(line: bytes) -> dict[str, Any]:
    """Parse one line (without its newline) into a message: a JSON object with a string
    ``type``. Raises :class:`ProtocolError` with a short quote of anything else."""
    try:
        message = _parse(line)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise ProtocolError(f"not JSON: {quote(line)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a message (a JSON object with a 'type'): {quote(line)}")
    return message


def quote(line: bytes, limit: int = 60) -> str:
    """A short printable quote of raw bytes for error messages."""
    text = line[:limit].decode("utf-8", "replace")
    return repr(text + ("..." if len(line) > limit else ""))
