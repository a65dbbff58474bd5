"""The seed's simulated annealing on the row-permutation encoding, compiled with numba.

The loop is the seed's ``SimulatedAnnealingSolver``: a row swap of two free cells, Metropolis
acceptance (accept when ``dE <= 0``, else with probability ``exp(-dE / T)``), ``T`` lowered after
every ``iterations_per_temperature`` proposals, until ``T <= t_min`` or energy 0, then a restart
from a fresh start state, ``max_restarts`` times at most. The seed's ``SimulatedAnnealingWith
ReheatSolver`` is the ``reheat_stagnation`` option (``native.sa-reheat``): a level whose end energy is not below its start
energy is stagnant; after that many stagnant levels ``T`` jumps back to ``t0 * reheat_factor``
(with ``adaptive_reheat`` the factor is ``reheat_factor / (1 + reheats so far)``, the seed's
exercise 2). Schedules: all run ``K = ceil(ln(t_min / t0) / ln(alpha))`` levels per heating
phase (6905 with the defaults): exponential ``T_k = T0 alpha^k``; linear from ``T0`` to ``t_min``
in ``K`` steps; logarithmic ``T_k = T0 / ln(e + k)`` (it never reaches ``t_min``, so it is
stopped at ``K`` levels). A move picks a row uniformly among those with two free cells, then an
ordered pair of distinct free cells uniformly (one draw), as the seed's ``GenerateNeighbor``;
``neighbourhood=box`` does the same within a box, from a box-permutation start, scored by
``conflict_energy`` (see the encoding's docstring for what a box swap keeps). ``max_restarts=-1``
restarts until the budget is spent (the seed stops after 5 restarts).

Evaluations (see :mod:`sudoku_compare.problems.encodings.row_permutation`): one per proposal
(one row-swap delta, read in O(1) from the encoding's column/box count tables with
``swap_delta_counted``, property-tested equal to ``swap_delta``; a box move uses
``cell_swap_delta``) and one per start state (a full ``energy``); the run never spends more than
``budget.max_evaluations``. The deadline is read every 1024 proposals.

Reproducibility: the start states come from ``numpy.random.default_rng(seed)`` through the shared
encoding (restart ``i`` uses the ``i``-th state drawn), so restart 0 starts where a library
adapter given the same seed starts; the moves come from numba's own generator, seeded inside the
kernel with ``np.random.seed(seed)`` (later batches of starts, with ``max_restarts=-1``, with a
seed mixed from the run seed and the batch number; numba's generator is separate from NumPy's global one, so
this touches nothing outside the kernel). Same seed and same budget give the same grid and
counters, unless the deadline cuts the run.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Literal

import numba
import numpy as np

from sudoku_compare.bench.budget import Budget
from sudoku_compare.bench.outcome import Outcome
from sudoku_compare.bench.registry import register
from sudoku_compare.bench.solver import Solver
from sudoku_compare.native._jit_clock import now
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.encodings.counter import EvaluationCounter
from sudoku_compare.problems.puzzle import Puzzle

SCHEDULES = ("exponential", "linear", "logarithmic")
NEIGHBOURHOODS = ("row", "box")
TRACE_CAP = 4096
#: start states drawn at a time when restarts are unlimited
RESTART_BATCH = 8
#: bound on the energy rise of one swap (6 units change by at most +1 each; 12 leaves room)
MAX_DELTA = 12
#: proposals between two reads of the clock
CLOCK_EVERY = 1024


@dataclass(frozen=True)
class AnnealingParams:
    #: initial temperature (seed: 1.0)
    t0: float = 1.0
    #: exponential cooling factor T <- alpha T (seed: 0.999)
    alpha: float = 0.999
    #: proposals per temperature level (seed: 100)
    iterations_per_temperature: int = 100
    #: the temperature at which a heating phase ends (seed: 0.001)
    t_min: float = 0.001
    #: restarts from a fresh start state after a phase ends unsolved (seed: 5; -1: until the
    #: budget is spent)
    max_restarts: int = 5
    schedule: Literal["exponential", "linear", "logarithmic"] = "exponential"
    #: row: swap two free cells of a row; box: swap two free cells of a box (box-permutation start)
    neighbourhood: Literal["row", "box"] = "row"
    #: stagnant levels before a reheat (0: no reheat; native.sa-reheat: 50)
    reheat_stagnation: int = 0
    #: reheat to t0 * reheat_factor (seed: 0.5)
    reheat_factor: float = 0.5
    #: the factor falls as reheat_factor / (1 + reheats so far) (the seed's exercise 2)
    adaptive_reheat: bool = False
    #: fill the cells forced by naked/hidden singles before annealing (native.sa-presolve)
    presolve: bool = False

    def __post_init__(self) -> None:
        if self.schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {SCHEDULES}")
        if self.neighbourhood not in NEIGHBOURHOODS:
            raise ValueError(f"neighbourhood must be one of {NEIGHBOURHOODS}")
        if not (0 < self.alpha < 1 and 0 < self.t_min < self.t0):
            raise ValueError("need 0 < alpha < 1 and 0 < t_min < t0")
        if self.iterations_per_temperature < 1 or self.max_restarts < -1:
            raise ValueError("iterations_per_temperature >= 1 and max_restarts >= -1")


@numba.njit(cache=True)
def _temperature(schedule, base, t0, t_min, k, levels, alpha):
    if schedule == 0:
        return base * alpha ** k
    if schedule == 1:
        return base - (base - t_min * base / t0) * k / levels
    return base / math.log(math.e + k)


@numba.njit(cache=True)
def _anneal(starts, box, use_box, free_cols, n_free, box_cells, n_free_box,
            t0, alpha, iters_per_temp, t_min, schedule, levels,
            reheat_stagnation, reheat_factor, adaptive_reheat,
            max_evals, deadline_at, target, seed, t_start, trace, best, carry):
    """Anneal from each state of ``starts`` in turn (one heating phase each, then a restart).

    ``best`` (modified) and ``carry`` = (best_e, evals, moves, accepted, level_count, restarts,
    reheats, n_trace) continue an earlier batch of starts; returns the updated carry and
    whether the deadline cut the run."""
    np.random.seed(seed)
    n = box * box
    if use_box:
        units = np.flatnonzero(n_free_box >= 2)
    else:
        units = np.flatnonzero(n_free >= 2)
    best_e, evals, moves, accepted, level_count, restarts, reheats, n_trace = carry
    first = restarts + 1 if evals > 0 else 0
    timed_out = False
    for s in range(starts.shape[0]):
        if evals >= max_evals or timed_out or best_e <= target:
            break
        restarts = first + s
        state = starts[s].copy()
        e = rp.conflict_energy(state, box) if use_box else rp.energy(state, box)
        evals += 1
        cols, boxes = rp.unit_counts(state, box)  # row moves read their delta from these
        if e < best_e:
            best_e = e
            best[:, :] = state
            if n_trace < trace.shape[0]:
                trace[n_trace, 0] = evals
                trace[n_trace, 1] = now() - t_start
                trace[n_trace, 2] = best_e
                n_trace += 1
        if best_e <= target or units.size == 0:
            break
        base = t0
        k = 0
        stagnant = 0
        t = t0
        accept = np.empty(MAX_DELTA + 1, dtype=np.float64)
        while t > t_min and k < levels and e > target:
            e_level = e
            # Metropolis probabilities exp(-d / T) for the integer deltas a move can have,
            # once a level instead of one exp() per uphill proposal (same values)
            for dd in range(MAX_DELTA + 1):
                accept[dd] = math.exp(-dd / t)
            for _ in range(iters_per_temp):
                if evals >= max_evals:
                    break
                u = units[np.random.randint(units.size)]
                if use_box:
                    m = n_free_box[u]
                    q = np.random.randint(m * (m - 1))  # one draw: an ordered distinct pair
                    i = q // (m - 1)
                    j = q % (m - 1)
                    if j >= i:
                        j += 1
                    x = box_cells[u, i]
                    y = box_cells[u, j]
                    r1, c1, r2, c2 = x // n, x % n, y // n, y % n
                    d = rp.cell_swap_delta(state, r1, c1, r2, c2, box)
                else:
                    m = n_free[u]
                    q = np.random.randint(m * (m - 1))  # one draw: an ordered distinct pair
                    i = q // (m - 1)
                    j = q % (m - 1)
                    if j >= i:
                        j += 1
                    r1, c1, r2, c2 = u, free_cols[u, i], u, free_cols[u, j]
                    d = rp.swap_delta_counted(cols, boxes, state, u, c1, c2, box)
                evals += 1
                moves += 1
                if d <= 0 or np.random.random() < accept[d]:
                    if use_box:
                        rp.apply_cell_swap(state, r1, c1, r2, c2)
                    else:
                        rp.apply_swap_counted(cols, boxes, state, r1, c1, c2, box)
                    e += d
                    accepted += 1
                    if e < best_e:
                        best_e = e
                        best[:, :] = state
                        if n_trace < trace.shape[0]:
                            trace[n_trace, 0] = evals
                            trace[n_trace, 1] = now() - t_start
                            trace[n_trace, 2] = best_e
                            n_trace += 1
                        if e <= target:
                            break
                if moves % CLOCK_EVERY == 0 and now() >= deadline_at:
                    timed_out = True
                    break
            if timed_out or evals >= max_evals or e <= target:
                break
            level_count += 1
            stagnant = stagnant + 1 if e >= e_level else 0
            if reheat_stagnation > 0 and stagnant >= reheat_stagnation:
                factor = reheat_factor / (1 + reheats) if adaptive_reheat else reheat_factor
                base = t0 * factor
                k = 0
                stagnant = 0
                reheats += 1
            else:
                k += 1
            t = _temperature(schedule, base, t0, t_min, k, levels, alpha)
        if best_e <= target:
            break
    return (best_e, evals, moves, accepted, level_count, restarts, reheats, n_trace), timed_out


def levels_per_phase(params: AnnealingParams) -> int:
    """K = ceil(ln(t_min / t0) / ln(alpha)): the levels the exponential schedule takes."""
    return int(math.ceil(math.log(params.t_min / params.t0) / math.log(params.alpha)))


@register
class SimulatedAnnealing(Solver):
    name = "native.sa"
    family = "annealing"
    encoding = "row-permutation"
    Params = AnnealingParams
    deterministic = True
    stochastic = True
    description = ("the seed's simulated annealing: row swaps, Metropolis, T <- 0.999 T from 1.0 to "
                   "0.001, 100 moves a level, 5 restarts (numba)")

    def warmup(self) -> None:
        puzzle = Puzzle(2, (1, 0, 0, 0) + (0,) * 12)
        for neighbourhood in NEIGHBOURHOODS:
            solver = SimulatedAnnealing(neighbourhood=neighbourhood, presolve=True)
            solver.solve(puzzle, Budget(max_seconds=5, max_evaluations=500), 0)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        t_begin = now()
        presolved = 0
        work = puzzle
        if p.presolve:
            work, presolved = rp.presolve_singles(puzzle)
        use_box = p.neighbourhood == "box"
        rng = np.random.default_rng(seed)
        start = rp.initial_box_state if use_box else rp.initial_state
        layout = rp.RowLayout.for_puzzle(work)
        box_cells, n_free_box = rp.box_layout(layout.free, work.box)
        counter = EvaluationCounter(budget.max_evaluations)
        trace = np.zeros((TRACE_CAP, 3), dtype=np.float64)
        deadline_at = t_begin + budget.max_seconds
        best = work.grid()
        carry = (1 << 60, 0, 0, 0, 0, 0, 0, 0)
        movable = (n_free_box if use_box else layout.n_free) >= 2
        unlimited = p.max_restarts < 0 and bool(movable.any())  # nothing to move: one start
        batch = RESTART_BATCH if unlimited else p.max_restarts + 1
        for b in itertools.count():
            starts = np.stack([start(work, rng) for _ in range(batch)])
            kernel_seed = (seed if b == 0 else seed * 1_000_003 + b) & 0xFFFFFFFF
            carry, timed_out = _anneal(
                starts, work.box, use_box, layout.free_cols, layout.n_free, box_cells,
                n_free_box, p.t0, p.alpha, p.iterations_per_temperature, p.t_min,
                SCHEDULES.index(p.schedule), levels_per_phase(p), p.reheat_stagnation,
                p.reheat_factor, p.adaptive_reheat, counter.remaining, deadline_at,
                float(budget.target), kernel_seed, t_begin, trace, best, carry)
            best_e, evals = carry[0], carry[1]
            if (not unlimited or timed_out or best_e <= budget.target
                    or evals >= counter.remaining or now() >= deadline_at):
                break
        best_e, evals, moves, accepted, level_count, restarts, reheats, n_trace = carry
        counter.add(int(evals))
        rows = [(int(ev), float(s), float(b)) for ev, s, b in trace[:n_trace]]
        return Outcome(
            grid=best, claims_solved=bool(best_e == 0), evaluations=counter.count,
            iterations=int(moves), restarts=int(restarts), best_energy=float(best_e),
            counters={"moves": int(moves), "accepted": int(accepted), "levels": int(level_count),
                      "reheats": int(reheats), "presolved_cells": int(presolved)},
            trace=rows, extra={"timed_out": int(bool(timed_out))})


register(SimulatedAnnealing, name="native.sa-reheat", reheat_stagnation=50, reheat_factor=0.5,
         description="native.sa with the seed's reheat: after 50 stagnant levels T <- 0.5 T0")
register(SimulatedAnnealing, name="native.sa-presolve", presolve=True,
         description="native.sa on the puzzle left after naked/hidden singles (a different, "
                     "smaller problem)")
