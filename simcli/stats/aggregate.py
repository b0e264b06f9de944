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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from simcli.errors import RecordError
from simcli.records import check
from simcli.stats import records as R
from simcli.stats.distribution import RunningMoments, StreamingDistribution

DEFAULT_MAX_PENDING = 100_000
#: Games per lineup (the strategies at the table) replayed for the length in the game's
#: natural unit (rounds, turns).
NATURAL_SAMPLE = 50

#: ``record -> (unit, length)`` in the game's natural unit, or ``None`` (no such unit).
NaturalLength = Callable[[dict], "tuple[str, float] | None"]


@dataclass(frozen=True)
class GameFacts:
    """What one valid (non-error) game record says, derived once for every collector."""

    seats: tuple[str, ...]
    winners: list[int]
    scores: list[float] | None
    shares: list[float]  # score share per seat (see :mod:`simcli.stats.records`)
    length: int | None
    termination: str  # "normal", "move_limit" or "forfeit"
    forfeit_kind: str | None
    forfeit_seat: int | None
    seed: Any

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def draw(self) -> bool:
        return R.is_draw(self.players, self.winners)

    @property
    def single(self) -> int | None:
        """The seat of the only winner, if there is exactly one."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def self_play(self) -> bool:
        return all(x == self.seats[0] for x in self.seats)

    @classmethod
    def of(cls, rec: dict) -> GameFacts:
        term = rec["termination"]
        forfeit = term == "forfeit"
        seats = tuple(rec["seats"])
        return cls(
            seats=seats,
            winners=rec["winners"],
            scores=rec.get("scores"),
            shares=R.seat_scores(len(seats), rec["winners"]),
            length=R.game_length(rec.get("moves")),
            termination=term,
            forfeit_kind=R.forfeit_kind(rec) if forfeit else None,
            forfeit_seat=R.forfeit_seat(rec) if forfeit else None,
            seed=rec.get("seed"),
        )


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

    def add_seat(self, game: GameFacts, s: int) -> None:
        """This strategy's part of a game of two or more seats, where it sat in ``s``."""
        self.games += 1
        share = game.shares[s]
        self.score += share
        if game.draw:
            self.draws += 1
        elif s in game.winners:
            self.win_share += share
            self.loss_share += 1.0 - share
        else:
            self.loss_share += 1.0
        self._add_common(game, s)
        if game.termination != "forfeit":
            self.terminations[game.termination] += 1
        elif s == game.forfeit_seat:
            self.terminations[f"forfeit_own:{game.forfeit_kind}"] += 1
        else:
            self.terminations["forfeit_opponent"] += 1

    def add_solo(self, game: GameFacts) -> None:
        """A solitaire game: a success when the seat is a winner."""
        self.games += 1
        won = bool(game.winners)
        self.solo_wins += won
        self.win_share += 1.0 if won else 0.0
        self.loss_share += 0.0 if won else 1.0
        self.score += 1.0 if won else 0.0
        self._add_common(game, 0)
        term = game.termination
        self.terminations[f"forfeit_own:{game.forfeit_kind}" if term == "forfeit" else term] += 1

    def _add_common(self, game: GameFacts, s: int) -> None:
        if game.scores is not None:
            self.points.add(game.scores[s])
        if game.length is not None:
            self.length.add(game.length)


class StrategyCollector:
    """Per strategy tallies (one :class:`StrategyTally` per name) of one group."""

    def __init__(self, dist_kwargs: dict) -> None:
        self.dist_kwargs = dist_kwargs
        self.tallies: dict[str, StrategyTally] = {}

    def __getitem__(self, name: str) -> StrategyTally:
        st = self.tallies.get(name)
        if st is None:
            st = self.tallies[name] = StrategyTally(name, self.dist_kwargs)
        return st

    def __len__(self) -> int:
        return len(self.tallies)

    def add(self, game: GameFacts) -> None:
        if game.players == 1:
            self[game.seats[0]].add_solo(game)
            return
        for s, name in enumerate(game.seats):
            self[name].add_seat(game, s)

    def add_error(self, seats: Iterable[str]) -> None:
        for name in set(seats):
            self[name].errors += 1


class SeatTally:
    """Decisive wins per seat, for self-play games of one strategy or all games."""

    def __init__(self, n: int) -> None:
        self.games = 0
        self.decisive = 0
        self.draws = 0
        self.shared = 0
        self.wins = [0] * n  # single-winner wins per seat
        self.win_share = [0.0] * n

    def add(self, game: GameFacts) -> None:
        self.games += 1
        single = game.single
        if game.draw:
            self.draws += 1
            return
        if single is not None:
            self.decisive += 1
            self.wins[single] += 1
        else:
            self.shared += 1
        for w in game.winners:
            self.win_share[w] += game.shares[w]


