"""Parameter values the type hints or the solver's own ranges rule out are refused when the
solver is built (one line, InputError), never inside a run: ``inf`` and ``nan`` floats, a
choice outside a ``Literal``, a float for an int, a population that cannot fit a worker, a
restart count whose start states would be drawn all at once. Found by trying 0, -1, -100,
10**12, nan, inf and 1e300 on every parameter of every solver."""

from __future__ import annotations

import dataclasses
import math
import time

import pytest

from sudoku_compare import Budget, registry
from sudoku_compare.bench import api
from sudoku_compare.problems.errors import InputError
from sudoku_compare.solver import parameter_types

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"

registry.load()
SPECS = [s for s in registry.all_specs() if dataclasses.is_dataclass(s.cls.Params)
         and dataclasses.fields(s.cls.Params)]


def _bad_values(ptype) -> list:
    if ptype.choices:
        return ["no-such-choice"]
    if ptype.base is float:
        return [math.inf, -math.inf, math.nan, "1.0"]
    if ptype.base is int:
        return [1.5, "3", True]
    if ptype.base is bool:
        return ["yes", 2]
    return [3]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_values_the_types_rule_out_are_refused_at_creation(spec):
    for name, ptype in parameter_types(spec.cls.Params).items():
        for value in _bad_values(ptype):
            with pytest.raises(InputError, match=name):
                spec.create(**{name: value})


@pytest.mark.parametrize("solver,param,value", [
    ("native.ga", "population", 10**12),
    ("native.pso-swap", "swarm_size", 10**12),
    ("native.pso-swarm", "organisms", 10**12),
    ("native.pso-swarm", "worker_ratio", 1.5),
    ("native.pso-canonical", "swarm_size", 10**12),
    ("native.pso-random-keys", "pop_size", 10**12),
    ("simanneal.sa", "t0", -1.0),
    ("simanneal.sa", "alpha", 0.0),
    ("mealpy.pso", "epoch", 0),
    ("ortools.cpsat", "num_workers", 10**12),
])
def test_out_of_range_values_are_refused_at_creation(solver, param, value):
    spec = registry.get(solver)
    if not spec.availability()[0]:
        pytest.skip(f"{solver}: {spec.availability()[1]}")
    with pytest.raises(InputError, match=param):
        spec.create(**{param: value})


@pytest.mark.parametrize("solver", ["native.sa", "native.tabu"])
def test_a_huge_restart_count_still_honours_the_clock(solver):
    """Bounded restarts drew every start state before the first run: 10**12 of them."""
    t = time.perf_counter()
    outcome, _ = api.solve(solver, EASY0, Budget(max_seconds=0.5), 0,
                           params={"max_restarts": 10**12})
    assert time.perf_counter() - t < 5 and outcome.status in ("solved", "unsolved")


def test_parameter_types_are_read_once_per_class():
    """A solver is built per run: its table of types is not rebuilt each time."""
    params = registry.get("native.sa").cls.Params
    assert parameter_types(params) is parameter_types(params)
