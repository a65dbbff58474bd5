"""The canonical velocity PSO on random keys: ``mealpy.pso``'s algorithm, written natively.

Why it exists: the other native swarms run other encodings (integer cells, row or box
permutations) with 500 particles, so ``mealpy.pso`` had no native counterpart. This one is
the same algorithm on the same encoding and objective with the same parameters, so the
swarm family has a true pair.

Encoding and objective: one key in [0, 1] per empty cell, decoded per row by rank
(``problems/encodings/random_keys.py``); the energy is the shared compiled
``random_keys.keys_energy`` (column and box duplicates of the decoded grid), the very
kernel behind ``RandomKeys.energy`` that the mealpy adapter's objective calls.

The update rule is mealpy 3.0's ``OriginalPSO``, read from its source and re-implemented:

- start: positions uniform in [0, 1]; velocities uniform in [-v_max, v_max] with
  v_max = 0.5 (half the key range); every start position evaluated once;
- an epoch visits the particles in order; for particle ``i``, with r1, r2 uniform per key,
  ``v <- w v + c1 r1 (pbest - x) + c2 r2 (gbest - x)`` and ``y = x + v``; a key of ``y``
  outside [0, 1] is replaced by a uniform draw (mealpy's ``amend_solution``; velocities are
  never clamped); ``y`` is evaluated; the particle *moves only if* ``y`` is strictly better
  than its current position, and its personal best follows the same strict test (so in
  effect ``pbest == x`` and the cognitive term is zero -- mealpy's behaviour, kept);
- ``gbest`` is fixed during an epoch and replaced after it by the best current position when
  that is strictly better (the first of ``numpy.argsort`` among equals, as mealpy sorts).

Parameters are the adapter's (the seed's setting): 300 epochs of 60 particles, w = 0.4,
c1 = c2 = 2.05, so a full schedule is 60 x 301 = 18,060 evaluations; no restarts (mealpy
has none). Evaluations: one per position costed; the run never spends more than
``budget.max_evaluations`` (it stops mid-epoch, exactly at the budget) and stops at the
first position at the target energy; the clock is read once per epoch (60 evaluations,
well under a millisecond). ``schedule_fraction`` is the share of the epochs' evaluations
spent, ``(evaluations - pop_size) / (pop_size * epoch)``, the same formula the adapter uses.

Randomness, on purpose in mealpy's order: mealpy seeds two ``numpy.random.default_rng(seed)``
generators, one for the start positions (``RandomKeys.random_swarm``) and one for everything
else (start velocities, then per particle r1, r2 and the replacement keys, ``3 x keys``
draws whether used or not). Drawing the same way from the same seeds (``seed % 2**32``, as
the adapter passes it), the native run follows ``mealpy.pso`` bit for bit (a test holds the
two equal); mealpy's choice has a side effect kept here too: both generators start from the
same state, so each particle's start velocity is its start position minus 0.5.

Speed: one epoch is one numba kernel (decode, cost, update); the epochs loop in Python
(300 calls) so that the draws come from numpy's Generator exactly as mealpy's do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import now
from sudoku_compare.native._restarts import check_population
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.array_copy import copy1d
from sudoku_compare.problems.encodings.random_keys import RandomKeys, keys_energy
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason
from sudoku_compare.warming import warm_by_solving

TRACE_CAP = 4096
#: half the key range: mealpy's start velocity bound, 0.5 x (ub - lb)
V_MAX = 0.5
#: kernel results: why an epoch ended early (0: it visited every particle)
RUNNING, AT_TARGET, OUT_OF_EVALUATIONS = 0, 1, 2


@dataclass(frozen=True)
class RandomKeysPsoParams:
    #: epochs (mealpy's generations; the seed's setting, as mealpy.pso)
    epoch: int = 300
    #: particles (the seed's setting, as mealpy.pso)
    pop_size: int = 60
    #: cognitive and social coefficients, inertia (mealpy OriginalPSO's defaults)
    c1: float = 2.05
    c2: float = 2.05
    w: float = 0.4

    def __post_init__(self) -> None:
        if self.epoch < 1 or self.pop_size < 1:
            raise ValueError("epoch >= 1 and pop_size >= 1")
        check_population(pop_size=self.pop_size)
        if not (0 < self.w < 1 and 0 < self.c1 < 5 and 0 < self.c2 < 5):
            raise ValueError("need 0 < w < 1 and 0 < c1, c2 < 5 (mealpy's ranges)")


def schedule_evaluations(p: RandomKeysPsoParams) -> int:
    """Evaluations of a full schedule: the start swarm plus one per particle and epoch."""
    return p.pop_size * (p.epoch + 1)


def schedule_fraction(evaluations: int, pop_size: int, epoch: int) -> float:
    """Share of the epochs' evaluations spent (the start swarm is not part of the schedule)."""
    return min(1.0, max(0, evaluations - pop_size) / (pop_size * epoch))


@numba.njit(cache=True)
def _record(best_keys, best_e, keys, e, evals, trace, n_trace, t_start):
    """Keep ``keys`` as the best seen when ``e`` beats ``best_e``; returns (best_e, n_trace)."""
    if e < best_e:
        best_e = e
        copy1d(best_keys, keys)
        if n_trace < trace.shape[0]:
            trace[n_trace, 0] = evals
            trace[n_trace, 1] = now() - t_start
            trace[n_trace, 2] = e
            n_trace += 1
    return best_e, n_trace


