"""The balance report: one paragraph in plain words, the skill curve (a plot of each
seat's share against the rung, with intervals) and the metrics table; written as
``balance.md`` (and ``plots/balance.png``), returned as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def player(seat: int) -> str:
    word = ORDINALS[seat] if seat < len(ORDINALS) else f"#{seat + 1}"
    return f"the {word} player (seat {seat})"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _share(entry: dict[str, Any], seat: int) -> str:
    s = entry["seat_share"][seat]
    if s["share"] is None:
        return "no decisive game"
    return f"{_pct(s['share'])} [{_pct(s['low'])}, {_pct(s['high'])}]"


def _p(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


def answer(data: dict[str, Any]) -> str:
    """The paragraph that answers "is the game fair, at which level of play"."""
    rungs = data["rungs"]
    if not rungs:
        return "No rung was played."
    top = rungs[-1]
    shares = [s["share"] or 0.0 for s in top["seat_share"]]
    favoured = max(range(len(shares)), key=shares.__getitem__)
    trend = " → ".join(_pct(r["seat_share"][favoured]["share"]) for r in rungs)
    names = f" from {rungs[0]['strategy']} to {top['strategy']}" if len(rungs) > 1 else ""
    head = top["headline"]
    if not top["decisive"]:
        text = (
            f"No game of the top rung ({top['strategy']}) had a single winner, so its seats "
            f"cannot be compared (see its completion and timeouts below); "
            f"{player(favoured)}'s share of the decisive games{names}: {trend}."
        )
    elif head["p"] <= 0.05:
        first = rungs[0]["seat_share"][favoured]["share"] or 0.0
        last = top["seat_share"][favoured]["share"] or 0.0
        more = ", and more so with skill" if last > first + 0.01 and len(rungs) > 1 else ""
        text = (
            f"{player(favoured).capitalize()} is favoured{more}: it wins {trend} of the "
            f"decisive games{names} (at {top['strategy']}: {_share(top, favoured)}, "
            f"{head['test']} p = {_p(head['p'])})."
        )
    else:
        text = (
            f"No seat is shown to be favoured at the top rung ({top['strategy']}: "
            f"{player(favoured)} wins {_share(top, favoured)} of the decisive games, "
            f"{head['test']} p = {_p(head['p'])}); {player(favoured)}'s share"
            f"{names}: {trend}."
        )
    timed = [r["strategy"] for r in rungs if r["stopped_by"] == "max_seconds"]
    if timed:
        text += (
            f" Rung(s) {', '.join(timed)} stopped at max_seconds, before reaching "
            f"±{data['precision']:.1%}: their game counts depend on this machine."
        )
    tune = data.get("tune")
    if tune:
        text += " " + _tune_sentence(tune)
    return text


def _tune_sentence(tune: dict[str, Any]) -> str:
    if "variants" in tune:
        best = tune["fairest"]
        entry = next((v for v in tune["variants"] if v["variant"] == best), None)
        if entry is None:
            return "The race of variants played no game."
        return (
            f"Of the variants raced at {tune['at']}, {best} is the fairest: the gap between "
            f"the seats' shares is {_pct(entry['imbalance'])} [{_pct(entry['low'])}, "
            f"{_pct(entry['high'])}] over {entry['games']} games."
        )
    option, (low, high) = tune["option"], tune["range"]
    if tune["fair"] is None:
        return f"The search over {option} found no estimate ({tune['note']})."
    ends = (
        f"[{_num(tune['low'])}, {_num(tune['high'])}]"
        if tune["low"] is not None or tune["high"] is not None
        else "(unbounded)"
    )
    if not tune["in_range"]:
        side = "below" if tune["fair"] < low else "above"
        return (
            f"No value of {option} in [{low:g}, {high:g}] evens the game at {tune['at']}: "
            f"the fitted fair value is {_num(tune['fair'])} {ends}, {side} the range."
        )
    text = f"The fair {option} at {tune['at']} is {_num(tune['fair'])} {ends} (95%)"
    confirm = tune.get("confirm")
    if confirm:
        head = confirm["headline"]
        seats = ", ".join(
            f"seat {s} {_share(confirm, s)}" for s in range(len(confirm["seat_share"]))
        )
        text += (
            f"; played at {confirm['value']:g} for {confirm['games']} games: {seats} "
            f"of the decisive games ({head['test']} p = {_p(head['p'])})"
        )
        if head["p"] <= 0.05:
            text += (
                "; that confirmation is not even, so the estimate does not hold at the "
                "value the option allows: probe more (tune.max_games) or read it as a range"
            )
    return text + "."


def _num(x: float | None) -> str:
    return "open" if x is None else f"{x:+.2f}"


def metrics_table(data: dict[str, Any]) -> list[str]:
    head = (
        "| rung | games | stopped by | completion | draws | timeouts | length | branching "
        "| decisions | margin | balance | lead changes | comebacks |"
    )
    lines = [head, "|" + "---|" * 13]
    for r in data["rungs"]:
        m = r["metrics"]
        length = m.get("length")
        margin = m.get("margin")
        lines.append(
            "| "
            + " | ".join(
                [
                    r["strategy"],
                    str(r["games"]),
                    r["stopped_by"],
                    _pct(m.get("completion")),
                    _pct(m.get("draws")),
                    _pct(m.get("timeouts")),
                    f"{length['mean']:.1f} ± {length['sd']:.1f} {length['unit']}"
                    if length
                    else "-",
                    f"{m['branching']:.1f}" if m.get("branching") is not None else "-",
                    _pct(m.get("decision_share")),
                    f"{margin['mean']:.2f}" if margin else "-",
                    f"{m['balance']:.3f}",
                    f"{m['lead_changes']:.2f}" if m.get("lead_changes") is not None else "-",
                    _pct(m.get("comebacks")) if "comebacks" in m else "-",
                ]
            )
            + " |"
        )
    return lines


def curve_table(data: dict[str, Any]) -> list[str]:
    seats = data["players"]
    lines = [
        "| rung | games | decisive | "
        + " | ".join(f"seat {s} share" for s in range(seats))
        + " | test |",
        "|" + "---|" * (seats + 4),
    ]
    for r in data["rungs"]:
        head = r["headline"]
        lines.append(
            f"| {r['strategy']} | {r['games']} | {r['decisive']} | "
            + " | ".join(_share(r, s) for s in range(seats))
            + f" | {head['test']} p = {_p(head['p'])} |"
        )
    return lines


def other_lines(data: dict[str, Any]) -> list[str]:
    lines = []
    for c in data.get("skill_checks", []):
        lines.append(
            f"- {c['upper']} beats {c['lower']} in {_pct(c['share'])} [{_pct(c['low'])}, "
            f"{_pct(c['high'])}] of {c['wins'] + c['losses']} decisive games "
            f"(binomial p = {_p(c['p'])})"
        )
    tune = data.get("tune")
    if tune and "probes" in tune:
        for p in tune["probes"]:
            lines.append(
                f"- probe {tune['option']} = {p['value']:g}: {p['games']} games, "
                + ", ".join(f"seat {s} {_share(p, s)}" for s in range(len(p["seat_share"])))
            )
    if tune and "variants" in tune:
        for v in tune["variants"]:
            lines.append(
                f"- variant {v['variant']}: {v['games']} games in {v['rounds']} round(s), "
                f"seat gap {_pct(v['imbalance'])} [{_pct(v['low'])}, {_pct(v['high'])}]"
            )
    return lines


def write_balance_report(data: dict[str, Any], out: Path, *, plots: bool = True) -> str:
    """Write ``balance.md`` (and the plot) into ``out``; return the text to print."""
    parts = [f"# Balance: {data['game']}", "", answer(data), ""]
    if plots and data["rungs"]:
        picture = plot_curve(data, out / "plots" / "balance.png")
        if picture:
            parts += ["![seat share by rung](plots/balance.png)", ""]
    parts += ["## Seat shares by rung", "", *curve_table(data), ""]
    parts += ["## Game quality", "", *metrics_table(data), ""]
    more = other_lines(data)
    if more:
        parts += ["## Skill checks and tuning", "", *more, ""]
    text = "\n".join(parts)
    (out / "balance.md").write_text(text, encoding="utf-8")
    return text


def plot_curve(data: dict[str, Any], path: Path) -> Path | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rungs = data["rungs"]
    x = range(len(rungs))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for seat in range(data["players"]):
        shares = [r["seat_share"][seat] for r in rungs]
        y = [s["share"] if s["share"] is not None else float("nan") for s in shares]
        err = [
            [max(0.0, (s["share"] or 0) - s["low"]) for s in shares],
            [max(0.0, s["high"] - (s["share"] or 0)) for s in shares],
        ]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"seat {seat}")
    ax.axhline(1 / data["players"], color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(list(x), [r["strategy"] for r in rungs])
    ax.set_ylabel("share of decisive games")
    ax.set_xlabel("rung (weakest first)")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
