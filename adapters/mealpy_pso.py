"""``mealpy.pso``: mealpy's ``OriginalPSO`` on the random-keys encoding.

The seed material's setup: one key in [0, 1) per empty cell, decoded per row by rank
(``problems/encodings/random_keys.py``), objective = conflicts of the decoded grid,
epoch 300, population 60. It is not expected to solve (the seed reports 4 to 11
residual conflicts on easy51:0): a continuous swarm on a ranking decoder loses the
row structure, which is the lesson the report shows.

mealpy checks its termination once per epoch and has no stop-at-target, so the
objective is wrapped (:mod:`._objective`): exact evaluation budget, deadline and target
raise from inside the call and the best keys are kept by the wrapper. mealpy's own
evaluation count (``nfe_counter``) is cross-checked against the shared counter and
reported in ``extra``. ``solve(problem, seed=...)`` seeds mealpy's own generators
(bit-reproducible); the numpy Generator of the run is not shared with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.random_keys import RandomKeys
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver

from ._objective import STOPS, TrackedObjective


@dataclass(frozen=True)
class PsoParams:
    #: epochs (mealpy's generations); the seed's setting
    epoch: int = 300
    #: particles; the seed's setting
    pop_size: int = 60
    #: cognitive and social coefficients, inertia (mealpy's defaults)
    c1: float = 2.05
    c2: float = 2.05
    w: float = 0.4


@register
class MealpyPso(Solver):
    name = "mealpy.pso"
    family = "swarm"
    origin = "mealpy"
    encoding = "random-keys"
    Params = PsoParams
    deterministic = True
    stochastic = True
    requires = ("mealpy",)
    extra = "mealpy"
    description = ("mealpy OriginalPSO on random keys (epoch 300, pop 60), seeded through "
                   "mealpy's own RNG (solve(seed=...)), not the run's numpy Generator")

    def warmup(self) -> None:
        import mealpy  # noqa: F401  (about 1.7 s: pandas, scipy, matplotlib, opfunu)

        # the shared objective's kernels (decoder, energy), so no run compiles them
        keys = RandomKeys.for_puzzle(Puzzle(2, (1,) + (0,) * 15))
        keys.energy(np.zeros(keys.dimensions))

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        from mealpy import PSO, FloatVar, Problem

        keys = RandomKeys.for_puzzle(puzzle)
        tracked = TrackedObjective(keys.energy, budget, copy=np.array)
        n = keys.dimensions
        grid0 = puzzle.flat()
        if n == 0:
            e = keys.energy(np.empty(0))
            return Outcome(grid=grid0.reshape(puzzle.side, -1), claims_solved=e == 0,
                           best_energy=e)

        class KeysProblem(Problem):
            def obj_func(self, solution):
                return tracked(solution)

        problem = KeysProblem(bounds=FloatVar(lb=[0.0] * n, ub=[1.0] * n, name="keys"),
                              minmax="min", log_to=None)
        p = self.params
        model = PSO.OriginalPSO(epoch=p.epoch, pop_size=p.pop_size, c1=p.c1, c2=p.c2, w=p.w)
        termination = {"max_epoch": p.epoch, "max_time": max(0.1, budget.max_seconds)}
        stopped_by = "epochs"
        try:
            model.solve(problem, mode="single", seed=int(seed) % (2**32),
                        termination=termination)
        except STOPS:
            stopped_by = tracked.stop_reason()
        best = tracked.best_state
        grid = keys.decode(best) if best is not None else grid0
        nfe = getattr(model, "nfe_counter", None)
        epochs = len(getattr(model.history, "list_global_best_fit", []) or [])
        return Outcome(
            grid=grid.reshape(puzzle.side, puzzle.side),
            claims_solved=tracked.best_energy == 0,
            evaluations=tracked.evaluations, iterations=epochs,
            best_energy=tracked.best_energy if best is not None else None,
            trace=tracked.trace,
            extra={"stopped_by": stopped_by,
                   "mealpy_nfe": int(nfe) if nfe is not None else -1})
