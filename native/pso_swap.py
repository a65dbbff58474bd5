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
the global best. The seed runs one swarm with no restart; here an unsolved swarm is followed by a
fresh one up to ``max_restarts`` times (0 = the seed; -1 = until the budget is spent).

Evaluations: one per particle position costed (a full ``row_permutation.energy``: with valid rows
it equals the seed's ``CountConflicts``) and one per hill-climbing trial (``swap_delta``).
Initial swarms come from ``numpy.random.default_rng(seed)`` through the shared encoding; r1, r2
come from numba's generator seeded inside the kernel. The clock is read once an iteration.
"""

from __future__ import annotations

from dataclasses import dataclass

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

TRACE_CAP = 4096
#: runs drawn at a time when restarts are unlimited
RESTART_BATCH = 4


@dataclass(frozen=True)
class SwapPsoParams:
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
    #: fresh swarms after an unsolved one (seed: 0; -1: until the budget is spent)
    max_restarts: int = 0
    #: longest velocity kept, in multiples of the number of free cells
    velocity_cap: int = 32

    def __post_init__(self) -> None:
        if self.swarm_size < 1 or self.max_iterations < 1 or self.max_restarts < -1:
            raise ValueError("swarm_size >= 1, max_iterations >= 1, max_restarts >= -1")
        if self.c1 < 0 or self.c2 < 0 or self.memetic_every < 0 or self.velocity_cap < 1:
            raise ValueError("c1, c2, memetic_every >= 0 and velocity_cap >= 1")


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
            dst[dlen] = src[i]
            dlen += 1
    for i in range(part):
        if dlen >= cap:
            return dlen
        dst[dlen] = src[i]
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
def hill_climb(grid, e, free_cols, n_free, box, max_evals, evals):
    """The seed's ``LocalImprove``: first-improving row swap, rescanning from the top."""
    improved = True
    while improved and e > 0:
        improved = False
        for r in range(n_free.size):
            m = n_free[r]
            for i in range(m):
                for j in range(i + 1, m):
                    if evals >= max_evals:
                        return e, evals
                    d = rp.swap_delta(grid, r, free_cols[r, i], free_cols[r, j], box)
                    evals += 1
                    if d < 0:
                        rp.apply_swap(grid, r, free_cols[r, i], free_cols[r, j])
                        e += d
                        improved = True
                        break
                if improved:
                    break
            if improved:
                break
    return e, evals


@numba.njit(cache=True)
def _swarm(position, free_cols, n_free, box, max_iterations, c1, c2, w0, w_floor, memetic_every,
           cap, max_evals, deadline_at, target, seed, t_start, trace, best, carry):
    """One swarm from ``position`` (modified). ``carry`` = (best_e, evals, iterations,
    local_searches, n_trace). Returns (carry, timed_out)."""
    np.random.seed(seed)
    best_e, evals, iterations, local_searches, n_trace = carry
    size = position.shape[0]
    pbest = position.copy()
    pcost = np.empty(size, dtype=np.int64)
    vel = np.zeros((size, cap, 3), dtype=np.int64)
    vlen = np.zeros(size, dtype=np.int64)
    tmp = np.zeros((cap, 3), dtype=np.int64)
    diff = np.zeros((cap, 3), dtype=np.int64)
    gbest = position[0].copy()
    gcost = 1 << 60
    for k in range(size):
        if evals >= max_evals:
            break
        pcost[k] = rp.energy(position[k], box)
        evals += 1
        if pcost[k] < gcost:
            gcost = pcost[k]
            gbest[:, :] = position[k]
    timed_out = False
    for it in range(1, max_iterations + 1):
        if gcost < best_e:
            best_e = gcost
            best[:, :] = gbest
            if n_trace < trace.shape[0]:
                trace[n_trace, 0] = evals
                trace[n_trace, 1] = now() - t_start
                trace[n_trace, 2] = best_e
                n_trace += 1
        if gcost <= target or evals >= max_evals:
            break
        if now() >= deadline_at:
            timed_out = True
            break
        w = w0 - (w0 - w_floor) * it / max_iterations
        for k in range(size):
            if evals >= max_evals:
                break
            n = times_into(tmp, 0, vel[k], vlen[k], w)
            m = minus_into(diff, pbest[k], position[k], free_cols, n_free)
            n = times_into(tmp, n, diff, m, np.random.random() * c1)
            m = minus_into(diff, gbest, position[k], free_cols, n_free)
            n = times_into(tmp, n, diff, m, np.random.random() * c2)
            vel[k, :n] = tmp[:n]
            vlen[k] = n
            move(position[k], vel[k], n, free_cols, n_free)
            cost = rp.energy(position[k], box)
            evals += 1
            if cost < pcost[k]:
                pcost[k] = cost
                pbest[k] = position[k]
            if cost < gcost:
                gcost = cost
                gbest[:, :] = position[k]
        if memetic_every > 0 and it % memetic_every == 0 and gcost > target:
            cand = gbest.copy()
            e2, evals = hill_climb(cand, gcost, free_cols, n_free, box, max_evals, evals)
            local_searches += 1
            if e2 < gcost:
                gcost = e2
                gbest[:, :] = cand
        iterations += 1
    if gcost < best_e:
        best_e = gcost
        best[:, :] = gbest
        if n_trace < trace.shape[0]:
            trace[n_trace, 0] = evals
            trace[n_trace, 1] = now() - t_start
            trace[n_trace, 2] = best_e
            n_trace += 1
    return (best_e, evals, iterations, local_searches, n_trace), timed_out


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
        puzzle = Puzzle(2, (1, 0, 0, 0) + (0,) * 12)
        SwapPso(swarm_size=4, memetic_every=1).solve(
            puzzle, Budget(max_seconds=5, max_evaluations=500), 0)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        t_begin = now()
        deadline_at = t_begin + budget.max_seconds
        rng = np.random.default_rng(seed)
        layout = rp.RowLayout.for_puzzle(puzzle)
        counter = EvaluationCounter(budget.max_evaluations)
        trace = np.zeros((TRACE_CAP, 3), dtype=np.float64)
        best = rp.initial_state(puzzle, np.random.default_rng(seed))
        cap = max(1, p.velocity_cap * puzzle.n_empty)
        carry = (1 << 60, 0, 0, 0, 0)
        runs = 0
        timed_out = False
        limit = p.max_restarts + 1 if p.max_restarts >= 0 else None
        while limit is None or runs < limit:
            swarm = rp.initial_population(puzzle, rng, p.swarm_size)
            kernel_seed = (seed * 1_000_003 + runs) & 0xFFFFFFFF
            carry, timed_out = _swarm(
                swarm, layout.free_cols, layout.n_free, puzzle.box, p.max_iterations, p.c1, p.c2,
                p.inertia_start, p.inertia_floor, p.memetic_every, cap, counter.remaining,
                deadline_at, float(budget.target), kernel_seed, t_begin, trace, best, carry)
            runs += 1
            if (timed_out or carry[0] <= budget.target or carry[1] >= counter.remaining
                    or now() >= deadline_at):
                break
        best_e, evals, iterations, local_searches, n_trace = carry
        if best_e >= 1 << 60:  # budget too small to evaluate anything
            best_e = int(rp.energy(best, puzzle.box))
        counter.add(int(evals))
        rows = [(int(ev), float(s), float(b)) for ev, s, b in trace[:n_trace]]
        return Outcome(
            grid=best, claims_solved=bool(best_e == 0), evaluations=counter.count,
            iterations=int(iterations), restarts=max(runs - 1, 0), best_energy=float(best_e),
            counters={"iterations": int(iterations), "local_searches": int(local_searches),
                      "runs": int(runs)},
            trace=rows, extra={"timed_out": int(bool(timed_out))})


register(SwapPso, name="native.pso-swap-memetic", memetic_every=25, max_restarts=-1,
         description="native.pso-swap with the seed's memetic option (hill climbing on gbest "
                     "every 25 iterations) and fresh swarms until the budget is spent")
