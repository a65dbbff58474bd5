"""Counting the solutions of a puzzle, independently of every solver in ``native``.

The generator needs "does this puzzle still have exactly one solution?" thousands of
times, so the counter is a small numba kernel: row/column/box digit masks, the empty
cell with the fewest candidates first (MRV), an explicit stack instead of recursion,
and a stop as soon as ``limit`` solutions are found. The same kernel, given a random
digit order per cell, fills an empty grid at random (:func:`random_solution`).
It deliberately shares no code with ``native/`` so that it can check their answers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .puzzle import Puzzle


@njit(cache=True)
def _search(cells, box, limit, order, out):  # pragma: no cover - compiled
    """Depth-first search; returns the number of solutions found (at most ``limit``).

    ``order[cell]`` lists the digits 1..N in the order they are tried; the first solution
    found is written to ``out``.
    """
    side = box * box
    n = side * side
    grid = cells.copy()
    rows = np.zeros(side, np.int64)
    cols = np.zeros(side, np.int64)
    boxes = np.zeros(side, np.int64)
    for i in range(n):
        v = grid[i]
        if v:
            r, c = i // side, i % side
            b = (r // box) * box + c // box
            bit = np.int64(1) << (v - 1)
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return 0  # a digit given twice in a unit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
    full = (np.int64(1) << side) - 1
    stack_cell = np.empty(n + 1, np.int64)
    stack_pos = np.empty(n + 1, np.int64)
    depth = 0
    found = 0
    descend = True
    while True:
        if descend:
            best = -1
            best_count = side + 1
            for i in range(n):
                if grid[i] == 0:
                    r, c = i // side, i % side
                    b = (r // box) * box + c // box
                    free = full & ~(rows[r] | cols[c] | boxes[b])
                    k = 0
                    while free:
                        free &= free - 1
                        k += 1
                    if k < best_count:
                        best_count = k
                        best = i
                        if k <= 1:
                            break
            if best < 0:  # no empty cell left: a solution
                if found == 0:
                    out[:] = grid
                found += 1
                if found >= limit:
                    return found
            elif best_count > 0:
                stack_cell[depth] = best
                stack_pos[depth] = 0
                depth += 1
        # advance the top of the stack: undo its digit, place its next candidate
        if depth == 0:
            return found
        top = depth - 1
        i = stack_cell[top]
        r, c = i // side, i % side
        b = (r // box) * box + c // box
        if grid[i]:
            bit = np.int64(1) << (grid[i] - 1)
            rows[r] &= ~bit
            cols[c] &= ~bit
            boxes[b] &= ~bit
            grid[i] = 0
        used = rows[r] | cols[c] | boxes[b]
        p = stack_pos[top]
        descend = False
        while p < side:
            v = order[i, p]
            p += 1
            bit = np.int64(1) << (v - 1)
            if not used & bit:
                grid[i] = v
                rows[r] |= bit
                cols[c] |= bit
                boxes[b] |= bit
                descend = True
                break
        stack_pos[top] = p
        if not descend:
            depth -= 1


def _natural_order(box: int) -> np.ndarray:
    side = box * box
    return np.tile(np.arange(1, side + 1, dtype=np.int64), (side * side, 1))


def count_solutions(puzzle: Puzzle, limit: int = 2) -> int:
    """How many solutions ``puzzle`` has, counting no further than ``limit``.

    ``count_solutions(p) == 1`` is the generator's uniqueness test; 0 means no solution
    (including givens that already clash).
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    out = np.zeros(puzzle.n_cells, np.int64)
    return int(_search(puzzle.flat(), puzzle.box, limit, _natural_order(puzzle.box), out))


def first_solution(puzzle: Puzzle) -> np.ndarray | None:
    """The first solution in natural digit order (flat int64 array), or None."""
    out = np.zeros(puzzle.n_cells, np.int64)
    if _search(puzzle.flat(), puzzle.box, 1, _natural_order(puzzle.box), out) == 0:
        return None
    return out


def random_solution(box: int, rng: np.random.Generator) -> np.ndarray:
    """A random complete grid (flat), drawn by searching with a random digit order per cell.

    From box 5 on, that search can wander for minutes before it fills a 25x25 grid (seen:
    219 s for one seed, 1-3 s for most), so a 25x25 grid is instead the pattern grid under
    random symmetries that keep a grid valid (digit relabelling, rows within bands, bands,
    columns within stacks, stacks, transposition): instant, though not uniform over all
    grids, which the generated puzzles do not need.
    """
    if box >= 5:
        return _shuffled_pattern(box, rng)
    side = box * box
    order = np.argsort(rng.random((side * side, side)), axis=1).astype(np.int64) + 1
    out = np.zeros(side * side, np.int64)
    if _search(np.zeros(side * side, np.int64), box, 1, order, out) != 1:  # pragma: no cover
        raise RuntimeError("an empty grid always has a solution")
    return out


def _shuffled_pattern(box: int, rng: np.random.Generator) -> np.ndarray:
    side = box * box
    r = np.arange(side)
    grid = (box * (r[:, None] % box) + r[:, None] // box + r[None, :]) % side + 1
    def lines() -> np.ndarray:
        bands = rng.permutation(box)
        return np.concatenate([b * box + rng.permutation(box) for b in bands])
    grid = grid[lines()][:, lines()]
    if rng.random() < 0.5:
        grid = grid.T
    relabel = np.concatenate([[0], rng.permutation(side) + 1])
    return relabel[grid].astype(np.int64).reshape(-1)
