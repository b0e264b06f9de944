"""JSON text at the speed of the C encoder, for the lines written once per game.

``json.JSONEncoder.encode`` builds its C encoder anew on every call, which costs about as
much as encoding a game record or a final state; :func:`one_shot` builds it once, with
the encoder's own settings, and checks it against ``encode`` on a probe of every kind of
value before it is used. The same C code with the same settings writes the same text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

#: A value of every kind the encoder writes apart (ints past 64 bits, negative zero,
#: escapes, non-ASCII text, nested containers, an empty key).
PROBE = {"a": [0, -7, 2**70, 1.5, -0.0, 'é\n"\u2028\ud800', None, True, {}], "b": {"": []}}


def one_shot(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """A function equal to ``encoder.encode`` for a list or a dict; ``encoder.encode``
    itself where no C encoder can be built (no ``_json``, another signature, settings
    such as ``indent`` that ``encode`` writes in Python) or it differs on :data:`PROBE`."""
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
