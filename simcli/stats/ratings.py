"""Bradley-Terry and Plackett-Luce ratings with a seat effect, on the Elo scale.

Model. Every game is a finishing order of its seats. A strategy ``i`` in seat ``s`` has
strength ``exp(r_i + h_s)``; the probability of an order is the Plackett-Luce product
``prod_j exp(eta_(j)) / sum_{l >= j} exp(eta_(l))`` over the finishing positions. With
two seats this is Bradley-Terry with a home advantage: ``P(seat 0 wins) =
1 / (1 + exp(-(r_a - r_b + h_0 - h_1)))``. Seat 0 is the reference (``h_0 = 0``).

Ties (draws, shared places) are split into all orders of the tied seats, each with an
equal share of the game's weight; for two players a draw is half a win and half a loss,
the usual Elo convention.

Ratings are reported in Elo points, ``400 / ln 10`` per natural-log unit, relative to an
anchor strategy fixed at 0 (the first strategy in report order of each connected group
of strategies). Intervals come from the observed information (inverse Hessian of the
negative log-likelihood at the maximum).

If the maximum-likelihood estimate does not exist (a strategy or a seat won or lost
every game it played), the fit is repeated with one virtual all-tied game per distinct
seating, which keeps estimates finite; the fit then says so in ``note``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, stats

from simcli.stats.intervals import Interval
from simcli.stats.significance import TestResult

#: Elo points per natural-log unit of strength.
ELO_PER_NAT = 400.0 / math.log(10.0)

#: Largest |parameter| (natural units) accepted before the fit is declared separated.
_SEPARATION_LIMIT = 9.0

#: A finishing-order observation: strategy name per seat, finishing rank per seat
#: (0 = first; equal ranks are ties), weight (number of games).
OrderData = Mapping[tuple[tuple[str, ...], tuple[int, ...]], float]


class AllTied(ValueError):
    """No game has a decisive result: ratings and seat effects cannot be estimated."""


@dataclass
class RatingFit:
    """The result of :func:`bt_fit` / :func:`pl_fit`. All values in Elo."""

    model: str
    names: list[str]
    anchors: list[str]
    ratings: list[float | None]
    se: list[float | None]
    cov: np.ndarray | None  # names x names, Elo^2 (rows of unrated names are 0)
    seats: int
    seat_effects: list[float] | None  # per seat, relative to seat 0
    seat_se: list[float | None] | None
    loglik: float
    converged: bool
    games: float
    prior_games: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: Davidson tie parameters, one per tied-group size seen (``delta``, 95% interval)
    ties: list[dict] = field(default_factory=list)

    def equal_draw_rate(self) -> float | None:
        """Two seats: the draw probability between equal strategies, ``nu / (2 + nu)``."""
        for t in self.ties:
            if t["size"] == 2 and self.seats == 2:
                return t["delta"] / (2.0 + t["delta"])
        return 0.0 if self.seats == 2 else None

    def rating_interval(self, name: str, confidence: float = 0.95) -> Interval:
        i = self.names.index(name)
        return _normal_interval(self.ratings[i], self.se[i], self.games, confidence)

    def seat_interval(self, seat: int, confidence: float = 0.95) -> Interval:
        if self.seat_effects is None or self.seat_se is None:
            return Interval(None, None, None, self.games, "wald", confidence, "no seat effect")
        return _normal_interval(self.seat_effects[seat], self.seat_se[seat], self.games, confidence)

    def first_seat_advantage(self, confidence: float = 0.95) -> Interval:
        """Two seats: how many Elo points sitting in seat 0 is worth over seat 1."""
        if self.seats != 2 or self.seat_effects is None or self.seat_se is None:
            return Interval(None, None, None, self.games, "wald", confidence, "not two seats")
        est = -self.seat_effects[1]
        return _normal_interval(est, self.seat_se[1], self.games, confidence)

    def to_dict(self, confidence: float = 0.95) -> dict:
        rows = []
        for i, name in enumerate(self.names):
            iv = self.rating_interval(name, confidence)
            row = {
                "name": name,
                "elo": self.ratings[i],
                "se": self.se[i],
                "low": iv.low,
                "high": iv.high,
            }
            if self.ratings[i] is None:
                row["note"] = "not rated: no games against other strategies"
            elif name in self.anchors:
                row["note"] = "anchor (fixed at 0)"
            rows.append(row)
        seat_rows = None
        if self.seat_effects is not None:
            seat_rows = []
            for s in range(self.seats):
                iv = self.seat_interval(s, confidence)
                seat_rows.append(
                    {
                        "seat": s,
                        "elo": self.seat_effects[s],
                        "se": self.seat_se[s] if self.seat_se else None,
                        "low": iv.low,
                        "high": iv.high,
                    }
                )
        return {
            "model": self.model,
            "scale": "Elo (400/ln 10 per natural unit)",
            "anchors": self.anchors,
            "ratings": rows,
            "seat_effects": seat_rows,
            "loglik": self.loglik,
            "converged": self.converged,
            "games": self.games,
            "prior_games": self.prior_games,
            "ties": [dict(t) for t in self.ties],
            "tie_model": "Davidson-Luce (one tie parameter per tied-group size)",
            "notes": list(self.notes),
        }


def _normal_interval(est, se, n, confidence) -> Interval:
    if est is None:
        return Interval(None, None, None, n, "wald", confidence, "not estimable")
    if se is None or not math.isfinite(se):
        return Interval(est, None, None, n, "wald", confidence, "no standard error")
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    return Interval(est, est - z * se, est + z * se, n, "wald", confidence)


def elo_diff(fit: RatingFit, a: str, b: str, confidence: float = 0.95) -> Interval:
    """Rating of ``a`` minus rating of ``b`` with a Wald interval (uses the covariance)."""
    i, j = fit.names.index(a), fit.names.index(b)
    ra, rb = fit.ratings[i], fit.ratings[j]
    if ra is None or rb is None or fit.cov is None:
        return Interval(None, None, None, fit.games, "wald", confidence, "not rated")
    if _component(fit, a) != _component(fit, b):
        return Interval(None, None, None, fit.games, "wald", confidence, "never compared")
    var = fit.cov[i, i] + fit.cov[j, j] - 2 * fit.cov[i, j]
    return _normal_interval(ra - rb, math.sqrt(max(var, 0.0)), fit.games, confidence)


def _component(fit: RatingFit, name: str) -> int:
    comps = getattr(fit, "_components", None)
    return comps[name] if comps else 0


def expected_score(elo_difference: float) -> float:
    """Bradley-Terry probability that a player ``elo_difference`` points stronger wins
    (the logistic in a form that neither overflows nor loses the far tails)."""
    x = elo_difference * math.log(10.0) / 400.0
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


# ----------------------------------------------------------------------------- data


def cells_to_orders(
    cells: Iterable[tuple[str, str, float, float]],
) -> dict[tuple[tuple[str, ...], tuple[int, ...]], float]:
    """Two-player cells ``(seat-0 strategy, seat-1 strategy, games, seat-0 score)``
    -> finishing orders (draws already counted as half a point in the score)."""
    out: dict = {}
    for a, b, n, s in cells:
        if n <= 0:
            continue
        if s < 0 or s > n:
            raise ValueError(f"score {s} outside 0..{n}")
        key = (a, b)
        if s > 0:
            out[(key, (0, 1))] = out.get((key, (0, 1)), 0.0) + s
        if n - s > 0:
            out[(key, (1, 0))] = out.get((key, (1, 0)), 0.0) + (n - s)
    return out


# ----------------------------------------------------------------------------- fitting


def _stages(ranks: Sequence[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(remaining seats, seats chosen next) for every stage of a finishing order with
    ties; the last stage with one seat left has probability 1 and is dropped."""
    levels = sorted(set(ranks))
    remaining = tuple(range(len(ranks)))
    out = []
    for lv in levels:
        chosen = tuple(s for s in remaining if ranks[s] == lv)
        if len(remaining) > 1:
            out.append((remaining, chosen))
        remaining = tuple(s for s in remaining if ranks[s] != lv)
    return out


