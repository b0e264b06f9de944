"""Report generation time, HTML against the text report, page size and time to first
render in headless Chromium.

    python benchmarks/bench_report.py [--games 3000 100000] [--log games.jsonl]

The games are real Libraria games: the quickstart config's 3,000 (played first unless
``--log`` names a log), repeated with new indexes and seeds up to each size (seat-swapped
pairs stay pairs). For each size it times, in this process:

- the summary (one pass over the log, as ``simcli report``), with and without the
  picking of the games to look at;
- report.md (today's text report) and the PNG plots;
- report.html: the page itself, and the viewer pages of the games it lists;

then opens report.html in the system's headless Chromium (through playwright) three
times and prints the median first contentful paint and load event, in ms.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quickstart_log(folder: Path) -> Path:
    out = folder / "quickstart"
    subprocess.run(
        [
            "simcli",
            "run",
            str(ROOT / "configs" / "quickstart.yaml"),
            "--out",
            str(out),
            "-q",
            "--no-plots",
        ],
        check=True,
    )
    return out / "games.jsonl"


def tiled(source: Path, games: int, folder: Path) -> Path:
    """A run folder whose log repeats ``source``'s games up to ``games`` (without run.json,
    whose schedule would not hold the added games)."""
    lines = source.read_text().splitlines()
    folder.mkdir(parents=True)
    with open(folder / "games.jsonl", "w") as fh:
        for n in range(games):
            tile, i = divmod(n, len(lines))
            rec = json.loads(lines[i])
            rec["index"] = n
            rec["seed"] = rec["seed"] + tile * 1_000_003
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
    return folder


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def generate(run: Path) -> dict[str, float]:
    from simcli.report.api import build_summary
    from simcli.report.html import build_html, read_balance
    from simcli.report.picks import GamePicker
    from simcli.report.plots import make_plots
    from simcli.report.render import render
    from simcli.report.views import write_views
    from simcli.run_info import read_run_info
    from simcli.tournament.gamelog import read_records

    info = read_run_info(run)
    log = run / "games.jsonl"
    _, plain = timed(lambda: build_summary(read_records(log), run_info=info, validate=False))
    picker = GamePicker()
    summary, picked = timed(
        lambda: build_summary(picker.watch(read_records(log)), run_info=info, validate=False)
    )
    md, md_s = timed(lambda: render(summary, "markdown"))
    (run / "report.md").write_text(md)
    _, plots_s = timed(lambda: make_plots(summary, run))
    summary.plots = []
    picks, lists_s = timed(lambda: picker.lists(summary))
    _, views_s = timed(lambda: write_views(picks, run, run))
    page, html_s = timed(lambda: build_html(summary, picks, balance=read_balance(run)))
    (run / "report.html").write_text(page, encoding="utf-8")
    return {
        "summary_s": plain,
        "summary_picking_s": picked,
        "markdown_s": md_s,
        "plots_s": plots_s,
        "html_s": html_s + lists_s,
        "views_s": views_s,
        "views": len({p.index for pl in picks for p in pl.picks}),
        "html_bytes": (run / "report.html").stat().st_size,
        "md_bytes": (run / "report.md").stat().st_size,
    }


#: ms from navigation start to the first contentful paint; when the browser reports none,
#: to the first animation frame after the load event (the page drawn at least once).
FIRST_PAINT = """() => new Promise(done => {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  if (fcp) return done(fcp.startTime);
  new PerformanceObserver(list => {
    const e = list.getEntriesByName('first-contentful-paint')[0];
    if (e) done(e.startTime);
  }).observe({type: 'paint', buffered: true});
  setTimeout(() => done(-1), 3000);
})"""
FRAME_AFTER_LOAD = "() => new Promise(done => requestAnimationFrame(() => done(performance.now())))"


def render_times(page_path: Path, repeat: int = 3) -> tuple[float, float]:
    """Median first contentful paint and load event end (ms) in headless Chromium."""
    from playwright.sync_api import sync_playwright

    paints, loads = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox"]
        )
        for _ in range(repeat):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(page_path.as_uri())
            page.wait_for_load_state("load")
            paint = page.evaluate(FIRST_PAINT)
            if paint < 0:
                paint = page.evaluate(FRAME_AFTER_LOAD)
            load = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
            paints.append(paint)
            loads.append(load)
            page.close()
        browser.close()
    return statistics.median(paints), statistics.median(loads)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, nargs="+", default=[3000, 100_000])
    parser.add_argument("--log", type=Path, help="a run's games.jsonl (default: play quickstart)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = args.log or quickstart_log(folder)
        for games in args.games:
            run = tiled(source, games, folder / f"g{games}")
            r = generate(run)
            paint, load = render_times(run / "report.html")
            print(
                f"{games:>7} games: summary {r['summary_s']:.2f} s "
                f"({r['summary_picking_s'] - r['summary_s']:+.2f} s picking games); "
                f"report.md {1000 * r['markdown_s']:.0f} ms, "
                f"{r['md_bytes'] / 1024:.0f} KB; PNG plots {r['plots_s']:.2f} s; "
                f"report.html {1000 * r['html_s']:.0f} ms, {r['html_bytes'] / 1024:.0f} KB; "
                f"{r['views']} viewer pages {r['views_s']:.2f} s; "
                f"Chromium first paint {paint:.0f} ms, load {load:.0f} ms"
            )
            sys.stdout.flush()
            shutil.rmtree(run)


if __name__ == "__main__":
    main()
