"""Perf section: the seed's CSP benchmark tables (Sudoku-06), counts and times side by side.

Each row re-runs one of the seed's printed experiments with the same search on the same
puzzles, prints the seed's figures beside ours (counts must match exactly; the tests hold
them) and the speed-up of the compiled kernel over the seed's timings (the seed's times
are totals over the listed puzzles, measured on the seed author's machine, so the ratio
is indicative). Model building is excluded; compilation happens before timing.
"""

from __future__ import annotations

import time

from sudoku_compare import registry
from sudoku_compare.bench.perf import PerfTable
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.encodings.csp_model import SudokuCSPBuilder, sudoku_csp
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.sets import resolve_puzzle

SECTION = "csp"
TITLE = "AIMA CSP suite against the seed's printed figures"

#: the registered variants whose search reproduces each of the seed's strategies
_BT, _MRV_LCV, _FC, _MAC, _CBJ = ("native.csp-bt", "native.csp-mrv-lcv", "native.csp-fc",
                                  "native.csp-mac", "native.csp-cbj")

#: (experiment, solver, puzzles, seed assignments, seed backtracks, seed total ms)
SEED_ROWS = [
    ("witness grid", _MAC, ["easy51:0"], 81, 0, 62.4),
    ("easy benchmark", _BT, ["easy51:0", "easy51:1"], 2_889_322, 499_461, 20_111),
    ("easy benchmark", _MRV_LCV, ["easy51:0", "easy51:1"], 255, 0, 237),
    ("easy benchmark", _FC, ["easy51:0", "easy51:1"], 81, 0, 187),
    ("easy benchmark", _MAC, ["easy51:0", "easy51:1"], 81, 0, 259),
    ("FC vs MAC", _FC, [f"top95:{i}" for i in range(4)], 2_143, 2_062, 6_302),
    ("FC vs MAC", _MAC, [f"top95:{i}" for i in range(4)], 1_060, 979, 5_296),
    ("CBJ benchmark", _MRV_LCV, [f"easy51:{i}" for i in range(3)], 366, 10, 158),
    ("CBJ benchmark", _CBJ, [f"easy51:{i}" for i in range(3)], 82, 1, 82),
    ("CBJ benchmark", _FC, [f"easy51:{i}" for i in range(3)], 91, 10, 82),
]


def _measure(name: str, refs: list[str], repeats: int) -> tuple[int, int, float, int]:
    """(avg assignments, avg backtracks, best total seconds, solved) over ``refs``.

    The search alone is timed (the models are built first), through the registered
    variant's :meth:`search_model`.
    """
    solver = registry.create(name)
    puzzles = [resolve_puzzle(r) for r in refs]
    csps = [sudoku_csp(p, prune_givens=solver.params.prune_givens) for p in puzzles]
    best = float("inf")
    for _ in range(repeats):
        results = []
        t0 = time.perf_counter()
        for csp in csps:
            results.append(solver.search_model(csp))
        best = min(best, time.perf_counter() - t0)
    solved = sum(1 for p, r in zip(puzzles, results, strict=True) if r.assignment is not None
                 and is_solution(p, SudokuCSPBuilder.apply_solution(p, r.assignment)))
    n = len(results)
    return (sum(r.assignments for r in results) // n, sum(r.backtracks for r in results) // n,
            best, solved)


def run(quick: bool) -> list[PerfTable]:
    for name in {row[1] for row in SEED_ROWS}:
        registry.create(name).warmup()
    table = PerfTable(TITLE, ["experiment", "solver", "puzzles", "assignments", "backtracks",
                              "seed assignments", "seed backtracks", "match", "ms",
                              "seed ms", "speed-up"])
    for experiment, solver, refs, s_assign, s_back, s_ms in SEED_ROWS:
        heavy = solver == _BT
        try:
            assigns, backs, secs, solved = _measure(solver, refs, 1 if (quick or heavy) else 5)
        except InputError as exc:  # the public sets are not installed
            table.notes.append(f"{experiment} / {solver} skipped: {exc}")
            continue
        ms = 1000 * secs
        span = refs[0] if len(refs) == 1 else f"{refs[0]}..{refs[-1].split(':')[1]}"
        table.rows.append([experiment, solver, f"{span} ({solved}/{len(refs)} solved)",
                           assigns, backs, s_assign, s_back,
                           "yes" if (assigns, backs) == (s_assign, s_back) else "NO",
                           round(ms, 2), s_ms, f"{s_ms / ms:,.0f}x" if ms > 0 else "-"])
    table.notes.append("assignments / backtracks are the seed's integer averages "
                       "(total // puzzles); ms is the total over the puzzles, best of 5 runs "
                       "(1 in --quick and for csp-bt)")
    return [table]
