"""The restart driver every stochastic native shares: fresh runs until the target, a budget or
the restarts end, then one :class:`~sudoku_compare.outcome.Outcome`.

Why one driver: annealing, the GA and both swarm families each wrote this loop (deadline,
evaluation settlement, counters, trace, Outcome) and they disagreed on what ``max_restarts``
meant (the workers/explorers swarm counted runs, the others extra runs). Written once, the
rules below hold for all of them, and a report can compare their stop reasons.

``max_restarts`` (every family): the number of *extra* runs after the first, each from a fresh
seeded start; ``0`` is one run, ``-1`` restarts until a budget ends.

A run is one heating phase (annealing), one GA run (until stagnation or its generations), one
swarm (its iterations or epochs). The compiled kernel of a run takes the :class:`Progress` of the
runs before it and returns the updated one, so no positional carry tuple crosses the boundary.
The driver begins another run only when the last one left the target unmet, evaluations and
time unspent, and restarts left; it reads the clock between runs, so a deadline that falls just
after a run is seen before a new start state is drawn.

Stop reason, in this order: ``target`` (best energy at or below ``budget.target``),
``evaluations`` (``budget.max_evaluations`` spent, exactly: each kernel is handed the absolute
limit and never evaluates past it), ``clock`` (a kernel or the driver saw the deadline),
``finished`` (the restarts ran out with budget left).

Schedule fraction: the share of the whole schedule, ``max_restarts + 1`` runs, completed:
``(runs before the last + the last run's own share) / (max_restarts + 1)``, where a run's share is
its cooling levels, generations, iterations or epochs done over their maximum (1 when the run
ended by its own rule, e.g. GA stagnation). With unlimited restarts there is no whole schedule,
so the fraction is the last run's share (how far the run in progress got). ``finished`` is 1.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import now
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.array_copy import copy2d
from sudoku_compare.vocabulary import StopReason

#: trace rows kept per run (new best energies only, so rarely reached)
TRACE_CAP = 4096
#: the best energy before anything was evaluated (above any real energy, fits an int64)
NO_ENERGY = 1 << 60
UNLIMITED = -1
#: start states drawn at a time when restarts are unlimited
RESTART_BATCH = 8
#: at most this many start states drawn at once when restarts are bounded: every bounded
#: schedule up to it draws all its starts first, as it always has (the seed-equality tests
#: pin that order); ``max_restarts=10**12`` drew a trillion grids before the first run
MAX_BOUNDED_BATCH = 1024
#: the largest population (GA) or swarm a native solver accepts: 10**5 grids of 25x25 are
#: 500 MB; a larger one cannot fit a worker's memory cap and only fails slowly
MAX_POPULATION = 100_000


def check_population(**sizes: int) -> None:
    """ValueError naming the first size above :data:`MAX_POPULATION`."""
    for name, size in sizes.items():
        if size > MAX_POPULATION:
            raise ValueError(f"{name} <= {MAX_POPULATION:,} (got {size:,}): a population "
                             "that large does not fit a worker's memory")


class Progress(NamedTuple):
    """What the runs so far reached; a kernel takes it and returns the next one.

    A NamedTuple (not a dataclass) because numba passes, builds and returns it in
    nopython mode; keep the field types fixed (int, int, int, bool, float) or each new
    combination compiles the kernel again."""

    #: best energy over every run so far (:data:`NO_ENERGY` before the first evaluation)
    best_energy: int
    #: objective evaluations over every run so far
    evaluations: int
    #: rows of the trace written so far
    n_trace: int
    #: the last run stopped because it saw the deadline
    timed_out: bool
    #: share of the last run's own schedule completed, 0..1
    run_fraction: float


@numba.njit(cache=True, inline="always")
def resume(progress):
    """``(best energy, evaluations, trace rows)`` where the runs before stopped: what every
    kernel carries through its run and hands back in the next :class:`Progress`."""
    return progress.best_energy, progress.evaluations, progress.n_trace


@numba.njit(cache=True, inline="always")
def trace_best(trace, n_trace, evaluations, best_energy, t_start):
    """Append the row ``(evaluations, seconds since t_start, best energy)`` while ``trace``
    has room; returns the row count. Called on each new best only, so it costs one clock
    read per improvement, nothing per move."""
    if n_trace < trace.shape[0]:
        trace[n_trace, 0] = evaluations
        trace[n_trace, 1] = now() - t_start
        trace[n_trace, 2] = best_energy
        n_trace += 1
    return n_trace


@numba.njit(cache=True, inline="always")
def keep_best(best, grid, energy, best_energy, trace, n_trace, evaluations, t_start):
    """Keep ``grid`` in ``best`` and trace it when ``energy`` beats ``best_energy``; returns
    ``(best energy, trace rows)``. Every stochastic kernel records a new best this way, so the
    best grid, the best energy and the trace cannot drift apart in one of them."""
    if energy < best_energy:
        copy2d(best, grid)
        return energy, trace_best(trace, n_trace, evaluations, energy, t_start)
    return best_energy, n_trace


class Restarts:
    """Runs of one stochastic solve under one budget, and the Outcome they make.

    ``for run in driver.runs(): driver.progress = kernel(..., driver.progress)`` then
    ``driver.outcome(...)``. The kernel also receives ``driver.trace`` (written in place,
    rows ``(evaluations, seconds since t_begin, best energy)``), ``driver.max_evaluations``
    (absolute limit), ``driver.deadline_at`` and ``driver.target``.
    """

    def __init__(self, budget: Budget, max_restarts: int) -> None:
        if max_restarts < UNLIMITED:
            raise ValueError("max_restarts >= -1 (-1: until a budget ends)")
        self.t_begin = now()
        self.deadline_at = self.t_begin + budget.max_seconds
        self.max_evaluations = budget.evaluations_or_max
        self.target = float(budget.target)
        self.max_restarts = max_restarts
        self.trace = np.zeros((TRACE_CAP, 3), dtype=np.float64)
        self.progress = Progress(NO_ENERGY, 0, 0, False, 0.0)
        self.runs_begun = 0
        self._deadline_between_runs = False

    def runs(self) -> Iterator[int]:
        """The index of each run to make (0 first), as long as another run may help."""
        for index in itertools.count():
            if index > 0 and not self._may_restart():
                return
            self.runs_begun = index + 1
            yield index

    def seeded_starts(self, draw: Callable[[], np.ndarray], rng: np.random.Generator
                      ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """``(start state, moves' generator state)`` for each run of :meth:`runs`.

        Start states are drawn by ``draw`` in batches (all of them at once when restarts
        are bounded, up to :data:`MAX_BOUNDED_BATCH`; :data:`RESTART_BATCH` at a time
        otherwise), and the kernel's SplitMix
        state is drawn from ``rng`` once, after the first batch: that order of draws, hence
        every result, is the one the seed-equality tests pin, and two solvers that draw their
        starts alike (native.sa, native.tabu) begin from the same start state.
        """
        batch = (RESTART_BATCH if self.max_restarts == UNLIMITED
                 else min(self.max_restarts + 1, MAX_BOUNDED_BATCH))
        drawn: list[np.ndarray] = []
        rng_state = None
        for _ in self.runs():
            if not drawn:
                drawn = [draw() for _ in range(batch)]
                if rng_state is None:
                    rng_state = rng.integers(0, 2 ** 64, dtype=np.uint64, size=1)
            yield drawn.pop(0), rng_state

    def _may_restart(self) -> bool:
        p = self.progress
        if (p.best_energy <= self.target or p.evaluations >= self.max_evaluations
                or p.timed_out):
            return False
        if self.max_restarts != UNLIMITED and self.runs_begun > self.max_restarts:
            return False
        if now() >= self.deadline_at:
            self._deadline_between_runs = True
            return False
        return True

    def record_best(self, evaluations: int, energy: int, n_trace: int) -> int:
        """:func:`trace_best` for a loop written in Python; returns the new row count."""
        return int(trace_best(self.trace, n_trace, evaluations, energy, self.t_begin))

    @property
    def stop_reason(self) -> StopReason:
        p = self.progress
        if p.best_energy <= self.target:
            return StopReason.TARGET
        if p.evaluations >= self.max_evaluations:
            return StopReason.EVALUATIONS
        if p.timed_out or self._deadline_between_runs:
            return StopReason.CLOCK
        return StopReason.FINISHED

    @property
    def schedule_fraction(self) -> float:
        if self.stop_reason == StopReason.FINISHED:
            return 1.0
        last = min(1.0, max(0.0, float(self.progress.run_fraction)))
        if self.max_restarts == UNLIMITED:
            return last
        return min(1.0, (self.runs_begun - 1 + last) / (self.max_restarts + 1))

    def outcome(self, grid: np.ndarray, *, iterations: int, counters: dict[str, int],
                best_energy: float | None = None) -> Outcome:
        """The Outcome of the whole solve; ``best_energy`` overrides the progress's when the
        family measured it itself (e.g. of a grid nothing was evaluated on)."""
        p = self.progress
        energy = float(p.best_energy if best_energy is None else best_energy)
        rows = [(int(ev), float(s), float(b)) for ev, s, b in self.trace[:p.n_trace]]
        return Outcome(
            grid=grid, claims_solved=energy == 0, evaluations=int(p.evaluations),
            iterations=int(iterations), restarts=max(self.runs_begun - 1, 0),
            best_energy=energy, counters={k: int(v) for k, v in counters.items()}, trace=rows,
            stop_reason=str(self.stop_reason), schedule_fraction=self.schedule_fraction)
