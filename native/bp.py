"""``native.bp``: loopy belief propagation with decimation, the probabilistic approach the seeds'
positioning table lists (Infer.NET, "expérimental").

Why it is here: the seeds place probabilistic inference beside search and call it experimental;
this solver measures how far inference carries on the project's sets, and says honestly where
it stops. The model and the loop are in :mod:`sudoku_compare.native.bp_kernel` (compiled with
numba): sum-product messages between the cell-digit variables and the "exactly one" factors of
every cell and every (unit, digit), each factor in O(n) from sums of odds, damped in the log
domain; then decimation (fix the most certain unfixed cell, propagate the hard constraints,
run BP again from the current messages) until the grid is full or a contradiction appears.

What happens at a contradiction (a cell with no candidate, a unit with no place for a digit):

- before any decimation it is a proof that the puzzle has no solution: ``exhausted``;
- after one, BP guessed wrong: the run *restarts* from the givens with messages drawn in
  ``[-restart_noise, restart_noise]`` (seeded), up to ``max_restarts`` times (0: give up at the
  first contradiction);
- when the restarts are spent, ``fallback`` decides: ``none`` (the default) stops with status
  ``unsolved`` (``stop_reason`` ``finished``), the grid being the position before the last
  decimation; ``search`` finishes with native.bitmask's complete search from the givens
  (registered as ``native.bp-search``), counted in ``counters["search"]`` (1) and
  ``counters["search_guesses"]``, so a report never mistakes it for inference.

``counters["inference"]`` is 1 when the grid was completed by BP, decimation and propagation
alone; ``counters["decimations"]`` 0 as well means the hard constraints (singles, with
``singles``) solved it before BP had to decide anything. With ``singles=False`` only the
eliminations of placed digits are applied and every other placement is BP's decision.

Counters: ``bp_iterations`` (sweeps over every factor), ``bp_calls`` (one per decimation step),
``decimations``, ``contradictions``, ``restarts``, ``unconverged`` (BP calls that hit
``max_iterations`` before the messages settled; their beliefs are used anyway),
``propagated`` (placements by the singles), ``inference``, ``search``, ``search_guesses``.
``evaluations`` stays 0: BP evaluates no objective, and like the other complete-search natives
it is not a stochastic solver (no evaluation budget, no target energy); the seed only breaks
ties and draws the restart messages, so the same seed gives the same outcome.

The deadline is read before every BP call and every 20,000 variable updates inside one.

Defaults and measured figures (``reports/probabilistic.md``, 3 seeds a puzzle, 10 s a run):
damping 0.5, tolerance 1e-3, 100 sweeps a call and 10 restarts solve by inference alone every
run of generated-easy (the singles alone finish them), easy51 and generated-16x16, 148/150
runs of generated-medium, 132/150 of generated-hard, 28/33 of hardest and 101/285 (35 %) of
top95, where 6 puzzles are solved on every seed and 62 on some seed; native.bp-search solves
every run of every set, and no run meets the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native import bp_kernel as kernel
from sudoku_compare.native.bitmask import SOLVED as SEARCH_SOLVED
from sudoku_compare.native.bitmask import UNSOLVABLE as SEARCH_UNSOLVABLE
from sudoku_compare.native.bitmask import solve_grid
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

Fallback = Literal["none", "search"]


@dataclass(frozen=True)
class BPParams:
    """native.bp's settings (the seeds give none: these are the measured defaults)."""

    #: share of the old message kept at each update, in the log domain (0: no damping)
    damping: float = 0.5
    #: BP has converged when no message moved by more than this (log ratio)
    tol: float = 1e-3
    #: sweeps over every factor per decimation step, at most
    max_iterations: int = 100
    #: place naked and hidden singles after every decimation (False: eliminations only)
    singles: bool = True
    #: restarts from the givens after a contradiction (0: give up at the first one)
    max_restarts: int = 10
    #: restart messages are drawn uniformly in [-restart_noise, restart_noise]
    restart_noise: float = 1.0
    #: when the restarts are spent: stop unsolved, or finish by native.bitmask's search
    fallback: Fallback = "none"

    def __post_init__(self) -> None:
        if not 0.0 <= self.damping < 1.0:
            raise ValueError("damping must be in [0, 1)")
        if not self.tol > 0.0 or self.max_iterations < 1:
            raise ValueError("tol > 0 and max_iterations >= 1")
        if self.max_restarts < 0 or self.restart_noise < 0.0:
            raise ValueError("max_restarts >= 0 and restart_noise >= 0")
        if self.fallback not in ("none", "search"):
            raise ValueError("fallback must be none or search")


