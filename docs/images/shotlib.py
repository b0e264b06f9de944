"""What the screenshot scripts beside this file share: the system's headless Chromium
(the one the browser tests use, driven by playwright) and a small PNG."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def chromium_page(width: int, height: int) -> Iterator[Any]:
    """A page of the system's headless chromium, ``width`` x ``height`` pixels."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no chromium on PATH")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()


def small(out: Path) -> None:
    """Keep the docs light: 64 colours are plenty for a page of text, charts or a board."""
    from PIL import Image

    with Image.open(out) as image:
        image.convert("RGB").quantize(colors=64).save(out, optimize=True)
