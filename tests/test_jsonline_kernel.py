"""The JSON line kernel (simcli/_jsonline.pyx) writes exactly what json writes.

Each test compares with ``json.JSONEncoder(...).encode`` for the two compact encoders the
records use (the game's line: ``ensure_ascii=False``; the state hash: ``sort_keys=True``)
and the two other combinations; the kernel's tests are skipped where it is not built.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from simcli import jsonline, native
from simcli.frozen import FrozenDict, FrozenList

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = [(s, a) for s in (False, True) for a in (False, True)]


def the_kernel() -> ModuleType:
    """The compiled kernel, where it is built from its current source (also under
    SIMCLI_PURE=1, which only keeps jsonline from using it)."""
    if jsonline.KERNEL not in native.select().current:
        if os.environ.get("SIMCLI_REQUIRE_COMPILED", "") not in ("", "0"):
            pytest.fail("simcli._jsonline is not built from its current source")
        pytest.skip("simcli._jsonline is not built from its current source")
    return importlib.import_module(jsonline.KERNEL)


def encoder(sort_keys: bool, ensure_ascii: bool) -> json.JSONEncoder:
    return json.JSONEncoder(
        separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=ensure_ascii, check_circular=False
    )


class Int(int):
    pass


class Text(str):
    pass


class Items(dict):
    """A dict whose items() json writes instead of what it stores."""

    def items(self):  # type: ignore[override]
        return [("other", 1)]


HAND_PICKED = [
    '"\\\n\r\t\b\f',
    "".join(map(chr, range(0x20))) + "\x7f",
    "é ü ß \u00a0 \u2028 \uffff 漢字",
    "\U0001f600 \U00010000 \U0010ffff",
    "",
    [0, 1, -1, 2**31, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**64, 3**90, -(7**70)],
    [0.0, -0.0, 1.5, 1e16, 1e-7, 1e15, 0.1, 1 / 3, 5e-324, 1.7976931348623157e308, -2.5e-300],
    [float("nan"), float("inf"), float("-inf")],
    [None, True, False, [True], {"t": False}],
    [[], {}, [[]], [{}], {"a": {}}, {"a": []}, [[[[[]]]]]],
    (1, (2, (3,)), ()),
    {"": "", "k": "v"},
    {"b": 1, "a": 2, "B": 3, "é": 4, "e": 5, "\U0001f600": 6, "\uffff": 7, "aa": 8},
    FrozenDict({"z": FrozenList([1, FrozenDict({"y": 2, "x": 3})]), "a": (4,)}),
    FrozenList([FrozenDict(), FrozenList()]),
    {"nested": {"deep": [{"k": [1, "two", 3.0, None]}]}},
]

deep: list = []
for _ in range(300):
    deep = [deep]

FALLBACK = [
    [Int(5)],
    {"k": Int(-3)},
    [Text("text")],
    {Text("key"): 1},
    {1: "int key"},
    {"a": 1, 2.5: "float key", None: 0, True: 1},
    Items({"stored": 2}),
    [{1, 2}],
    [b"bytes"],
    [[[]]] * 2 + [deep],
]

#: Text that is not UTF-8: written by the kernel only with ensure_ascii (as \\udXXX).
SURROGATES = [["lone \ud800 surrogate"], {"\udfff": 1}, ["\udc00\ud800"]]


@pytest.mark.parametrize(("sort_keys", "ensure_ascii"), SETTINGS)
@pytest.mark.parametrize("value", HAND_PICKED, ids=range(len(HAND_PICKED)))
def test_hand_picked_values_are_written_as_json_writes_them(value, sort_keys, ensure_ascii):
    reference = encoder(sort_keys, ensure_ascii)
    kernel = the_kernel().Encoder(None, sort_keys, ensure_ascii)
    assert kernel.covers(value)  # written by the kernel itself, not handed back
    assert kernel.encode(value) == reference.encode(value)
    assert jsonline.one_shot(reference)(value) == reference.encode(value)
    assert jsonline.one_shot_bytes(reference)(value) == reference.encode(value).encode()


def test_every_escape_is_json_s():
    text = "".join(map(chr, range(0x80))) + "\x80\u07ff\u0800\ud7ff\ue000\uffff\U00010000"
    for sort_keys, ensure_ascii in SETTINGS:
        reference = encoder(sort_keys, ensure_ascii)
        assert jsonline.one_shot(reference)([text]) == reference.encode([text])
    assert jsonline.one_shot(encoder(False, True))(["\x7f\U0001f600"]) == (
        '["\\u007f\\ud83d\\ude00"]'
    )


@pytest.mark.parametrize(("sort_keys", "ensure_ascii"), SETTINGS)
@pytest.mark.parametrize("value", FALLBACK, ids=range(len(FALLBACK)))
def test_what_the_kernel_leaves_is_the_encoder_s_own(value, sort_keys, ensure_ascii):
    reference = encoder(sort_keys, ensure_ascii)
    kernel = the_kernel().Encoder(reference.encode, sort_keys, ensure_ascii)
    assert not kernel.covers({"wrapped": [value]})
    assert outcome(jsonline.one_shot(reference), value) == outcome(reference.encode, value)


@pytest.mark.parametrize(("sort_keys", "ensure_ascii"), SETTINGS)
@pytest.mark.parametrize("value", SURROGATES, ids=range(len(SURROGATES)))
def test_lone_surrogates_are_the_encoder_s_text(value, sort_keys, ensure_ascii):
    reference = encoder(sort_keys, ensure_ascii)
    kernel = the_kernel().Encoder(reference.encode, sort_keys, ensure_ascii)
    assert kernel.covers(value) == ensure_ascii
    assert jsonline.one_shot(reference)(value) == reference.encode(value)
    assert outcome(jsonline.one_shot_bytes(reference), value) == outcome(utf8(reference), value)


def utf8(reference: json.JSONEncoder):
    """``reference.encode`` as UTF-8 bytes."""
    return lambda value: reference.encode(value).encode()


def outcome(encode, value):
    """``encode(value)``, or the type of the error it raises."""
    try:
        return encode(value)
    except (TypeError, ValueError, RecursionError) as exc:
        return type(exc)


def test_nan_without_allow_nan_is_the_encoder_s_error():
    reference = json.JSONEncoder(separators=(",", ":"), check_circular=False, allow_nan=False)
    ours = the_kernel().Encoder(reference.encode, False, True, False)
    assert ours.encode([1.5]) == "[1.5]" and not ours.covers([float("inf")])
    for encode in (ours.encode, jsonline.one_shot(reference)):
        with pytest.raises(ValueError, match="JSON compliant"):
            encode([float("nan")])


def test_one_shot_uses_the_kernel_where_it_is_current():
    """Where the kernel is built and not forced off, the records' encoders use it."""
    from simcli import game, records

    if not jsonline.compiled():
        pytest.skip("the kernel is not in use here (not built, stale, or SIMCLI_PURE=1)")
    for encode in (records._encode, game._hash_text):
        assert isinstance(encode.__self__, the_kernel().Encoder)


