"""A solver that breaks two points of the contract on purpose, to test the checks themselves.

``test.noisy-greedy`` prints on stdout and spends twice its evaluation budget; everything
else it does by the book (a seeded random fill, the target energy honoured, a stop reason
given), so exactly the ``silent`` and ``evaluation_budget`` checks must fail.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sudoku_compare import Budget, Outcome, Solver, StopReason, register
from sudoku_compare.problems.puzzle import Puzzle


def conflicts(grid: np.ndarray, box: int) -> int:
    """Repeated digits over rows, columns and boxes (0 for a solution)."""
    side = box * box
    units = [grid[r, :] for r in range(side)] + [grid[:, c] for c in range(side)] + [
        grid[r:r + box, c:c + box].ravel() for r in range(0, side, box) for c in range(0, side, box)]
    return int(sum(side - len(set(u.tolist())) for u in units))


@dataclass(frozen=True)
class NoisyParams:
    tries_per_evaluation: int = 1


@register
class NoisyGreedy(Solver):
    name = "test.noisy-greedy"
    family = "annealing"
    origin = "native"
    encoding = "grid"
    Params = NoisyParams
    stochastic = True
    boxes = (2, 3)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        print("searching...")  # breaks "silent"
        rng = np.random.default_rng(seed)
        base, free = puzzle.grid(), puzzle.grid() == 0
        deadline = budget.deadline()
        best, best_energy, evaluations = base, None, 0
        limit = 2 * budget.evaluations_or_max  # breaks "evaluation_budget"
        reason = StopReason.EVALUATIONS
        while evaluations < limit:
            if deadline.expired():
                reason = StopReason.CLOCK
                break
            grid = base.copy()
            grid[free] = rng.integers(1, puzzle.side + 1, int(free.sum()))
            energy = conflicts(grid, puzzle.box)
            evaluations += 1
            if best_energy is None or energy < best_energy:
                best, best_energy = grid, energy
            if best_energy <= budget.target:
                reason = StopReason.TARGET
                break
        return Outcome(grid=best, claims_solved=best_energy == 0, evaluations=evaluations,
                       best_energy=best_energy, stop_reason=reason)
