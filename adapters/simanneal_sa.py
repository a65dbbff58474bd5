"""``simanneal.sa``: simanneal's ``Annealer`` on the shared row-permutation encoding.

Same state, start and objective as ``native.sa``: the start state is
``row_permutation.initial_state`` from the run's seeded ``numpy.random.Generator``, a move
swaps two free cells of one row and returns ``row_permutation.swap_delta`` (so simanneal
never recounts the energy: one move = one evaluation, charged to the shared counter), and
the schedule is the native one mapped onto simanneal's exponential cooling: ``Tmax`` = T0,
``Tmin``, and ``steps`` = iterations per temperature x the number of geometric levels from
T0 down to Tmin. simanneal cools continuously where native.sa cools in steps of 100
iterations; the end points and the rate are the same. Restarts, as native.sa, from a new
seeded start when a schedule ends unsolved.

What simanneal lacks, done here: ``user_exit`` (checked by its loop on every step) is set
from ``move`` at the target energy, at the evaluation budget and at the deadline;
``update`` is silenced; the copy strategy is ``method`` (``ndarray.copy``; simanneal copies
on every step, and its default deepcopy is many times slower); and the Ctrl-C handler that
``Annealer.__init__`` installs process-wide is put back at once. simanneal's Metropolis
test draws from the global ``random``, seeded here with the run's seed, and so are the
moves; the numpy Generator of the run is used only for the start state.

Counterpart: ``native.sa`` (same encoding module, start states, move distribution, delta
kernel, Metropolis rule, end temperatures, cooling rate and restarts; what differs is the
continuous cooling and the random numbers, simanneal's from ``random``). ``stop_reason``:
``target``, ``evaluations`` (exactly the budget: the move that would pass it is not made),
``clock``, or ``finished`` (every schedule ran out); ``schedule_fraction`` is the share of
the ``(max_restarts + 1) x steps`` moves of the whole schedule that were made (None with
``max_restarts=-1``, restarts until the budget is spent: that schedule has no end).
"""

from __future__ import annotations

import itertools
import math
import random
import signal
import threading
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.encodings.counter import EvaluationCounter
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason
from sudoku_compare.warming import warm_by_solving


@dataclass(frozen=True)
class SimannealParams:
    #: start temperature (native.sa's T0)
    t0: float = 1.0
    #: geometric cooling factor per level (native.sa's alpha)
    alpha: float = 0.999
    #: iterations per temperature level (native.sa's)
    iterations_per_temperature: int = 100
    #: final temperature (native.sa's Tmin)
    t_min: float = 0.001
    #: new starts after an unsolved schedule (native.sa's; -1: until the budget is spent)
    max_restarts: int = 5
    #: simanneal's state copy: 'method' (ndarray.copy) or 'deepcopy' (its default, slow);
    #: its 'slice' would alias a numpy state, not copy it
    copy_strategy: Literal["method", "deepcopy"] = "method"

    def __post_init__(self) -> None:
        if self.max_restarts < -1:
            raise ValueError("max_restarts >= -1 (-1: restart until the budget is spent)")
        # the schedule's length is log(t_min / t0) / log(alpha): native.sa's own ranges
        if not (0 < self.alpha < 1 and 0 < self.t_min < self.t0):
            raise ValueError("need 0 < alpha < 1 and 0 < t_min < t0")
        if self.iterations_per_temperature < 1:
            raise ValueError("iterations_per_temperature >= 1")


def schedule_steps(p: SimannealParams) -> int:
    """Steps of one schedule: levels from t0 to t_min at ``alpha``, times iterations per level."""
    levels = math.ceil(math.log(p.t_min / p.t0) / math.log(p.alpha))
    return max(1, levels * p.iterations_per_temperature)


