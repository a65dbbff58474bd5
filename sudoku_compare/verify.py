"""Turning what a solver claims into a verdict: the grid is checked, never trusted."""

from __future__ import annotations

from sudoku_compare.problems.checker import changes_a_given, violations
from sudoku_compare.problems.puzzle import Puzzle

from .outcome import Outcome, Status


def verify(puzzle: Puzzle, outcome: Outcome) -> Outcome:
    """Set ``outcome.status`` from the independent checker.

    * a grid that changes a given, or a claimed solution that is not one: ``invalid``;
    * a grid that is a solution: ``solved`` (even if the solver did not claim it);
    * anything else: ``unsolved`` (a best-effort grid with conflicts, or no grid).
    Statuses the bench already set (timeout, memout, error) are kept.
    """
    if outcome.status in (Status.TIMEOUT, Status.MEMOUT, Status.ERROR):
        return outcome
    grid = outcome.grid
    if grid is None:
        outcome.status = Status.INVALID if outcome.claims_solved else Status.UNSOLVED
        if outcome.claims_solved:
            outcome.violations = ["claimed solved but returned no grid"]
        return outcome
    found = violations(puzzle, grid)
    if not found:
        outcome.status = Status.SOLVED
        outcome.violations = []
    elif changes_a_given(puzzle, grid) or outcome.claims_solved:
        outcome.status = Status.INVALID
        outcome.violations = [str(v) for v in found[:10]]
    else:
        outcome.status = Status.UNSOLVED
        outcome.violations = []
    return outcome