def _rng_state(seed: int) -> np.ndarray:
    """The kernel's SplitMix64 state: one 64-bit draw of the seed's Generator."""
    return np.random.default_rng(seed).integers(0, 2**64, dtype=np.uint64, size=1)


def run_bp(puzzle: Puzzle, params: BPParams, deadline_at: float, seed: int
           ) -> tuple[np.ndarray, int, dict[str, int]]:
    """(flat grid, kernel status, counters) of BP with decimation on ``puzzle``, no fallback."""
    topo = topology(puzzle.box)
    givens = np.asarray(puzzle.flat(), dtype=np.int64)
    out = np.zeros(puzzle.n_cells, dtype=np.int64)
    counts = np.zeros(kernel.N_COUNTERS, dtype=np.int64)
    status = kernel.solve_bp(givens, topo.units, topo.peers, puzzle.side, params.singles,
                             params.damping, params.tol, params.max_iterations,
                             params.max_restarts, params.restart_noise, deadline_at,
                             _rng_state(seed), out, counts)
    names = ("bp_iterations", "bp_calls", "decimations", "contradictions", "restarts",
             "unconverged", "propagated")
    return out, int(status), {k: int(v) for k, v in zip(names, counts, strict=True)}


@register
class BeliefPropagation(Solver):
    name = "native.bp"
    family = "probabilistic"
    encoding = "sat-cnf"
    Params = BPParams
    deterministic = True
    stochastic = False
    #: no library here runs BP on Sudoku (Infer.NET is .NET only)
    counterpart = None
    description = ("loopy belief propagation (sum-product, exactly-one factors per cell and "
                   "unit-digit, damped) with decimation and restarts; unsolved when inference "
                   "fails (numba)")

    def warmup(self) -> None:
        # a 4x4 that needs decimation, a restart and the clock read: every compiled path
        self.solve(Puzzle(2, (0,) * 16), Budget(max_seconds=5), 0)
        run_bp(Puzzle(2, (0,) * 16), BPParams(max_restarts=1), -1.0, 0)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        deadline = budget.deadline().at
        flat, status, counters = run_bp(puzzle, p, deadline, seed)
        counters.update(inference=int(status == kernel.SOLVED), search=0, search_guesses=0)
        solved = status == kernel.SOLVED
        if status == kernel.SOLVED:
            reason = StopReason.TARGET
        elif status == kernel.EXHAUSTED:
            reason = StopReason.EXHAUSTED
        elif status == kernel.CLOCK:
            reason = StopReason.CLOCK
        elif p.fallback == "search":
            flat, found, guesses = solve_grid(puzzle, deadline=deadline)
            counters.update(search=1, search_guesses=guesses)
            solved = found == SEARCH_SOLVED
            reason = (StopReason.TARGET if solved else StopReason.EXHAUSTED
                      if found == SEARCH_UNSOLVABLE else StopReason.CLOCK)
        else:
            reason = StopReason.FINISHED
        return Outcome(grid=flat.reshape(puzzle.side, puzzle.side), claims_solved=solved,
                       iterations=counters["bp_iterations"], restarts=counters["restarts"],
                       counters=counters, stop_reason=str(reason))


register(BeliefPropagation, name="native.bp-search", fallback="search",
         description="native.bp, finished by native.bitmask's search when inference fails")
