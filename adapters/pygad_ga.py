"""``pygad.ga``: pygad's ``GA`` with native.ga's row-permutation chromosome and operators.

The chromosome is the free cells' digits (``row_permutation.to_vector``); the custom
``crossover_type`` and ``mutation_type`` call the shared OX-per-row and per-row swap
mutation (:mod:`._row_ga`), and fitness is minus the shared ``energy``. The seed's
GeneticSharp generation is mapped onto pygad as closely as its fixed shapes allow:
``parent_selection_type="sss"`` over the whole population is GeneticSharp's
``EliteSelection`` (best first); pygad needs a fixed number of children, so the elites kept
(``keep_elitism``) are the population minus the *expected* number of children (0.75 x 500
= 375, so 125 elites), where GeneticSharp draws that number each generation; ranked
consecutive parents are crossed with probability 0.75, wrapping around until 375 children
exist. ``saturate_80`` is the stagnation rule; up to 5 restarts.

Budget and target: the fitness callback (``fitness_func(ga, solution, idx)``) goes through
the shared counter and raises at the exact evaluation budget, the deadline and the target
(pygad only checks ``stop_criteria`` between generations); pygad's cached fitness of elites
is not an evaluation, and ``ga.num_fitness_evaluations`` is cross-checked in ``extra``.
Randomness: start populations are native.ga's (same seed, same individuals); operator
draws come from a second seeded ``numpy.random.Generator``; pygad's own generators get
``random_seed`` but these operators do not use them. Silent: a null logger and ``suppress_warnings``.
"""

from __future__ import annotations

import logging

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver

from ._objective import STOPS, TrackedObjective
from ._row_ga import RowChromosomes, RowGaParams, elite_count, warm_operators


def _quiet_logger() -> logging.Logger:
    log = logging.getLogger("sudoku_compare.adapters.pygad")
    if not log.handlers:
        log.addHandler(logging.NullHandler())
    log.propagate = False
    log.setLevel(logging.CRITICAL + 1)
    return log


@register
class PygadGa(Solver):
    name = "pygad.ga"
    family = "genetic"
    origin = "pygad"
    encoding = "row-permutation"
    Params = RowGaParams
    deterministic = True
    stochastic = True
    requires = ("pygad",)
    extra = "pygad"
    description = ("pygad GA with native.ga's OX-per-row and row-swap operators, elite "
                   "selection, 125 elites for 375 children, seeded numpy Generator")

    def warmup(self) -> None:
        import pygad  # noqa: F401

        warm_operators()

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        import pygad

        p = self.params
        chromo = RowChromosomes(puzzle, seed)
        tracked = TrackedObjective(chromo.energy, budget, copy=np.array)
        n_genes = int(chromo.free.sum())
        if n_genes == 0:
            e = chromo.energy(np.empty(0, dtype=np.int64))
            return Outcome(grid=puzzle.grid(), claims_solved=e == 0, best_energy=e)

        def fitness(ga, solution, idx):
            return -tracked(solution)

        def crossover(parents, offspring_size, ga):
            children = []
            n_par = parents.shape[0]
            i = 0
            while len(children) < offspring_size[0]:
                a, b = parents[i % n_par], parents[(i + 1) % n_par]
                i += 2
                if chromo.rng.random() < p.crossover_probability:
                    children.extend(chromo.crossover(a, b))
            return np.array(children[:offspring_size[0]], dtype=np.int64)

        def mutation(offspring, ga):
            return np.array([chromo.mutate(v, p.mutation_probability) for v in offspring],
                            dtype=np.int64)

        generations = pygad_evals = 0
        runs = 0
        logger = _quiet_logger()
        for _ in range(p.max_restarts + 1):
            runs += 1
            population = np.array(chromo.initial_population(p.population))
            ga = pygad.GA(num_generations=max(1, p.max_generations - 1), num_parents_mating=p.population,
                          fitness_func=fitness, initial_population=population,
                          gene_type=int, parent_selection_type="sss",
                          keep_elitism=elite_count(p), crossover_type=crossover,
                          mutation_type=mutation, stop_criteria=[f"saturate_{p.stagnation}"],
                          random_seed=int(seed) % (2**32), suppress_warnings=True,
                          logger=logger)
            try:
                ga.run()
            except STOPS:
                pass
            generations += int(ga.generations_completed)
            pygad_evals += int(getattr(ga, "num_fitness_evaluations", 0) or 0)
            if tracked.finished():
                break
        best = tracked.best_state
        return Outcome(grid=chromo.state(best), claims_solved=tracked.best_energy == 0,
                       evaluations=tracked.evaluations, iterations=generations,
                       restarts=runs - 1, best_energy=tracked.best_energy, trace=tracked.trace,
                       extra={"stopped_by": tracked.stop_reason(),
                              "pygad_fitness_evaluations": pygad_evals,
                              "elites": elite_count(p)})
