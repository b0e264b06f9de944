"""Close-match suggestions for misspelt names."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def close_match(name: str, known: Iterable[str]) -> str | None:
    matches = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` or ``""``."""
    match = close_match(name, known)
    return f" (did you mean '{match}'?)" if match else ""
