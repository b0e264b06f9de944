"""The protocol's line codec: the same messages whether orjson is installed or not."""

from __future__ import annotations

import json

import pytest

from simcli import protocol
from simcli.protocol import ProtocolError, decode, encode


def stdlib_decode(line: bytes):
    """The codec without orjson: what ``decode`` must agree with."""
    return json.loads(line.decode())


LINES = [
    b'{"type":"moves","moves":[3,{"index":1},"a1",[0,[1,2]]]}',
    b'{"type": "move", "move": 123456789012345678901234567890}',  # beyond 64 bits
    b'{"type":"move","move":NaN}',  # json takes NaN; the referee then refuses the move
    b'{"type":"move","move":1e400}',
    b'{"type":"error","message":"\\ud800 lone surrogate"}',
    b'{"type":"x","type":"y"}',  # a repeated key: the last one counts
    '{"type":"start","name":"Ex Libris é"}'.encode(),
]


@pytest.mark.parametrize("line", LINES)
def test_decode_takes_what_json_takes(line):
    got, want = decode(line), stdlib_decode(line)
    assert repr(got) == repr(want)  # repr: NaN != NaN, and types count


@pytest.mark.parametrize("line", [b"nope", b"\xff\xfe", b'{"type": 3}', b"[1]", b"[" * 5000])
def test_decode_refuses_what_is_no_message(line):
    with pytest.raises(ProtocolError):
        decode(line)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "choose_batch", "requests": [[12, 0, [0, 1, 3]], [13, 1, ["a", "b"], {"v": -1}]]},
        {"type": "start", "index": 1, "seat": 0, "seed": 2**53 - 1, "options": {"x": "é"}},
        {"type": "hello", "params": {"big": 2**70}},  # beyond orjson's integers
    ],
)
def test_encode_gives_one_line_json_reads_back(message):
    line = encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert stdlib_decode(line[:-1]) == message


def test_encode_refuses_what_is_not_json():
    with pytest.raises(TypeError):
        encode({"type": "x", "value": object()})


def test_which_codec_is_in_use_is_known():
    """orjson is optional (``pip install 'simcli[fast]'``); either way the tests above
    hold. This one says which path they covered."""
    assert protocol.orjson is None or hasattr(protocol.orjson, "loads")
