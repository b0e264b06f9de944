"""The strategy protocol: JSON lines between the referee and a strategy program.

One JSON object per line, UTF-8, on the program's standard input (referee to strategy)
and standard output (strategy to referee); standard error is free text for diagnostics.
``docs/protocol.md`` specifies every message. This module holds what both sides share:
the version and the line codec.
"""

from __future__ import annotations

import json
from typing import Any

#: The protocol version the referee speaks; ``hello`` carries it.
PROTOCOL_VERSION = 1
#: The longest line either side may send (a view of the largest game is a few KiB).
MAX_LINE = 1 << 22  # 4 MiB

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class ProtocolError(ValueError):
    """A line that is not a protocol message."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line of bytes (newline included)."""
    return (_ENCODER.encode(message) + "\n").encode()


def decode(line: bytes) -> dict[str, Any]:
    """Parse one line (without its newline) into a message: a JSON object with a string
    ``type``. Raises :class:`ProtocolError` with a short quote of anything else."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError(f"not JSON: {quote(line)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a message (a JSON object with a 'type'): {quote(line)}")
    return message


def quote(line: bytes, limit: int = 60) -> str:
    """A short printable quote of raw bytes for error messages."""
    text = line[:limit].decode("utf-8", "replace")
    return repr(text + ("..." if len(line) > limit else ""))
