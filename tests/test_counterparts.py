"""Each adapter's native counterpart, and the evidence that a pair runs the same thing.

A pair is only worth a row side by side if the two share family, encoding, objective and
parameters; these tests hold each declared pair to that, and hold ``native.pso-random-keys``
to being ``mealpy.pso`` re-implemented (same objective values, same run on the same seed).
Adapter tests skip with the registry's reason when the library is missing.
"""

import sys

import numpy as np
import pytest

from sudoku_compare import registry
from sudoku_compare.bench.api import solve
from sudoku_compare.budget import Budget
from sudoku_compare.native import pso_random_keys as prk
from sudoku_compare.outcome import Status
from sudoku_compare.problems.encodings import random_keys
from sudoku_compare.problems.encodings.random_keys import RandomKeys
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.solver import parameter_table

EASY = Puzzle.from_string(
    "902005403100063025508407060026309001057010290090670530240530600705200304080041950",
    name="easy51:0")
#: AI Escargot: no stochastic solver here solves it within the budgets below
HARD = Puzzle.from_string(
    "100007090030020008009600500005300900010080002600004000300000010040000007007000300")

#: (adapter, counterpart) pairs issue 14 names
PAIRS = [("simanneal.sa", "native.sa"), ("pygad.ga", "native.ga"), ("deap.ga", "native.ga"),
         ("mealpy.pso", "native.pso-random-keys"),
         ("python-constraint.csp", "native.csp-fc"), ("ortools.cpsat", "native.bitmask")]
#: adapters whose counterpart cannot share the encoding, and the word their description or
#: docstring must use to say so
ENCODING_DIFFERS = {"ortools.cpsat": "equal time", "python-constraint.csp": "AllDifferent"}
STOCHASTIC = ["simanneal.sa", "pygad.ga", "deap.ga", "mealpy.pso", "native.pso-random-keys"]


def require(name: str):
    """The registered spec, or a skip with the solver's availability reason."""
    reg = registry.load()
    if name not in reg:
        pytest.skip(f"{name} is not registered")
    ok, reason = reg[name].availability()
    if not ok:
        pytest.skip(reason)
    return reg[name]


def run(name, puzzle=EASY, seed=1, max_seconds=60.0, max_evaluations=None, **params):
    require(name)
    out, _ = solve(name, puzzle, Budget(max_seconds, max_evaluations), seed=seed, params=params)
    assert out.error is None, out.error
    return out


# -- every adapter names a real counterpart ---------------------------------------------
def test_every_adapter_declares_a_registered_native_counterpart():
    reg = registry.load()
    adapters = [s for s in reg.values() if s.cls.origin != "native"]
    assert adapters
    for spec in adapters:
        other = spec.cls.counterpart
        assert other in reg, f"{spec.name}: counterpart {other!r} is not registered"
        assert reg[other].cls.origin == "native", (spec.name, other)
        assert reg[other].cls.family == spec.cls.family, (spec.name, other)


@pytest.mark.parametrize(("adapter", "native"), PAIRS)
def test_counterpart_shares_the_encoding_or_says_why_not(adapter, native):
    spec = require(adapter)
    assert spec.cls.counterpart == native
    other = registry.get(native).cls
    if adapter in ENCODING_DIFFERS:
        module_doc = sys.modules[spec.cls.__module__].__doc__ or ""
        assert ENCODING_DIFFERS[adapter] in f"{spec.description} {module_doc}", \
            f"{adapter} must say why its encoding differs from {native}'s"
    else:
        assert other.encoding == spec.cls.encoding


@pytest.mark.parametrize(("adapter", "native"), [p for p in PAIRS if p[0] in STOCHASTIC])
def test_counterpart_has_the_adapters_parameter_defaults(adapter, native):
    spec = require(adapter)
    mine = {n: d for n, _, d in parameter_table(spec.cls.Params)}
    theirs = {**{n: d for n, _, d in parameter_table(registry.get(native).cls.Params)},
              **registry.get(native).defaults}
    shared = set(mine) & set(theirs)
    assert len(shared) >= 5, shared
    assert {k: mine[k] for k in shared} == {k: theirs[k] for k in shared}