class MixedSeatTally:
    """One strategy's decisive wins/losses per seat in games against other strategies."""

    def __init__(self, n: int) -> None:
        self.games = [0] * n
        self.wins = [0] * n
        self.losses = [0] * n
        self.draws = [0] * n

    def add(self, game: GameFacts, s: int) -> None:
        self.games[s] += 1
        single = game.single
        if game.draw:
            self.draws[s] += 1
        elif single is None:
            return  # shared first place: neither a decisive win nor a loss
        elif single == s:
            self.wins[s] += 1
        else:
            self.losses[s] += 1


class SeatCollector:
    """Seat tallies of one group (two or more seats): over all games, per strategy in
    self-play, per strategy against others; and the points scored from each seat."""

    def __init__(self, players: int, dist_kwargs: dict) -> None:
        self.players = players
        self.overall = SeatTally(players)
        self.self_play: dict[str, SeatTally] = {}
        self.mixed: dict[str, MixedSeatTally] = {}
        self.points = [StreamingDistribution(**dist_kwargs) for _ in range(players)]

    def add(self, game: GameFacts) -> None:
        self.overall.add(game)
        if game.scores is not None:
            for s, pts in enumerate(game.scores):
                self.points[s].add(pts)
        if game.self_play:
            name = game.seats[0]
            if name not in self.self_play:
                self.self_play[name] = SeatTally(self.players)
            self.self_play[name].add(game)
            return
        for s, name in enumerate(game.seats):
            if name not in self.mixed:
                self.mixed[name] = MixedSeatTally(self.players)
            self.mixed[name].add(game, s)


class PairTally:
    """Row strategy against column strategy (head-to-head finishing comparison)."""

    __slots__ = ("games", "score", "wins", "draws", "losses")

    def __init__(self) -> None:
        self.games = 0
        self.score = 0.0
        self.wins = 0
        self.draws = 0
        self.losses = 0

    def add(self, outcome: int) -> None:
        """``outcome``: 1 the row finished ahead, 0 level, -1 behind."""
        self.games += 1
        if outcome > 0:
            self.wins += 1
            self.score += 1.0
        elif outcome < 0:
            self.losses += 1
        else:
            self.draws += 1
            self.score += 0.5


class PairCollector:
    """Who finished ahead of whom: the finishing-order counts per seating (the sufficient
    statistics of the rating models and of the seat test stratified by lineup), and the
    head-to-head tallies of every ordered pair of different strategies."""

    def __init__(self) -> None:
        self.orders: Counter = Counter()  # (seats tuple, ranks tuple) -> games
        self.cells: dict[tuple[str, str], PairTally] = {}

    def __contains__(self, name: str) -> bool:
        return any(name in key for key in self.cells)

    def get(self, a: str, b: str) -> PairTally | None:
        return self.cells.get((a, b))

    def _cell(self, a: str, b: str) -> PairTally:
        cell = self.cells.get((a, b))
        if cell is None:
            cell = self.cells[(a, b)] = PairTally()
        return cell

    def add(self, game: GameFacts) -> None:
        n = game.players
        ranks = R.finishing_ranks(n, game.winners, game.scores)
        self.orders[(game.seats, ranks)] += 1
        if game.self_play:
            return
        for i in range(n):
            for j in range(i + 1, n):
                a, b = game.seats[i], game.seats[j]
                if a == b:
                    continue
                ahead = (ranks[i] < ranks[j]) - (ranks[i] > ranks[j])
                self._cell(a, b).add(ahead)
                self._cell(b, a).add(-ahead)


class SeatSwapCollector:
    """Seat-swapped pairs: games sharing a seed and a lineup with the seats rotated. Open
    sets wait for their partners; a set is released as soon as it is complete, and at
    most ``max_pending`` stay open (the oldest is dropped and counted as unpaired)."""

    def __init__(self, players: int, max_pending: int) -> None:
        self.players = players
        self.max_pending = max_pending
        self.pending: dict[tuple, list] = {}
        self.complete = 0
        self.invalid = 0
        self.unpaired_games = 0
        self.no_seed = 0
        self.diff: Counter = Counter()  # 2 seats: "pos" / "neg" / "zero"
        self.kinds: Counter = Counter()
        self.best_seat = [0] * players

    def add(self, game: GameFacts) -> None:
        """A mixed game (self-play games have their own seeds and are not paired)."""
        if game.seed is None:
            self.no_seed += 1
            return
        key = (game.seed, tuple(sorted(game.seats)))
        entry = self.pending.get(key)
        if entry is None:
            entry = self.pending[key] = []
            if len(self.pending) > self.max_pending:
                oldest = next(iter(self.pending))
                self.unpaired_games += len(self.pending.pop(oldest))
        entry.append((game.seats, tuple(game.shares), game.single))
        if len(entry) == self.players:
            del self.pending[key]
            self._close(entry)

    def finish(self) -> None:
        for entry in self.pending.values():
            self.unpaired_games += len(entry)
        self.pending.clear()

    def _close(self, entry: list) -> None:
        n = self.players
        multiset = sorted(entry[0][0])
        if any(sorted(game[0][s] for game in entry) != multiset for s in range(n)):
            self.invalid += 1
            self.unpaired_games += len(entry)
            return
        self.complete += 1
        totals = [sum(game[1][s] for game in entry) for s in range(n)]
        if n == 2:
            diff = totals[0] - totals[1]
            self.diff["pos" if diff > 1e-9 else "neg" if diff < -1e-9 else "zero"] += 1
            self.kinds[_two_seat_kind([game[2] for game in entry])] += 1
        best = max(totals)
        tops = [s for s in range(n) if abs(totals[s] - best) < 1e-9]
        if len(tops) == 1:
            self.best_seat[tops[0]] += 1
        elif n > 2:
            self.kinds["no single best seat"] += 1


