"""The seed's swap-based discrete PSO (``SwapPSOSudokuSolver``) on the row-permutation encoding.

A velocity is a list of row swaps ``(row, a, b)``: "exchange digits a and b among the free cells
of the row", which keeps every row a permutation of its missing digits. The PSO recurrence
``v <- w.v (+) c1 r1 (pbest - x) (+) c2 r2 (gbest - x); x <- x (+) v`` is rewritten with the
seed's algebra (Hernandez & Gonzalez, *Metaheuristics in C#*, ``DiscretePSO.cs``):

- **Move** (x + v): apply each swap of the list in order;
- **Minus** (p - x): one swap ``(row, x[r,c], p[r,c])`` per free cell where x and p differ, in
  row-major order (the seed's heuristic decomposition);
- **Times** (k.v): the first ``int(k |v|)`` swaps when k <= 1; ``floor(k)`` copies plus a prefix
  when k > 1;
- (+) is concatenation. The inertia falls linearly from 0.9 to ``inertia_floor`` over
  ``max_iterations``. A velocity longer than ``velocity_cap`` swaps is cut (only reachable with
  c1 or c2 above 1).

``memetic_every`` > 0 is the seed's ``LocalSearchEveryN``: every N iterations a first-improvement
hill climbing by row swaps (restarting its scan after each improvement, as the seed does) runs on
the global best. That climb stops at the first local optimum, and on easy51:1..4 the memetic swarm
stayed stuck at 4-7 conflicts; two stronger local searches are options: ``kicks`` (iterated local
search: best-improvement descent plus random kicks) and ``plateau_steps`` (a random walk over
row swaps that also takes sideways moves, with a forced swap after ``kick_after`` proposals
without progress). ``native.pso-swap-memetic`` uses the iterated local search (200 kicks of 3
swaps; it beat the plateau walk head to head, see the note at its registration); the seed's climb
is ``--param kicks=0``. The seed runs one swarm with no restart; here an unsolved swarm is
followed by a fresh one up to ``max_restarts`` times (0 = the seed; -1 = until the budget is
spent), by the shared driver (:mod:`sudoku_compare.native._restarts`: stop reason, schedule
fraction = iterations over ``max_iterations`` per swarm).

Evaluations: one per particle position costed (a full ``row_permutation.energy``: with valid rows
it equals the seed's ``CountConflicts``) and one per local-search trial or kick swap (a
``swap_delta``, or its O(1) counted form in the iterated search and the plateau walk).
Initial swarms come from ``numpy.random.default_rng(seed)`` through the shared encoding; r1, r2
come from numba's generator seeded inside the kernel. The clock is read once an iteration
and every 1,024 proposals of the plateau walk (:mod:`sudoku_compare.native._plateau`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import now
from sudoku_compare.native._plateau import plateau_walk
from sudoku_compare.native._restarts import Progress, Restarts, check_population, keep_best, resume
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.encodings.array_copy import copy1d, copy2d
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.warming import warm_by_solving


@dataclass(frozen=True)
class SwapPsoParams:
    """native.pso-swap's settings, defaults from the seed. ``max_restarts`` counts the extra runs after the
    first (-1: until a budget ends), the same in every stochastic native, because the shared
    driver (:mod:`sudoku_compare.native._restarts`) reads it."""

    #: particles (seed: 40)
    swarm_size: int = 40
    #: iterations per swarm (seed: 300)
    max_iterations: int = 300
    #: cognitive weight (seed: 1.0)
    c1: float = 1.0
    #: social weight (seed: 1.0)
    c2: float = 1.0
    #: starting inertia (seed: 0.9)
    inertia_start: float = 0.9
    #: final inertia (seed: 0.3)
    inertia_floor: float = 0.3
    #: hill climbing on gbest every N iterations (seed: 0 = pure PSO; memetic demo: 25)
    memetic_every: int = 0
    #: extra swarms, each from a fresh start, after the first ends unsolved (seed: 0, one
    #: swarm; -1: until a budget is spent)
    max_restarts: int = 0
    #: longest velocity kept, in multiples of the number of free cells
    velocity_cap: int = 32
    #: memetic local search: 0 = the seed's first-improvement climb; K > 0 = iterated local
    #: search (best-improvement descent, then K kicks of ``kick_size`` random row swaps each
    #: followed by a descent, an equal-or-better optimum accepted)
    kicks: int = 0
    #: random row swaps per kick
    kick_size: int = 3
    #: > 0: the memetic local search is instead a plateau walk of this many random in-row swap
    #: proposals (equal-or-better ones taken, one swap forced after ``kick_after`` proposals
    #: without a new best); it takes precedence over ``kicks``
    plateau_steps: int = 0
    #: proposals without a new best before a forced swap (plateau walk only)
    kick_after: int = 2000

    def __post_init__(self) -> None:
        if self.swarm_size < 1 or self.max_iterations < 1 or self.max_restarts < -1:
            raise ValueError("swarm_size >= 1, max_iterations >= 1, max_restarts >= -1")
        check_population(swarm_size=self.swarm_size)
        if self.c1 < 0 or self.c2 < 0 or self.memetic_every < 0 or self.velocity_cap < 1:
            raise ValueError("c1, c2, memetic_every >= 0 and velocity_cap >= 1")
        if self.kicks < 0 or self.kick_size < 1:
            raise ValueError("kicks >= 0 and kick_size >= 1")
        if self.plateau_steps < 0 or self.kick_after < 1:
            raise ValueError("plateau_steps >= 0 and kick_after >= 1")


@numba.njit(cache=True)
def times_into(dst, dlen, src, slen, k):
    """Append k.src (truncation or replication) to dst[:dlen]; returns the new length."""
    cap = dst.shape[0]
    if k <= 0 or slen == 0:
        return dlen
    whole = int(np.floor(k)) if k > 1 else 0
    part = int((k - whole) * slen) if k > 1 else int(k * slen)
    for _ in range(whole):
        for i in range(slen):
            if dlen >= cap:
                return dlen
            copy1d(dst[dlen], src[i])
            dlen += 1
    for i in range(part):
        if dlen >= cap:
            return dlen
        copy1d(dst[dlen], src[i])
        dlen += 1
    return dlen


@numba.njit(cache=True)
def minus_into(dst, target, current, free_cols, n_free):
    """dst[:len] = the swaps (row, current, target) at each differing free cell; returns len."""
    m = 0
    for r in range(n_free.size):
        for i in range(n_free[r]):
            c = free_cols[r, i]
            if current[r, c] != target[r, c] and m < dst.shape[0]:
                dst[m, 0] = r
                dst[m, 1] = current[r, c]
                dst[m, 2] = target[r, c]
                m += 1
    return m


@numba.njit(cache=True)
def move(position, velocity, vlen, free_cols, n_free):
    """Apply each swap (row, a, b): a and b exchange places among the row's free cells."""
    for s in range(vlen):
        r = velocity[s, 0]
        a = velocity[s, 1]
        b = velocity[s, 2]
        for i in range(n_free[r]):
            c = free_cols[r, i]
            if position[r, c] == a:
                position[r, c] = b
            elif position[r, c] == b:
                position[r, c] = a


