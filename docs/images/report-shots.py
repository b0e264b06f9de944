"""Screenshots of report.html for docs/report.md, taken by the headless Chromium the
browser tests use (the system's chromium, driven by playwright).

    python docs/images/report-shots.py RUN [--balance BALANCE_RUN] [--out docs/images]

RUN is a run folder with its report.html (``simcli run configs/quickstart.yaml`` makes the
one the docs show; a run with forfeits shows more games to look at); BALANCE_RUN a
``simcli balance`` folder (``configs/libraria-balance.yaml``). Each picture is one part of
the page, cut from the heading of that part to the next heading of its level.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shotlib import chromium_page, small  # beside this script

#: name -> (first element, the element the picture stops before, or None: the first
#: figure after the first element)
SHOTS = {
    "report-top": ("h1", "#games-to-look-at"),
    "report-games": ("#games-to-look-at", "#method"),
    "report-details": ("#strategies", "[id^=ratings]"),
    "report-seat-strategies": ("[id^=seat-bias-by-strategy]", None),
}
BALANCE_SHOTS = {"report-balance": ("#balance-by-skill", "#games-to-look-at")}

CLIP = """([first, stop]) => {
  const a = document.querySelector(first);
  let end;
  if (stop) { end = document.querySelector(stop).getBoundingClientRect().top - 8; }
  else {
    let e = a.nextElementSibling;
    while (e && e.tagName !== 'FIGURE') e = e.nextElementSibling;
    end = e.getBoundingClientRect().bottom + 4;
  }
  const top = a.getBoundingClientRect().top - 8;
  return {x: 0, y: top + window.scrollY, width: document.documentElement.clientWidth,
          height: end - top};
}"""


def shoot(page_path: Path, shots: dict, out: Path, width: int) -> None:
    with chromium_page(width, 900) as page:
        page.goto(page_path.resolve().as_uri())
        page.wait_for_load_state("load")
        for name, where in shots.items():
            clip = page.evaluate(CLIP, list(where))
            path = out / f"{name}.png"
            page.screenshot(path=str(path), clip=clip, full_page=True)
            small(path)
            print(path, path.stat().st_size // 1024, "KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--balance", type=Path)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--width", type=int, default=1000)
    args = parser.parse_args()
    shoot(args.run / "report.html", SHOTS, args.out, args.width)
    if args.balance:
        shoot(args.balance / "report.html", BALANCE_SHOTS, args.out, args.width)


if __name__ == "__main__":
    main()
