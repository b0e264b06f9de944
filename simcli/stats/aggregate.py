"""One-pass, bounded-memory aggregation of game records.

:class:`Aggregator` reads records one at a time and keeps only tallies:

- per group (variant x number of seats) and strategy: counts, win shares, points
  moments, bounded distributions (:class:`~simcli.stats.distribution.StreamingDistribution`);
- pairwise tallies per ordered strategy pair;
- finishing-order counts per seating (the sufficient statistics of the rating models);
- seat tallies overall and per strategy;
- seat-swapped pairs waiting for their partner games, and solitaire seeds waiting for
  the other strategies. These are the only per-game state. A seat-swapped pair is
  released as soon as it is complete; at most ``max_pending`` (per group) stay open:
  when more are open the oldest is dropped and counted as unpaired (the runner writes
  the games of a pair next to each other, so this only happens with shuffled logs).
  Solitaire runs list all games of one strategy before the next, so every seed waits
  for the last strategy: beyond ``max_pending`` open seeds the scores move to a
  temporary sqlite file (:class:`SoloSpill`) and are paired there at the end, exactly.

Memory is therefore bounded by the number of strategies, seats, variants, distinct
values and ``max_pending``, never by the number of games.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from simcli.errors import RecordError
from simcli.records import check
from simcli.stats import records as R
from simcli.stats.distribution import RunningMoments, StreamingDistribution

DEFAULT_MAX_PENDING = 100_000


class StrategyTally:
    """Everything counted for one strategy within one group (per seat occurrence)."""

    def __init__(self, name: str, dist_kwargs: dict) -> None:
        self.name = name
        self.games = 0  # seat occurrences in valid (non-error) games
        self.win_share = 0.0
        self.draws = 0
        self.loss_share = 0.0
        self.score = 0.0
        self.solo_wins = 0
        self.points = StreamingDistribution(**dist_kwargs)
        self.length = StreamingDistribution(**dist_kwargs)
        self.terminations: Counter = Counter()
        self.errors = 0


class PairTally:
    """Row strategy against column strategy (head-to-head finishing comparison)."""

    __slots__ = ("games", "score", "wins", "draws", "losses")

    def __init__(self) -> None:
        self.games = 0
        self.score = 0.0
        self.wins = 0
        self.draws = 0
        self.losses = 0


class SeatTally:
    """Decisive wins per seat, for self-play games of one strategy or all games."""

    def __init__(self, n: int) -> None:
        self.games = 0
        self.decisive = 0
        self.draws = 0
        self.shared = 0
        self.wins = [0] * n  # single-winner wins per seat
        self.win_share = [0.0] * n


class MixedSeatTally:
    """One strategy's decisive wins/losses per seat in games against other strategies."""

    def __init__(self, n: int) -> None:
        self.games = [0] * n
        self.wins = [0] * n
        self.losses = [0] * n
        self.draws = [0] * n


class GroupTally:
    """All tallies of one group: one variant (or none) and one number of seats."""

    def __init__(self, variant: str | None, players: int, max_pending: int, dist_kwargs: dict):
        self.variant = variant
        self.players = players
        self.max_pending = max_pending
        self.dist_kwargs = dist_kwargs
        self.records = 0
        self.games = 0  # valid games (errors excluded)
        self.errors = 0
        self.error_messages: Counter = Counter()
        self.terminations: Counter = Counter()  # "normal", "move_limit", "forfeit:<kind>"
        self.options: dict | None = None
        self.options_differ = False
        self.self_play_games = 0
        self.mixed_games = 0
        self.strategies: dict[str, StrategyTally] = {}
        self.seat = SeatTally(players)
        self.length = StreamingDistribution(**dist_kwargs)
        self.margin = StreamingDistribution(**dist_kwargs)
        self.pairwise: dict[tuple[str, str], PairTally] = {}
        self.orders: Counter = Counter()  # (seats tuple, ranks tuple) -> games
        self.self_play_seat: dict[str, SeatTally] = {}
        self.mixed_seat: dict[str, MixedSeatTally] = {}
        # seat-swapped pairs (two or more seats)
        self.pending_pairs: dict[tuple, list] = {}
        self.pairs_complete = 0
        self.pairs_invalid = 0
        self.pair_diff: Counter = Counter()  # 2 seats: "pos" / "neg" / "zero"
        self.pair_kinds: Counter = Counter()
        self.pair_best_seat = [0] * players
        self.pairs_unpaired_games = 0
        self.no_seed = 0
        # solitaire: seed -> {strategy: points}
        self.pending_solo: dict[Any, dict[str, float]] = {}
        self.solo_diffs: dict[tuple[str, str], Counter] = {}
        self.solo_duplicates = 0
        self.solo_spill: SoloSpill | None = None
        self.solo_spilled_seeds = 0

    def strategy(self, name: str) -> StrategyTally:
        st = self.strategies.get(name)
        if st is None:
            st = self.strategies[name] = StrategyTally(name, self.dist_kwargs)
        return st