@numba.njit(cache=True)
def climb(grid, cols, boxes, e, free_cols, n_free, box, first_improvement, max_evals, evals):
    """Descent over every in-row swap, with the O(1) counted delta, until no swap lowers the
    energy (a local optimum) or the budget ends; ``grid``, ``cols`` and ``boxes`` are modified.
    Returns (energy, evals).

    ``first_improvement``: the seed's ``LocalImprove``, which takes the first lowering swap and
    scans again from the top; otherwise the best swap of a whole scan (best improvement, the
    descent of :func:`iterated_climb`). One scan loop serves both, so both count a proposal as
    one evaluation in the same order."""
    while e > 0:
        best_d = 0
        br = -1
        bi = 0
        bj = 0
        for r in range(n_free.size):
            m = n_free[r]
            for i in range(m):
                for j in range(i + 1, m):
                    if evals >= max_evals:
                        return e, evals
                    d = rp.swap_delta_counted(cols, boxes, grid, r, free_cols[r, i],
                                              free_cols[r, j], box)
                    evals += 1
                    if d < best_d:
                        best_d = d
                        br = r
                        bi = free_cols[r, i]
                        bj = free_cols[r, j]
                        if first_improvement:
                            break
                if first_improvement and br >= 0:
                    break
            if first_improvement and br >= 0:
                break
        if br < 0:
            break
        rp.apply_swap_counted(cols, boxes, grid, br, bi, bj, box)
        e += best_d
    return e, evals


