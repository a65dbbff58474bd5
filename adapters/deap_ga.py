"""``deap.ga``: DEAP's toolbox with native.ga's row-permutation chromosome and operators.

An individual is a ``creator`` list of the free cells' digits; ``toolbox.mate`` and
``toolbox.mutate`` call the shared OX-per-row and per-row swap mutation (:mod:`._row_ga`),
``toolbox.select`` is ``tools.selBest`` (GeneticSharp's ``EliteSelection``) and
``toolbox.evaluate`` is the shared ``energy`` through the shared counter. DEAP has no
stopping rule but a generation count, so the loop is written here in the shape of
``algorithms.eaSimple`` and follows the seed's GeneticSharp generation exactly: consecutive
ranked parents crossed with probability 0.75 (two children per crossed pair), every child
mutated per row with probability 0.2, only new children evaluated, the best parents filling
the population back (``ElitistReinsertion``); restart after 80 generations with the same
best energy or at 400 generations (both counting the initial population, native.ga's
rule); stop at 0 conflicts, at the evaluation budget (exact: the objective raises before
the call past it) or the deadline; up to 5 restarts. Counterpart: ``native.ga`` -- the
same generation, rule for rule; only the random numbers differ (the crossover decisions
from ``random``, the operators from a numpy Generator, native.ga's from numba's).
``iterations`` counts generations as native.ga does, the initial population included;
``stop_reason`` is ``target``, ``evaluations``, ``clock`` or ``finished`` (every restart
ran out), ``schedule_fraction`` the share of the restarts' generations done.

Randomness: DEAP's tools draw from the global ``random`` (and some from ``numpy.random``),
so both are seeded with the run's seed; the crossover decisions use the global ``random``
and the operators the run's ``numpy.random.Generator``. The ``creator`` classes are created
once per process (guarded with ``hasattr``), so repeated runs raise no warning.
"""

from __future__ import annotations

import random

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason
from sudoku_compare.warming import warm_by_solving

from ._objective import STOPS, TrackedObjective
from ._row_ga import (
    RowChromosomes,
    RowGaParams,
    Stagnation,
    restarts,
    schedule_fraction,
    warm_operators,
)

FITNESS = "SudokuCompareFitnessMin"
INDIVIDUAL = "SudokuCompareRowIndividual"


def _creator():
    from deap import base, creator

    if not hasattr(creator, FITNESS):
        creator.create(FITNESS, base.Fitness, weights=(-1.0,))
    if not hasattr(creator, INDIVIDUAL):
        creator.create(INDIVIDUAL, list, fitness=getattr(creator, FITNESS))
    return getattr(creator, INDIVIDUAL)


@register
class DeapGa(Solver):
    name = "deap.ga"
    family = "genetic"
    origin = "deap"
    encoding = "row-permutation"
    Params = RowGaParams
    deterministic = True
    stochastic = True
    requires = ("deap",)
    extra = "deap"
    description = ("DEAP toolbox with native.ga's OX-per-row and row-swap operators, elite "
                   "selection and elitist reinsertion, own eaSimple-like loop; seeds the "
                   "global random and numpy.random")
    counterpart = "native.ga"

    def warmup(self) -> None:
        warm_operators()
        # a small population, so that the warm-up's 300 evaluations also run whole
        # generations (selection, crossover, mutation, reinsertion), not just the first
        warm_by_solving(type(self)(self.params, population=20, stagnation=5))

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        from deap import base, tools

        p = self.params
        random.seed(seed)
        np.random.seed(int(seed) % (2**32))
        chromo = RowChromosomes(puzzle, seed)
        tracked = TrackedObjective(chromo.energy, budget, copy=np.array)
        individual = _creator()

        def mate(a, b):
            c1, c2 = chromo.crossover(a, b)
            a[:], b[:] = c1.tolist(), c2.tolist()
            return a, b

        def mutate(ind):
            ind[:] = chromo.mutate(ind, p.mutation_probability).tolist()
            return (ind,)

        tb = base.Toolbox()
        tb.register("population",
                    lambda n: [individual(v.tolist()) for v in chromo.initial_population(n)])
        tb.register("evaluate", lambda ind: (tracked(ind),))
        tb.register("mate", mate)
        tb.register("mutate", mutate)
        tb.register("select", tools.selBest)
        # a list of ints copies cheaply; DEAP's default clone is a deepcopy
        tb.register("clone", lambda ind: individual(ind))

        # [generations in all runs, generations in the run under way]: lists, because a stop
        # raises out of _evolve mid-generation
        generations = [0, 0]
        runs = 0
        if int(chromo.free.sum()) == 0:
            e = chromo.energy(np.empty(0, dtype=np.int64))
            return Outcome(grid=puzzle.grid(), claims_solved=e == 0, evaluations=1,
                           best_energy=e, schedule_fraction=1.0,
                           stop_reason=StopReason.TARGET if e <= budget.target
                           else StopReason.FINISHED)
        try:
            for _ in restarts(p):
                runs += 1
                generations[1] = 0
                self._evolve(tb, p, tracked, generations)
                if tracked.finished():
                    break
        except STOPS:
            pass
        runs_done = runs - 1 if tracked.stopped is not None else runs
        return Outcome(grid=chromo.state(tracked.best_state),
                       claims_solved=tracked.best_energy == 0,
                       evaluations=tracked.evaluations, iterations=generations[0],
                       restarts=runs - 1, best_energy=tracked.best_energy, trace=tracked.trace,
                       counters={"generations": generations[0]},
                       stop_reason=tracked.stop_reason(),
                       schedule_fraction=schedule_fraction(runs_done, generations[1], p))

    @staticmethod
    def _evolve(tb, p: RowGaParams, tracked: TrackedObjective, generations: list[int]) -> None:
        """One population, until stagnation or the generation limit (stops raise out);
        ``generations`` counts the generations begun, the initial population as the first."""
        generations[0] += 1
        generations[1] += 1
        population = tb.population(n=p.population)
        for ind in population:
            ind.fitness.values = tb.evaluate(ind)
        stagnation = Stagnation(p.stagnation, min(ind.fitness.values[0] for ind in population))
        while generations[1] < p.max_generations and stagnation.count < p.stagnation:
            generations[0] += 1
            generations[1] += 1
            parents = tb.select(population, len(population))
            offspring = []
            for i in range(0, len(parents) - 1, 2):
                if random.random() < p.crossover_probability:
                    c1, c2 = tb.mate(tb.clone(parents[i]), tb.clone(parents[i + 1]))
                    offspring += [c1, c2]
            for child in offspring:
                tb.mutate(child)
                del child.fitness.values
                child.fitness.values = tb.evaluate(child)
            # ElitistReinsertion: the best parents fill the population back to its size
            if len(offspring) < p.population:
                offspring += parents[:p.population - len(offspring)]
            population = tb.select(offspring, p.population)
            stagnation.reached(population[0].fitness.values[0])
