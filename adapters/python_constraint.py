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

Counterpart: ``native.csp-fc``, the closest registered native search, on the same model
module (``csp_model``: same variables, same pruned domains). What matches: chronological
backtracking with forward checking, one variable at a time, fewest remaining values first.
What the library cannot match, said here rather than hidden: (1) the constraint form --
one ``AllDifferent`` per unit here (encoding ``csp-alldifferent``) against the native's
pairwise not-equal (``csp``); under forward checking they prune the same values (assigning
``v`` hides ``v`` from the unassigned peers, a wiped-out domain fails), so the search trees
differ only through (2) and (3); (2) the tie-break among equal domain sizes: variable name
order (the degree key python-constraint puts first is 3 for every cell) against the native's
degree among unassigned peers; (3) value order: the library pops the domain's last value
first (descending digits) against the native's least-constraining value. BacktrackingSolver
hard-codes (2) and (3). ``stop_reason``: ``target`` (a solution), ``exhausted`` (none exists),
``clock`` (the deadline inside a check).
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
from sudoku_compare.vocabulary import StopReason
from sudoku_compare.warming import warm_by_solving


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
    #: prune empty cells' domains by their given peers (the shared model's option; False as
    #: native.csp-fc; forward checking from the givens, assigned first as singletons, prunes
    #: the same values, and the check counts were equal either way on easy51:0, top95:0, hardest:0)
    prune_givens: bool = False


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
    counterpart = "native.csp-fc"

    def warmup(self) -> None:
        warm_by_solving(self)

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
                           stop_reason=StopReason.EXHAUSTED,
                           extra={"empty_domain": 1, "solver": p.solver})
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
        if answer:
            reason = StopReason.TARGET
        elif stopped:
            reason = StopReason.CLOCK
        elif p.solver == "min-conflicts":  # a local search gives up: it proves nothing
            reason = StopReason.FINISHED
        else:
            reason = StopReason.EXHAUSTED
        grid = puzzle.flat()
        if answer:
            for v, name in enumerate(csp.names):
                grid[v] = int(answer[name])
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side),
                       claims_solved=answer is not None,
                       best_energy=0.0 if answer else None,
                       iterations=checker.calls,
                       counters={"constraint_checks": checker.calls},
                       stop_reason=reason, extra={"solver": p.solver})


