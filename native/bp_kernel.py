"""The compiled loop behind ``native.bp``: sum-product on the Sudoku factor graph, decimation,
propagation of the hard constraints, restarts.

The factor graph: one binary variable ``x[c, d]`` per cell ``c`` and digit ``d`` still possible
(a candidate); four "exactly one" factors touch each variable: its cell (one digit per cell) and
the (row, digit), (column, digit) and (box, digit) factors (one place per digit and unit). Each
variable touches exactly one factor of each of the four types, so every message is indexed by
``(type, cell, digit)``: ``L[t, c, d]`` is the log likelihood ratio the type-``t`` factor sends
to ``x[c, d]``, and ``T[c, d] = sum_t L[t, c, d]`` the variable's log-odds (uniform prior).

An exactly-one factor over variables with incoming odds ``o_u`` (the variable's odds without
this factor's own message, ``exp(T - L[t])``) sends to ``v`` the ratio

    P(others all 0) / P(exactly one other is 1) = 1 / sum_{u != v} o_u

(the product of ``(1 - q_u)`` terms cancels between the two cases), so a whole factor is
O(n): the sums without ``v`` come from prefix and suffix sums (no subtraction of a huge own
term, which would lose every digit when ``o_v`` dominates). A factor left with one variable
sends it certainty (``+CAP``). Messages are damped in the log domain
(``L = damping * old + (1 - damping) * new``) and updated factor by factor, ``T`` kept current
(a serial schedule: cells, then rows, columns, boxes); one sweep over every factor is one BP
iteration, and BP stops when no message moved by more than ``tol`` or after ``max_iters``.

Decimation: the unplaced cell whose normalised belief ``max_d sigma(T[c, d]) / sum_d
sigma(T[c, d])`` is highest gets its most probable digit; the placement is propagated (the
digit leaves the peers; with ``singles``, naked and hidden singles are placed until nothing
changes) and BP runs again from the current messages (warm start). A cell with no candidate or
a unit with no place left for a digit is a *contradiction*: at the root (before any
decimation) it proves the puzzle has no solution; after a decimation it only shows that BP
guessed wrong, and the run restarts from the root position with messages drawn uniformly in
``[-noise, noise]`` (seeded), ``max_restarts`` times, after which it gives up.

Ties (between cells and between digits, within ``TIE``) are broken uniformly with SplitMix64,
whose state the caller seeds, so a run is deterministic for a seed.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from sudoku_compare.native._jit_clock import now
from sudoku_compare.native.annealing import _splitmix64

#: status codes
EXHAUSTED, SOLVED, CLOCK, GAVE_UP = 0, 1, -1, 2
#: a message's log ratio is kept in [-CAP, CAP] (odds up to 5e21, sums of 25 stay finite)
CAP = 50.0
#: beliefs closer than this are a tie
TIE = 1e-12
#: variable updates between two clock reads inside BP (a read costs about 1 us)
CLOCK_WORK = 20_000
#: indices of the counters array the kernel fills
(K_ITERATIONS, K_CALLS, K_DECIMATIONS, K_CONTRADICTIONS, K_RESTARTS, K_UNCONVERGED,
 K_PROPAGATED) = range(7)
N_COUNTERS = 7


@numba.njit(cache=True, inline="always")
def _below(x, n):
    """A uniform integer in ``[0, n)`` from the top 32 bits of a 64-bit draw."""
    return np.int64(((x >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@numba.njit(cache=True)
def _place(c, d, alive, value, peers):
    """Put digit index ``d`` in cell ``c`` and strike it from every peer."""
    value[c] = d + 1
    for e in range(alive.shape[1]):
        alive[c, e] = 0
    alive[c, d] = 1
    for k in range(peers.shape[1]):
        alive[peers[c, k], d] = 0


@numba.njit(cache=True)
def propagate(alive, value, units, peers, singles):
    """Check (and with ``singles`` apply) the hard constraints until nothing changes.

    Returns ``(consistent, placements made)``: inconsistent when an empty cell has no
    candidate or a unit has no place for a digit it does not hold."""
    n_cells, n = alive.shape
    placed = 0
    changed = True
    while changed:
        changed = False
        for c in range(n_cells):
            if value[c] != 0:
                continue
            count = 0
            last = -1
            for d in range(n):
                if alive[c, d]:
                    count += 1
                    last = d
            if count == 0:
                return False, placed
            if count == 1 and singles:
                _place(c, last, alive, value, peers)
                placed += 1
                changed = True
        for u in range(units.shape[0]):
            for d in range(n):
                count = 0
                where = -1
                for k in range(n):
                    c = units[u, k]
                    if alive[c, d]:
                        count += 1
                        where = c
                if count == 0:
                    return False, placed
                if count == 1 and singles and value[where] == 0:
                    _place(where, d, alive, value, peers)
                    placed += 1
                    changed = True
    return True, placed


@numba.njit(cache=True, inline="always")
def _update_factor(t, cs, ds, m, L, T, o, pre, damping):
    """One exactly-one factor over the ``m`` variables ``(cs[i], ds[i])``; returns the largest
    change of its messages."""
    for i in range(m):
        x = T[cs[i], ds[i]] - L[t, cs[i], ds[i]]
        x = min(max(x, -CAP), CAP)
        o[i] = math.exp(x)
    pre[0] = 0.0
    for i in range(m):
        pre[i + 1] = pre[i] + o[i]
    worst = 0.0
    suffix = 0.0
    for i in range(m - 1, -1, -1):
        others = pre[i] + suffix
        suffix += o[i]
        new = -math.log(others) if others > 0.0 else CAP
        new = min(max(new, -CAP), CAP)
        c = cs[i]
        d = ds[i]
        old = L[t, c, d]
        new = damping * old + (1.0 - damping) * new
        change = abs(new - old)
        if change > worst:
            worst = change
        L[t, c, d] = new
        T[c, d] += new - old
    return worst


@numba.njit(cache=True)
def belief_propagation(alive, value, units, L, T, damping, tol, max_iters, deadline_at,
                       counters, work):
    """Sweep every factor until the messages settle; returns (converged, timed out).

    ``work`` (a one-element array) carries the variable updates since the last clock read."""
    n_cells, n = alive.shape
    cs = np.empty(n, dtype=np.int64)
    ds = np.empty(n, dtype=np.int64)
    o = np.empty(n, dtype=np.float64)
    pre = np.empty(n + 1, dtype=np.float64)
    # which unit-digit factors are settled (the digit is placed in the unit)
    done = np.zeros((units.shape[0], n), dtype=np.uint8)
    for u in range(units.shape[0]):
        for k in range(n):
            c = units[u, k]
            if value[c] != 0:
                done[u, value[c] - 1] = 1
    for c in range(n_cells):
        for d in range(n):
            if alive[c, d] and value[c] == 0:
                T[c, d] = L[0, c, d] + L[1, c, d] + L[2, c, d] + L[3, c, d]
            else:
                T[c, d] = 0.0
                for t in range(4):
                    L[t, c, d] = 0.0
    counters[K_CALLS] += 1
    for _ in range(max_iters):
        if work[0] >= CLOCK_WORK:
            work[0] = 0
            if now() >= deadline_at:
                return False, True
        worst = 0.0
        for c in range(n_cells):
            if value[c] != 0:
                continue
            m = 0
            for d in range(n):
                if alive[c, d]:
                    cs[m] = c
                    ds[m] = d
                    m += 1
            worst = max(worst, _update_factor(0, cs, ds, m, L, T, o, pre, damping))
            work[0] += m
        for u in range(units.shape[0]):
            t = 1 + u // n
            for d in range(n):
                if done[u, d]:
                    continue
                m = 0
                for k in range(n):
                    c = units[u, k]
                    if alive[c, d] and value[c] == 0:
                        cs[m] = c
                        ds[m] = d
                        m += 1
                worst = max(worst, _update_factor(t, cs, ds, m, L, T, o, pre, damping))
                work[0] += m
        counters[K_ITERATIONS] += 1
        if worst < tol:
            return True, False
    counters[K_UNCONVERGED] += 1
    return False, False


@numba.njit(cache=True)
def _keep_max(value, best, ties, s):
    """One step of a running maximum with ties broken uniformly (reservoir sampling):
    (take this one, best so far, how many tie at it, generator state). A value within TIE
    of the best is a tie: the k-th of them replaces the choice with probability 1/k."""
    if value > best + TIE:
        return True, value, 1, s
    if value >= best - TIE:
        ties += 1
        s, x = _splitmix64(s)
        return _below(x, ties) == 0, best, ties, s
    return False, best, ties, s


@numba.njit(cache=True)
def _most_certain(alive, value, T, rng_state):
    """(cell, digit) of the highest normalised belief, ties uniform; (-1, -1) when all placed."""
    n_cells, n = alive.shape
    s = rng_state[0]
    best_p = -1.0
    best_c = -1
    best_d = -1
    ties = 0
    for c in range(n_cells):
        if value[c] != 0:
            continue
        total = 0.0
        top = -1.0
        top_d = -1
        top_ties = 0
        for d in range(n):
            if not alive[c, d]:
                continue
            q = 1.0 / (1.0 + math.exp(-min(max(T[c, d], -4 * CAP), 4 * CAP)))
            total += q
            take, top, top_ties, s = _keep_max(q, top, top_ties, s)
            if take:
                top_d = d
        take, best_p, ties, s = _keep_max(top / total, best_p, ties, s)
        if take:
            best_c = c
            best_d = top_d
    rng_state[0] = s
    return best_c, best_d


@numba.njit(cache=True)
def _perturb(alive, value, L, noise, rng_state):
    """Messages of the unplaced candidates drawn uniformly in [-noise, noise]; others 0."""
    s = rng_state[0]
    n_cells, n = alive.shape
    for t in range(4):
        for c in range(n_cells):
            for d in range(n):
                if noise > 0.0 and alive[c, d] and value[c] == 0:
                    s, x = _splitmix64(s)
                    u = np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)
                    L[t, c, d] = noise * (2.0 * u - 1.0)
                else:
                    L[t, c, d] = 0.0
    rng_state[0] = s


@numba.njit(cache=True)
def solve_bp(givens, units, peers, n, singles, damping, tol, max_iters, max_restarts, noise,
             deadline_at, rng_state, out, counters):
    """Run BP with decimation on ``givens`` (flat, 0 empty); ``out`` receives the grid reached.

    Returns a status code: SOLVED, EXHAUSTED (contradiction before any decimation: no
    solution), GAVE_UP (a contradiction after decimation and no restart left) or CLOCK."""
    n_cells = givens.shape[0]
    alive = np.ones((n_cells, n), dtype=np.uint8)
    value = np.zeros(n_cells, dtype=np.int64)
    for c in range(n_cells):
        if givens[c] != 0:
            if not alive[c, givens[c] - 1]:  # a given its peers already forbid
                out[:] = value
                return EXHAUSTED
            _place(c, givens[c] - 1, alive, value, peers)
    ok, placed = propagate(alive, value, units, peers, singles)
    counters[K_PROPAGATED] += placed
    if not ok:
        out[:] = value
        return EXHAUSTED
    root_alive = alive.copy()
    root_value = value.copy()
    L = np.zeros((4, n_cells, n), dtype=np.float64)
    T = np.zeros((n_cells, n), dtype=np.float64)
    work = np.zeros(1, dtype=np.int64)
    before = value.copy()
    work[0] = CLOCK_WORK  # read the clock before the first sweep
    while True:
        solved = True
        for e in range(n_cells):
            if value[e] == 0:
                solved = False
                break
        if solved:
            out[:] = value
            return SOLVED
        _, timed_out = belief_propagation(alive, value, units, L, T, damping, tol, max_iters,
                                          deadline_at, counters, work)
        if timed_out:
            out[:] = value
            return CLOCK
        c, d = _most_certain(alive, value, T, rng_state)
        counters[K_DECIMATIONS] += 1
        before[:] = value
        _place(c, d, alive, value, peers)
        ok, placed = propagate(alive, value, units, peers, singles)
        counters[K_PROPAGATED] += placed
        if ok:
            continue
        counters[K_CONTRADICTIONS] += 1
        if counters[K_RESTARTS] >= max_restarts:
            # the position before the decimation that contradicted, reached by inference
            out[:] = before
            return GAVE_UP
        counters[K_RESTARTS] += 1
        alive[:, :] = root_alive
        value[:] = root_value
        _perturb(alive, value, L, noise, rng_state)
