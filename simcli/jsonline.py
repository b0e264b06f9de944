"""JSON text for the lines written once per game, faster than ``json.JSONEncoder.encode``.

``json.JSONEncoder.encode`` builds its C encoder anew on every call, which costs about as
much as encoding a game record or a final state; :func:`one_shot` builds it once, with
the encoder's own settings, and checks it against ``encode`` on a probe of every kind of
value before it is used. The same C code with the same settings writes the same text.

Where the compiled kernel ``simcli/_jsonline.pyx`` is built from its current source (and
the engines are not forced pure, ``SIMCLI_PURE=1``), a compact encoder (``separators=(",",
":")``, no indent, no cycle check, no skipped keys, the base ``default``) writes into one
buffer instead, about five times faster; it leaves every value it does not write the way
``json`` does (a key that is not a ``str``, a subclass of ``int`` or ``str``, ...) to the
encoder's own ``encode``, so the text is the encoder's either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from simcli import native

KERNEL = "simcli._jsonline"

#: A value of every kind the encoder writes apart (ints past 64 bits, negative zero,
#: escapes, non-ASCII text, nested containers, an empty key).
PROBE = {"a": [0, -7, 2**70, 1.5, -0.0, 'é\n"\u2028\ud800', None, True, {}], "b": {"": []}}

#: More for the kernel: every short escape, DEL (escaped only with ``ensure_ascii``), a
#: character past the Basic Multilingual Plane, 64-bit edges, floats that repr writes
#: with an exponent, a tuple, keys that sort differently by code point than by letter.
KERNEL_PROBE = [
    PROBE,
    ['\\"\b\f\n\r\t\x00\x1f\x7f\U0001f600', (1, (2, [])), 1e16, 1e-7, 2**63, -(2**63) - 1],
    {"b": 1, "B": 2, "é": 3, "\U0001f600": 4, "\uffff": 5, "a": {"y": None, "x": False}},
]


_KERNEL = native.load_kernel(KERNEL)


def compiled() -> bool:
    """Whether the compiled kernel is in use."""
    return _KERNEL is not None


def _c_encode(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """``encoder.encode`` with its C encoder built once, or ``encoder.encode`` itself."""
    try:
        from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii

        if c_make_encoder is None or encoder.indent is not None or encoder.check_circular:
            return encoder.encode
        chunks = c_make_encoder(
            None,
            encoder.default,
            encode_basestring_ascii if encoder.ensure_ascii else encode_basestring,
            encoder.indent,
            encoder.key_separator,
            encoder.item_separator,
            encoder.sort_keys,
            encoder.skipkeys,
            encoder.allow_nan,
        )
        join = "".join

        def encode(value: Any) -> str:
            return join(chunks(value, 0))

        if encode(PROBE) == encoder.encode(PROBE):
            return encode
    except Exception:  # noqa: BLE001 - any failure: the encoder's own encode, as before
        pass
    return encoder.encode


def _kernel_supports(encoder: json.JSONEncoder) -> bool:
    """Whether the kernel writes what ``encoder`` writes: the compact settings, and
    ``encode``, ``iterencode`` and ``default`` those of :class:`json.JSONEncoder`."""
    base = json.JSONEncoder
    kind = type(encoder)
    return (
        _KERNEL is not None
        and kind.encode is base.encode
        and kind.iterencode is base.iterencode
        and getattr(encoder.default, "__func__", None) is base.default
        and encoder.item_separator == ","
        and encoder.key_separator == ":"
        and encoder.indent is None
        and not encoder.check_circular
        and not encoder.skipkeys
    )


def _outcome(encode: Callable[[Any], Any], value: Any, as_bytes: bool = False) -> Any:
    """``encode(value)`` (UTF-8 encoded if ``as_bytes``), or the type of the ValueError it
    raises (the bytes of text with a lone surrogate)."""
    try:
        out = encode(value)
        return out.encode() if as_bytes else out
    except ValueError as exc:
        return type(exc)


def _kernel_encode(
    encoder: json.JSONEncoder, fallback: Callable[[Any], Any], as_bytes: bool
) -> Callable[[Any], Any] | None:
    """The kernel's function for ``encoder``, falling back to ``fallback``; None where it
    is not in use, does not support the encoder, or differs from it on the probes."""
    if not _kernel_supports(encoder):
        return None
    try:
        flags = (bool(encoder.sort_keys), bool(encoder.ensure_ascii), bool(encoder.allow_nan))
        encode = _KERNEL.Encoder(fallback, *flags, as_bytes).encode
        for value in (PROBE, KERNEL_PROBE):
            if _outcome(encode, value) != _outcome(encoder.encode, value, as_bytes):
                return None
    except Exception:  # noqa: BLE001 - any failure: no kernel for this encoder
        return None
    return encode


def one_shot(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """A function equal to ``encoder.encode`` for a list or a dict: the kernel's where it
    supports the encoder; else its C encoder built once; else ``encoder.encode`` itself
    (no ``_json``, another signature, settings such as ``indent`` that ``encode`` writes
    in Python, or a difference on :data:`PROBE`)."""
    return _kernel_encode(encoder, encoder.encode, False) or _c_encode(encoder)


def one_shot_bytes(encoder: json.JSONEncoder) -> Callable[[Any], bytes]:
    """A function equal to ``encoder.encode(value).encode()`` (UTF-8) for a list or a
    dict, without the text in between where the kernel writes it (for hashing)."""
    text = one_shot(encoder)

    def encode(value: Any) -> bytes:
        return text(value).encode()

    return _kernel_encode(encoder, encode, True) or encode