class Aggregator:
    """Streaming aggregation of game records. Call :meth:`add` per record, then
    :meth:`finish` once; :func:`simcli.stats.analysis.summarize` reads :attr:`groups`.

    ``strategy_order``: report order of strategy names (e.g. the config's); names not in
    it follow in order of first appearance. It also tells the solitaire pairing when a
    seed has been played by every strategy, so that its scores can be released early.
    """

    def __init__(
        self,
        *,
        strategy_order: Sequence[str] | None = None,
        max_pending: int = DEFAULT_MAX_PENDING,
        dist_seed: int = 0,
        max_distinct: int = 2048,
        reservoir_size: int = 10_000,
    ) -> None:
        self.order: list[str] = list(dict.fromkeys(strategy_order or []))
        self._known = set(self.order)
        self._index = {nm: i for i, nm in enumerate(self.order)}
        self._expected = frozenset(self.order) if strategy_order else None
        self.max_pending = max_pending
        self.dist_kwargs = {
            "max_distinct": max_distinct,
            "reservoir_size": reservoir_size,
            "seed": dist_seed,
        }
        self.groups: dict[tuple[str | None, int], GroupTally] = {}
        self.group_order: list[tuple[str | None, int]] = []
        self.records = 0
        self.games_seen: Counter = Counter()  # game id -> records
        self.finished = False
        self._game: str | None = None

    # ------------------------------------------------------------------ input

    def add_all(self, records: Iterable[dict]) -> Aggregator:
        for rec in records:
            self.add(rec)
        return self

    def add(self, rec: dict, where: str | None = None, *, validate: bool = True) -> None:
        """Add one record. It is validated first (a bad record raises RecordError naming
        ``where``) unless ``validate=False`` says the caller already did
        (:class:`simcli.records.GameLog` does)."""
        self.records += 1
        if validate:
            check(rec, where or f"record {self.records}")
        seats: list[str] = rec["seats"]
        n = len(seats)
        for name in seats:
            if name not in self._known:
                self._known.add(name)
                self._index[name] = len(self.order)
                self.order.append(name)
        game = rec.get("game")
        if game is not None:
            if self._game is None:
                self._game = game
            elif game != self._game:
                raise RecordError(
                    f"{where or f'record {self.records}'}: game '{game}' differs from "
                    f"'{self._game}' of the earlier records; report one game per log"
                )
        self.games_seen[game] += 1
        key = (rec.get("variant"), n)
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = GroupTally(key[0], n, self.max_pending, self.dist_kwargs)
            self.group_order.append(key)
        g.records += 1
        options = rec.get("options")
        if g.options is None:
            g.options = options if isinstance(options, dict) else {}
        elif not g.options_differ and options is not None and options != g.options:
            g.options_differ = True
        term = rec["termination"]
        if term == "error":
            g.errors += 1
            detail = rec.get("detail")
            msg = detail.get("message") if isinstance(detail, dict) else None
            if len(g.error_messages) < 20 or msg in g.error_messages:
                g.error_messages[str(msg)[:200]] += 1
            for name in set(seats):
                g.strategy(name).errors += 1
            return
        g.games += 1
        winners: list[int] = rec["winners"]
        scores = rec.get("scores")
        shares = R.seat_scores(n, winners)
        length = R.game_length(rec.get("moves"))
        if length is not None:
            g.length.add(length)
        fseat = R.forfeit_seat(rec) if term == "forfeit" else None
        if term == "forfeit":
            g.terminations["forfeit:" + R.forfeit_kind(rec)] += 1
        else:
            g.terminations[term] += 1
        if n == 1:
            self._add_solo(g, rec, seats[0], winners, scores, length)
            return
        draw = R.is_draw(n, winners)
        k = len(winners)
        single = winners[0] if k == 1 else None
        # per strategy (per seat occurrence)
        for s, name in enumerate(seats):
            st = g.strategy(name)
            st.games += 1
            share = shares[s]
            st.score += share
            if draw:
                st.draws += 1
            elif s in winners:
                st.win_share += share
                st.loss_share += 1.0 - share
            else:
                st.loss_share += 1.0
            if scores is not None:
                st.points.add(scores[s])
            if length is not None:
                st.length.add(length)
            if term == "forfeit":
                if s == fseat:
                    st.terminations["forfeit_own:" + R.forfeit_kind(rec)] += 1
                else:
                    st.terminations["forfeit_opponent"] += 1
            else:
                st.terminations[term] += 1
        # overall seat tallies
        seat = g.seat
        seat.games += 1
        if draw:
            seat.draws += 1
        elif single is not None:
            seat.decisive += 1
            seat.wins[single] += 1
        else:
            seat.shared += 1
        if not draw:
            for w in winners:
                seat.win_share[w] += shares[w]
        # margin
        m = R.margin(scores)
        if m is not None:
            g.margin.add(m)
        ranks = R.finishing_ranks(n, winners, scores)
        g.orders[(tuple(seats), ranks)] += 1
        first = seats[0]
        if all(x == first for x in seats):
            g.self_play_games += 1
            sp = g.self_play_seat.get(first)
            if sp is None:
                sp = g.self_play_seat[first] = SeatTally(n)
            sp.games += 1
            if draw:
                sp.draws += 1
            elif single is not None:
                sp.decisive += 1
                sp.wins[single] += 1
            else:
                sp.shared += 1
            return
        g.mixed_games += 1
        # head-to-head finishing comparison, both directions
        for i in range(n):
            for j in range(i + 1, n):
                a, b = seats[i], seats[j]
                if a == b:
                    continue
                pa = g.pairwise.get((a, b))
                if pa is None:
                    pa = g.pairwise[(a, b)] = PairTally()
                pb = g.pairwise.get((b, a))
                if pb is None:
                    pb = g.pairwise[(b, a)] = PairTally()
                pa.games += 1
                pb.games += 1
                if ranks[i] < ranks[j]:
                    pa.wins += 1
                    pb.losses += 1
                    pa.score += 1.0
                elif ranks[i] > ranks[j]:
                    pb.wins += 1
                    pa.losses += 1
                    pb.score += 1.0
                else:
                    pa.draws += 1
                    pb.draws += 1
                    pa.score += 0.5
                    pb.score += 0.5
        for s, name in enumerate(seats):
            ms = g.mixed_seat.get(name)
            if ms is None:
                ms = g.mixed_seat[name] = MixedSeatTally(n)
            ms.games[s] += 1
            if draw:
                ms.draws[s] += 1
            elif single is None:
                continue  # shared first place: neither a decisive win nor a loss
            elif single == s:
                ms.wins[s] += 1
            else:
                ms.losses[s] += 1
        # seat-swapped pairs
        seed = rec.get("seed")
        if seed is None:
            g.no_seed += 1
            return
        pkey = (seed, tuple(sorted(seats)))
        entry = g.pending_pairs.get(pkey)
        if entry is None:
            entry = g.pending_pairs[pkey] = []
            if len(g.pending_pairs) > g.max_pending:
                oldest = next(iter(g.pending_pairs))
                g.pairs_unpaired_games += len(g.pending_pairs.pop(oldest))
        entry.append((tuple(seats), tuple(shares), single))
        if len(entry) == n:
            del g.pending_pairs[pkey]
            self._close_pair(g, entry)

    def _close_pair(self, g: GroupTally, entry: list) -> None:
        n = g.players
        multiset = sorted(entry[0][0])
        for s in range(n):
            if sorted(game[0][s] for game in entry) != multiset:
                g.pairs_invalid += 1
                g.pairs_unpaired_games += len(entry)
                return
        g.pairs_complete += 1
        totals = [sum(game[1][s] for game in entry) for s in range(n)]
        if n == 2:
            diff = totals[0] - totals[1]
            g.pair_diff["pos" if diff > 1e-9 else "neg" if diff < -1e-9 else "zero"] += 1
            singles = [game[2] for game in entry]
            if all(w is not None for w in singles):
                if singles[0] == singles[1]:
                    g.pair_kinds[f"seat {singles[0]} won both"] += 1
                else:
                    g.pair_kinds["one strategy won both"] += 1
            elif all(w is None for w in singles):
                g.pair_kinds["both games drawn"] += 1
            else:
                g.pair_kinds["one win, one draw"] += 1
        best = max(totals)
        tops = [s for s in range(n) if abs(totals[s] - best) < 1e-9]
        if len(tops) == 1:
            g.pair_best_seat[tops[0]] += 1
        elif n > 2:
            g.pair_kinds["no single best seat"] += 1

    def _add_solo(self, g, rec, name, winners, scores, length) -> None:
        st = g.strategy(name)
        st.games += 1
        if winners:
            st.solo_wins += 1
            st.win_share += 1.0
        else:
            st.loss_share += 1.0
        st.score += 1.0 if winners else 0.0
        if length is not None:
            st.length.add(length)
        term = rec["termination"]
        st.terminations["forfeit_own:" + R.forfeit_kind(rec) if term == "forfeit" else term] += 1
        if scores is None:
            return
        points = scores[0]
        st.points.add(points)
        seed = rec.get("seed")
        if seed is None:
            g.no_seed += 1
            return
        if g.solo_spill is not None:
            g.solo_spill.add(seed, self._index[name], points)
            return
        entry = g.pending_solo.get(seed)
        if entry is None:
            entry = g.pending_solo[seed] = {}
            if len(g.pending_solo) > g.max_pending:
                # too many open seeds (e.g. strategy-major order): move them to disk
                spill = g.solo_spill = SoloSpill()
                g.solo_spilled_seeds = len(g.pending_solo)
                for sd, scores_by_name in g.pending_solo.items():
                    for nm, pts in scores_by_name.items():
                        spill.add(sd, self._index[nm], pts)
                g.pending_solo.clear()
                spill.add(seed, self._index[name], points)
                return
        if name in entry:
            g.solo_duplicates += 1
            return
        entry[name] = points
        if self._expected is not None and len(entry) == len(self._expected):
            if self._expected.issuperset(entry):
                del g.pending_solo[seed]
                self._flush_solo(g, entry)

    def _flush_solo(self, g: GroupTally, entry: dict[str, float]) -> None:
        if len(entry) < 2:
            return
        rank = {nm: i for i, nm in enumerate(self.order)}
        names = sorted(entry, key=rank.__getitem__)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                c = g.solo_diffs.get((a, b))
                if c is None:
                    c = g.solo_diffs[(a, b)] = Counter()
                c[round(entry[a] - entry[b], 9)] += 1

    # ------------------------------------------------------------------ end

    def finish(self) -> Aggregator:
        """Close open pairs and solitaire seeds. Idempotent."""
        if self.finished:
            return self
        for g in self.groups.values():
            for entry in g.pending_pairs.values():
                g.pairs_unpaired_games += len(entry)
            g.pending_pairs.clear()
            for entry in g.pending_solo.values():
                self._flush_solo(g, entry)
            g.pending_solo.clear()
            if g.solo_spill is not None:
                for (ia, ib), counter in g.solo_spill.differences().items():
                    key = (self.order[ia], self.order[ib])
                    g.solo_diffs.setdefault(key, Counter()).update(counter)
                g.solo_duplicates += g.solo_spill.duplicates
                g.solo_spill.close()
        self.finished = True
        return self

    def ordered_names(self, names: Iterable[str]) -> list[str]:
        rank = {nm: i for i, nm in enumerate(self.order)}
        return sorted(set(names), key=lambda nm: rank.get(nm, len(rank)))


