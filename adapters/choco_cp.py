"""``choco.cp``: the Choco constraint solver (pychoco 0.4.0) with one all_different per unit.

Why this shape (measured on top95, 2-core machine, warm, pychoco 0.4.0):

- **Model per puzzle.** A Choco solver cannot be reused for a second ``solve`` (it returns
  False, state TERMINATED), so every puzzle gets its own model: one integer variable per
  free cell, a constant per given, ``all_different`` per row, column and box. Build,
  solve and read back together took a median 0.9 ms.
- **Consistency** of ``all_different`` is the parameter ``consistency``, default the
  library's own (``AC``, Zhang's improvement of Regin): median 0.91 ms; ``AC_REGIN``
  1.42 ms and ``AC_ZHANG`` 1.33 ms (same nodes as AC), ``DEFAULT`` 1.34 ms, ``BC`` 2.15 ms
  with 10,668 fails over top95 against 569. Any other string kills the interpreter inside
  the native image (no Python exception), so the parameter is a closed list.
- **Stop.** Choco's time limit, written in seconds (``"0.250s"``: a limit written
  ``"250ms"`` imposes none), is the cooperative stop. A hit limit returns False like an
  infeasible model; the search state tells them apart (``STOPPED``: ``clock``,
  ``TERMINATED``: ``exhausted``). The bench's hard deadline backs it.
- **Counters:** nodes, backtracks and fails of the search. ``Solver.get_node_count()`` of
  pychoco 0.4.0 returns the time count, so nodes are read from the backend directly.
- **Seed.** Ignored: the default search is deterministic (only ``set_random_search``
  takes a seed), so every seed is the same run.
- **Warm-up:** importing pychoco takes about 50 ms and the first solve of a process
  2 ms against 0.9 ms later; :meth:`warmup` solves a 9x9 model once.
- **Memory.** pychoco keeps about 165-175 KB of every solve it never frees (measured over
  6,000 solves in one process: RSS 46 MB, 376 MB after 2,000, 749 MB after 4,000; the data
  segment grows alike). ``runs_per_worker`` makes the local executor replace a worker after
  2,000 runs: a worker with every exact library warm held a 314 MB data segment, 643 MB
  after 2,000 Choco solves, far under the default 3 GB cap, which one worker would reach
  after roughly 16,000 solves (extrapolated from that slope, not run).
- **Address space.** The native image reserves 32 GB of virtual address space when it
  is loaded (GraalVM's heap reservation; oracle/graal#8476), so pychoco cannot even be
  imported in a process whose address space is capped below that (``RLIMIT_AS``: it
  prints ``graal_create_isolate error`` and the interpreter exits). That is why the
  bench's workers cap the data segment (``RLIMIT_DATA``), which the leak does fill.

Counterpart: ``native.bitmask``, for *equal time* only (propagation and search of another
algorithm); there are no objective evaluations. ``stop_reason``: ``target`` (a solution),
``exhausted`` (proved infeasible), ``clock`` (the time limit), ``error`` (any other state).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

#: the consistency levels pychoco's ``all_different`` accepts (any other string is fatal)
Consistency = Literal["AC", "AC_REGIN", "AC_ZHANG", "BC", "DEFAULT"]


@dataclass(frozen=True)
class ChocoParams:
    #: all_different's filtering: AC (the library's default), AC_REGIN, AC_ZHANG, BC, DEFAULT
    consistency: Consistency = "AC"


def build_model(puzzle: Puzzle, consistency: str):
    """Choco model: one int var per free cell, a constant per given, all_different per unit."""
    from pychoco import Model

    model = Model()
    x = [model.intvar(1, puzzle.side) if d == 0 else model.intvar(d) for d in puzzle.cells]
    for unit in puzzle.topology.units:
        model.all_different([x[int(i)] for i in unit], consistency).post()
    return model, x


@register
class ChocoCp(Solver):
    name = "choco.cp"
    family = "exact"
    origin = "choco"
    distribution = "pychoco"
    encoding = "csp-alldifferent"
    Params = ChocoParams
    deterministic = True
    requires = ("pychoco",)
    extra = "choco"
    #: pychoco never frees about 170 KB a solve: a fresh worker every 2,000 runs
    runs_per_worker = 2000
    description = ("Choco (pychoco), all_different per unit (consistency AC, the library's "
                   "default), time limit, default deterministic search (ignores the seed); "
                   "native.bitmask is its counterpart for equal time only (other algorithm)")
    counterpart = "native.bitmask"

    def warmup(self) -> None:
        # the import (50 ms) and the first solve of a process (2 ms against 0.9 ms later)
        self.solve(Puzzle(3, (0,) * 81), Budget(max_seconds=5.0), 0)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        from pychoco import backend

        t0 = time.perf_counter()
        model, x = build_model(puzzle, self.params.consistency)
        solver = model.get_solver()
        build_s = time.perf_counter() - t0
        remaining = max(1e-3, budget.max_seconds - build_s)
        solver.limit_time(f"{remaining:.3f}s")  # seconds: "…ms" would impose no limit
        found = bool(solver.solve())
        state = str(solver.get_search_state())
        if found:
            reason = StopReason.TARGET
            grid = np.array([v.get_value() for v in x], dtype=np.int64)
        else:
            reason = {"STOPPED": StopReason.CLOCK,
                      "TERMINATED": StopReason.EXHAUSTED}.get(state, StopReason.ERROR)
            grid = puzzle.flat()
        nodes = int(backend.get_node_count(solver._handle))  # the wrapper's returns a time
        return Outcome(
            grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=found,
            best_energy=0.0 if found else None, iterations=nodes,
            counters={"nodes": nodes, "backtracks": int(solver.get_backtrack_count()),
                      "fails": int(solver.get_fail_count())},
            stop_reason=reason,
            extra={"model_build_s": build_s, "search_state": state,
                   "consistency": self.params.consistency})
