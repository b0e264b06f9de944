"""Screenshots of viewer pages for docs/viewer.md, taken by the headless Chromium the
browser tests use (the system's chromium, driven by playwright).

    python docs/images/viewer-shots.py PAGE.html OUT.png [--ply N] [--seat K] [--width W]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shotlib import chromium_page, small  # beside this script


def shoot(page_path: Path, out: Path, ply: int, seat: int | None, width: int) -> None:
    hash_part = f"#ply={ply}" + (f"&seat={seat}" if seat is not None else "")
    with chromium_page(width, 700) as page:
        page.goto(page_path.resolve().as_uri() + hash_part)
        page.wait_for_selector("body[data-ready='1']")
        page.screenshot(path=str(out), full_page=False)
    small(out)


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