def _make_annealer_class():
    from simanneal import Annealer

    class RowSwapAnnealer(Annealer):
        """Row-swap moves returning the delta; stops itself through ``user_exit``."""

        def __init__(self, state, *, box, free_rows, counter: EvaluationCounter, deadline,
                     target, trace, start, copy_strategy):
            self.copy_strategy = copy_strategy
            if threading.current_thread() is threading.main_thread():
                previous = signal.getsignal(signal.SIGINT)
                super().__init__(state)  # installs simanneal's SIGINT handler...
                signal.signal(signal.SIGINT, previous)  # ...which must not outlive the run
            else:  # the base __init__ would raise off the main thread; it only copies the state
                self.state = self.copy_state(state)
            self.box = box
            self.free_rows = free_rows
            self.counter = counter
            self.deadline = deadline
            self.target = target
            self.trace = trace
            self.run_start = start  # simanneal sets self.start itself (time.time)
            self.traced_best = math.inf
            self.updates = 0
            self.user_exit = False

        def move(self):
            counter = self.counter
            best = self.best_energy
            if best is not None and best < self.traced_best:
                self.traced_best = best
                self.trace.append((counter.count, time.perf_counter() - self.run_start, float(best)))
            if (best is not None and best <= self.target) or counter.exhausted() or (
                    counter.count & 63 == 0 and self.deadline.expired()):
                self.user_exit = True
                return 0.0  # no move, no evaluation: simanneal stops before the next step
            row, cols = self.free_rows[int(random.random() * len(self.free_rows))]
            i, j = random.sample(range(len(cols)), 2)
            c1, c2 = cols[i], cols[j]
            counter.add(1)
            delta = rp.swap_delta(self.state, row, c1, c2, self.box)
            rp.apply_swap(self.state, row, c1, c2)
            return float(delta)

        def energy(self):
            self.counter.add(1)
            return float(rp.energy(self.state, self.box))

        def update(self, *args, **kwargs):
            """Silent: simanneal would print a progress table to stderr."""

    return RowSwapAnnealer


@register
class SimannealSa(Solver):
    name = "simanneal.sa"
    family = "annealing"
    origin = "simanneal"
    encoding = "row-permutation"
    Params = SimannealParams
    deterministic = True
    stochastic = True
    requires = ("simanneal",)
    extra = "simanneal"
    description = ("simanneal Annealer, row swaps with the shared delta, native.sa's schedule; "
                   "its Metropolis test uses the global random (seeded per run), not the run's "
                   "numpy Generator")
    counterpart = "native.sa"

    def warmup(self) -> None:
        from sudoku_compare.problems.topology import topology

        warm_by_solving(self)  # simanneal, the shared kernels, the annealer class
        topology(3)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        annealer_cls = _make_annealer_class()
        rng = np.random.default_rng(seed)
        random.seed(seed)  # simanneal's Metropolis test and the moves
        layout = rp.RowLayout.for_puzzle(puzzle)
        free_rows = [(int(r), [int(c) for c in layout.free_cols[r, :layout.n_free[r]]])
                     for r in layout.rows_with_two()]
        counter = EvaluationCounter(budget.max_evaluations)
        deadline = budget.deadline()
        start = time.perf_counter()
        trace: list[tuple[int, float, float]] = []
        steps = schedule_steps(p)
        best_state, best_energy = None, math.inf
        runs = 0
        # native.sa's start states: the same draws from the same seeded Generator, in order
        # (drawn one per start, so an unlimited run draws as many as it uses)
        n_starts = None if p.max_restarts < 0 else p.max_restarts + 1
        for _ in itertools.count() if n_starts is None else range(n_starts):
            state = rp.initial_state(puzzle, rng)
            if not free_rows:  # nothing to move: the start state is the only state
                counter.add(1)
                e = float(rp.energy(state, puzzle.box))
                best_state, best_energy = state, e
                break
            a = annealer_cls(state, box=puzzle.box, free_rows=free_rows, counter=counter,
                             deadline=deadline, target=budget.target, trace=trace,
                             start=start, copy_strategy=p.copy_strategy)
            a.Tmax, a.Tmin, a.steps = p.t0, p.t_min, steps
            runs += 1
            s, e = a.anneal()
            if e < best_energy:
                best_state, best_energy = s.copy(), float(e)
            if a.best_energy < a.traced_best:
                trace.append((counter.count, time.perf_counter() - start, float(a.best_energy)))
            if best_energy <= budget.target or counter.exhausted() or deadline.expired():
                break
        # the schedule ran out by itself: every start annealed to its last step, no user_exit
        schedule_done = not free_rows or (runs == n_starts and not a.user_exit)
        if best_energy <= budget.target:
            reason = StopReason.TARGET
        elif schedule_done:
            reason = StopReason.FINISHED
        elif counter.exhausted():
            reason = StopReason.EVALUATIONS
        else:
            reason = StopReason.CLOCK
        moves = counter.count - max(runs, 1)  # one energy per start, one evaluation per move
        return Outcome(grid=best_state, claims_solved=best_energy == 0,
                       evaluations=counter.count, iterations=moves,
                       restarts=max(0, runs - 1), best_energy=best_energy, trace=trace,
                       stop_reason=reason,
                       schedule_fraction=1.0 if not free_rows else None if n_starts is None
                       else min(1.0, moves / (steps * n_starts)),
                       extra={"steps_per_schedule": steps, "tmax": p.t0, "tmin": p.t_min})
