"""Puzzles with exactly one solution, seeded and reproducible byte for byte.

A puzzle is made in two steps, every random choice drawn from one
``numpy.random.default_rng(seed)``:

1. a random complete grid (:func:`.solutions.random_solution`: a search with a random
   digit order per cell);
2. givens removed one at a time in a random cell order, each removal kept only if the
   puzzle still has exactly one solution (:func:`.solutions.count_solutions` with limit
   2). It stops at ``clues`` givens, or when no given can go: one pass yields a *minimal*
   puzzle, since a given whose removal once allowed a second solution still does with
   fewer givens.

:func:`generate_set` repeats this, rating every puzzle (:mod:`.rating`), and keeps those
of the wanted band until it has ``count``. The same arguments give the same puzzles, in
the same order, on every machine (numpy's PCG64 stream and the integer search are
platform independent).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .formatting import format_line
from .puzzle import Puzzle
from .rating import BANDS, Rating, rate
from .solutions import count_solutions, random_solution


def generate_puzzle(box: int, rng: np.random.Generator, clues: int | None = None) -> Puzzle:
    """One puzzle with a unique solution: minimal, or stopped at ``clues`` givens."""
    if box not in (2, 3, 4, 5):
        raise ValueError("the generator makes box sizes 2 to 5 (4x4 to 25x25)")
    solution = random_solution(box, rng)
    cells = solution.copy()
    n = cells.size
    givens = n
    for cell in rng.permutation(n):
        if clues is not None and givens <= clues:
            break
        kept = cells[cell]
        cells[cell] = 0
        if count_solutions(Puzzle(box, tuple(int(v) for v in cells)), limit=2) == 1:
            givens -= 1
        else:
            cells[cell] = kept
    return Puzzle(box, tuple(int(v) for v in cells))


def generate(box: int, seed: int, clues: int | None = None,
             band: str | None = None) -> Iterator[tuple[Puzzle, Rating]]:
    """An endless stream of rated puzzles (only ``band``'s, when given) from ``seed``."""
    if band is not None and band not in BANDS:
        raise ValueError(f"unknown band {band!r} (one of {', '.join(BANDS)})")
    rng = np.random.default_rng(seed)
    while True:
        puzzle = generate_puzzle(box, rng, clues)
        rating = rate(puzzle)
        if band is None or rating.band == band:
            yield puzzle, rating


def generate_set(box: int, count: int, seed: int, clues: int | None = None,
                 band: str | None = None) -> list[tuple[Puzzle, Rating]]:
    """``count`` rated puzzles (see :func:`generate`)."""
    stream = generate(box, seed, clues, band)
    return [next(stream) for _ in range(count)]


def set_text(rated: list[tuple[Puzzle, Rating]], command: str, seed: int,
             band: str | None, clues: int | None) -> str:
    """The file the CLI writes: a header saying how to remake it, then one puzzle a line."""
    guesses = [r.guesses for _, r in rated]
    no_guess = sum(1 for g in guesses if g == 0)
    givens = [p.n_givens for p, _ in rated]
    header = [
        "# sudoku-compare generated puzzle set (each puzzle has exactly one solution)",
        f"# command: {command}",
        f"# seed: {seed}; band: {band or 'any'}; clues: {clues if clues is not None else 'minimal'}",
        f"# rating: guesses of a singles+guessing solver exhausting the search "
        f"(sudoku_compare.problems.rating); per puzzle mean {np.mean(guesses):.2f}, "
        f"max {max(guesses)}, no guess {100 * no_guess / len(rated):.0f}%",
        f"# givens: min {min(givens)}, mean {np.mean(givens):.1f}, max {max(givens)}",
    ]
    lines = [format_line(p.cells, p.box) for p, _ in rated]
    return "\n".join(header + lines) + "\n"
