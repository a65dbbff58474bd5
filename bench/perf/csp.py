"""Perf section: the seed's CSP benchmark tables (Sudoku-06), counts and times side by side.

Each row re-runs one of the seed's printed experiments with the same search on the same
puzzles, prints the seed's figures beside ours (counts must match exactly; the tests hold
them) and the speed-up of the compiled kernel over the seed's timings (the seed's times
are totals over the listed puzzles, measured on the seed author's machine, so the ratio
is indicative). Model building is excluded; compilation happens before timing.
"""

from __future__ import annotations

import time

from sudoku_compare.bench.perf import PerfTable
from sudoku_compare.native.csp import CSPSolver, backtracking_search, conflict_directed_backjumping
from sudoku_compare.native.csp_search import (
    first_unassigned_variable,
    forward_checking,
    lcv,
    mac,
    mrv,
    mrv_degree,
    no_inference,
    unordered_domain_values,
)
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.encodings.csp_model import SudokuCSPBuilder, sudoku_csp
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.sets import resolve_puzzle

SECTION = "csp"
TITLE = "AIMA CSP suite against the seed's printed figures"

_BT = ("native.csp-bt", (first_unassigned_variable, unordered_domain_values, no_inference))
_MRV_LCV = ("native.csp-mrv-lcv", (mrv_degree, lcv, no_inference))
_FC = ("native.csp-fc", (mrv_degree, lcv, forward_checking))
_MAC = ("native.csp-mac", (mrv_degree, lcv, mac))
_CBJ = ("native.csp-cbj", None)

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


def _measure(solver, refs: list[str], repeats: int) -> tuple[int, int, float, int]:
    """(avg assignments, avg backtracks, best total seconds, solved) over ``refs``."""
    _, strategies = solver
    puzzles = [resolve_puzzle(r) for r in refs]
    csps = [sudoku_csp(p) for p in puzzles]
    best = float("inf")
    for _ in range(repeats):
        results = []
        t0 = time.perf_counter()
        for csp in csps:
            if strategies is None:
                results.append(conflict_directed_backjumping(csp, mrv))
            else:
                results.append(backtracking_search(csp, *strategies))
        best = min(best, time.perf_counter() - t0)
    solved = sum(1 for p, r in zip(puzzles, results, strict=True) if r.assignment is not None
                 and is_solution(p, SudokuCSPBuilder.apply_solution(p, r.assignment)))
    n = len(results)
    return (sum(r.assignments for r in results) // n, sum(r.backtracks for r in results) // n,
            best, solved)


def run(quick: bool) -> list[PerfTable]:
    CSPSolver().warmup()
    table = PerfTable(TITLE, ["experiment", "solver", "puzzles", "assignments", "backtracks",
                              "seed assignments", "seed backtracks", "match", "ms",
                              "seed ms", "speed-up"])
    for experiment, solver, refs, s_assign, s_back, s_ms in SEED_ROWS:
        heavy = solver[0] == "native.csp-bt"
        try:
            assigns, backs, secs, solved = _measure(solver, refs, 1 if (quick or heavy) else 5)
        except InputError as exc:  # the public sets are not installed
            table.notes.append(f"{experiment} / {solver[0]} skipped: {exc}")
            continue
        ms = 1000 * secs
        span = refs[0] if len(refs) == 1 else f"{refs[0]}..{refs[-1].split(':')[1]}"
        table.rows.append([experiment, solver[0], f"{span} ({solved}/{len(refs)} solved)",
                           assigns, backs, s_assign, s_back,
                           "yes" if (assigns, backs) == (s_assign, s_back) else "NO",
                           round(ms, 2), s_ms, f"{s_ms / ms:,.0f}x" if ms > 0 else "-"])
    table.notes.append("assignments / backtracks are the seed's integer averages "
                       "(total // puzzles); ms is the total over the puzzles, best of 5 runs "
                       "(1 in --quick and for csp-bt)")
    return [table]