def random_text(rng: random.Random) -> str:
    pools = (
        " azAZ09_-",
        '"\\\n\r\t\b\f\x00\x01\x1f\x7f',
        "éüß\u00a0\u2028\u07ff\u0800\uffff漢",
        "\U0001f600\U00010000\U0010ffff",
    )
    return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randrange(8)))


def random_value(rng: random.Random, depth: int = 0):
    """A JSON-like tree: dicts (plain or frozen), lists, tuples, text, ints, floats."""
    kind = rng.randrange(12 if depth < 4 else 7)
    if kind == 0:
        return rng.choice((None, True, False))
    if kind == 1:
        return rng.randrange(-(2 ** rng.choice((4, 31, 63, 64, 100))), 2**70)
    if kind == 2:
        return rng.choice((rng.uniform(-1e6, 1e6), rng.random() * 10 ** rng.randrange(-30, 30)))
    if kind == 3:
        return rng.choice((0.0, -0.0, 1e16, 1e-7, float("inf"), float("-inf"), float("nan")))
    if kind in (4, 5, 6):
        return random_text(rng)
    items = [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if kind in (7, 8):
        return rng.choice((list, tuple, FrozenList))(items)
    pairs = {random_text(rng): item for item in items}
    return FrozenDict(pairs) if kind == 9 else pairs


@pytest.mark.parametrize(("sort_keys", "ensure_ascii"), SETTINGS)
def test_random_trees_are_written_as_json_writes_them(sort_keys, ensure_ascii):
    reference = encoder(sort_keys, ensure_ascii)
    kernel = the_kernel().Encoder(None, sort_keys, ensure_ascii)
    encode_bytes = jsonline.one_shot_bytes(reference)
    rng = random.Random(20261203 + 2 * sort_keys + ensure_ascii)
    for _ in range(3000):
        value = [random_value(rng)]
        expected = reference.encode(value)
        assert kernel.encode(value) == expected, value
        assert encode_bytes(value) == expected.encode()


def test_one_shot_keeps_other_encoders_as_they_are():
    indented = json.JSONEncoder(indent=1)
    assert jsonline.one_shot(indented) == indented.encode
    spaced = json.JSONEncoder(check_circular=False)  # separators (", ", ": ")
    value = {"a": [1, {"b": None}]}
    assert jsonline.one_shot(spaced)(value) == spaced.encode(value)
    with_default = json.JSONEncoder(separators=(",", ":"), check_circular=False, default=repr)
    assert jsonline.one_shot(with_default)([{1, 2}]) == with_default.encode([{1, 2}])
    assert not jsonline._kernel_supports(with_default)
    assert not jsonline._kernel_supports(spaced)
    assert not jsonline._kernel_supports(json.JSONEncoder(separators=(",", ":")))


def test_without_the_kernel_one_shot_is_the_c_encoder(monkeypatch):
    """The path taken when the kernel is absent, stale or forced off (SIMCLI_PURE=1)."""
    monkeypatch.setattr(jsonline, "_KERNEL", None)
    rng = random.Random(11)
    values = HAND_PICKED + FALLBACK + SURROGATES + [[random_value(rng)] for _ in range(200)]
    for sort_keys, ensure_ascii in SETTINGS:
        reference = encoder(sort_keys, ensure_ascii)
        encode, encode_bytes = jsonline.one_shot(reference), jsonline.one_shot_bytes(reference)
        assert getattr(encode, "__self__", None) is None  # the C encoder, not the kernel's
        for value in values:
            assert outcome(encode, value) == outcome(reference.encode, value)
            assert outcome(encode_bytes, value) == outcome(utf8(reference), value)


@pytest.mark.slow
def test_the_pure_path_writes_the_same():
    """Under SIMCLI_PURE=1 the kernel is not loaded, and the text is the encoder's."""
    script = (
        "import random, sys\n"
        "sys.path.insert(0, 'tests')\n"
        "from test_jsonline_kernel import HAND_PICKED, FALLBACK, SURROGATES\n"
        "from test_jsonline_kernel import encoder, outcome, random_value\n"
        "from simcli import jsonline\n"
        "assert not jsonline.compiled()\n"
        "rng = random.Random(7)\n"
        "values = HAND_PICKED + FALLBACK + SURROGATES\n"
        "values += [[random_value(rng)] for _ in range(300)]\n"
        "for s in (False, True):\n"
        "    for a in (False, True):\n"
        "        ref = encoder(s, a)\n"
        "        for v in values:\n"
        "            assert outcome(jsonline.one_shot(ref), v) == outcome(ref.encode, v)\n"
        "print('ok')\n"
    )
    env = {**os.environ, "SIMCLI_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