def tie_sizes(data: OrderData) -> list[int]:
    """Sizes of tied groups (2 or more seats sharing a place) present in ``data``."""
    sizes = set()
    for (_strats, ranks), w in data.items():
        if w > 0:
            for _rem, chosen in _stages(ranks):
                if len(chosen) > 1:
                    sizes.add(len(chosen))
    return sorted(sizes)


class _Problem:
    """The Davidson-Luce likelihood as a conditional logit, vectorised.

    Each stage of a finishing order chooses the next place's seats ``T`` among every
    non-empty subset ``S`` of the remaining seats whose size is 1 or an observed tie
    size; the choice has utility ``mean_{s in S} eta_s + log delta_|S|`` (``delta_1 =
    1``). Features: one column per free strategy, one per seat after seat 0, one per
    tie size (``log delta``)."""

    def __init__(
        self,
        data: Mapping,
        names: list[str],
        n_seats: int,
        seat: bool,
        anchors,
        sizes: Sequence[int],
    ) -> None:
        self.n = n_seats
        free = [nm for nm in names if nm not in anchors]
        self.free = free
        pos = {nm: i for i, nm in enumerate(free)}
        known = set(names)
        n_r = len(free)
        n_h = n_seats - 1 if seat else 0
        self.n_r, self.n_h, self.n_t = n_r, n_h, len(sizes)
        self.sizes = list(sizes)
        P = n_r + n_h + len(sizes)
        self.P = P
        allowed = {1, *sizes}
        subsets = {}
        rows_w, rows_z, rows_c = [], [], []
        for (strats, ranks), w in data.items():
            if w <= 0:
                continue
            for nm in strats:
                if nm not in known:
                    raise ValueError(f"unknown strategy {nm!r}")
            X = np.zeros((n_seats, P))
            for s, nm in enumerate(strats):
                if nm in pos:
                    X[s, pos[nm]] += 1.0
                if seat and s > 0:
                    X[s, n_r + s - 1] += 1.0
            for remaining, chosen in _stages(ranks):
                if remaining not in subsets:
                    subsets[remaining] = self._alternatives(remaining, allowed, n_seats)
                alts, member, ties = subsets[remaining]
                rows_w.append(float(w))
                rows_z.append(member @ X + ties)
                rows_c.append(alts[chosen])
        A = max((z.shape[0] for z in rows_z), default=1)
        K = len(rows_z)
        self.Z = np.zeros((K, A, P))
        self.mask = np.zeros((K, A), dtype=bool)
        for k, z in enumerate(rows_z):
            self.Z[k, : z.shape[0]] = z
            self.mask[k, : z.shape[0]] = True
        self.w = np.array(rows_w, dtype=float)
        self.chosen = self.Z[np.arange(K), np.array(rows_c, dtype=int)] if K else np.zeros((0, P))

    def _alternatives(self, remaining, allowed, n_seats):
        """For the seats still in play: index of every allowed subset, the matrix that
        averages the seats' features over each subset, and its tie-size columns."""
        alts = [
            c
            for k in sorted(allowed)
            if k <= len(remaining)
            for c in itertools.combinations(remaining, k)
        ]
        member = np.zeros((len(alts), n_seats))
        ties = np.zeros((len(alts), self.P))
        for a, sub in enumerate(alts):
            member[a, list(sub)] = 1.0 / len(sub)
            if len(sub) > 1:
                ties[a, self.n_r + self.n_h + self.sizes.index(len(sub))] = 1.0
        return {c: a for a, c in enumerate(alts)}, member, ties

    def _probs(self, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        U = np.where(self.mask, self.Z @ beta, -np.inf)
        m = U.max(axis=1, keepdims=True)
        e = np.exp(U - m)
        s = e.sum(axis=1, keepdims=True)
        return e / s, (m + np.log(s))[:, 0]

    def _mean(self, pi: np.ndarray) -> np.ndarray:
        return np.matmul(pi[:, None, :], self.Z)[:, 0, :]

    def nll(self, beta: np.ndarray) -> tuple[float, np.ndarray]:
        pi, lse = self._probs(beta)
        ll = float(np.dot(self.w, self.chosen @ beta - lse))
        grad = -(self.w @ (self.chosen - self._mean(pi)))
        return -ll, grad

    def hess(self, beta: np.ndarray) -> np.ndarray:
        if not self.P:
            return np.zeros((0, 0))
        pi, _ = self._probs(beta)
        mean = self._mean(pi)
        flat = self.Z.reshape(-1, self.P)
        second = flat.T @ (flat * (pi * self.w[:, None]).reshape(-1, 1))
        return second - mean.T @ (mean * self.w[:, None])


def _components(orders: Mapping, names: list[str]) -> list[list[str]]:
    parent = {nm: nm for nm in names}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for strats, _order in orders:
        first = strats[0]
        for other in strats[1:]:
            ra, rb = find(first), find(other)
            if ra != rb:
                parent[rb] = ra
    comps: dict[str, list[str]] = {}
    for nm in names:
        comps.setdefault(find(nm), []).append(nm)
    return list(comps.values())


#: The first note of a fit that needed the virtual games (see the module's docstring).
_NO_ESTIMATE_NOTE = (
    "the maximum-likelihood estimate does not exist (a strategy or seat won or "
    "lost every game); ratings use one virtual game per seating, split evenly "
    "over the seats' finishing orders"
)


def _fit_orders(
    orders: Mapping,
    names: list[str],
    n_seats: int,
    *,
    seat: bool,
    model: str,
    anchor: str | None,
    prior: float,
    x0: np.ndarray | None = None,
) -> RatingFit:
    """The ratings of ``orders``: the likelihood (:func:`_likelihood`), its maximum
    (:func:`_maximise`) and the fit in Elo (:func:`_summary`). Without a prior, an
    estimate that runs off (a strategy or seat won or lost every game) or does not
    converge is made again with one virtual game per seating."""
    comps = _components(orders, names)
    # one anchor per connected component: `anchor` if in it, else its first name
    anchors = [anchor if anchor in comp else comp[0] for comp in comps]
    prob = _likelihood(orders, names, n_seats, seat=seat, anchors=anchors, prior=prior)
    beta, loglik, converged = _maximise(prob, x0)
    separated = prob.P and float(np.max(np.abs(beta))) > _SEPARATION_LIMIT
    if (separated or not converged) and prior == 0:
        fit = _fit_orders(orders, names, n_seats, seat=seat, model=model, anchor=anchor, prior=1.0)
        fit.notes.insert(0, _NO_ESTIMATE_NOTE)
        return fit
    return _summary(
        prob,
        beta,
        names,
        comps,
        anchors,
        model=model,
        loglik=float(loglik),
        converged=converged,
        games=float(sum(orders.values())),
        prior_games=float(prior * len({s for s, _ in orders})) if prior else 0.0,
    )


def _likelihood(
    orders: Mapping,
    names: list[str],
    n_seats: int,
    *,
    seat: bool,
    anchors: list[str],
    prior: float,
) -> _Problem:
    """The negative log-likelihood of ``orders`` (plus ``prior`` virtual games per
    seating), its parameters the strategies other than the anchors, the seats after
    seat 0 (``seat``) and one tie parameter per tie size seen."""
    data = dict(orders)
    sizes = tie_sizes(orders)
    if prior > 0:
        # one virtual game per seating, spread over the n cyclic finishing orders
        # (in first-seen order: a set's order varies with the process's string hashing,
        # and the sum of the likelihood with it, in the last digits)
        seen = dict.fromkeys(strats for strats, _ in orders)
        for strats in seen:
            for c in range(n_seats):
                key = (strats, tuple((s - c) % n_seats for s in range(n_seats)))
                data[key] = data.get(key, 0.0) + prior / n_seats
    return _Problem(data, names, n_seats, seat, set(anchors), sizes)


def _maximise(prob: _Problem, x0: np.ndarray | None) -> tuple[np.ndarray, float, bool]:
    """The maximum-likelihood parameters (natural units), the log-likelihood there and
    whether the optimiser converged; ``x0`` (if it fits) is the starting point."""
    if x0 is None or len(x0) != prob.P:
        x0 = np.zeros(prob.P)
    if not prob.P:
        return x0, -prob.nll(x0)[0], True
    res = optimize.minimize(
        prob.nll,
        x0,
        jac=True,
        hess=prob.hess,
        method="trust-exact",
        options={"gtol": 1e-7, "maxiter": 500},
    )
    converged = bool(res.success) or float(np.max(np.abs(res.jac))) < 1e-5
    return res.x, -float(res.fun), converged


def _summary(
    prob: _Problem,
    beta: np.ndarray,
    names: list[str],
    comps: list[list[str]],
    anchors: list[str],
    *,
    model: str,
    loglik: float,
    converged: bool,
    games: float,
    prior_games: float,
) -> RatingFit:
    """The fit at ``beta`` on the Elo scale: ratings, seat effects and tie parameters
    with their standard errors from the observed information, and the notes."""
    n_seats = prob.n
    singletons = {comp[0] for comp in comps if len(comp) == 1}
    cov_free, notes = _covariance(prob, beta)
    if not converged:
        notes.append("optimiser did not converge")
    ratings, se, cov = _strategy_ratings(prob, beta, cov_free, names, singletons)
    seat_effects = seat_se = None
    if prob.n_h:  # seat parameters (more than one seat)
        seat_effects, seat_se = _seat_effects(prob, beta, cov_free)
    if len([c for c in comps if len(c) > 1]) > 1:
        notes.append(
            "strategies form separate groups that never met; ratings are comparable only "
            "within a group (anchors: " + ", ".join(anchors) + ")"
        )
    fit = RatingFit(
        model=model,
        names=list(names),
        anchors=[a for a in anchors if a not in singletons or len(names) == 1],
        ratings=ratings,
        se=se,
        cov=cov if cov_free is not None else None,
        seats=n_seats,
        seat_effects=seat_effects,
        seat_se=seat_se,
        loglik=loglik,
        converged=converged,
        games=games,
        prior_games=prior_games,
        notes=notes,
        ties=_tie_parameters(prob, beta, cov_free),
    )
    fit._components = {nm: ci for ci, comp in enumerate(comps) for nm in comp}  # type: ignore[attr-defined]
    fit._beta = (beta, prob.n_r, prob.n_h)  # type: ignore[attr-defined]
    return fit


def _covariance(prob: _Problem, beta: np.ndarray) -> tuple[np.ndarray | None, list[str]]:
    """The inverse observed information at ``beta`` (natural units), or None with a
    note when it is singular."""
    if not prob.P:
        return None, []
    H = prob.hess(beta)
    eig = np.linalg.eigvalsh((H + H.T) / 2)
    if not np.all(np.isfinite(eig)) or eig[0] <= 1e-9 * max(eig[-1], 1e-300):
        return None, [
            "observed information is singular (seats and strategies are confounded, "
            "or too few games): no intervals"
        ]
    return np.linalg.inv(H), []


def _strategy_ratings(
    prob: _Problem,
    beta: np.ndarray,
    cov_free: np.ndarray | None,
    names: list[str],
    singletons: set[str],
) -> tuple[list[float | None], list[float | None], np.ndarray]:
    """Per name, in Elo: the rating (0 for an anchor, None for a strategy that met no
    other), its standard error, and the covariance matrix of all names."""
    k2 = ELO_PER_NAT
    pos = {nm: i for i, nm in enumerate(prob.free)}
    ratings: list[float | None] = []
    se: list[float | None] = []
    cov = np.zeros((len(names), len(names)))
    for nm in names:
        if nm in singletons and len(names) > 1:
            ratings.append(None)
            se.append(None)
        elif nm in pos:
            ratings.append(float(beta[pos[nm]] * k2))
            se.append(
                float(math.sqrt(cov_free[pos[nm], pos[nm]]) * k2) if cov_free is not None else None
            )
        else:
            ratings.append(0.0)
            se.append(0.0)
    if cov_free is not None:
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if a in pos and b in pos:
                    cov[i, j] = cov_free[pos[a], pos[b]] * k2 * k2
    return ratings, se, cov


def _seat_effects(
    prob: _Problem, beta: np.ndarray, cov_free: np.ndarray | None
) -> tuple[list[float], list[float | None]]:
    """Each seat's effect relative to seat 0 in Elo, and its standard error."""
    k2 = ELO_PER_NAT
    n = prob.n - 1
    effects = [0.0] + [float(beta[prob.n_r + s] * k2) for s in range(n)]
    se: list[float | None] = [0.0] + [
        float(math.sqrt(cov_free[prob.n_r + s, prob.n_r + s]) * k2)
        if cov_free is not None
        else None
        for s in range(n)
    ]
    return effects, se


def _tie_parameters(prob: _Problem, beta: np.ndarray, cov_free: np.ndarray | None) -> list[dict]:
    """The Davidson tie parameter of each tie size: ``delta`` with its 95% interval."""
    ties = []
    z = float(stats.norm.ppf(0.975))
    for t, size in enumerate(prob.sizes):
        i = prob.n_r + prob.n_h + t
        log_d = float(beta[i])
        sd = math.sqrt(cov_free[i, i]) if cov_free is not None else None
        ties.append(
            {
                "size": size,
                "delta": math.exp(log_d),
                "log_delta": log_d,
                "log_delta_se": sd,
                "low": math.exp(log_d - z * sd) if sd is not None else None,
                "high": math.exp(log_d + z * sd) if sd is not None else None,
            }
        )
    return ties


def _names_from(orders: Mapping, names: Sequence[str] | None) -> list[str]:
    seen: list[str] = list(names) if names is not None else []
    have = set(seen)
    for strats, _ in orders:
        for nm in strats:
            if nm not in have:
                if names is not None:
                    raise ValueError(f"strategy {nm!r} is not in names")
                have.add(nm)
                seen.append(nm)
    # drop names without games
    used = {nm for strats, _ in orders for nm in strats}
    return [nm for nm in seen if nm in used]


def bt_fit(
    cells: Iterable[tuple[str, str, float, float]],
    *,
    names: Sequence[str] | None = None,
    seat: bool = True,
    anchor: str | None = None,
    prior: float = 0.0,
) -> RatingFit:
    """Bradley-Terry maximum-likelihood ratings (Elo scale) for two-player games.

    ``cells``: ``(seat-0 strategy, seat-1 strategy, games, seat-0 score)`` where the
    score counts a win as 1 and a draw as 1/2; several cells with the same pairing are
    added. ``seat=True`` adds the seat-advantage parameter. ``anchor`` (default: the
    first name) is fixed at 0 Elo. ``prior`` adds that many virtual drawn games per
    seating (0: only if the maximum-likelihood estimate does not exist).
    """
    orders = cells_to_orders(cells)
    nm = _names_from(orders, names)
    return _fit_orders(orders, nm, 2, seat=seat, model="bradley-terry", anchor=anchor, prior=prior)


def pl_fit(
    data: OrderData,
    *,
    names: Sequence[str] | None = None,
    seat: bool = True,
    anchor: str | None = None,
    prior: float = 0.0,
    _x0: np.ndarray | None = None,
) -> RatingFit:
    """Plackett-Luce maximum-likelihood ratings (Elo scale) from finishing orders.

    ``data`` maps ``(strategy per seat, rank per seat)`` to a number of games; ranks
    are 0 for first place, equal ranks are ties. ``seat=True`` adds one parameter per
    seat after the first.
    """
    orders = {k: float(w) for k, w in data.items() if w > 0}
    if not orders:
        raise ValueError("no games to rate")
    if all(len(set(ranks)) == 1 for _, ranks in orders):
        raise AllTied(
            "every game ended with all seats tied (a draw): no decisive result to rate "
            "strategies or seats"
        )
    n_seats = len(next(iter(orders))[0])
    if any(len(s) != n_seats for s, _ in orders):
        raise ValueError("all games must have the same number of seats")
    nm = _names_from(orders, names)
    model = "bradley-terry" if n_seats == 2 else "plackett-luce"
    return _fit_orders(
        orders, nm, n_seats, seat=seat, model=model, anchor=anchor, prior=prior, x0=_x0
    )


def seat_effect_lrt(full: RatingFit, reduced: RatingFit) -> TestResult:
    """Likelihood-ratio test of "no seat effect": ``2 (ll_full - ll_reduced)`` against
    chi-square with ``seats - 1`` degrees of freedom. Both fits must use the same data
    and prior (see :func:`fit_with_seat_test`)."""
    df = full.seats - 1
    if df < 1 or full.seat_effects is None:
        return TestResult("likelihood-ratio test", None, None, full.games, note="one seat")
    stat = max(2.0 * (full.loglik - reduced.loglik), 0.0)
    p = float(stats.chi2.sf(stat, df))
    return TestResult(
        "likelihood-ratio test", stat, min(max(p, 0.0), 1.0), full.games, df=float(df)
    )


def fit_with_seat_test(
    data: OrderData, *, names: Sequence[str] | None = None, anchor: str | None = None
) -> tuple[RatingFit, TestResult]:
    """Ratings with seat effects plus the likelihood-ratio test of the seat effects,
    controlled for who sat where. The reduced model uses the same prior as the full."""
    full = pl_fit(data, names=names, seat=True, anchor=anchor)
    beta, n_r, n_h = full._beta  # type: ignore[attr-defined]
    x0 = np.concatenate([beta[:n_r], beta[n_r + n_h :]])
    reduced = pl_fit(data, names=names, seat=False, anchor=anchor, prior=_prior_of(full), _x0=x0)
    return full, seat_effect_lrt(full, reduced)


def _prior_of(fit: RatingFit) -> float:
    return 1.0 if fit.prior_games > 0 else 0.0
