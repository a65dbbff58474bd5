"""The seed's workers/explorers swarm (``PSOSudokuSolver``) on the box-permutation encoding.

Each epoch, as in the seed: every worker proposes an in-box swap of two free cells and takes it
when it lowers its error (or, with probability ``mutation_rate``, anyway); a worker that has not
improved for more than ``max_age`` proposals is replaced by a fresh random grid; every explorer
is replaced by a fresh random grid; then the best worker merged box-wise with the best explorer
replaces the worst worker. A run is ``max_epochs`` epochs; an unsolved run is restarted from a
new hive, ``max_restarts`` extra runs at most, as in every stochastic native (the seed's
``MaxRestarts`` = 20 counts runs, so the default here is 19). Restarts, stop reason and schedule
fraction (epochs over ``max_epochs`` per run) come from the shared driver,
:mod:`sudoku_compare.native._restarts`.

``hybrid`` is the seed's exercise: when the best error has not improved for ``stagnation_limit``
epochs, an intensive local search is run on the best grid, and the result replaces the worst
worker so the hive can use it. The exercise leaves the search open; two are here: steepest descent
(every in-box swap of every box, best one taken, until none improves or ``local_search_rounds``
rounds; ``plateau_steps=0``), which stops at the very optimum the workers are stuck in, and a
plateau walk (``plateau_steps`` random in-box swaps, sideways moves taken, a forced swap after
``kick_after`` proposals without a new best), which ``native.pso-swarm-hybrid`` uses. The plain
``native.pso-swarm`` keeps the seed's rule exactly (strictly improving moves only), and like the
seed (80 % on its five puzzles) it often ends its 20 runs stuck at error 2.

Evaluations: one per error computed: a worker's proposal (an O(N) :func:`swap_delta` equal to a
full recount), a fresh grid, the merged child, each local-search trial. The seed recomputes the
full error where this uses the delta; the values are the same.

Reproducibility: the initial hive of each run comes from ``numpy.random.default_rng(seed)``
through the shared encoding; the moves and the explorers' fresh grids come from numba's
generator seeded inside the kernel from (seed, run). The clock is read once an epoch and
every 1,024 proposals of the plateau walk (:mod:`sudoku_compare.native._plateau`).
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
from sudoku_compare.problems.encodings import box_permutation as bp
from sudoku_compare.problems.encodings import unit_swap
from sudoku_compare.problems.encodings.array_copy import copy2d
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.warming import warm_by_solving


@dataclass(frozen=True)
class SwarmParams:
    """native.pso-swarm's settings, defaults from the seed. ``max_restarts`` counts the extra runs after the
    first (-1: until a budget ends), the same in every stochastic native, because the shared
    driver (:mod:`sudoku_compare.native._restarts`) reads it."""

    #: organisms in the hive (seed: 200)
    organisms: int = 200
    #: share of workers (seed: 0.90); the rest are explorers
    worker_ratio: float = 0.90
    #: epochs per run (seed: 5000)
    max_epochs: int = 5000
    #: extra runs, each from a fresh hive, after the first ends unsolved (the seed's
    #: ``MaxRestarts`` = 20 counts runs, so 19 here; 0: one run; -1: until a budget is spent)
    max_restarts: int = 19
    #: proposals without improvement before a worker is reset (seed: 1000)
    max_age: int = 1000
    #: probability of taking a non-improving proposal (seed: 0.001)
    mutation_rate: float = 0.001
    #: the seed's hybrid exercise: local search on the best when it stagnates
    hybrid: bool = False
    #: epochs without improvement before the local search (seed exercise: 500)
    stagnation_limit: int = 500
    #: steepest-descent rounds per local search (when ``plateau_steps`` is 0)
    local_search_rounds: int = 100
    #: > 0: the local search is a plateau walk of this many random in-box swap proposals
    #: (equal-or-better ones taken, a kick after ``kick_after`` proposals without a new best)
    #: instead of steepest descent, which stops at the first local optimum
    plateau_steps: int = 0
    #: proposals without a new best before a kick (one random swap taken regardless)
    kick_after: int = 2000

    def __post_init__(self) -> None:
        check_population(organisms=self.organisms)
        if not 0 < self.worker_ratio < 1:
            raise ValueError("0 < worker_ratio < 1 (workers and explorers are both needed)")
        workers = int(self.organisms * self.worker_ratio)
        if not (1 <= workers < self.organisms):
            raise ValueError("need at least one worker and one explorer")
        if self.max_epochs < 1 or self.max_restarts < -1 or self.max_age < 0:
            raise ValueError("max_epochs >= 1, max_restarts >= -1, max_age >= 0")
        if self.plateau_steps < 0 or self.kick_after < 1:
            raise ValueError("plateau_steps >= 0 and kick_after >= 1")


@numba.njit(cache=True)
def _fill_random(grid, givens, box_cells, n_free, box):
    """Fresh box-permutation grid (numba RNG): each box's missing digits shuffled."""
    n = box * box
    copy2d(grid, givens)
    present = np.zeros(n + 1, dtype=np.int64)
    missing = np.empty(n, dtype=np.int64)
    for b in range(n):
        r0 = (b // box) * box
        c0 = (b % box) * box
        present[:] = 0
        for i in range(box):
            for j in range(box):
                present[givens[r0 + i, c0 + j]] = 1
        m = 0
        for d in range(1, n + 1):
            if present[d] == 0:
                missing[m] = d
                m += 1
        for i in range(m - 1, 0, -1):
            j = np.random.randint(i + 1)
            t = missing[i]
            missing[i] = missing[j]
            missing[j] = t
        for i in range(n_free[b]):
            x = box_cells[b, i]
            grid[x // n, x % n] = missing[i]


@numba.njit(cache=True)
def _local_search(grid, e, box_cells, n_free, box, rounds, max_evals, evals):
    """Steepest descent over all in-box swaps; returns (error, evals)."""
    n = box * box
    for _ in range(rounds):
        best_d = 0
        bx = -1
        by = -1
        for b in range(n):
            m = n_free[b]
            for i in range(m):
                for j in range(i + 1, m):
                    if evals >= max_evals:
                        return e, evals
                    x = box_cells[b, i]
                    y = box_cells[b, j]
                    d = bp.swap_delta(grid, x // n, x % n, y // n, y % n, box)
                    evals += 1
                    if d < best_d:
                        best_d = d
                        bx = x
                        by = y
        if bx < 0:
            break
        bp.apply_swap(grid, bx // n, bx % n, by // n, by % n)
        e += best_d
    return e, evals


class HiveCounters(NamedTuple):
    """Counters summed over the runs of one solve (a NamedTuple so numba carries it)."""

    epochs: int
    worker_resets: int
    local_searches: int


@numba.njit(cache=True)
def _run(hive, givens, box_cells, n_free, units, box, n_workers, max_epochs, max_age,
         mutation_rate, hybrid, stagnation_limit, ls_rounds, plateau_steps, kick_after,
         max_evals, deadline_at, target, seed, t_start, trace, best, progress, counts):
    """One run of the seed's ``SolveInternal`` from ``hive`` (modified), continuing
    ``progress``; ``best`` holds the best grid over all runs. Returns (Progress,
    HiveCounters); the run's share of its schedule is its epochs over ``max_epochs``."""
    np.random.seed(seed)
    n = box * box
    best_e, evals, n_trace = resume(progress)
    epochs = counts.epochs
    resets = counts.worker_resets
    local_searches = counts.local_searches
    run_epochs = 0
    size = hive.shape[0]
    err = np.empty(size, dtype=np.int64)
    age = np.zeros(size, dtype=np.int64)
    movable = np.flatnonzero(n_free >= 2)
    run_best = 1 << 60
    run_best_grid = hive[0].copy()
    for i in range(size):
        if evals >= max_evals:
            break
        err[i] = bp.error(hive[i], box)
        evals += 1
        if err[i] < run_best:
            run_best = err[i]
            copy2d(run_best_grid, hive[i])
        best_e, n_trace = keep_best(best, hive[i], err[i], best_e, trace, n_trace, evals, t_start)
    timed_out = False
    stagnant = 0
    for _epoch in range(max_epochs):
        if best_e <= target or evals >= max_evals:
            break
        if now() >= deadline_at:
            timed_out = True
            break
        before = run_best
        for i in range(size):
            if evals >= max_evals:
                break
            if i < n_workers:
                if movable.size == 0:
                    continue
                x, y = unit_swap.random_pair(movable, n_free, box_cells)
                d = bp.swap_delta(hive[i], x // n, x % n, y // n, y % n, box)
                evals += 1
                if d < 0 or np.random.random() < mutation_rate:
                    bp.apply_swap(hive[i], x // n, x % n, y // n, y % n)
                    if d < 0:
                        age[i] = 0
                    err[i] += d
                else:
                    age[i] += 1
                    # a reset costs an evaluation: none is spent past the budget
                    if age[i] > max_age and evals < max_evals:
                        _fill_random(hive[i], givens, box_cells, n_free, box)
                        err[i] = bp.error(hive[i], box)
                        evals += 1
                        age[i] = 0
                        resets += 1
            else:
                _fill_random(hive[i], givens, box_cells, n_free, box)
                err[i] = bp.error(hive[i], box)
                evals += 1
            if err[i] < run_best:
                run_best = err[i]
                copy2d(run_best_grid, hive[i])
        if evals >= max_evals:
            break
        bw = 0
        ww = 0
        for i in range(n_workers):
            if err[i] < err[bw]:
                bw = i
            if err[i] > err[ww]:
                ww = i
        be = n_workers
        for i in range(n_workers, size):
            if err[i] < err[be]:
                be = i
        take = np.random.random(n) < 0.5
        copy2d(hive[ww], bp.merge_boxes(hive[bw], hive[be], take, box))
        err[ww] = bp.error(hive[ww], box)
        evals += 1
        age[ww] = 0
        if err[ww] < run_best:
            run_best = err[ww]
            copy2d(run_best_grid, hive[ww])
        epochs += 1
        run_epochs += 1
        stagnant = stagnant + 1 if run_best >= before else 0
        if hybrid and stagnant >= stagnation_limit and run_best > target:
            cand = run_best_grid.copy()
            if plateau_steps > 0:
                e2, evals = plateau_walk(cand, run_best, box_cells, n_free, units,
                                         plateau_steps, kick_after, max_evals, evals,
                                         deadline_at)
            else:
                e2, evals = _local_search(cand, run_best, box_cells, n_free, box, ls_rounds,
                                          max_evals, evals)
            local_searches += 1
            stagnant = 0
            if e2 < run_best:
                run_best = e2
                copy2d(run_best_grid, cand)
                copy2d(hive[ww], cand)
                err[ww] = e2
                age[ww] = 0
        best_e, n_trace = keep_best(best, run_best_grid, run_best, best_e, trace, n_trace, evals, t_start)
    return (Progress(best_e, evals, n_trace, timed_out, run_epochs / max_epochs),
            HiveCounters(epochs, resets, local_searches))


@register
class WorkersExplorersSwarm(Solver):
    name = "native.pso-swarm"
    family = "swarm"
    encoding = "box-permutation"
    Params = SwarmParams
    deterministic = True
    stochastic = True
    description = ("the seed's workers/explorers swarm: 200 organisms, 90 % workers doing in-box "
                   "swaps, explorers resampled, best worker x best explorer box-wise merge (numba)")

    def warmup(self) -> None:
        # steepest descent and the plateau walk are two compiled paths of the hybrid
        warm_by_solving(*(WorkersExplorersSwarm(organisms=10, hybrid=True, stagnation_limit=1,
                                                plateau_steps=steps) for steps in (0, 50)),
                        max_evaluations=2000)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        driver = Restarts(budget, p.max_restarts)
        rng = np.random.default_rng(seed)
        layout = bp.layout_of(puzzle)
        givens = puzzle.grid().astype(np.int64)
        best = bp.initial_state(puzzle, np.random.default_rng(seed))
        n_workers = int(p.organisms * p.worker_ratio)
        counts = HiveCounters(0, 0, 0)
        for run in driver.runs():
            hive = bp.initial_population(puzzle, rng, p.organisms)
            kernel_seed = (seed * 1_000_003 + run) & 0xFFFFFFFF
            driver.progress, counts = _run(
                hive, givens, layout.cells, layout.n_free, bp.checked_units(puzzle.box),
                puzzle.box, n_workers, p.max_epochs, p.max_age, p.mutation_rate, p.hybrid,
                p.stagnation_limit, p.local_search_rounds, p.plateau_steps, p.kick_after,
                driver.max_evaluations, driver.deadline_at,
                driver.target, kernel_seed, driver.t_begin, driver.trace, best, driver.progress,
                counts)
        return driver.outcome(
            best, iterations=counts.epochs,
            counters={"epochs": counts.epochs, "worker_resets": counts.worker_resets,
                      "local_searches": counts.local_searches, "runs": driver.runs_begun})


register(WorkersExplorersSwarm, name="native.pso-swarm-hybrid", hybrid=True,
         plateau_steps=200_000,
         description="native.pso-swarm with the seed's hybrid exercise: after 500 stagnant "
                     "epochs an intensive local search on the best (a 200,000-proposal "
                     "sideways-allowed in-box swap walk with kicks), injected into the hive")
