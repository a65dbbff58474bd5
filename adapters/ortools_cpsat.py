"""``ortools.cpsat``: Google OR-Tools CP-SAT with one AllDifferent per unit.

Why these settings: on 2-core machines one worker was faster at the median on every
set than the default portfolio (up to 6x) and it is the only bit-reproducible mode
(``num_workers=1`` with a fixed ``random_seed``). Model building (0.5-0.7 ms per 9x9)
is timed apart, in ``extra["model_build_s"]``, so the solve time is CP-SAT's own.
CP-SAT has no objective evaluations; its branches and conflicts are the counters
(often 0: presolve alone solves most Sudoku). It cannot be interrupted by Python
signals during ``solve``; ``max_time_in_seconds`` is its cooperative stop and the
bench's hard deadline backs it.

Warm-up: importing is not enough -- the first ``solve`` of a process paid 4.4-5.7 ms against
1.6-2.6 ms later (lazy set-up inside CP-SAT), so :meth:`warmup` solves a 9x9 model and
:meth:`warmup_for` one of each other size, through the same ``_solve`` path a run takes.

Counterpart: ``native.bitmask`` (propagation of singles and locked candidates, then a guess
on the cell with fewest candidates). The algorithms differ (CP-SAT: presolve, propagation
and clause learning), so the pair is an *equal time* comparison only: CP-SAT has no
objective evaluations to compare. ``stop_reason``: ``target`` (a solution), ``exhausted``
(proved infeasible), ``clock`` (its time limit), ``error`` (an invalid model).
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
from sudoku_compare.vocabulary import StopReason


@dataclass(frozen=True)
class CpSatParams:
    #: CP-SAT search workers (1: deterministic, and fastest here)
    num_workers: int = 1
    #: CP-SAT's search log, routed to a Python callback that drops it (never to fd 1)
    log_search_progress: bool = False

    def __post_init__(self) -> None:
        # 0 is CP-SAT's "as many as the machine has"; its parameter is a 32-bit int
        if not 0 <= self.num_workers <= 1024:
            raise ValueError("0 <= num_workers <= 1024 (0: CP-SAT picks from the CPU count)")


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
                   "(deterministic within one OR-Tools version, not across versions); "
                   "native.bitmask is its counterpart for equal time only (other algorithm)")
    counterpart = "native.bitmask"

    def __init__(self, params: CpSatParams | None = None, **overrides: object) -> None:
        super().__init__(params, **overrides)
        #: box sizes this process has solved a model of (warm-up or run)
        self._warm_boxes: set[int] = set()

    def warmup(self) -> None:
        # the import (0.6 s) and CP-SAT's lazy first-solve set-up, kept out of timed runs
        self._warm_size(3)

    def warmup_for(self, puzzle: Puzzle) -> None:
        self._warm_size(puzzle.box)

    def _warm_size(self, box: int) -> None:
        """Solve an empty grid of this box size once, through the path a run takes."""
        if box in self._warm_boxes:
            return
        empty = Puzzle(box, (0,) * box ** 4)
        self.solve(empty, Budget(max_seconds=5.0), 0)
        self._warm_boxes.add(box)

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
        self._warm_boxes.add(puzzle.box)
        found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        if found:
            reason = StopReason.TARGET
        elif status == cp_model.INFEASIBLE:
            reason = StopReason.EXHAUSTED
        elif status == cp_model.UNKNOWN:
            reason = StopReason.CLOCK
        else:
            reason = StopReason.ERROR
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
            stop_reason=reason,
            extra={"model_build_s": build_s, "solve_wall_s": float(solver.wall_time),
                   "deterministic_time": float(solver.response_proto.deterministic_time),
                   "cpsat_status": solver.status_name(status)})