@numba.njit(cache=True)
def iterated_climb(grid, e, free_cols, n_free, box, kicks, kick_size, max_evals, evals):
    """Iterated local search on ``grid`` (modified to the best state found).

    Descend to a local optimum (:func:`climb`), then ``kicks`` times: apply ``kick_size``
    random in-row swaps to the current optimum, descend again, and keep the new optimum when it
    is no worse (equal energy is accepted so the search drifts along plateaus instead of
    revisiting one optimum). Returns (best energy, evals)."""
    cols, boxes = rp.unit_counts(grid, box)
    e, evals = climb(grid, cols, boxes, e, free_cols, n_free, box, False, max_evals, evals)
    movable = np.flatnonzero(n_free >= 2)
    if movable.size == 0:
        return e, evals
    cur = grid.copy()
    cur_cols = cols.copy()
    cur_boxes = boxes.copy()
    cur_e = e
    trial = grid.copy()
    for _ in range(kicks):
        if e <= 0 or evals >= max_evals:
            break
        copy2d(trial, cur)
        t_cols = cur_cols.copy()
        t_boxes = cur_boxes.copy()
        t_e = cur_e
        for _k in range(kick_size):
            if evals >= max_evals:  # a kick is kick_size evaluations: never past the budget
                break
            r = movable[np.random.randint(movable.size)]
            m = n_free[r]
            i = np.random.randint(m)
            j = (i + 1 + np.random.randint(m - 1)) % m
            t_e += rp.swap_delta_counted(t_cols, t_boxes, trial, r, free_cols[r, i],
                                         free_cols[r, j], box)
            evals += 1
            rp.apply_swap_counted(t_cols, t_boxes, trial, r, free_cols[r, i], free_cols[r, j],
                                  box)
        t_e, evals = climb(trial, t_cols, t_boxes, t_e, free_cols, n_free, box, False,
                           max_evals, evals)
        if t_e <= cur_e:
            copy2d(cur, trial)
            cur_cols = t_cols
            cur_boxes = t_boxes
            cur_e = t_e
            if cur_e < e:
                e = cur_e
                copy2d(grid, cur)
    return e, evals


class SwarmCounters(NamedTuple):
    """Counters summed over the swarms of one solve (a NamedTuple so numba carries it)."""

    iterations: int
    local_searches: int


@numba.njit(cache=True)
def _swarm(position, free_cols, cells, n_free, units, box, max_iterations, c1, c2, w0,
           w_floor, memetic_every, kicks, kick_size, plateau_steps, kick_after, cap, max_evals,
           deadline_at, target, seed, t_start, trace, best, progress, counts):
    """One swarm from ``position`` (modified), continuing ``progress``; ``best`` (modified) is
    the best grid so far. Returns (Progress, SwarmCounters); the swarm's share of its
    schedule is its iterations over ``max_iterations``."""
    np.random.seed(seed)
    best_e, evals, n_trace = resume(progress)
    iterations = counts.iterations
    local_searches = counts.local_searches
    run_iterations = 0
    size = position.shape[0]
    pbest = position.copy()
    pcost = np.empty(size, dtype=np.int64)
    vel = np.zeros((size, cap, 3), dtype=np.int64)
    vlen = np.zeros(size, dtype=np.int64)
    tmp = np.zeros((cap, 3), dtype=np.int64)
    diff = np.zeros((cap, 3), dtype=np.int64)
    gbest = position[0].copy()
    gcost = np.int64(1 << 60)
    for k in range(size):
        if evals >= max_evals:
            break
        pcost[k] = rp.energy(position[k], box)
        evals += 1
        if pcost[k] < gcost:
            gcost = pcost[k]
            copy2d(gbest, position[k])
    timed_out = False
    for it in range(1, max_iterations + 1):
        best_e, n_trace = keep_best(best, gbest, gcost, best_e, trace, n_trace, evals, t_start)
        if gcost <= target or evals >= max_evals:
            break
        if now() >= deadline_at:
            timed_out = True
            break
        w = w0 - (w0 - w_floor) * it / max_iterations
        for k in range(size):
            if evals >= max_evals:
                break
            n = times_into(tmp, np.int64(0), vel[k], vlen[k], w)
            m = minus_into(diff, pbest[k], position[k], free_cols, n_free)
            n = times_into(tmp, n, diff, m, np.random.random() * c1)
            m = minus_into(diff, gbest, position[k], free_cols, n_free)
            n = times_into(tmp, n, diff, m, np.random.random() * c2)
            copy2d(vel[k, :n], tmp[:n])
            vlen[k] = n
            move(position[k], vel[k], n, free_cols, n_free)
            cost = rp.energy(position[k], box)
            evals += 1
            if cost < pcost[k]:
                pcost[k] = cost
                copy2d(pbest[k], position[k])
            if cost < gcost:
                gcost = cost
                copy2d(gbest, position[k])
        if memetic_every > 0 and it % memetic_every == 0 and gcost > target:
            cand = gbest.copy()
            if plateau_steps > 0:
                e2, evals = plateau_walk(cand, gcost, cells, n_free, units, plateau_steps,
                                         kick_after, max_evals, evals, deadline_at)
            elif kicks > 0:
                e2, evals = iterated_climb(cand, gcost, free_cols, n_free, box, kicks,
                                           kick_size, max_evals, evals)
            else:
                c_cols, c_boxes = rp.unit_counts(cand, box)
                e2, evals = climb(cand, c_cols, c_boxes, gcost, free_cols, n_free, box, True,
                                  max_evals, evals)
            local_searches += 1
            if e2 < gcost:
                gcost = e2
                copy2d(gbest, cand)
        iterations += 1
        run_iterations += 1
    best_e, n_trace = keep_best(best, gbest, gcost, best_e, trace, n_trace, evals, t_start)
    return (Progress(best_e, evals, n_trace, timed_out, run_iterations / max_iterations),
            SwarmCounters(iterations, local_searches))


