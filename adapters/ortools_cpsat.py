"""``ortools.cpsat``: Google OR-Tools CP-SAT with one AllDifferent per unit.

Why these settings: on 2-core machines one worker was faster at the median on every
set than the default portfolio (up to 6x) and it is the only bit-reproducible mode
(``num_workers=1`` with a fixed ``random_seed``). Model building (0.5-0.7 ms per 9x9)
is timed apart, in ``extra["model_build_s"]``, so the solve time is CP-SAT's own.
CP-SAT has no objective evaluations; its branches and conflicts are the counters
(often 0: presolve alone solves most Sudoku). It cannot be interrupted by Python
signals during ``solve``; ``max_time_in_seconds`` is its cooperative stop and the
bench's hard deadline backs it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver


@dataclass(frozen=True)
class CpSatParams:
    #: CP-SAT search workers (1: deterministic, and fastest here)
    num_workers: int = 1
    #: CP-SAT's search log, routed to a Python callback that drops it (never to fd 1)
    log_search_progress: bool = False


def build_model(puzzle: Puzzle):
    """CP model: one int var per cell, givens fixed, AllDifferent per row/column/box."""
    from ortools.sat.python import cp_model

    n = puzzle.side
    model = cp_model.CpModel()
    cells = puzzle.cells
    x = [model.new_int_var(1, n, f"x{i}") if cells[i] == 0 else model.new_constant(cells[i])
         for i in range(puzzle.n_cells)]
    for unit in puzzle.topology.units:
        model.add_all_different([x[int(i)] for i in unit])
    return model, x


@register
class OrToolsCpSat(Solver):
    name = "ortools.cpsat"
    family = "exact"
    origin = "ortools"
    encoding = "csp-alldifferent"
    Params = CpSatParams
    deterministic = True
    requires = ("ortools",)
    extra = "ortools"
    description = ("OR-Tools CP-SAT, AllDifferent per unit, 1 worker, seeded "
                   "(deterministic within one OR-Tools version, not across versions)")

    def warmup(self) -> None:
        from ortools.sat.python import cp_model  # noqa: F401  (0.6 s import, kept out of runs)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        from ortools.sat.python import cp_model

        t0 = time.perf_counter()
        model, x = build_model(puzzle)
        build_s = time.perf_counter() - t0
        solver = cp_model.CpSolver()
        p = solver.parameters
        p.num_workers = self.params.num_workers
        p.random_seed = int(seed) % (2**31)
        p.max_time_in_seconds = max(1e-3, budget.max_seconds - build_s)
        p.log_search_progress = False
        p.log_to_stdout = False
        if self.params.log_search_progress:  # routed through Python, never to fd 1
            p.log_search_progress = True
            solver.log_callback = lambda _line: None
        status = solver.solve(model)
        found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        if found:
            grid = np.array([solver.value(v) for v in x], dtype=np.int64)
        else:
            grid = puzzle.flat()
        return Outcome(
            grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=bool(found),
            best_energy=0.0 if found else None,
            iterations=int(solver.num_branches),
            counters={"branches": int(solver.num_branches),
                      "conflicts": int(solver.num_conflicts)},
            extra={"model_build_s": build_s, "solve_wall_s": float(solver.wall_time),
                   "deterministic_time": float(solver.response_proto.deterministic_time),
                   "cpsat_status": solver.status_name(status)})
