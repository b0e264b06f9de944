"""``balance.json``: the skill curve, its metrics, the skill checks and the tuning,
recomputed from a balance's config and ``games.jsonl`` alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from simcli.balancing.metrics import record_metrics, replay_metrics
from simcli.balancing.plan import CONFIRM, PROBE, RACE, RUNG, SKILL, Planner, split_log
from simcli.balancing.stopping import SeatCounts
from simcli.balancing.tuner import Probe, binomial_test, imbalance_interval
from simcli.config import Config
from simcli.stats.intervals import wilson_interval
from simcli.tournament.rules import game_for


def seat_shares(counts: SeatCounts) -> list[dict[str, Any]]:
    n = counts.decisive
    out = []
    for seat, k in enumerate(counts.wins):
        low, high = wilson_interval(k, n) if n else (0.0, 1.0)
        out.append(
            {"seat": seat, "wins": k, "share": k / n if n else None, "low": low, "high": high}
        )
    return out


def headline(counts: SeatCounts) -> dict[str, Any]:
    """The self-play seat test: exact binomial with two seats, chi-square otherwise."""
    from scipy import stats

    n = counts.decisive
    if len(counts.wins) == 2:
        return {"test": "exact binomial", "p": binomial_test(counts.wins[0], n), "n": n}
    if not n:
        return {"test": "chi-square", "p": 1.0, "n": 0}
    result = stats.chisquare(counts.wins)
    return {"test": "chi-square", "p": float(result.pvalue), "n": n, "df": len(counts.wins) - 1}


def _segment_entry(played, records, players: int) -> dict[str, Any]:
    counts = played.counts(players)
    return {
        "label": played.segment.label,
        "games": len(records),
        "decisive": counts.decisive,
        "draws": counts.draws,
        "stopped_by": played.stop,
        "seat_share": seat_shares(counts),
        "headline": headline(counts),
    }


def build_balance(config: Config, records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The contents of ``balance.json`` for ``config``'s balance played as ``records``."""
    spec = config.balance
    players = config.players
    game = game_for(config, None)
    segments = split_log(config, records)
    rungs, skills, probes, races = [], [], [], []
    confirm = None
    for played, recs in segments:
        kind = played.segment.kind
        entry = _segment_entry(played, recs, players)
        if kind == RUNG:
            entry["strategy"] = played.segment.strategies[0]
            entry["metrics"] = {
                **record_metrics(recs, players),
                **replay_metrics(recs[: spec.metric_games], game),
            }
            rungs.append(entry)
        elif kind == SKILL:
            upper, lower = played.segment.strategies
            won = sum(
                1
                for r in recs
                if r["winners"] and r["seats"][r["winners"][0]] == upper and len(r["winners"]) == 1
            )
            lost = sum(
                1 for r in recs if len(r["winners"]) == 1 and r["seats"][r["winners"][0]] == lower
            )
            low, high = wilson_interval(won, won + lost) if won + lost else (0.0, 1.0)
            skills.append(
                {
                    "upper": upper,
                    "lower": lower,
                    "games": len(recs),
                    "wins": won,
                    "losses": lost,
                    "share": won / (won + lost) if won + lost else None,
                    "low": low,
                    "high": high,
                    "p": binomial_test(won, won + lost),
                }
            )
        elif kind == PROBE:
            probes.append({**entry, "value": played.segment.value})
        elif kind == CONFIRM:
            confirm = {**entry, "value": played.segment.value}
        elif kind == RACE:
            races.append((played, recs))
    out: dict[str, Any] = {
        "game": config.game,
        "options": config.options,
        "players": players,
        "precision": spec.precision,
        "errors": sum(r["termination"] == "error" for _, recs in segments for r in recs),
        "rungs": rungs,
    }
    if spec.skill_check:
        out["skill_checks"] = skills
    if spec.tune is not None:
        out["tune"] = _tune(config, segments, probes, confirm, races)
    return out


def _tune(config, segments, probes, confirm, races) -> dict[str, Any]:
    tune = config.balance.tune
    planner = Planner(config)
    if tune.variants:
        totals = planner.race_wins([p for p, _ in races])
        games = {v: sum(len(r) for p, r in races if p.segment.variant == v) for v in totals}
        entries = []
        for name in tune.variants:
            wins = totals.get(name, [0] * config.players)
            gap, low, high = imbalance_interval(wins, 0.95)
            counts = SeatCounts(config.players, wins=list(wins))
            entries.append(
                {
                    "variant": name,
                    "games": games.get(name, 0),
                    "rounds": sum(p.segment.variant == name for p, _ in races),
                    "imbalance": gap,
                    "low": low,
                    "high": high,
                    "seat_share": seat_shares(counts),
                }
            )
        played = [e for e in entries if e["games"]]
        fairest = min(played, key=lambda e: e["imbalance"])["variant"] if played else None
        return {"variants": entries, "fairest": fairest, "at": tune.at}
    found = [Probe(p["value"], tuple(s["wins"] for s in p["seat_share"])) for p in probes]
    fair = planner.fair_of(found)
    result = {
        "option": tune.option,
        "at": tune.at,
        "range": [tune.low, tune.high],
        "probes": probes,
        "fair": fair.fair if fair else None,
        "low": fair.low if fair else None,
        "high": fair.high if fair else None,
        "in_range": bool(fair and fair.inside),
        "note": fair.note if fair else "no probe played",
        "confirm": confirm,
    }
    return result
