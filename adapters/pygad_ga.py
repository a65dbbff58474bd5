"""``pygad.ga``: pygad's ``GA`` with native.ga's row-permutation chromosome and generation.

The chromosome is the free cells' digits (``row_permutation.to_vector``); the custom
``crossover_type`` and ``mutation_type`` call the shared OX-per-row and per-row swap
mutation (:mod:`._row_ga`), and fitness is minus the shared ``energy``. The generation is
native.ga's (the seed's GeneticSharp one), mapped onto pygad's callables:

- *selection*: a callable ``parent_selection_type`` ranks the whole population best first,
  ties in population order (GeneticSharp's ``EliteSelection``, native.ga's stable sort);
- *crossover*: consecutive ranked parents crossed with probability 0.75, two children per
  crossed pair, so the number of children varies per generation as in native.ga;
- *reinsertion*: pygad wants a fixed offspring count, so ``keep_elitism = keep_parents = 0``
  and the crossover callable fills the offspring array with the best parents after the
  children (``ElitistReinsertion``); the mutation callable mutates only the children and
  the fitness callable returns the carried parents' known fitness without an evaluation
  (native.ga does not evaluate them again either; pygad counts those look-ups as calls, so
  ``extra["pygad_fitness_calls"]`` = evaluations + ``extra["carried_parents"]``);
- *restart rule*: ``on_generation`` returns ``"stop"`` after 80 generations with the same
  best energy (:class:`._row_ga.Stagnation`); ``num_generations`` = 399, the initial
  population being the first of 400; up to 5 restarts, each a new ``GA``.

pygad's own content-based fitness cache (elites, kept parents) is off with this layout, so
a child identical to a parent is evaluated, as in native.ga. Budget and target: the fitness
callable goes through the shared counter and raises before the call past the evaluation
budget (exact), at the deadline and at the target (pygad only checks ``stop_criteria``
between generations). Counterpart: ``native.ga``; only the random numbers differ. Start
populations are native.ga's (same seed, same individuals); operator draws come from a
second seeded ``numpy.random.Generator``; pygad's ``random_seed`` is set but these
operators do not use pygad's generators. ``iterations`` counts generations begun, the
initial ones included (native.ga's count); ``stop_reason`` is ``target``, ``evaluations``,
``clock`` or ``finished``; ``schedule_fraction`` the share of the restarts' generations.
Silent: a null logger and ``suppress_warnings``.
"""

from __future__ import annotations

import logging

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
    counterpart = "native.ga"
    description = ("pygad GA with native.ga's generation: elite selection, OX per row (p 0.75), "
                   "row-swap mutation (p 0.2), elitist reinsertion, stagnation restarts; "
                   "seeded numpy Generator")

    def warmup(self) -> None:
        warm_operators()
        # a small population, so that the warm-up's 300 evaluations also run whole
        # generations (selection, crossover, mutation, reinsertion), not just the first
        warm_by_solving(type(self)(self.params, population=20, stagnation=5))

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        import pygad

        p = self.params
        chromo = RowChromosomes(puzzle, seed)
        tracked = TrackedObjective(chromo.energy, budget, copy=np.array)
        n_genes = int(chromo.free.sum())
        if n_genes == 0:
            e = chromo.energy(np.empty(0, dtype=np.int64))
            return Outcome(grid=puzzle.grid(), claims_solved=e == 0, evaluations=1,
                           best_energy=e, schedule_fraction=1.0,
                           stop_reason=StopReason.TARGET if e <= budget.target
                           else StopReason.FINISHED)
        generation = _Generation(chromo, p)
        generations = pygad_calls = runs = runs_done = 0
        logger = _quiet_logger()
        for _ in restarts(p):
            runs += 1
            generation.reset()
            population = np.array(chromo.initial_population(p.population))
            ga = pygad.GA(num_generations=max(1, p.max_generations - 1),
                          num_parents_mating=p.population, sol_per_pop=p.population,
                          fitness_func=lambda ga, solution, idx: generation.fitness(
                              tracked, solution, idx),
                          initial_population=population, gene_type=int,
                          parent_selection_type=generation.select, keep_elitism=0,
                          keep_parents=0, crossover_type=generation.crossover,
                          mutation_type=generation.mutate, on_generation=generation.on_generation,
                          random_seed=int(seed) % (2**32), suppress_warnings=True,
                          logger=logger)
            try:
                ga.run()
                runs_done += 1
            except STOPS:
                pass
            # generations_completed already counts a generation cut mid-evaluation
            generations += int(ga.generations_completed) + 1
            pygad_calls += int(getattr(ga, "num_fitness_evaluations", 0) or 0)
            if tracked.finished():
                break
        best = tracked.best_state
        return Outcome(grid=chromo.state(best), claims_solved=tracked.best_energy == 0,
                       evaluations=tracked.evaluations, iterations=generations,
                       restarts=runs - 1, best_energy=tracked.best_energy, trace=tracked.trace,
                       counters={"generations": generations},
                       stop_reason=tracked.stop_reason(),
                       schedule_fraction=schedule_fraction(
                           runs_done, 0 if runs_done == runs else int(ga.generations_completed) + 1,
                           p),
                       extra={"pygad_fitness_calls": pygad_calls,
                              "carried_parents": generation.carried_lookups})


class _Generation:
    """native.ga's generation as pygad callables, with the state they pass each other: how
    many of the offspring are children and the fitness of the parents carried over."""

    def __init__(self, chromo: RowChromosomes, p: RowGaParams) -> None:
        self.chromo = chromo
        self.p = p
        self.carried_lookups = 0
        self.reset()

    def reset(self) -> None:
        """A new GA run: its initial population is evaluated in full."""
        self.children = 0
        self.carried: np.ndarray | None = None
        self.stagnation: Stagnation | None = None

    def select(self, fitness, num_parents: int, ga):
        """EliteSelection: best first (fitness is minus the energy), ties in population order."""
        order = np.argsort(-np.asarray(fitness, dtype=np.float64), kind="stable")[:num_parents]
        return ga.population[order].copy(), order

    def crossover(self, parents, offspring_size, ga):
        p, chromo = self.p, self.chromo
        children = []
        for i in range(0, parents.shape[0] - 1, 2):
            if chromo.rng.random() < p.crossover_probability:
                children.extend(chromo.crossover(parents[i], parents[i + 1]))
        self.children = len(children)
        fill = offspring_size[0] - self.children
        # ElitistReinsertion: the best parents (ranked first by select) after the children
        ranked_fitness = ga.last_generation_fitness[ga.last_generation_parents_indices]
        self.carried = np.asarray(ranked_fitness[:fill], dtype=np.float64)
        rows = children + [parents[i] for i in range(fill)]
        return np.array(rows, dtype=np.int64).reshape(offspring_size[0], -1)

    def mutate(self, offspring, ga):
        rate = self.p.mutation_probability
        out = np.array(offspring, dtype=np.int64, copy=True)
        for i in range(self.children):
            out[i] = self.chromo.mutate(out[i], rate)
        return out

    def fitness(self, tracked: TrackedObjective, solution, idx) -> float:
        if self.carried is not None and idx is not None and idx >= self.children:
            self.carried_lookups += 1
            return float(self.carried[idx - self.children])
        return -tracked(solution)

    def on_generation(self, ga) -> str | None:
        best = -float(np.max(ga.last_generation_fitness))
        if self.stagnation is None:  # first generation of this run: start from the initial best
            self.stagnation = Stagnation(self.p.stagnation, -float(np.max(
                ga.previous_generation_fitness)))
        return "stop" if self.stagnation.reached(best) else None