def _two_seat_kind(singles: list[int | None]) -> str:
    """How a complete two-seat pair ended, from the single winner's seat of each game."""
    if all(w is not None for w in singles):
        same = singles[0] == singles[1]
        return f"seat {singles[0]} won both" if same else "one strategy won both"
    if all(w is None for w in singles):
        return "both games drawn"
    return "one win, one draw"


class SoloCollector:
    """Solitaire scores per seed, paired across strategies: seed -> {strategy: points}.
    A seed is released once every expected strategy played it; beyond ``max_pending``
    open seeds the scores move to a temporary sqlite file (:class:`SoloSpill`) and are
    paired there at the end, exactly."""

    def __init__(self, order: list[str], expected: frozenset | None, max_pending: int) -> None:
        self.order = order  # the aggregator's strategy order (shared, grows)
        self.expected = expected
        self.max_pending = max_pending
        self.pending: dict[Any, dict[str, float]] = {}
        self.diffs: dict[tuple[str, str], Counter] = {}
        self.duplicates = 0
        self.no_seed = 0
        self.spill: SoloSpill | None = None
        self.spilled_seeds = 0

    def _index(self, name: str) -> int:
        return self.order.index(name)

    def add(self, game: GameFacts) -> None:
        if game.scores is None:
            return
        if game.seed is None:
            self.no_seed += 1
            return
        name, points, seed = game.seats[0], game.scores[0], game.seed
        if self.spill is not None:
            self.spill.add(seed, self._index(name), points)
            return
        entry = self.pending.get(seed)
        if entry is None:
            entry = self.pending[seed] = {}
            if len(self.pending) > self.max_pending:
                self._spill()
                self.spill.add(seed, self._index(name), points)  # type: ignore[union-attr]
                return
        if name in entry:
            self.duplicates += 1
            return
        entry[name] = points
        if self.expected is not None and len(entry) == len(self.expected):
            if self.expected.issuperset(entry):
                del self.pending[seed]
                self._flush(entry)

    def _spill(self) -> None:
        """Too many open seeds (e.g. strategy-major order): move them to disk."""
        spill = self.spill = SoloSpill()
        self.spilled_seeds = len(self.pending)
        for seed, scores_by_name in self.pending.items():
            for name, points in scores_by_name.items():
                spill.add(seed, self._index(name), points)
        self.pending.clear()

    def _flush(self, entry: dict[str, float]) -> None:
        if len(entry) < 2:
            return
        names = sorted(entry, key=self._index)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                self.diffs.setdefault((a, b), Counter())[round(entry[a] - entry[b], 9)] += 1

    def finish(self) -> None:
        for entry in self.pending.values():
            self._flush(entry)
        self.pending.clear()
        if self.spill is not None:
            for (ia, ib), counter in self.spill.differences().items():
                key = (self.order[ia], self.order[ib])
                self.diffs.setdefault(key, Counter()).update(counter)
            self.duplicates += self.spill.duplicates
            self.spill.close()


class NaturalLengthCollector:
    """Game length in the game's natural unit (rounds, turns) from the first
    :data:`NATURAL_SAMPLE` games of each lineup that ended normally, measured by
    ``natural`` (which replays the record: the cost stays bounded whatever the number
    of games). Stops asking once a game turns out to have no such unit."""

    def __init__(self, natural: NaturalLength | None, dist_kwargs: dict) -> None:
        self.natural = natural
        self.unit: str | None = None
        self.length = StreamingDistribution(**dist_kwargs)
        self.games = 0  # games that ended normally, replayed or not
        self.per_lineup: Counter = Counter()

    def add(self, rec: dict) -> None:
        self.games += 1
        if self.natural is None:
            return
        lineup = tuple(sorted(rec["seats"]))
        if self.per_lineup[lineup] >= NATURAL_SAMPLE:
            return
        self.per_lineup[lineup] += 1
        found = self.natural(rec)
        if found is None:
            if self.unit is None:
                self.natural = None  # no natural unit: do not replay the others
            return
        self.unit, value = found
        self.length.add(value)


