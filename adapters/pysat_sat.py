"""``pysat.sat``: a CDCL SAT solver from python-sat on the shared CNF, givens as assumptions.

Why this shape (measured on top95, 2-core machine, warm, python-sat 1.9.dev24):

- **Formula.** The clauses of :mod:`sudoku_compare.problems.encodings.sat_cnf` (one Boolean
  per cell and digit, exactly-one per cell and per unit-digit, pairwise at-most-one), the
  very formula ``z3.smt`` searches. They do not depend on the puzzle, so one solver per box
  size is loaded with them once (in :meth:`warmup_for`, or on first use, timed in
  ``extra["model_build_s"]``) and a puzzle is one ``solve_limited(assumptions=givens)``.
  A fresh solver per puzzle cost 3-10 ms (LIBRARIES.md section 10) against about 0.3 ms
  this way. The sequential counter (``at_most_one=sequential``) has fewer clauses but
  solved 2-3x slower (median 0.85-1.3 ms against 0.30-0.32 ms).
- **Solver.** ``glucose4`` (Glucose 4.1) by default: median 0.28 ms per top95 puzzle over
  three passes, tied within noise with glucose3, glucose42, gluecard4, maplesat, minisat22
  and minicard (0.275-0.300 ms); maplechrono and mergesat3 0.6 ms, maplecm 12 ms. Offered
  are the solvers that honour ``interrupt()``: CaDiCaL and Lingeling have no limited solve
  in pysat (their solve cannot be stopped but by killing the process), and kissat ignores
  assumptions (it returned grids that drop givens; LIBRARIES.md section 13), so none of
  them is offered.
- **Stop.** A watchdog thread calls ``interrupt()`` at the deadline, and ``solve_limited``
  with ``expect_interrupt=True`` then returns None: ``clock``. Glucose looks at the flag
  only between restarts (MiniSat at every decision), so a search that needs no restart
  (most Sudoku: a few hundred microseconds) finishes anyway; a long one stops within a
  restart. A run whose budget went on loading the clauses does not search at all. One
  thread per process, not a ``threading.Timer`` per solve, which costs about 90 microseconds (a third of a
  solve). The bench's hard deadline backs it.
- **Counters.** ``accum_stats()`` is cumulative over a solver's life: the counters are the
  per-puzzle differences of conflicts, decisions, propagations and restarts.
- **Seed.** Ignored: with these solvers a seed alone changed no conflict count (LIBRARIES.md
  section 10), so every seed is the same run. The solver keeps the clauses it learnt on
  earlier puzzles (they follow from the formula, so they never change which grids are
  solutions): the counters of a run, and the grid returned for a puzzle with several
  solutions, depend on the puzzles the same process solved before, as for ``z3.smt``:
  the solver is declared non-deterministic for that reason (a rerun of a campaign meets
  another worker history). One solver per (box size, solver, at-most-one) is kept per
  process, not per instance: the harness creates an instance per run.

Counterpart: ``native.bitmask``, for *equal time* only (CDCL is another algorithm); there
are no objective evaluations. ``stop_reason``: ``target`` (a solution), ``exhausted``
(unsatisfiable under the givens: no solution), ``clock`` (interrupted at the deadline).
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.sat_cnf import (
    AtMostOne,
    decode,
    given_literals,
    sudoku_cnf,
)
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

#: pysat solvers that take assumptions and stop on ``interrupt()``
SatSolverName = Literal["glucose4", "glucose3", "glucose42", "gluecard4", "minisat22",
                        "minicard", "maplesat", "maplechrono", "mergesat3"]
_COUNTERS = ("conflicts", "decisions", "propagations", "restarts")


@dataclass(frozen=True)
class PySatParams:
    #: the pysat solver (all take assumptions and honour ``interrupt``)
    solver: SatSolverName = "glucose4"
    #: at-most-one clauses of the shared CNF: pairwise (fastest) or sequential counter
    at_most_one: AtMostOne = "pairwise"


class _Watchdog:
    """One daemon thread that runs a callback at an instant, unless disarmed first.

    The callback runs under the lock that :meth:`disarm` takes, so once ``disarm`` has
    returned it cannot fire late into the next solve. The thread is only woken when a new
    instant comes before the one it sleeps until, so arming costs no context switch.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._at: float | None = None
        self._fire: Callable[[], None] | None = None
        self._sleeping_until = float("inf")
        self._thread: threading.Thread | None = None

    def arm(self, at: float, fire: Callable[[], None]) -> None:
        with self._cond:
            self._at, self._fire = at, fire
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="pysat-deadline",
                                                daemon=True)
                self._thread.start()
            elif at < self._sleeping_until:
                self._cond.notify()

    def disarm(self) -> None:
        with self._cond:
            self._at = self._fire = None

    def _loop(self) -> None:
        with self._cond:
            while True:
                if self._at is None or self._fire is None:
                    self._sleeping_until = float("inf")
                    self._cond.wait()
                    continue
                delay = self._at - time.perf_counter()
                if delay <= 0:
                    self._fire()
                    self._at = self._fire = None
                    continue
                self._sleeping_until = self._at
                self._cond.wait(delay)