# -- native.pso-random-keys is mealpy.pso's algorithm on the same objective ---------------
def test_native_pso_calls_the_shared_objective_kernel():
    assert prk.keys_energy is random_keys.keys_energy
    keys = RandomKeys.for_puzzle(EASY)
    swarm = keys.random_swarm(np.random.default_rng(4), 30)
    cost = np.empty(30)
    best = swarm[0].copy()
    evals, best_e, _, status = prk._start(
        swarm, cost, EASY.flat(), keys.empty, keys.row_start, keys.missing, EASY.box, 10**9,
        0.0, best, np.inf, np.zeros((16, 3)), 0.0)
    assert evals == 30 and status == prk.RUNNING
    assert cost.tolist() == [keys.energy(k) for k in swarm]  # the adapter's objective
    assert best_e == min(cost) and keys.energy(best) == best_e


def test_native_pso_same_seed_same_run_and_seeds_differ():
    a = run("native.pso-random-keys", HARD, seed=7, max_evaluations=3000)
    b = run("native.pso-random-keys", HARD, seed=7, max_evaluations=3000)
    c = run("native.pso-random-keys", HARD, seed=8, max_evaluations=3000)
    assert a.grid_line() == b.grid_line()
    assert [(n, e) for n, _, e in a.trace] == [(n, e) for n, _, e in b.trace]
    assert (a.evaluations, a.best_energy, a.iterations) == (b.evaluations, b.best_energy,
                                                            b.iterations)
    assert a.grid_line() != c.grid_line()


@pytest.mark.parametrize("budget", [1, 59, 60, 61, 1000, 5000])
def test_native_pso_spends_exactly_the_evaluation_budget(budget):
    out = run("native.pso-random-keys", HARD, seed=3, max_evaluations=budget)
    assert out.evaluations == budget and out.stop_reason == "evaluations"
    assert out.status is Status.UNSOLVED and out.best_energy > 0
    assert out.schedule_fraction == pytest.approx(max(0, budget - 60) / (60 * 300))


def test_native_pso_finishes_its_schedule():
    out = run("native.pso-random-keys", HARD, seed=3, epoch=20, pop_size=10)
    assert out.evaluations == 10 * 21 and out.iterations == 20
    assert out.stop_reason == "finished" and out.schedule_fraction == 1.0


@pytest.mark.parametrize(("seed", "max_evaluations"), [(1, None), (2, 4000), (5, None)])
def test_native_pso_is_mealpy_pso_bit_for_bit(seed, max_evaluations):
    require("mealpy.pso")
    kw = {"seed": seed, "max_evaluations": max_evaluations, "epoch": 80}
    native = run("native.pso-random-keys", **kw)
    library = run("mealpy.pso", **kw)
    assert native.grid_line() == library.grid_line()
    assert (native.evaluations, native.best_energy, native.iterations, native.stop_reason,
            native.schedule_fraction) == (library.evaluations, library.best_energy,
                                          library.iterations, library.stop_reason,
                                          library.schedule_fraction)
    # the same improvements at the same evaluation counts: the two counters agree move by move
    assert [(n, e) for n, _, e in native.trace] == [(n, e) for n, _, e in library.trace]
    # mealpy counts a call before making it: the call refused at the budget is one more
    assert library.extra["mealpy_nfe"] == library.evaluations + (
        library.stop_reason == "evaluations")


# -- stop reasons at an evaluation budget ---------------------------------------------------
@pytest.mark.parametrize("name", STOCHASTIC + ["native.sa", "native.ga"])
def test_an_evaluation_budget_stops_with_its_reason_and_its_exact_count(name):
    out = run(name, HARD, seed=1, max_evaluations=5000)
    assert out.status is Status.UNSOLVED
    if out.stop_reason is None and name in ("native.sa", "native.ga"):
        pytest.skip(f"{name} does not set stop_reason yet (its module's own work)")
    assert out.stop_reason == "evaluations" and out.evaluations == 5000
    if out.schedule_fraction is not None:
        assert 0 < out.schedule_fraction < 1


