"""Screenshots of viewer pages for docs/viewer.md, taken by the headless Chromium the
browser tests use (the system's chromium, driven by playwright).

    python docs/images/viewer-shots.py PAGE.html OUT.png [--ply N] [--seat K] [--width W]
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright


def shoot(page_path: Path, out: Path, ply: int, seat: int | None, width: int) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no chromium on PATH")
    hash_part = f"#ply={ply}" + (f"&seat={seat}" if seat is not None else "")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": 700})
        page.goto(page_path.resolve().as_uri() + hash_part)
        page.wait_for_selector("body[data-ready='1']")
        page.screenshot(path=str(out), full_page=False)
        browser.close()
    small(out)


def small(out: Path) -> None:
    """Keep the docs light: 64 colours are plenty for a board picture."""
    from PIL import Image

    with Image.open(out) as image:
        image.convert("RGB").quantize(colors=64).save(out, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--ply", type=int, default=0)
    parser.add_argument("--seat", type=int)
    parser.add_argument("--width", type=int, default=1100)
    args = parser.parse_args()
    shoot(args.page, args.out, args.ply, args.seat, args.width)


if __name__ == "__main__":
    main()
