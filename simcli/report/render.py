"""Render the summary as text, markdown, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
import textwrap
from typing import Any

from simcli.report.document import Bullets, Document, Heading, Image, Para, Table, build_document

FORMATS = ("text", "markdown", "json", "csv")


def render(summary: dict, fmt: str, *, detail: bool = True) -> str:
    """``summary`` in one of :data:`FORMATS`."""
    if fmt == "json":
        return to_json(summary)
    if fmt == "csv":
        return to_csv(summary)
    if fmt == "markdown":
        return to_markdown(build_document(summary, detail=detail))
    if fmt == "text":
        return to_text(build_document(summary, detail=detail))
    raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")


def to_json(summary: dict) -> str:
    return json.dumps(summary, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


# ----------------------------------------------------------------------------- text


def _aligned(table: Table) -> list[str]:
    ncol = len(table.headers)
    align = table.align or ("l" + "r" * (ncol - 1))
    widths = [len(h) for h in table.headers]
    for row in table.rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def fmt(row):
        parts = []
        for i, cell in enumerate(row):
            a = align[i] if i < len(align) else "r"
            parts.append(cell.ljust(widths[i]) if a == "l" else cell.rjust(widths[i]))
        return "  ".join(parts).rstrip()

    lines = [fmt(table.headers), "  ".join("-" * w for w in widths)]
    lines += [fmt(row) for row in table.rows]
    return lines


def to_text(doc: Document, width: int = 100) -> str:
    out: list[str] = []
    for b in doc.blocks:
        if isinstance(b, Heading):
            if out:
                out.append("")
            out.append(b.text)
            out.append(("=" if b.level == 1 else "-" if b.level == 2 else "~") * len(b.text))
        elif isinstance(b, Para):
            out.extend(textwrap.wrap(b.text, width))
        elif isinstance(b, Bullets):
            for item in b.items:
                out.extend(textwrap.wrap(item, width, initial_indent="- ", subsequent_indent="  "))
        elif isinstance(b, Table):
            if b.caption:
                out.append(b.caption + ":")
            out.extend(_aligned(b))
        elif isinstance(b, Image):
            out.append(f"plot: {b.file} ({b.title})")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- markdown


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(doc: Document) -> str:
    out: list[str] = []
    for b in doc.blocks:
        if isinstance(b, Heading):
            out += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [b.text, ""]
        elif isinstance(b, Bullets):
            out += [f"- {item}" for item in b.items] + [""]
        elif isinstance(b, Table):
            if b.caption:
                out += [f"*{b.caption}*", ""]
            ncol = len(b.headers)
            align = b.align or ("l" + "r" * (ncol - 1))
            out.append("| " + " | ".join(_md_cell(h) for h in b.headers) + " |")
            out.append(
                "|" + "|".join(":---" if align[i] == "l" else "---:" for i in range(ncol)) + "|"
            )
            out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
            out.append("")
        elif isinstance(b, Image):
            out += [f"![{b.title}]({b.file})", ""]
    return "\n".join(out).rstrip() + "\n"


# ----------------------------------------------------------------------------- csv

CSV_COLUMNS = [
    "section",
    "group",
    "variant",
    "players",
    "strategy",
    "opponent",
    "seat",
    "statistic",
    "estimate",
    "low",
    "high",
    "n",
    "p_value",
    "p_adjusted",
    "note",
]


def csv_rows(summary: dict) -> list[dict[str, Any]]:
    """The summary as long-format rows (one statistic per row)."""
    rows: list[dict[str, Any]] = []

    def add(
        section,
        grp,
        statistic,
        *,
        strategy=None,
        opponent=None,
        seat=None,
        iv=None,
        estimate=None,
        n=None,
        test=None,
        note=None,
    ):
        row = {
            "section": section,
            "group": grp["label"] if grp else None,
            "variant": grp.get("variant") if grp else None,
            "players": grp.get("players") if grp else None,
            "strategy": strategy,
            "opponent": opponent,
            "seat": seat,
            "statistic": statistic,
            "estimate": estimate,
            "low": None,
            "high": None,
            "n": n,
            "p_value": None,
            "p_adjusted": None,
            "note": note,
        }
        if iv is not None:
            row.update(estimate=iv.get("estimate"), low=iv.get("low"), high=iv.get("high"))
            row["n"] = iv.get("n") if n is None else n
            row["note"] = row["note"] or iv.get("note")
        if test is not None:
            row.update(
                estimate=test.get("statistic") if estimate is None else estimate,
                p_value=test.get("p_value"),
                p_adjusted=test.get("p_adjusted"),
                n=test.get("n"),
                note=note
                or test.get("note")
                or (None if test.get("in_family", True) else "descriptive (not corrected)"),
            )
        rows.append(row)

    for grp in summary["groups"]:
        add("group", grp, "games", estimate=grp["games"])
        add("group", grp, "errors", estimate=grp["errors"])
        t = grp["terminations"]
        add("terminations", grp, "normal", estimate=t["normal"])
        add("terminations", grp, "move_limit", estimate=t["move_limit"])
        for kind, c in t["forfeit"].items():
            add("terminations", grp, f"forfeit:{kind}", estimate=c)
        for st in grp["strategies"]:
            nm = st["name"]
            add("strategy", grp, "games", strategy=nm, estimate=st["games"])
            if "win_rate" in st:
                add("strategy", grp, "win_rate", strategy=nm, iv=st["win_rate"])
                add("strategy", grp, "score_rate", strategy=nm, iv=st["score_rate"])
                add("strategy", grp, "draws", strategy=nm, estimate=st["draws"])
            if "success_rate" in st:
                add("strategy", grp, "success_rate", strategy=nm, iv=st["success_rate"])
            p = st["points"]
            add(
                "strategy",
                grp,
                "mean_points",
                strategy=nm,
                n=p["n"],
                note=p.get("note"),
                iv={"estimate": p["mean"], "low": p["low"], "high": p["high"]},
            )
            for q in ("median", "q1", "q3"):
                add("strategy", grp, f"points_{q}", strategy=nm, estimate=p[q], n=p["n"])
            add(
                "strategy",
                grp,
                "length_median",
                strategy=nm,
                estimate=st["length"]["median"],
                n=st["length"]["n"],
            )
            for key, value in st["terminations"].items():
                if isinstance(value, dict):
                    for kind, c in value.items():
                        add("terminations", grp, f"{key}:{kind}", strategy=nm, estimate=c)
                else:
                    add("terminations", grp, key, strategy=nm, estimate=value)
        for key in ("length", "margin"):
            d = grp.get(key)
            if d:
                for q in ("median", "q1", "q3", "mean"):
                    add("distribution", grp, f"{key}_{q}", estimate=d[q], n=d["n"])
        pw = grp.get("pairwise")
        if pw:
            for c in pw["cells"]:
                add(
                    "pairwise",
                    grp,
                    f"{pw['kind']} rate",
                    strategy=c["row"],
                    opponent=c["col"],
                    iv=c["rate"],
                )
        rt = grp.get("ratings")
        if rt and rt.get("ratings"):
            for r in rt["ratings"]:
                add(
                    "ratings",
                    grp,
                    "elo",
                    strategy=r["name"],
                    note=r.get("note"),
                    iv={"estimate": r["elo"], "low": r["low"], "high": r["high"], "n": rt["games"]},
                )
        sb = grp.get("seat_bias")
        if sb:
            for seat in sb["seats"]:
                add("seat", grp, "win_rate", seat=seat["seat"], iv=seat["win_rate"])
                add("seat", grp, "decisive_rate", seat=seat["seat"], iv=seat["decisive_rate"])
            if sb.get("headline"):
                add("seat", grp, "headline_seat_test", test=sb["headline"])
            add("seat", grp, "seat_test", test=sb["test"])
            if sb.get("stratified"):
                add("seat", grp, "stratified_seat_test", test=sb["stratified"]["test"])
            if sb.get("pairs") and sb["pairs"].get("test"):
                add("seat", grp, "pair_test", test=sb["pairs"]["test"])
            if sb.get("model"):
                for eff in sb["model"]["seat_effects"] or []:
                    add(
                        "seat",
                        grp,
                        "seat_effect_elo",
                        seat=eff["seat"],
                        iv={"estimate": eff["elo"], "low": eff["low"], "high": eff["high"]},
                    )
                add("seat", grp, "seat_lrt", test=sb["model"]["test"])
            for row in sb["by_strategy"]:
                for seat in row["seats"]:
                    add(
                        "seat_by_strategy",
                        grp,
                        f"{row['source']} decisive win rate",
                        strategy=row["strategy"],
                        seat=seat["seat"],
                        iv=seat["rate"],
                    )
                add(
                    "seat_by_strategy",
                    grp,
                    f"{row['source']} seat test",
                    strategy=row["strategy"],
                    test=row["test"],
                )
        solo = grp.get("solo")
        if solo:
            for c in solo["comparisons"]:
                add(
                    "solo",
                    grp,
                    "mean_difference",
                    strategy=c["a"],
                    opponent=c["b"],
                    iv=c["mean_difference"],
                )
                add("solo", grp, "wilcoxon", strategy=c["a"], opponent=c["b"], test=c["test"])
    for comp in summary["variant_comparison"]:
        add("variants", None, f"seat homogeneity ({comp['players']} players)", test=comp["test"])
    return rows


def to_csv(summary: dict) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(summary):
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return buf.getvalue()