@numba.njit(cache=True)
def _start(x, cost, base, empty, row_start, missing, box, max_evals, target,
           best_keys, best_e, trace, t_start):
    """Cost the start swarm in order. Returns (evaluations, best_e, n_trace, status)."""
    evals = 0
    n_trace = 0
    for i in range(x.shape[0]):
        if evals >= max_evals:
            return evals, best_e, n_trace, OUT_OF_EVALUATIONS
        e = keys_energy(x[i], base, empty, row_start, missing, box)
        evals += 1
        cost[i] = e
        best_e, n_trace = _record(best_keys, best_e, x[i], e, evals, trace, n_trace, t_start)
        if e <= target:
            return evals, best_e, n_trace, AT_TARGET
    return evals, best_e, n_trace, RUNNING


@numba.njit(cache=True)
def _epoch(x, v, cost, pbest, pcost, gbest, draws, c1, c2, w, base, empty, row_start,
           missing, box, evals, max_evals, target, best_keys, best_e, trace, n_trace, t_start):
    """One epoch of OriginalPSO's update, particle by particle (``gbest`` fixed).

    ``draws[i, 0]``, ``draws[i, 1]`` are particle i's r1, r2 and ``draws[i, 2]`` the keys
    that replace out-of-range ones. Returns (evaluations, best_e, n_trace, status)."""
    n = x.shape[1]
    y = np.empty(n)
    for i in range(x.shape[0]):
        if evals >= max_evals:
            return evals, best_e, n_trace, OUT_OF_EVALUATIONS
        for j in range(n):
            v[i, j] = (w * v[i, j] + c1 * draws[i, 0, j] * (pbest[i, j] - x[i, j])
                       + c2 * draws[i, 1, j] * (gbest[j] - x[i, j]))
            k = x[i, j] + v[i, j]
            y[j] = k if 0.0 <= k <= 1.0 else draws[i, 2, j]
        e = keys_energy(y, base, empty, row_start, missing, box)
        evals += 1
        if e < cost[i]:  # the particle moves only to a strictly better position
            copy1d(x[i], y)
            cost[i] = e
        if e < pcost[i]:
            copy1d(pbest[i], y)
            pcost[i] = e
        best_e, n_trace = _record(best_keys, best_e, y, e, evals, trace, n_trace, t_start)
        if e <= target:
            return evals, best_e, n_trace, AT_TARGET
    return evals, best_e, n_trace, RUNNING


@register
class RandomKeysPso(Solver):
    name = "native.pso-random-keys"
    family = "swarm"
    encoding = "random-keys"
    Params = RandomKeysPsoParams
    deterministic = True
    stochastic = True
    description = ("mealpy OriginalPSO's velocity update re-implemented on the shared random "
                   "keys and objective: 60 particles x 300 epochs, w = 0.4, c1 = c2 = 2.05, "
                   "moves only to better positions; mealpy.pso's counterpart (numba)")

    def warmup(self) -> None:
        warm_by_solving(RandomKeysPso(pop_size=5, epoch=3), max_evaluations=10_000)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        t_start = now()
        deadline_at = t_start + budget.max_seconds
        keys = RandomKeys.for_puzzle(puzzle)
        n = keys.dimensions
        base = puzzle.flat()
        if n == 0:  # nothing to place: the givens are the only grid
            e = float(keys_energy(np.empty(0), base, keys.empty, keys.row_start, keys.missing,
                                  puzzle.box))
            return Outcome(grid=puzzle.grid(), claims_solved=e == 0, evaluations=1,
                           best_energy=e, schedule_fraction=1.0,
                           stop_reason=StopReason.TARGET if e <= budget.target
                           else StopReason.FINISHED)
        s = int(seed) % (2**32)
        x = keys.random_swarm(np.random.default_rng(s), p.pop_size)  # mealpy's problem generator
        rng = np.random.default_rng(s)  # mealpy's optimizer generator
        v = rng.uniform(-V_MAX, V_MAX, size=(p.pop_size, n))
        cost = np.empty(p.pop_size)
        best_keys = x[0].copy()
        trace = np.zeros((TRACE_CAP, 3))
        max_evals = budget.evaluations_or_max
        target = float(budget.target)
        fixed = (base, keys.empty, keys.row_start, keys.missing, puzzle.box)
        evals, best_e, n_trace, status = _start(x, cost, *fixed, max_evals, target, best_keys,
                                                np.inf, trace, t_start)
        pbest, pcost = x.copy(), cost.copy()
        g = int(np.argsort(cost)[0])
        gbest, gcost = x[g].copy(), cost[g]
        epochs = 0
        clock = False
        while status == RUNNING and epochs < p.epoch:
            if now() >= deadline_at:
                clock = True
                break
            draws = rng.random((p.pop_size, 3, n))
            evals, best_e, n_trace, status = _epoch(
                x, v, cost, pbest, pcost, gbest, draws, p.c1, p.c2, p.w, *fixed, evals,
                max_evals, target, best_keys, best_e, trace, n_trace, t_start)
            if status == RUNNING:
                epochs += 1
                g = int(np.argsort(cost)[0])
                if cost[g] < gcost:
                    gbest, gcost = x[g].copy(), cost[g]
        if status == AT_TARGET:
            reason = StopReason.TARGET
        elif status == OUT_OF_EVALUATIONS:
            reason = StopReason.EVALUATIONS
        elif clock:
            reason = StopReason.CLOCK
        else:
            reason = StopReason.FINISHED
        return Outcome(
            grid=keys.decode(best_keys).reshape(puzzle.side, puzzle.side),
            claims_solved=bool(best_e == 0), evaluations=int(evals), iterations=epochs,
            best_energy=float(best_e),
            counters={"epochs": epochs},
            trace=[(int(a), float(b), float(c)) for a, b, c in trace[:n_trace]],
            stop_reason=reason,
            schedule_fraction=schedule_fraction(int(evals), p.pop_size, p.epoch))
