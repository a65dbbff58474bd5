"""The canonical velocity PSO on the integer-cells encoding (the seed's MetaGeneticSharp leg).

Each particle is a real vector, one coordinate per free cell in [1, N + 1), decoded by rounding
and clamping (:mod:`sudoku_compare.problems.encodings.integer_cells`). The recurrence is Shi &
Eberhart's with Clerc's constriction values: ``v <- w v + c1 r1 (pbest - x) + c2 r2 (gbest - x)``,
``x <- clip(x + v)``, w = 0.7298, c1 = c2 = 1.49618, r1 and r2 uniform per coordinate; the seed
ran 500 particles for 400 generations. Positions are clipped to the bounds; velocities are not
limited (the seed's library settings for that are unknown). The seed reports this plateaus at
about 12 conflicts on easy51:0: nothing here keeps rows, columns or boxes valid, so expect it
not to solve 9×9 puzzles; it is kept as the honest baseline for the adapters' continuous PSO.

Measured (12:10 UTC, loaded cores) with the seed's setup, 500 particles × 400 generations on
easy51:0: best 22, 19, 23, 23 conflicts for seeds 0-3 (the same objective as the seed's
``CountConflicts``: repeats over rows, columns and boxes), never 12; 2000 generations gave the
same figures (the swarm has collapsed by then), and a velocity clamp of 4.5, 2 or 1 gave 18-32.
The seed ran MetaGeneticSharp's compound PSO inside a ``MetaGeneticAlgorithm`` with elite
selection, uniform crossover and uniform mutation; those genetic operators are not part of the
canonical recurrence and are not reproduced here, which may be why the seed got lower.

Evaluations: one per particle position decoded and costed. All randomness comes from
``numpy.random.default_rng(seed)``; the costing kernel is numba. The clock is read each
generation. An unsolved swarm is followed by a fresh one up to ``max_restarts`` times, by the
shared driver (:mod:`sudoku_compare.native._restarts`: stop reason, schedule fraction =
generations over ``max_iterations`` per swarm).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import now
from sudoku_compare.native._restarts import NO_ENERGY, Progress, Restarts, check_population
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings import integer_cells as ic
from sudoku_compare.problems.encodings.counter import EvaluationCounter
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.warming import warm_by_solving


@dataclass(frozen=True)
class CanonicalPsoParams:
    """native.pso-canonical's settings, defaults from the seed. ``max_restarts`` counts the extra runs after the
    first (-1: until a budget ends), the same in every stochastic native, because the shared
    driver (:mod:`sudoku_compare.native._restarts`) reads it."""

    #: particles (seed: 500)
    swarm_size: int = 500
    #: generations per swarm (seed: 400)
    max_iterations: int = 400
    #: inertia (Clerc constriction: 0.7298)
    w: float = 0.7298
    #: cognitive weight (Clerc: 1.49618)
    c1: float = 1.49618
    #: social weight (Clerc: 1.49618)
    c2: float = 1.49618
    #: extra swarms, each from a fresh start, after the first ends unsolved (seed: 0, one
    #: swarm; -1: until a budget is spent)
    max_restarts: int = 0

    def __post_init__(self) -> None:
        if self.swarm_size < 1 or self.max_iterations < 1 or self.max_restarts < -1:
            raise ValueError("swarm_size >= 1, max_iterations >= 1, max_restarts >= -1")
        check_population(swarm_size=self.swarm_size)


@register
class CanonicalPso(Solver):
    name = "native.pso-canonical"
    family = "swarm"
    encoding = "integer-cells"
    Params = CanonicalPsoParams
    deterministic = True
    stochastic = True
    description = ("canonical velocity PSO on rounded integer cells, Clerc constriction "
                   "w = 0.7298, c1 = c2 = 1.49618, 500 particles x 400 generations")

    def warmup(self) -> None:
        warm_by_solving(CanonicalPso(swarm_size=4), max_evaluations=100)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        driver = Restarts(budget, p.max_restarts)
        rng = np.random.default_rng(seed)
        givens = puzzle.flat().astype(np.int64)
        free = ic.free_cells(puzzle)
        lo, hi = ic.bounds(puzzle)
        hi_in = np.nextafter(hi, lo)
        dim = free.size
        best_vec = ic.initial_state(puzzle, np.random.default_rng(seed))
        best_e = NO_ENERGY
        iterations = 0

        def cost(x: np.ndarray) -> np.ndarray:
            return ic.objective_batch(x, givens, free, puzzle.box)

        for _ in driver.runs():
            counter = EvaluationCounter(driver.max_evaluations)
            counter.add(driver.progress.evaluations)
            n_trace = driver.progress.n_trace
            timed_out = False
            take = min(p.swarm_size, counter.remaining)  # >= 1: the driver saw budget left
            x = rng.uniform(lo, hi, size=(take, dim))
            v = np.zeros_like(x)
            pcost = cost(x)
            counter.add(take)
            pbest = x.copy()
            g = int(np.argmin(pcost))
            gbest, gcost = pbest[g].copy(), int(pcost[g])
            run_iterations = 0
            for _ in range(p.max_iterations):
                if gcost < best_e:
                    best_e, best_vec = gcost, gbest.copy()
                    n_trace = driver.record_best(counter.count, best_e, n_trace)
                if gcost <= driver.target or counter.exhausted():
                    break
                if now() >= driver.deadline_at:
                    timed_out = True
                    break
                r1 = rng.random(x.shape)
                r2 = rng.random(x.shape)
                v = p.w * v + p.c1 * r1 * (pbest - x) + p.c2 * r2 * (gbest - x)
                x = np.clip(x + v, lo, hi_in)
                k = min(take, counter.remaining)
                c = cost(x[:k])
                counter.add(k)
                better = c < pcost[:k]
                pcost[:k][better] = c[better]
                pbest[:k][better] = x[:k][better]
                g = int(np.argmin(pcost))
                gbest, gcost = pbest[g].copy(), int(pcost[g])
                run_iterations += 1
            if gcost < best_e:
                best_e, best_vec = gcost, gbest.copy()
                n_trace = driver.record_best(counter.count, best_e, n_trace)
            iterations += run_iterations
            driver.progress = Progress(best_e, counter.count, n_trace, timed_out,
                                       run_iterations / p.max_iterations)
        return driver.outcome(ic.decode(best_vec, puzzle), iterations=iterations,
                              counters={"generations": iterations, "runs": driver.runs_begun})