@register
class SwapPso(Solver):
    name = "native.pso-swap"
    family = "swarm"
    encoding = "row-permutation"
    Params = SwapPsoParams
    deterministic = True
    stochastic = True
    description = ("the seed's swap-based discrete PSO: velocity = list of row swaps with "
                   "Move/Minus/Times, 40 particles, 300 iterations, inertia 0.9 -> 0.3 (numba)")

    def warmup(self) -> None:
        # the three memetic local searches are three compiled paths
        warm_by_solving(*(SwapPso(swarm_size=4, memetic_every=1, kicks=kicks, plateau_steps=steps)
                          for kicks, steps in ((0, 0), (2, 0), (0, 50))), max_evaluations=500)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        driver = Restarts(budget, p.max_restarts)
        rng = np.random.default_rng(seed)
        layout = rp.RowLayout.for_puzzle(puzzle)
        best = rp.initial_state(puzzle, np.random.default_rng(seed))
        cap = max(1, p.velocity_cap * puzzle.n_empty)
        counts = SwarmCounters(0, 0)
        for run in driver.runs():
            swarm = rp.initial_population(puzzle, rng, p.swarm_size)
            kernel_seed = (seed * 1_000_003 + run) & 0xFFFFFFFF
            driver.progress, counts = _swarm(
                swarm, layout.free_cols, layout.cells, layout.n_free,
                rp.checked_units(puzzle.box), puzzle.box, p.max_iterations, p.c1, p.c2,
                p.inertia_start, p.inertia_floor, p.memetic_every, p.kicks, p.kick_size,
                p.plateau_steps, p.kick_after, cap, driver.max_evaluations, driver.deadline_at,
                driver.target, kernel_seed, driver.t_begin, driver.trace, best, driver.progress,
                counts)
        return driver.outcome(
            best, iterations=counts.iterations,
            counters={"iterations": counts.iterations, "local_searches": counts.local_searches,
                      "runs": driver.runs_begun})


# The memetic local search is the iterated one (kicks=200). Measured 12:20 UTC, loaded cores:
# easy51 x seeds 0-4 at 30 s, 149/150 solved, median 0.67 s (sudoku-compare run, first 150 runs);
# head to head on easy51:2,3,26,31 x 5 seeds at 20 s: kicks=200 20/20 (median 2.5 s) against the
# plateau walk (plateau_steps=20_000) 17/20 (median 7.5 s), so the plateau walk stays an option.
register(SwapPso, name="native.pso-swap-memetic", memetic_every=25, max_restarts=-1, kicks=200,
         description="native.pso-swap with the seed's memetic option (local search on gbest every "
                     "25 iterations; here an iterated local search: best-improvement descent over "
                     "all in-row swaps with the O(1) counted delta, then 200 kicks of 3 random "
                     "swaps each followed by a descent, instead of the seed's first-improvement "
                     "climb) and fresh swarms until the budget is spent")
