"""The seed's GeneticSharp genetic algorithm on the row-permutation encoding, compiled with numba.

One generation is GeneticSharp 3.1's ``EvolveOneGeneration`` with the seed's configuration
(``Population(500, 500)``, ``EliteSelection``, ``SudokuRowOrderedCrossover``,
``SudokuRowSwapMutation``, the default ``ElitistReinsertion``, crossover probability 0.75,
mutation probability 0.2):

1. *selection*: ``EliteSelection`` picks the population's 500 best out of 500, i.e. the whole
   population ordered by fitness (so parents pair as 1st with 2nd, 3rd with 4th, ...); with
   ``selection=tournament`` each of the 500 parents is the best of ``tournament_size`` uniform
   draws instead;
2. *crossover*: each consecutive pair of parents, with probability 0.75, gives two children by
   OX on every row (the encoding's :func:`~sudoku_compare.problems.encodings.row_permutation.ox_row`);
   a pair that does not cross gives no children;
3. *mutation*: each child, row by row, with probability 0.2, swaps two free cells drawn
   independently (nothing when they coincide);
4. *reinsertion*: the next population is the children plus the best parents, enough to make 500
   again (``ElitistReinsertion``).

A restart (population redrawn) happens when the best fitness stays the same for 80 generations
(``FitnessStagnationTermination``) or after 400 generations counting the initial one
(``GenerationNumberTermination``), at most 5 times; the run stops at energy 0. The restarts,
stop reason and schedule fraction (generations over ``max_generations`` per run, 1 for a run
ended by stagnation) come from the shared driver, :mod:`sudoku_compare.native._restarts`.

Evaluations: one per fitness computed, i.e. each individual of an initial population and each
new child. Parents carried over by reinsertion keep their cached fitness and are not counted
again, as GeneticSharp only evaluates chromosomes whose fitness is unset. The run never computes
more than ``budget.max_evaluations`` fitnesses: a generation cut by the budget keeps only the
children it could evaluate. The deadline is checked once per generation.

Variants (configured, not subclassed): ``native.ga-memetic`` adds a hill climb on each child
after mutation (``local_search`` = 200 random row swaps, each kept when it does not raise the
energy, so sideways moves drift across plateaus; the deltas come from the encoding's count
tables and each one is an evaluation, counted and cut by the budget like a fitness) and restarts
until the budget is spent (``max_restarts=-1``). Measured on easy51 x 5 seeds at 30 s per run
(2 shared cores): 245/255 solved, median 0.25 s, against the seed GA's 15/50 on easy51:0:10. It
stalls at energy 2 on a few puzzles (easy51:49 for every seed). ``native.ga-restarts`` is the
seed GA with unlimited restarts only, the ablation that separates the two changes.

Reproducibility: each initial population is drawn with ``numpy.random.default_rng(seed)`` through
the shared encoding (so a library adapter with the same seed can start from the same
individuals); the operators use numba's generator, seeded inside the kernel from the run seed
and the restart index.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import now
from sudoku_compare.native._restarts import (
    NO_ENERGY,
    Progress,
    Restarts,
    check_population,
    keep_best,
    resume,
)
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.encodings.array_copy import copy1d, copy2d, copy3d
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.warming import warm_by_solving

#: the fitness of an individual not yet evaluated
BIG = NO_ENERGY


@dataclass(frozen=True)
class GaSchedule:
    """The settings every row-permutation GA shares, native or library (``adapters/_row_ga``
    uses this class, so the counterparts cannot drift apart). Defaults from the seed.
    ``max_restarts`` counts the extra runs after the first (-1: until a budget ends), the same
    in every stochastic native, because the shared driver
    (:mod:`sudoku_compare.native._restarts`) reads it."""

    population: int = 500
    #: generations per restart, the initial population counting as the first (seed: 400)
    max_generations: int = 400
    #: restart when the best fitness is unchanged this many generations (seed: 80)
    stagnation: int = 80
    #: extra runs, each from a fresh population, after the first ends unsolved (seed: 5,
    #: i.e. 6 runs; 0: one run; -1: until a budget is spent)
    max_restarts: int = 5
    crossover_probability: float = 0.75
    #: per row of each child (seed: 0.2)
    mutation_probability: float = 0.2

    def __post_init__(self) -> None:
        if self.population < 2 or self.max_generations < 1 or self.stagnation < 1:
            raise ValueError("population >= 2, max_generations >= 1, stagnation >= 1")
        check_population(population=self.population)
        if self.max_restarts < -1:
            raise ValueError("max_restarts >= -1 (-1: restart until a budget is spent)")
        if not (0 <= self.crossover_probability <= 1 and 0 <= self.mutation_probability <= 1):
            raise ValueError("probabilities must lie in [0, 1]")


@dataclass(frozen=True)
class GeneticParams(GaSchedule):
    """native.ga's settings: the shared schedule plus its selection and memetic options."""

    selection: Literal["elite", "tournament"] = "elite"
    tournament_size: int = 2
    #: row-swap proposals per child after mutation, each kept when it does not raise the
    #: energy (a hill climb with sideways moves; 0: none, the seed's GA; native.ga-memetic)
    local_search: int = 0

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.selection not in ("elite", "tournament"):
            raise ValueError("selection must be elite or tournament")
        if self.tournament_size < 1:
            raise ValueError("tournament_size >= 1")


