"""``python-constraint.csp``: python-constraint 1.4.0 over the shared CSP model.

One variable per cell (named ``(row, col)``) with the shared model's domains
(``problems/encodings/csp_model.py``, givens as singletons, empty cells pruned by their
given peers), one ``AllDifferentConstraint`` per unit (the model's ``units``), and
python-constraint's default ``BacktrackingSolver`` (dynamic MRV, forward checking).
``MinConflictsSolver`` is an option (``solver=min-conflicts``); it is a negative baseline
that did not solve easy puzzles in the measurements.

The library has no time limit. Its constraint objects are plain Python called on every
check, so the counting subclass below also looks at the deadline every 256 checks and
raises; that is a cooperative stop at check granularity, and the bench's hard deadline
on the run's process stays the guarantee. The constraint checks are the counter
(``constraint_checks``): the library has no objective evaluations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.csp_model import sudoku_csp
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver


class _Stop(Exception):
    """The deadline passed inside a constraint check."""


@dataclass(frozen=True)
class ConstraintParams:
    #: python-constraint's search: its default backtracking, or min-conflicts local search
    solver: Literal["backtracking", "min-conflicts"] = "backtracking"
    #: forward checking in BacktrackingSolver (the library's default)
    forwardcheck: bool = True
    #: MinConflictsSolver steps (the library's default)
    steps: int = 1000
    #: prune empty cells' domains by their given peers (the shared model's option)
    prune_givens: bool = True


def _counting_all_different(base, deadline):
    class CountingAllDifferent(base):
        """AllDifferentConstraint that counts its calls and honours the deadline."""

        calls = 0

        def __call__(self, *args, **kwargs):
            CountingAllDifferent.calls += 1
            if CountingAllDifferent.calls & 255 == 0 and deadline.expired():
                raise _Stop
            return super().__call__(*args, **kwargs)

    return CountingAllDifferent


@register
class PythonConstraintCsp(Solver):
    name = "python-constraint.csp"
    family = "csp"
    origin = "python-constraint"
    encoding = "csp-alldifferent"
    Params = ConstraintParams
    deterministic = True
    requires = ("constraint",)
    extra = "python-constraint"
    distribution = "python-constraint"
    description = ("python-constraint Problem, AllDifferent per unit, BacktrackingSolver "
                   "(MinConflictsSolver as an option, seeded through the global random)")

    def warmup(self) -> None:
        import constraint  # noqa: F401

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        import constraint as pc

        p = self.params
        deadline = budget.deadline()
        csp = sudoku_csp(puzzle, prune_givens=p.prune_givens)
        if p.solver == "min-conflicts":
            random.seed(seed)  # MinConflictsSolver draws from the global random
            engine = pc.MinConflictsSolver(steps=p.steps)
        else:
            engine = pc.BacktrackingSolver(forwardcheck=p.forwardcheck)
        if any(len(csp.domain_of(v)) == 0 for v in range(len(csp.names))):
            # python-constraint refuses an empty domain with ValueError; the puzzle simply
            # has no solution (a cell whose peers' givens use every digit).
            return Outcome(grid=puzzle.grid(), claims_solved=False,
                           extra={"stopped_by": "empty domain", "solver": p.solver})
        problem = pc.Problem(engine)
        for v, name in enumerate(csp.names):
            problem.addVariable(name, [int(csp.labels[k]) for k in csp.domain_of(v)])
        checker = _counting_all_different(pc.AllDifferentConstraint, deadline)
        for unit in csp.units:
            problem.addConstraint(checker(), [csp.names[int(i)] for i in unit])
        stopped = False
        try:
            answer = problem.getSolution()
        except _Stop:
            answer, stopped = None, True
        grid = puzzle.flat()
        if answer:
            for v, name in enumerate(csp.names):
                grid[v] = int(answer[name])
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side),
                       claims_solved=answer is not None,
                       best_energy=0.0 if answer else None,
                       iterations=checker.calls,
                       counters={"constraint_checks": checker.calls},
                       extra={"stopped_by": "deadline" if stopped else "library",
                              "solver": p.solver})