@pytest.mark.parametrize("name", STOCHASTIC)
def test_a_run_that_solves_first_stops_at_target(name):
    out = run(name, EASY, seed=1, max_evaluations=200_000)
    assert out.status is Status.SOLVED and out.stop_reason == "target"
    assert out.evaluations < 200_000


@pytest.mark.parametrize("name", ["simanneal.sa", "pygad.ga", "deap.ga", "mealpy.pso"])
def test_the_clock_is_a_stop_reason_of_its_own(name):
    out = run(name, HARD, seed=2, max_seconds=0.3,
              **({"epoch": 100000} if name == "mealpy.pso" else {}))
    assert out.stop_reason == "clock" and out.status is Status.UNSOLVED


def test_exact_adapters_say_target_or_exhausted():
    # row 0 leaves only 9 for its last cell, whose column already holds a 9
    unsolvable = Puzzle.from_string("123456780" + "000000009" + "0" * 63)
    for name in ("python-constraint.csp", "ortools.cpsat"):
        require(name)
        assert run(name, EASY).stop_reason == "target"
        assert run(name, unsolvable).stop_reason == "exhausted"


# -- warm-ups run the solve path ----------------------------------------------------------
def test_cpsat_warmup_solves_a_model_of_each_size(monkeypatch):
    spec = require("ortools.cpsat")
    solver = spec.create()
    boxes = []
    real = solver.solve

    def spy(puzzle, budget, seed):
        boxes.append(puzzle.box)
        return real(puzzle, budget, seed)

    monkeypatch.setattr(solver, "solve", spy)
    solver.warmup()
    solver.warmup_for(Puzzle(2, (1,) + (0,) * 15))
    solver.warmup_for(EASY)  # 9x9 was warmed already: no second solve
    assert boxes == [3, 2]


def test_ga_adapters_restart_on_native_gas_stagnation_rule():
    from sudoku_compare.adapters._row_ga import Stagnation

    # GeneticSharp's FitnessStagnationTermination as native.ga counts it: the initial
    # population is the first of the 80 generations with the same best energy
    rule = Stagnation(80, first_best=12.0)
    assert not any(rule.reached(12.0) for _ in range(78))
    assert rule.reached(12.0)
    rule = Stagnation(3, first_best=5.0)
    assert [rule.reached(b) for b in (5.0, 4.0, 4.0, 4.0)] == [False, False, False, True]


@pytest.mark.parametrize(("stagnation", "max_generations"), [(10, 400), (1000, 15)])
@pytest.mark.parametrize("adapter", ["pygad.ga", "deap.ga"])
def test_ga_adapter_runs_native_gas_schedule_when_the_operators_draw_nothing(
        adapter, stagnation, max_generations):
    # with no crossover and no mutation nothing random is left but the start populations,
    # which both sides draw alike: the generations, restarts, evaluations (only initial
    # populations are evaluated; carried parents are not) and the best grid must agree
    require(adapter)
    kw = {"seed": 4, "crossover_probability": 0.0, "mutation_probability": 0.0,
          "population": 40, "stagnation": stagnation, "max_generations": max_generations,
          "max_restarts": 2}
    native = run("native.ga", HARD, **kw)
    library = run(adapter, HARD, **kw)
    assert library.evaluations == native.evaluations == 40 * 3
    assert library.iterations == native.iterations == min(stagnation, max_generations) * 3
    assert library.restarts == native.restarts == 2
    assert library.best_energy == native.best_energy
    assert library.grid_line() == native.grid_line()
    assert library.stop_reason == "finished" and library.schedule_fraction == 1.0


@pytest.mark.parametrize(("name", "short_schedule"), [
    ("simanneal.sa", {"alpha": 0.9, "iterations_per_temperature": 10}),
    ("pygad.ga", {"population": 20, "stagnation": 5}),
    ("deap.ga", {"population": 20, "stagnation": 5})])
def test_unlimited_restarts_run_until_the_budget_as_the_natives_do(name, short_schedule):
    out = run(name, HARD, seed=2, max_evaluations=6000, max_restarts=-1, **short_schedule)
    assert out.stop_reason == "evaluations" and out.evaluations == 6000
    assert out.restarts > 6  # past the seed's 5 restarts
    assert out.schedule_fraction is None  # a schedule without an end has no fraction