@numba.njit(cache=True)
def _climb(state, e, box, free_cols, n_free, movable, cols, boxes, proposals, max_evals, evals,
           target):
    """Up to ``proposals`` random row swaps on ``state`` (in place), each kept when its delta
    is <= 0; one evaluation each. Returns (energy, evals)."""
    n = box * box
    cols[:, :] = 0
    boxes[:, :] = 0
    for r in range(n):
        for c in range(n):
            d = state[r, c]
            cols[c, d] += 1
            boxes[(r // box) * box + c // box, d] += 1
    for _ in range(proposals):
        if evals >= max_evals or e <= target:
            break
        u = movable[np.random.randint(movable.size)]
        m = n_free[u]
        q = np.random.randint(m * (m - 1))
        i = q // (m - 1)
        j = q % (m - 1)
        if j >= i:
            j += 1
        d = rp.swap_delta_counted(cols, boxes, state, u, free_cols[u, i], free_cols[u, j], box)
        evals += 1
        if d <= 0:
            rp.apply_swap_counted(cols, boxes, state, u, free_cols[u, i], free_cols[u, j], box)
            e += d
    return e, evals


@numba.njit(cache=True)
def _evolve(pop, box, free_cols, n_free, pc, pm, max_gen, stagnation, tournament_size,
            local_search, max_evals, deadline_at, target, seed, t_start, best, trace, progress):
    """One GA run from ``pop`` (modified), continuing ``progress`` (``best``, the best grid so
    far, is modified). Returns (Progress, generations of this run); the run's share of its
    schedule is its generations over ``max_gen``, or 1 when stagnation ended it."""
    np.random.seed(seed)
    best_e, evals, n_trace = resume(progress)
    size, n = pop.shape[0], pop.shape[1]
    fit = np.full(size, BIG, dtype=np.int64)
    timed_out = False
    for i in range(size):
        if evals >= max_evals:
            break
        fit[i] = rp.energy(pop[i], box)
        evals += 1
        best_e, n_trace = keep_best(best, pop[i], fit[i], best_e, trace, n_trace, evals, t_start)
    generations = 1
    last = fit.min()
    stagnant = 1
    children = np.empty_like(pop)
    child_fit = np.empty(size, dtype=np.int64)
    next_pop = np.empty_like(pop)
    next_fit = np.empty(size, dtype=np.int64)
    parents = np.empty(size, dtype=np.int64)
    cuts_a = np.zeros(n, dtype=np.int64)
    cuts_b = np.zeros(n, dtype=np.int64)
    used = np.zeros(n + 1, dtype=np.bool_)
    cols = np.zeros((n, n + 1), dtype=np.int64)
    boxes = np.zeros((n, n + 1), dtype=np.int64)
    movable = np.flatnonzero(n_free >= 2)
    while (best_e > target and generations < max_gen and stagnant < stagnation
           and evals < max_evals):
        if now() >= deadline_at:
            timed_out = True
            break
        order = np.argsort(fit, kind="mergesort")
        if tournament_size <= 0:
            copy1d(parents, order)
        else:
            for p in range(size):
                w = np.random.randint(size)
                for _ in range(tournament_size - 1):
                    c = np.random.randint(size)
                    if fit[c] < fit[w]:
                        w = c
                parents[p] = w
        # crossover: consecutive pairs, OX per row with the same cuts for both children
        k = 0
        for p in range(0, size - 1, 2):
            if np.random.random() > pc:
                continue
            a, b = parents[p], parents[p + 1]
            copy2d(children[k], pop[a])
            copy2d(children[k + 1], pop[b])
            for r in range(n):
                m = n_free[r]
                if m < 2:
                    continue
                x = np.random.randint(m)
                y = np.random.randint(m)
                cuts_a[r] = min(x, y)
                cuts_b[r] = max(x, y)
                rp.ox_row_into(children[k], pop[a], pop[b], r, free_cols[r], m, cuts_a[r],
                               cuts_b[r], used)
                rp.ox_row_into(children[k + 1], pop[b], pop[a], r, free_cols[r], m, cuts_a[r],
                               cuts_b[r], used)
            k += 2
        # mutation, then the fitness of each child (one evaluation each, within the budget)
        kept = 0
        for c in range(k):
            if evals >= max_evals:
                break
            for r in range(n):
                m = n_free[r]
                if m < 2 or np.random.random() > pm:
                    continue
                i = np.random.randint(m)
                j = np.random.randint(m)
                if i != j:
                    rp.apply_swap(children[c], r, free_cols[r, i], free_cols[r, j])
            e = rp.energy(children[c], box)
            evals += 1
            if local_search > 0 and e > target and movable.size > 0:
                e, evals = _climb(children[c], e, box, free_cols, n_free, movable, cols, boxes,
                                  local_search, max_evals, evals, target)
            child_fit[c] = e
            kept += 1
            best_e, n_trace = keep_best(best, children[c], child_fit[c], best_e, trace, n_trace,
                                        evals, t_start)
        # elitist reinsertion: children, then the best parents to refill the population
        copy3d(next_pop[:kept], children[:kept])
        copy1d(next_fit[:kept], child_fit[:kept])
        parent_order = np.argsort(fit[parents], kind="mergesort")
        for q in range(size - kept):
            src = parents[parent_order[q]]
            copy2d(next_pop[kept + q], pop[src])
            next_fit[kept + q] = fit[src]
        copy3d(pop, next_pop)
        copy1d(fit, next_fit)
        generations += 1
        cur = fit.min()
        if cur == last:
            stagnant += 1
        else:
            stagnant = 1
        last = cur
    stagnated = stagnant >= stagnation and not timed_out
    share = 1.0 if stagnated else generations / max_gen
    return Progress(best_e, evals, n_trace, timed_out, share), generations


@register
class GeneticAlgorithm(Solver):
    name = "native.ga"
    family = "genetic"
    encoding = "row-permutation"
    Params = GeneticParams
    deterministic = True
    stochastic = True
    description = ("the seed's GeneticSharp GA: population 500, elite selection, OX per row "
                   "(p 0.75), row-swap mutation (p 0.2), elitist reinsertion, 5 restarts (numba)")

    def warmup(self) -> None:
        warm_by_solving(*(GeneticAlgorithm(population=10, selection=selection, local_search=steps)
                          for selection, steps in (("elite", 0), ("tournament", 5))),
                        max_evaluations=200)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        driver = Restarts(budget, p.max_restarts)
        rng = np.random.default_rng(seed)
        layout = rp.RowLayout.for_puzzle(puzzle)
        best = puzzle.grid()
        generations = 0
        tournament = p.tournament_size if p.selection == "tournament" else 0
        for run in driver.runs():
            pop = rp.initial_population(puzzle, rng, p.population)
            kernel_seed = (seed * 1_000_003 + run) & 0xFFFFFFFF
            driver.progress, gens = _evolve(
                pop, puzzle.box, layout.free_cols, layout.n_free, p.crossover_probability,
                p.mutation_probability, p.max_generations, p.stagnation, tournament,
                p.local_search, driver.max_evaluations, driver.deadline_at, driver.target,
                kernel_seed, driver.t_begin, best, driver.trace, driver.progress)
            generations += int(gens)
        return driver.outcome(best, iterations=generations,
                              counters={"generations": generations})


register(GeneticAlgorithm, name="native.ga-memetic", local_search=200, max_restarts=-1,
         description=("native.ga plus a row-swap hill climb (200 proposals, sideways moves "
                      "kept) on every child, restarting until the budget is spent (numba)"))


register(GeneticAlgorithm, name="native.ga-restarts", max_restarts=-1,
         description="native.ga restarting with a fresh population until the budget is spent "
                     "(the seed stops after 5 restarts)")
