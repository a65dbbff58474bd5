"""Perf section ``overhead``: what going through a library costs, as ratios within one run.

Per family, the library adapter and its native counterpart run the same puzzle, with the
same encoding and objective, in the same process, one after the other:

- metaheuristics (annealing, genetic, swarm): evaluations of the shared objective per
  second, under a fixed evaluation budget on a puzzle hard enough that neither stops early
  by solving it (a solved run still counts: evaluations / its time);
- exact and CSP solvers, which have no objective: median time per puzzle over a set.

The ratio is native / library (how many times faster the native solver is). Solvers that
are not registered or whose library is missing give a row saying so, never a number.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from sudoku_compare import registry
from sudoku_compare.bench.perf import PerfTable
from sudoku_compare.budget import Budget
from sudoku_compare.problems.encodings.random_keys import RandomKeys
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import load_set

SECTION = "overhead"
TITLE = "Library overhead: adapters against their native counterparts"

#: AI Escargot: no metaheuristic here solves it within these budgets, so the rates are
#: steady-state rates, not "time to a lucky solution"
HARD = "100007090030020008009600500005300900010080002600004000300000010040000007007000300"
EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"

#: (family, library adapter, native counterpart, evaluation budget quick / full); the
#: GA libraries run about 3k evaluations/s here, hence their smaller budget
METAHEURISTIC_PAIRS = [
    ("annealing", "simanneal.sa", "native.sa", 20_000, 200_000),
    ("genetic", "pygad.ga", "native.ga", 10_000, 40_000),
    ("genetic", "deap.ga", "native.ga", 10_000, 40_000),
]
EXACT_PAIRS = [
    ("exact", "ortools.cpsat", "native.bitmask"),
    ("exact", "ortools.cpsat", "native.dlx"),
    ("csp", "python-constraint.csp", "native.csp-fc"),
    ("csp", "python-constraint.csp", "native.csp-mac"),
]


def _usable(name: str) -> str | None:
    """None when the solver can run here, else why not."""
    reg = registry.load()
    if name not in reg:
        return "not registered"
    ok, reason = reg[name].availability()
    return None if ok else reason


def _run(name: str, puzzle: Puzzle, budget: Budget, seed: int = 1):
    solver = registry.create(name)
    solver.warmup()
    start = time.perf_counter()
    out = solver.solve(puzzle, budget, seed)
    return out, time.perf_counter() - start


def _evals_per_second(name: str, puzzle: Puzzle, evaluations: int, seconds: float) -> tuple:
    out, dt = _run(name, puzzle, Budget(max_seconds=seconds, max_evaluations=evaluations))
    return out.evaluations, dt, out.evaluations / dt if dt > 0 else float("nan")


def metaheuristic_table(quick: bool) -> PerfTable:
    seconds = 20.0 if quick else 120.0
    hard = Puzzle.from_string(HARD, name="AI Escargot")
    rows, notes = [], []
    for family, lib, native, quick_evals, full_evals in METAHEURISTIC_PAIRS:
        evals = quick_evals if quick else full_evals
        why = _usable(lib) or _usable(native)
        if why:
            rows.append([family, lib, native, "-", "-", "-", why])
            continue
        le, lt, lr = _evals_per_second(lib, hard, evals, seconds)
        ne, nt, nr = _evals_per_second(native, hard, evals, seconds)
        rows.append([family, lib, native, round(lr), round(nr), nr / lr,
                     f"{le:,} evals in {lt:.2f} s vs {ne:,} in {nt:.2f} s"])
    # swarm: no native PSO shares the random-keys encoding; the fair reference is the shared
    # objective called in a plain loop (what mealpy adds on top of it)
    why = _usable("mealpy.pso")
    if why:
        rows.append(["swarm", "mealpy.pso", "plain loop", "-", "-", "-", why])
    else:

        budget_evals = 6_000 if quick else 36_000
        le, lt, lr = _evals_per_second("mealpy.pso", hard, budget_evals, seconds)
        keys = RandomKeys.for_puzzle(hard)
        rng = np.random.default_rng(1)
        sample = rng.random((1000, keys.dimensions))
        keys.energy(sample[0])
        start = time.perf_counter()
        n = 0
        while n < budget_evals:
            keys.energy(sample[n % 1000])
            n += 1
        pt = time.perf_counter() - start
        rows.append(["swarm", "mealpy.pso", "random-keys objective, plain loop",
                     round(lr), round(n / pt), (n / pt) / lr,
                     f"{le:,} evals in {lt:.2f} s vs {n:,} in {pt:.2f} s"])
        notes.append("swarm: the native PSOs use other encodings (box permutation, swaps, "
                     "integer cells), so mealpy is compared with its own objective in a loop")
    notes.append("puzzle: AI Escargot (unsolved by these budgets), the evaluation budget of the "
                 "detail column (mealpy: at most its 300 epochs x 60), seed 1, one run each, "
                 "same process; wall-clock rates depend on the machine's load, ratios less so")
    return PerfTable("Evaluations per second: library vs native (same encoding, same objective)",
                     ["family", "library", "native", "library evals/s", "native evals/s",
                      "native / library", "detail"], rows, notes)


def exact_table(quick: bool) -> PerfTable:

    rows, notes = [], []
    try:
        puzzles = load_set("easy51")[: 10 if quick else 51]
        label = f"easy51 ({len(puzzles)} puzzles)"
    except Exception:  # public sets absent: fall back to one puzzle
        puzzles = [Puzzle.from_string(EASY)]
        label = "easy51:0 only (public sets not found)"
    budget = Budget(max_seconds=30.0)
    for family, lib, native in EXACT_PAIRS:
        why = _usable(lib) or _usable(native)
        if why:
            rows.append([family, lib, native, "-", "-", "-", why])
            continue
        med = {}
        for name in (lib, native):
            times = []
            for p in puzzles:
                _, dt = _run(name, p, budget)
                times.append(dt)
            med[name] = statistics.median(times)
        rows.append([family, lib, native, med[lib] * 1e3, med[native] * 1e3,
                     med[lib] / med[native], ""])
    notes.append(f"median wall time per puzzle over {label}, solve() only (warm, in-process); "
                 "CP-SAT's includes its model building (0.5-1 ms per 9x9)")
    return PerfTable("Time per puzzle: library vs native (no objective evaluations)",
                     ["family", "library", "native", "library ms", "native ms",
                      "native speed-up", "note"], rows, notes)


def run(quick: bool) -> list[PerfTable]:
    return [metaheuristic_table(quick), exact_table(quick)]
