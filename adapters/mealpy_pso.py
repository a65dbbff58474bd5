"""``mealpy.pso``: mealpy's ``OriginalPSO`` on the random-keys encoding.

The seed material's setup: one key in [0, 1) per empty cell, decoded per row by rank
(``problems/encodings/random_keys.py``), objective = conflicts of the decoded grid,
epoch 300, population 60. It is not expected to solve (the seed reports 4 to 11
residual conflicts on easy51:0): a continuous swarm on a ranking decoder loses the
row structure, which is the lesson the report shows.

mealpy checks its termination once per epoch and has no stop-at-target, so the
objective is wrapped (:mod:`._objective`): exact evaluation budget, deadline and target
raise from inside the call (the call one past the budget raises before it is counted,
so the count is exact even mid-epoch) and the best keys are kept by the wrapper. mealpy's
own clock (``max_time``) is not used: it is read only between epochs, and a stop there
could not be told apart from the end of the schedule. mealpy's own evaluation count
(``nfe_counter``) is cross-checked against the shared counter and reported in ``extra``.
``solve(problem, seed=...)`` seeds mealpy's own generators (bit-reproducible).

Counterpart: ``native.pso-random-keys``, the same update rule on the same keys and the same
objective kernel with these parameters; it draws its numbers as mealpy does from the same
seed, so on the same seed the two runs are the same run (``tests/test_counterparts.py``).
``stop_reason`` is ``target``, ``evaluations``, ``clock`` or ``finished`` (all epochs run);
``schedule_fraction`` is the share of the epochs' evaluations spent.
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
from sudoku_compare.vocabulary import StopReason
from sudoku_compare.warming import warm_by_solving

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

    def __post_init__(self) -> None:
        # mealpy's own ranges (it checks them when the optimizer is built, inside a run)
        if not 1 <= self.epoch <= 100_000 or not 5 <= self.pop_size <= 10_000:
            raise ValueError("1 <= epoch <= 100000 and 5 <= pop_size <= 10000 (mealpy's ranges)")
        if not (0 < self.c1 < 5 and 0 < self.c2 < 5 and 0 < self.w < 1):
            raise ValueError("0 < c1, c2 < 5 and 0 < w < 1 (mealpy's ranges)")


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
    counterpart = "native.pso-random-keys"
    description = ("mealpy OriginalPSO on random keys (epoch 300, pop 60, w 0.4, c1 = c2 = "
                   "2.05), seeded through mealpy's own generators (solve(seed=...))")

    def warmup(self) -> None:
        # mealpy's import (about 1.7 s: pandas, scipy, matplotlib, opfunu), its first-use
        # set-up and the shared objective's kernels (decoder, energy), out of timed runs
        warm_by_solving(self)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        from mealpy import PSO, FloatVar, Problem

        keys = RandomKeys.for_puzzle(puzzle)
        tracked = TrackedObjective(keys.energy, budget, copy=np.array)
        n = keys.dimensions
        grid0 = puzzle.flat()
        if n == 0:
            e = keys.energy(np.empty(0))
            return Outcome(grid=grid0.reshape(puzzle.side, -1), claims_solved=e == 0,
                           evaluations=1, best_energy=e, schedule_fraction=1.0,
                           stop_reason=StopReason.TARGET if e <= budget.target
                           else StopReason.FINISHED)

        class KeysProblem(Problem):
            def obj_func(self, solution):
                return tracked(solution)

        problem = KeysProblem(bounds=FloatVar(lb=[0.0] * n, ub=[1.0] * n, name="keys"),
                              minmax="min", log_to=None)
        p = self.params
        model = PSO.OriginalPSO(epoch=p.epoch, pop_size=p.pop_size, c1=p.c1, c2=p.c2, w=p.w)
        try:
            model.solve(problem, mode="single", seed=int(seed) % (2**32),
                        termination={"max_epoch": p.epoch})
        except STOPS:
            pass
        best = tracked.best_state
        grid = keys.decode(best) if best is not None else grid0
        nfe = getattr(model, "nfe_counter", None)
        epochs = len(getattr(model.history, "list_global_best_fit", []) or [])
        return Outcome(
            grid=grid.reshape(puzzle.side, puzzle.side),
            claims_solved=tracked.best_energy == 0,
            evaluations=tracked.evaluations, iterations=epochs,
            best_energy=tracked.best_energy if best is not None else None,
            trace=tracked.trace, stop_reason=tracked.stop_reason(),
            schedule_fraction=min(1.0, max(0, tracked.evaluations - p.pop_size)
                                  / (p.pop_size * p.epoch)),
            extra={"mealpy_nfe": int(nfe) if nfe is not None else -1})