class SoloSpill:
    """Disk-backed solitaire scores (sqlite in a temporary folder), used when more than
    ``max_pending`` seeds wait for other strategies. One row per (seed, strategy); the
    paired differences are computed by one self-join at the end, so RAM stays bounded
    whatever the order of the records."""

    def __init__(self) -> None:
        import sqlite3
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="simcli-solo-")
        self.db = sqlite3.connect(f"{self._dir.name}/solo.db")
        self.db.execute("PRAGMA journal_mode=OFF")
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.execute(
            "CREATE TABLE s (seed TEXT, sidx INTEGER, score REAL, PRIMARY KEY (seed, sidx))"
            " WITHOUT ROWID"
        )
        self.buffer: list[tuple[str, int, float]] = []
        self.duplicates = 0

    def add(self, seed: Any, sidx: int, score: float) -> None:
        self.buffer.append((json.dumps(seed, sort_keys=True), sidx, float(score)))
        if len(self.buffer) >= 10_000:
            self.flush()

    def flush(self) -> None:
        if not self.buffer:
            return
        before = self.db.total_changes
        self.db.executemany("INSERT OR IGNORE INTO s VALUES (?, ?, ?)", self.buffer)
        self.duplicates += len(self.buffer) - (self.db.total_changes - before)
        self.buffer.clear()

    def differences(self) -> dict[tuple[int, int], Counter]:
        """``{(strategy index a, b): Counter(round(score_a - score_b, 9))}`` for a < b."""
        self.flush()
        out: dict[tuple[int, int], Counter] = {}
        rows = self.db.execute(
            "SELECT a.sidx, b.sidx, ROUND(a.score - b.score, 9), COUNT(*) FROM s a "
            "JOIN s b ON a.seed = b.seed AND a.sidx < b.sidx GROUP BY 1, 2, 3"
        )
        for ia, ib, d, count in rows:
            out.setdefault((ia, ib), Counter())[float(d)] += count
        return out

    def close(self) -> None:
        self.db.close()
        self._dir.cleanup()


def moments_of_counter(counter: Counter) -> RunningMoments:
    """Running moments of a ``{value: count}`` histogram."""
    m = RunningMoments()
    for value, count in sorted(counter.items()):
        m.add_weighted(float(value), int(count))
    return m
