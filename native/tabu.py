"""Tabu search on native.sa's row-permutation encoding and objective, compiled with numba.

Why it is here: the annealing seed's "going further" names tabu search as the deterministic
cousin of annealing on the same moves. It minimises the same :func:`energy` (duplicates in
columns and boxes) over the same states (each row a permutation of its missing digits) with the
same move (swap two free cells of one row), so it races in the annealing comparison group
(``bench/reporting/summary.py``: ``GROUP_OF``). It has no library counterpart.

One iteration evaluates a neighbourhood of candidate swaps and applies the best one that is not
tabu, even when it raises the energy (that is what carries the search out of local minima that
stop a pure descent):

- *neighbourhood*: with ``sampled = 0`` every pair of free cells of ``rows`` rows, drawn
  uniformly without replacement among the rows with two free cells (``rows = 0``: every such
  row, the full neighbourhood); with ``sampled > 0`` that many swaps drawn as native.sa draws a
  proposal (a uniform row, then a uniform pair of its free cells), with replacement.
  The pairs come from native.sa's move table (:func:`~sudoku_compare.native.annealing.move_table`).
  With ``conflicted`` (the default) a pair is a candidate only when at least one of its two
  cells holds a digit duplicated in its column or box (read from the count tables, no candidate
  energy computed, hence not an evaluation): a swap of two unconflicted cells cannot lower the
  energy, so this min-conflicts filter spends the budget on the moves that can.
- *tabu*, for ``tenure + j`` iterations, ``j`` uniform in ``0..tenure_jitter`` (drawn per move,
  so cycles of a fixed length are broken), on the two cells a move swaps: with
  ``tabu_on=values`` (the default) each swapped cell may not take back the digit it just gave
  up (a candidate is tabu when it would put either digit back); with ``tabu_on=cells`` the two
  cells may not move at all (a candidate is tabu when either of its cells is).
- *aspiration*: a tabu candidate is allowed when it would bring the energy below the best energy
  of the current run.
- *fallback*: when every candidate is tabu and none aspirates, the best candidate is taken anyway
  (counted as ``forced``), so an iteration always moves.
- ties between equally good candidates are broken uniformly (reservoir sampling), otherwise the
  walk would favour the first rows of the grid.
- *restart*: after ``stagnation`` iterations without a new best energy of the run, the run ends
  and the shared driver (:mod:`sudoku_compare.native._restarts`) starts another from a fresh
  start state of the shared encoding, ``max_restarts`` times (-1: until a budget ends). A run's
  share of its schedule is its iterations since its last improvement over ``stagnation``
  (1 when it ended by stagnation).

Defaults, measured (equal work, 200,000 evaluations, easy51:0:10 x seeds 0-4, 50 runs each):
full neighbourhood + conflict filter + tenure 5-9 on values solved 44/50 (ERT 68k
evaluations); tenure 10-14 on values: 42/50, 2-5: 36/50. On cells: tenure 5-9 27/50 (ERT 225k),
10-14: 20/50; without the filter 15/50; rows=3: 17/50, rows=1: 5/50 (filter off);
sampled=60: 11/50, sampled=20: 3/50 (filter off); stagnation 300/3000: 20/50 and 17/50 at
tenure 10-14 on cells. native.sa solved 30/50 on the same runs (ERT 172k): a tabu move costs a whole
neighbourhood (about 10-80 deltas), and the cell tabu, which freezes both cells, stalls at
energy 2 where the value tabu does not.

Evaluations: one per candidate delta (``swap_delta_counted``, O(1) from the encoding's count
tables, the same function and count native.sa uses per proposal) and one per start state (a
full ``energy``). A neighbourhood is cut to what the budget has left, the best of the candidates
evaluated is applied, and the run stops: it never spends more than ``budget.max_evaluations``.
The clock is read when ``CLOCK_EVERY`` evaluations have passed since the last read (between
iterations), and by the driver between runs.

Reproducibility: the start states come from ``numpy.random.default_rng(seed)`` through the shared
encoding (restart ``i`` uses the ``i``-th state drawn, so run 0 starts where native.sa's first
phase starts for the same seed); rows, samples, tie-breaks and jitter come from SplitMix64 seeded
with one 64-bit draw of that Generator, its state carried across runs. Same seed and same
evaluation budget give the same grid and counters, unless the deadline cuts the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import now
from sudoku_compare.native._restarts import Progress, Restarts, keep_best, resume
from sudoku_compare.native._warmup import CompiledPerBox
from sudoku_compare.native.annealing import _splitmix64, move_table
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver

#: evaluations between two reads of the clock (a read costs about 1 us)
CLOCK_EVERY = 4096
#: above any delta a swap can have
NO_DELTA = 1 << 30


@dataclass(frozen=True)
class TabuParams:
    """native.tabu's settings. ``max_restarts`` counts the extra runs after the first (-1: until
    a budget ends), as in every stochastic native (the shared driver reads it)."""

    #: rows whose every pair of free cells is a candidate each iteration (0: every row)
    rows: int = 0
    #: > 0: that many sampled swaps per iteration instead of whole rows
    sampled: int = 0
    #: iterations the two swapped cells stay tabu, plus the jitter
    tenure: int = 5
    #: a move's tenure is tenure + a uniform draw in 0..tenure_jitter
    tenure_jitter: int = 4
    #: iterations without a new best energy of the run before a restart
    stagnation: int = 1000
    #: extra runs from fresh start states (-1: until a budget is spent; 0: one run)
    max_restarts: int = -1
    #: only swaps with at least one conflicted cell are candidates (read from the count tables)
    conflicted: bool = True
    #: what a move makes tabu: its two cells, or (values) each cell taking back the digit it gave
    tabu_on: Literal["cells", "values"] = "values"

    def __post_init__(self) -> None:
        if self.tabu_on not in ("cells", "values"):
            raise ValueError("tabu_on must be cells or values")
        if self.rows < 0 or self.sampled < 0:
            raise ValueError("rows >= 0 (0: every row) and sampled >= 0 (0: whole rows)")
        if self.tenure < 0 or self.tenure_jitter < 0:
            raise ValueError("tenure >= 0 and tenure_jitter >= 0")
        if self.stagnation < 1 or self.max_restarts < -1:
            raise ValueError("stagnation >= 1 and max_restarts >= -1")


class TabuCounters(NamedTuple):
    """Counters summed over the runs of one solve (a NamedTuple so numba carries it)."""

    iterations: int
    deltas: int
    aspirations: int
    forced: int
    uphill: int


@numba.njit(cache=True, inline="always")
def _below(x, n):
    """A uniform integer in ``[0, n)`` from the top 32 bits of a 64-bit draw (multiply-shift)."""
    return np.int64(((x >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@numba.njit(cache=True, inline="always")
def _conflicted(cols, boxes, state, r, c, box):
    """Whether cell ``(r, c)``'s digit is duplicated in its column or its box."""
    d = state[r, c]
    return cols[c, d] > 1 or boxes[(r // box) * box + c // box, d] > 1


@numba.njit(cache=True, inline="always")
def _tabu_at(start, box, r1s, c1s, r2s, c2s, n_pairs, rows, sampled, tenure, jitter,
             stagnation, conflicted, by_value, max_evals, deadline_at, target, rng_state, t_start, trace,
             best, progress, counts):
    """One run from ``start``: returns the next (Progress, TabuCounters).

    ``rng_state`` (modified) carries the generator from run to run; ``best`` (modified) holds
    the best grid of every run so far."""
    best_e, evals, n_trace = resume(progress)
    iterations = counts.iterations
    deltas = counts.deltas
    aspirations = counts.aspirations
    forced = counts.forced
    uphill = counts.uphill
    s_rng = rng_state[0]
    n_units = n_pairs.size
    n = box * box
    timed_out = False
    state = start.copy()
    e = rp.energy(state, box)
    evals += 1
    best_e, n_trace = keep_best(best, state, e, best_e, trace, n_trace, evals, t_start)
    cols, boxes = rp.unit_counts(state, box)
    tabu_until = np.zeros((n, n), dtype=np.int64)
    tabu_value = np.zeros((n, n, n + 1), dtype=np.int64)
    order = np.arange(n_units)
    whole = rows == 0 or rows >= n_units
    size = 0
    if sampled > 0:
        size = sampled
    else:
        for u in range(n_units):
            size += n_pairs[u]
    cand_u = np.empty(max(size, 1), dtype=np.int64)
    cand_p = np.empty(max(size, 1), dtype=np.int64)
    run_best = e
    it = 0
    since = 0
    clock_left = CLOCK_EVERY
    while e > target and n_units > 0 and since < stagnation and evals < max_evals:
        if clock_left <= 0:
            clock_left = CLOCK_EVERY
            if now() >= deadline_at:
                timed_out = True
                break
        # the candidates of this iteration, cut to the evaluations the budget has left
        left = max_evals - evals
        k = 0
        if sampled > 0:
            while k < sampled and k < left:
                s_rng, x = _splitmix64(s_rng)
                u = _below(x, n_units)
                cand_u[k] = u
                cand_p[k] = np.int64(((x & np.uint64(0xFFFFFFFF)) * np.uint64(n_pairs[u]))
                                     >> np.uint64(32))
                k += 1
        else:
            take = n_units if whole else rows
            for j in range(take):
                if not whole:  # partial Fisher-Yates: rows without replacement
                    s_rng, x = _splitmix64(s_rng)
                    m = j + _below(x, n_units - j)
                    t = order[j]
                    order[j] = order[m]
                    order[m] = t
                u = order[j]
                for p in range(n_pairs[u]):
                    if k >= left:
                        break
                    cand_u[k] = u
                    cand_p[k] = p
                    k += 1
        # the best admissible candidate (ties uniform), and the best of all as a fallback
        best_d = NO_DELTA
        pick = -1
        ties = 0
        any_d = NO_DELTA
        any_pick = -1
        aspired = False
        n_eval = 0
        for i in range(k):
            u = cand_u[i]
            p = cand_p[i]
            ra = r1s[u, p]
            ca = c1s[u, p]
            cb = c2s[u, p]
            if conflicted and not (_conflicted(cols, boxes, state, ra, ca, box)
                                   or _conflicted(cols, boxes, state, ra, cb, box)):
                continue
            n_eval += 1
            d = rp.swap_delta_counted(cols, boxes, state, ra, ca, cb, box)
            if d < any_d:
                any_d = d
                any_pick = i
            if by_value:
                is_tabu = (tabu_value[ra, ca, state[ra, cb]] > it
                           or tabu_value[ra, cb, state[ra, ca]] > it)
            else:
                is_tabu = tabu_until[ra, ca] > it or tabu_until[ra, cb] > it
            if is_tabu and e + d >= run_best:
                continue
            if d < best_d:
                best_d = d
                pick = i
                ties = 1
                aspired = is_tabu
            elif d == best_d:
                ties += 1
                s_rng, x = _splitmix64(s_rng)
                if _below(x, ties) == 0:
                    pick = i
                    aspired = is_tabu
        evals += n_eval
        deltas += n_eval
        clock_left -= k
        if n_eval == 0:
            break
        if pick < 0:
            pick = any_pick
            best_d = any_d
            forced += 1
        elif aspired:
            aspirations += 1
        u = cand_u[pick]
        p = cand_p[pick]
        ra = r1s[u, p]
        ca = c1s[u, p]
        cb = c2s[u, p]
        t = tenure
        if jitter > 0:
            s_rng, x = _splitmix64(s_rng)
            t += _below(x, jitter + 1)
        tabu_until[ra, ca] = it + 1 + t
        tabu_until[ra, cb] = it + 1 + t
        tabu_value[ra, ca, state[ra, ca]] = it + 1 + t
        tabu_value[ra, cb, state[ra, cb]] = it + 1 + t
        rp.apply_swap_counted(cols, boxes, state, ra, ca, cb, box)
        e += best_d
        if best_d > 0:
            uphill += 1
        it += 1
        iterations += 1
        if e < run_best:
            run_best = e
            since = 0
        else:
            since += 1
        best_e, n_trace = keep_best(best, state, e, best_e, trace, n_trace, evals, t_start)
    rng_state[0] = s_rng
    share = 1.0 if since >= stagnation or n_units == 0 else since / stagnation
    return (Progress(best_e, evals, n_trace, timed_out, share),
            TabuCounters(iterations, deltas, aspirations, forced, uphill))


@cache
def _kernel_for(box: int):
    """The search compiled for one box size, as a constant (``// box`` becomes a multiply)."""

    @numba.njit(cache=True)
    def kernel(start, r1s, c1s, r2s, c2s, n_pairs, rows, sampled, tenure, jitter, stagnation,
               conflicted, by_value, max_evals, deadline_at, target, rng_state, t_start, trace,
               best, progress, counts):
        return _tabu_at(start, box, r1s, c1s, r2s, c2s, n_pairs, rows, sampled, tenure, jitter,
                        stagnation, conflicted, by_value, max_evals, deadline_at, target,
                        rng_state, t_start, trace, best, progress, counts)

    return kernel




@register
class TabuSearch(CompiledPerBox, Solver):
    name = "native.tabu"
    family = "tabu"
    encoding = "row-permutation"
    Params = TabuParams
    deterministic = True
    stochastic = True
    #: no library runs tabu search on this encoding: nothing to pair it with
    counterpart = None
    description = ("tabu search on native.sa's row swaps: best non-tabu swap of the whole "
                   "neighbourhood, a swapped cell may not take its digit back for 5-9 iterations, aspiration, restart "
                   "after 1000 iterations without progress (numba)")

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        rng = np.random.default_rng(seed)
        r1s, c1s, r2s, c2s, n_pairs = move_table(puzzle, False)
        # with nothing to move, a second run would repeat the first
        driver = Restarts(budget, p.max_restarts if n_pairs.size > 0 else 0)
        best = puzzle.grid()
        counts = TabuCounters(0, 0, 0, 0, 0)
        kernel = _kernel_for(puzzle.box)
        # the order of draws native.sa uses: run 0 starts from native.sa's first start state
        for state, rng_state in driver.seeded_starts(lambda: rp.initial_state(puzzle, rng),
                                                     rng):
            driver.progress, counts = kernel(
                state, r1s, c1s, r2s, c2s, n_pairs, p.rows, p.sampled, p.tenure,
                p.tenure_jitter, p.stagnation, p.conflicted,
                p.tabu_on == "values", driver.max_evaluations,
                driver.deadline_at, driver.target, rng_state, driver.t_begin, driver.trace, best,
                driver.progress, counts)
        return driver.outcome(
            best, iterations=counts.iterations,
            counters={"iterations": counts.iterations, "deltas": counts.deltas,
                      "aspirations": counts.aspirations, "forced": counts.forced,
                      "uphill": counts.uphill})