@dataclass(eq=False)
class _Loaded:
    """One box size's solver, loaded with the clauses, and its statistics so far."""

    sat: Any
    counts: dict[str, int]


#: the loaded solver of each (box, solver, at_most_one) in this process: the harness makes a
#: new instance per run, so an instance attribute would reload the clauses every run
_LOADED: dict[tuple[int, str, str], _Loaded] = {}
#: one deadline thread per process (a thread per instance would be one per run)
_WATCHDOG = _Watchdog()


@atexit.register
def _delete_solvers() -> None:
    """Free the kept solvers before interpreter shutdown: pysat's ``__del__`` run during
    shutdown, after its C module is gone, prints a TypeError per solver to stderr."""
    while _LOADED:
        _LOADED.popitem()[1].sat.delete()


@register
class PySatSat(Solver):
    name = "pysat.sat"
    family = "exact"
    origin = "pysat"
    distribution = "python-sat"
    encoding = "sat-cnf"
    Params = PySatParams
    #: the learnt clauses a worker's solver keeps make counters depend on its history
    deterministic = False
    requires = ("pysat",)
    extra = "pysat"
    description = ("python-sat (Glucose 4.1 by default) on the shared one-hot CNF loaded once "
                   "per box size, givens as assumptions, interrupted at the deadline; ignores "
                   "the seed; counters depend on the puzzles the same worker solved before "
                   "(learnt clauses kept). native.bitmask is its counterpart for equal time "
                   "only (other algorithm)")
    counterpart = "native.bitmask"

    def warmup(self) -> None:
        # the import, the 9x9 clauses and the solver's first search, outside timed runs
        self._warm_size(3)

    def warmup_for(self, puzzle: Puzzle) -> None:
        self._warm_size(puzzle.box)

    def _warm_size(self, box: int) -> None:
        if self._key(box) not in _LOADED:
            self.solve(Puzzle(box, (0,) * box ** 4), Budget(max_seconds=10.0), 0)

    def _key(self, box: int) -> tuple[int, str, str]:
        return box, self.params.solver, self.params.at_most_one

    def _load(self, box: int) -> _Loaded:
        from pysat.solvers import Solver as PySolver

        loaded = _LOADED.get(self._key(box))
        if loaded is None:
            cnf = sudoku_cnf(box, self.params.at_most_one)
            sat = PySolver(name=self.params.solver, bootstrap_with=cnf.clauses)
            loaded = _LOADED[self._key(box)] = _Loaded(sat, dict.fromkeys(_COUNTERS, 0))
        return loaded

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        t0 = time.perf_counter()
        deadline = t0 + budget.max_seconds
        built = self._key(puzzle.box) not in _LOADED
        loaded = self._load(puzzle.box)
        build_s = time.perf_counter() - t0 if built else 0.0
        sat = loaded.sat
        givens = given_literals(puzzle)
        t1 = time.perf_counter()
        result: bool | None = None
        if t1 < deadline:  # else the budget went on loading the clauses: no search at all
            _WATCHDOG.arm(deadline, sat.interrupt)
            try:
                result = sat.solve_limited(assumptions=givens, expect_interrupt=True)
            finally:
                _WATCHDOG.disarm()
                sat.clear_interrupt()
        solve_s = time.perf_counter() - t1
        stats = sat.accum_stats()
        counts = {k: int(stats.get(k, 0)) for k in _COUNTERS}
        counters = {k: counts[k] - loaded.counts[k] for k in _COUNTERS}
        loaded.counts = counts
        found = result is True
        if found:
            reason = StopReason.TARGET
            grid = decode(sat.get_model(), puzzle.box)
        else:
            reason = StopReason.EXHAUSTED if result is False else StopReason.CLOCK
            grid = puzzle.flat()
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=found,
                       best_energy=0.0 if found else None,
                       iterations=counters["decisions"], restarts=counters["restarts"],
                       counters={k: counters[k] for k in _COUNTERS if k != "restarts"},
                       stop_reason=reason,
                       extra={"model_build_s": build_s, "solve_s": solve_s,
                              "sat_solver": self.params.solver,
                              "sat_result": {True: "sat", False: "unsat"}.get(result, "unknown")})
