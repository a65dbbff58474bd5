"""Warm-up contract: after ``warmup()`` and ``warmup_for(puzzle)`` a solve compiles nothing.

The runner starts a run's clock after the warm-up, so a kernel first compiled (or loaded
from numba's cache) inside ``solve`` is charged to the solver: on a cold cache that was
seconds, and a 1 s ``compare`` run of ``mealpy.pso`` became a ``timeout``. Each solver
module is checked in a fresh interpreter, where nothing else has warmed its kernels, by
counting the overloads of every numba dispatcher of the package before and after a solve.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from sudoku_compare import registry

from .test_contract import SMALL, SOLVABLE

DRIVER = r"""
import json, sys
import numba.core.registry
from numba.core.dispatcher import Dispatcher
from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.problems.parsing import parse_line

def overloads():
    total = {}
    for name, mod in list(sys.modules.items()):
        if not name.startswith("sudoku_compare") or mod is None:
            continue
        for attr, value in list(vars(mod).items()):
            if isinstance(value, Dispatcher):
                total[f"{name}.{attr}"] = len(value.overloads)
    return total

late = {}
for solver in json.loads(sys.argv[1]):
    spec = registry.get(solver)
    for line in json.loads(sys.argv[2]):
        puzzle = parse_line(line)
        if puzzle.box not in spec.cls.boxes:
            continue
        s = spec.create()
        s.warmup()
        s.warmup_for(puzzle)
        before = overloads()
        s.solve(puzzle, Budget(max_seconds=0.3, max_evaluations=2_000), 1)
        after = overloads()
        grew = sorted(k for k, v in after.items() if v > before.get(k, 0))
        if grew:
            late[f"{solver} box {puzzle.box}"] = grew
print(json.dumps(late))
"""


def _units() -> dict[str, list[str]]:
    units: dict[str, list[str]] = {}
    for spec in registry.all_specs():
        if spec.name.startswith("test.") or not spec.availability()[0]:
            continue
        units.setdefault(spec.cls.__module__, []).append(spec.name)
    return units


@pytest.fixture(scope="module")
def late_compiles() -> dict[str, dict[str, list[str]]]:
    def check(item: tuple[str, list[str]]) -> tuple[str, dict[str, list[str]]]:
        unit, solvers = item
        proc = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(solvers),
                               json.dumps([SOLVABLE, SMALL])],
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return unit, json.loads(proc.stdout.strip().splitlines()[-1])

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(check, _units().items()))


@pytest.mark.parametrize("unit", sorted(_units()))
def test_nothing_is_compiled_inside_the_clock(unit, late_compiles):
    assert late_compiles[unit] == {}, (
        f"kernels compiled or loaded during solve(), after the warm-up: {late_compiles[unit]}")