class GroupTally:
    """All tallies of one group: one variant (or none) and one number of seats. The
    group keeps its own counts (games, errors, terminations, lengths, margins, options)
    and hands each valid game to its collectors."""

    def __init__(
        self,
        variant: str | None,
        players: int,
        max_pending: int,
        dist_kwargs: dict,
        order: list[str],
        expected: frozenset | None,
        natural: NaturalLength | None = None,
    ):
        self.variant = variant
        self.players = players
        self.max_pending = max_pending
        self.records = 0
        self.games = 0  # valid games (errors excluded)
        self.errors = 0
        self.error_messages: Counter = Counter()
        self.terminations: Counter = Counter()  # "normal", "move_limit", "forfeit:<kind>"
        self.options: dict | None = None
        self.options_differ = False
        self.self_play_games = 0
        self.mixed_games = 0
        self.length = StreamingDistribution(**dist_kwargs)
        self.margin = StreamingDistribution(**dist_kwargs)
        self.strategies = StrategyCollector(dist_kwargs)
        self.seats = SeatCollector(players, dist_kwargs)
        self.pairs = PairCollector()
        self.swaps = SeatSwapCollector(players, max_pending)
        self.solo = SoloCollector(order, expected, max_pending)
        self.natural = NaturalLengthCollector(natural, dist_kwargs)

    @property
    def no_seed(self) -> int:
        return self.swaps.no_seed + self.solo.no_seed

    def add(self, rec: dict) -> None:
        self.records += 1
        self._note_options(rec.get("options"))
        if rec["termination"] == "error":
            self._add_error(rec)
            return
        game = GameFacts.of(rec)
        self.games += 1
        if game.length is not None:
            self.length.add(game.length)
        term = game.termination
        self.terminations[f"forfeit:{game.forfeit_kind}" if term == "forfeit" else term] += 1
        if term == "normal":  # a forfeit or move limit stops the game early
            self.natural.add(rec)
        self.strategies.add(game)
        if game.players == 1:
            self.solo.add(game)
            return
        self.seats.add(game)
        m = R.margin(game.scores)
        if m is not None:
            self.margin.add(m)
        self.pairs.add(game)
        if game.self_play:
            self.self_play_games += 1
            return
        self.mixed_games += 1
        self.swaps.add(game)

    def _note_options(self, options: Any) -> None:
        if self.options is None:
            self.options = options if isinstance(options, dict) else {}
        elif not self.options_differ and options is not None and options != self.options:
            self.options_differ = True

    def _add_error(self, rec: dict) -> None:
        self.errors += 1
        msg = R.detail_message(rec)
        if len(self.error_messages) < 20 or msg in self.error_messages:
            self.error_messages[str(msg)[:200]] += 1
        self.strategies.add_error(rec["seats"])

    def finish(self) -> None:
        self.swaps.finish()
        self.solo.finish()


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
        natural_length: NaturalLength | None = None,
    ) -> None:
        self.natural_length = natural_length
        self.order: list[str] = list(dict.fromkeys(strategy_order or []))
        self._known = set(self.order)
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

    def add_all(self, records: Iterable[dict]) -> Aggregator:
        for rec in records:
            self.add(rec)
        return self

    def add(self, rec: dict, where: str | None = None, *, validate: bool = True) -> None:
        """Add one record. It is validated first (a bad record raises RecordError naming
        ``where``) unless ``validate=False`` says the caller already did
        (:class:`simcli.tournament.gamelog.GameLog` does)."""
        self.records += 1
        where = where or f"record {self.records}"
        if validate:
            check(rec, where)
        for name in rec["seats"]:
            if name not in self._known:
                self._known.add(name)
                self.order.append(name)
        self._check_game(rec.get("game"), where)
        self._group(rec.get("variant"), len(rec["seats"])).add(rec)

    def _check_game(self, game: str | None, where: str) -> None:
        if game is not None:
            if self._game is None:
                self._game = game
            elif game != self._game:
                raise RecordError(
                    f"{where}: game '{game}' differs from '{self._game}' of the earlier "
                    "records; report one game per log"
                )
        self.games_seen[game] += 1

    def _group(self, variant: str | None, players: int) -> GroupTally:
        key = (variant, players)
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = GroupTally(
                variant,
                players,
                self.max_pending,
                self.dist_kwargs,
                self.order,
                self._expected,
                self.natural_length,
            )
            self.group_order.append(key)
        return g

    def finish(self) -> Aggregator:
        """Close open pairs and solitaire seeds. Idempotent."""
        if self.finished:
            return self
        for g in self.groups.values():
            g.finish()
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
