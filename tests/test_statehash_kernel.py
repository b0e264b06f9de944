"""The final-state hash: compiled (on the SHA extensions or in portable C) or pure,
``game.state_hash`` is the first 16 hex digits of SHA-256 over the canonical JSON of
``[game_id, snapshot]``, as ``hashlib`` and ``json`` compute it."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
from types import ModuleType

import pytest

from simcli import game, native

KERNEL = "simcli._statehash"


def _kernel() -> ModuleType:
    if KERNEL not in native.select().current:
        if os.environ.get("SIMCLI_REQUIRE_COMPILED", "") not in ("", "0"):
            pytest.fail(f"{KERNEL} is not built from its current source")
        pytest.skip(f"{KERNEL} is not built from its current source")
    return importlib.import_module(KERNEL)


# Every length across three 64-byte blocks (the padding's edges at 55, 56, 63 and 64 bytes
# of the last block among them), every byte value, and longer messages.
_SAMPLE = random.Random(20261204)
MESSAGES = [bytes(_SAMPLE.randrange(256) for _ in range(n)) for n in range(0, 200)]
MESSAGES += [
    bytes(range(256)) * 4,
    b"\xff" * 4096,
    bytes(_SAMPLE.getrandbits(8) for _ in range(9999)),
]


def _reference(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


@pytest.mark.parametrize("name", ["hash16", "hash16_portable"])
def test_the_kernel_gives_hashlibs_digits(name: str) -> None:
    """Both ways of the kernel: the SHA extensions where the processor has them (else the
    same portable C), and the portable C."""
    hash16 = getattr(_kernel(), name)
    for data in MESSAGES:
        assert hash16(data) == _reference(data), len(data)


def test_known_digests() -> None:
    # FIPS 180-4 examples (SHA-256 of "abc", and of the empty message)
    kernel = _kernel()
    for hash16 in (kernel.hash16, kernel.hash16_portable):
        assert hash16(b"abc") == "ba7816bf8f01cfea"
        assert hash16(b"") == "e3b0c44298fc1c14"


def test_the_kernel_takes_bytes_only() -> None:
    kernel = _kernel()
    for wrong in ("abc", bytearray(b"abc"), None, 3):
        with pytest.raises(TypeError):
            kernel.hash16(wrong)


def test_the_state_hash_is_sha256_of_the_canonical_json() -> None:
    """Whichever path is active (the kernel, or _sha256 under SIMCLI_PURE=1), and both."""
    snapshots = [
        {"board": [1, 0, -1], "ply": 36, "a": {"z": None, "b": [True, 1.5]}},
        {"text": "é\u2028\U0001f600", "": [], "n": 2**70},
        {},
    ]
    active = game.state_hash
    for snapshot in snapshots:
        text = json.dumps(["libraria", snapshot], sort_keys=True, separators=(",", ":"))
        expected = _reference(text.encode())
        assert active("libraria", snapshot) == expected
        saved = game._hash16
        try:
            game._hash16 = None  # the path without the kernel
            assert game.state_hash("libraria", snapshot) == expected
        finally:
            game._hash16 = saved


def test_the_kernel_is_in_use_unless_forced_pure() -> None:
    if native.select().forced:
        assert game._hash16 is None
    elif KERNEL in native.select().current:
        assert game._hash16 is importlib.import_module(KERNEL).hash16
