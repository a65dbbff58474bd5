"""What the pygad and DEAP adapters share: native.ga's settings and its operators on vectors.

Both libraries want a flat chromosome, so a chromosome is the free cells' digits in
row-major order (``row_permutation.to_vector``); the operators turn it back into a state
and call the shared ``order_crossover`` (OX per row) and ``swap_mutation`` (per row), so
the library runs the native GA's operators, not its own. The generation is the seed's
GeneticSharp one (``EliteSelection``, crossover of consecutive ranked parents with
probability 0.75, per-row swap mutation with probability 0.2, the best parents filling
the population back: ``ElitistReinsertion``), stopped at 0 conflicts, after 80 generations
with the same best energy (:class:`Stagnation`, native.ga's rule), or after 400 generations
counting the initial one, with up to 5 restarts -- native.ga's parameters, under its
parameter names. Start populations are native.ga's
(``row_permutation.initial_population`` from ``default_rng(seed)``); the operators' draws
come from a second seeded Generator, since native.ga's come from numba's.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from sudoku_compare.native.genetic import GaSchedule
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.puzzle import Puzzle


@dataclass(frozen=True)
class RowGaParams(GaSchedule):
    """native.ga's schedule (the same class, so the pair cannot drift apart); the libraries
    have no selection or memetic options to set."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.max_generations < 2:  # pygad runs at least one generation after the first
            raise ValueError("max_generations >= 2 (pygad runs at least one generation)")


def warm_operators() -> None:
    """Compile (or load) the kernels the shared operators and objective call, so that no
    timed run of either adapter pays for them (``tests/test_warmup.py`` checks it)."""
    s = np.zeros((4, 4), dtype=np.int64)
    rp.energy(s, 2)
    rp.apply_swap(s, 0, 0, 1)
    rp.ox_with_cuts(s, s, np.zeros((4, 4), dtype=np.int64), np.zeros(4, dtype=np.int64),
                    np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64))


def restarts(p: RowGaParams) -> Iterable[int]:
    """The runs' indices: ``max_restarts + 1`` of them, or without end for -1 (the budget
    or the clock then ends the run, as in native.ga)."""
    return itertools.count() if p.max_restarts < 0 else range(p.max_restarts + 1)


def schedule_fraction(runs_done: int, generations_now: int, p: RowGaParams) -> float | None:
    """Share of the GA's own schedule done: ``max_restarts + 1`` runs of up to
    ``max_generations`` generations, a run ended by stagnation counting as complete and the
    run under way by its generations (native.ga's schedule, measured the same way). None
    with unlimited restarts: that schedule has no end to measure against."""
    if p.max_restarts < 0:
        return None
    current = min(1.0, generations_now / p.max_generations)
    return min(1.0, (runs_done + current) / (p.max_restarts + 1))


class Stagnation:
    """native.ga's restart rule (GeneticSharp's ``FitnessStagnationTermination``): the
    population's best energy unchanged for ``limit`` generations in a row, the initial
    population counting as the first."""

    def __init__(self, limit: int, first_best: float) -> None:
        self.limit = limit
        self.last = first_best
        self.count = 1

    def reached(self, best: float) -> bool:
        """Record one more generation's best energy; True when the run must restart."""
        self.count = self.count + 1 if best == self.last else 1
        self.last = best
        return self.count >= self.limit


class RowChromosomes:
    """Conversions and operators between flat chromosomes and row-permutation states."""

    def __init__(self, puzzle: Puzzle, seed: int) -> None:
        self.puzzle = puzzle
        self.box = puzzle.box
        self.givens = puzzle.grid()
        self.free = self.givens == 0
        #: initial populations: the same generator and draws as native.ga, so the same
        #: seed gives the library the same starting individuals
        self.start_rng = np.random.default_rng(seed)
        #: operator draws (native.ga's operators use numba's generator: not shareable)
        self.rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, 1])
        self.free_cols, self.n_free = rp.row_layout(self.free)
        self._swap_rows = [(r, [int(c) for c in self.free_cols[r, :k]])
                           for r, k in enumerate(self.n_free.tolist())]
        self._cross_rows = [(r, k) for r, k in enumerate(self.n_free.tolist()) if k >= 2]

    def state(self, vector) -> np.ndarray:
        return rp.from_vector(vector, self.givens, self.free)

    def vector(self, state) -> np.ndarray:
        return rp.to_vector(state, self.free)

    def energy(self, vector) -> float:
        return float(rp.energy(self.state(vector), self.box))

    def initial_population(self, size: int) -> list[np.ndarray]:
        """The next ``size`` start individuals, as native.ga draws them for a (re)start."""
        return [self.vector(s) for s in rp.initial_population(self.puzzle, self.start_rng, size)]

    def crossover(self, v1, v2) -> tuple[np.ndarray, np.ndarray]:
        """``row_permutation.order_crossover``, draw for draw, with the row layout computed
        once per puzzle instead of once per call (that recomputation was most of the
        adapters' run time; ``test_adapters`` holds the two equal)."""
        n = self.n_free.size
        cuts_a = np.zeros(n, dtype=np.int64)
        cuts_b = np.zeros(n, dtype=np.int64)
        for r, k in self._cross_rows:
            x, y = self.rng.integers(0, k, size=2)
            cuts_a[r], cuts_b[r] = min(x, y), max(x, y)
        c1, c2 = rp.ox_with_cuts(self.state(v1), self.state(v2), self.free_cols, self.n_free,
                                 cuts_a, cuts_b)
        return self.vector(c1), self.vector(c2)

    def mutate(self, vector, rate: float) -> np.ndarray:
        """``row_permutation.swap_mutation``, draw for draw, on the precomputed layout."""
        state = self.state(vector)
        rng = self.rng
        for r, cols in self._swap_rows:
            if len(cols) < 2 or rng.random() > rate:
                continue
            i, j = rng.integers(0, len(cols), size=2)
            if i != j:
                rp.apply_swap(state, r, cols[i], cols[j])
        return self.vector(state)
