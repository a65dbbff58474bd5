"""Native against each library of its family: rank tests, effect sizes, Holm, bootstrap.

The measure compared is the PAR-2 time of each run (its time when solved, twice its
budget when not), so a failure always ranks behind a success and a solver cannot win by
failing fast. The exact families (backtracking, csp, exact) form one comparison group,
since they answer the same question (a complete search) and the libraries there
(python-constraint, CP-SAT) are the reference for every hand-written complete solver.
"""

from __future__ import annotations

import math
import zlib
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from . import stats
from .summary import (
    Run,
    comparison_group,
    penalised_seconds,
    puzzle_key,
    set_key,
    sort_sets,
)

ALPHA = 0.05


@dataclass
class Comparison:
    """One native-vs-library test on one puzzle set."""

    group: str
    puzzle_set: str
    native: str
    library: str
    test: str              # "wilcoxon" (over puzzles) or "mann-whitney" (over seeds)
    n: int                 # observations: puzzles (paired) or runs (both samples)
    puzzles: int
    statistic: float
    p_value: float
    p_holm: float
    significant: bool      # Holm-adjusted p < ALPHA
    #: P(native run faster than library run) + half the ties, on the observations tested
    a12: float
    magnitude: str
    native_median_s: float
    library_median_s: float
    #: median(native) / median(library) PAR-2 time: < 1 means native is faster
    ratio: float
    ratio_low: float
    ratio_high: float
    holm_rank: int = 0     # 1 = the first test Holm's step-down examines (0: not tested)
    note: str = ""         # why there is no p-value, when there is none


def _pairs(runs: list[Run]) -> list[tuple[str, str, str, str]]:
    """(group, set, native, library) for every native and library solver sharing a set."""
    solvers: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for r in runs:
        solvers[(comparison_group(r["family"]), set_key(r))][r["solver"]] = r["origin"]
    out = []
    for (group, pset), names in solvers.items():
        natives = sorted(n for n, o in names.items() if o == "native")
        libraries = sorted(n for n, o in names.items() if o != "native")
        out += [(group, pset, a, b) for a in natives for b in libraries]
    set_rank = {s: i for i, s in enumerate(sort_sets(p for _, p, _, _ in out))}
    return sorted(out, key=lambda t: (t[0], set_rank[t[1]], t[2], t[3]))


def _by_puzzle(runs: list[Run]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for r in runs:
        out[puzzle_key(r)].append(penalised_seconds(r))
    return out


def compare_pair(group: str, pset: str, native: str, library: str,
                 native_runs: list[Run], library_runs: list[Run]) -> Comparison | None:
    """Test one pair on the puzzles both ran; None when they share no puzzle.

    Several shared puzzles: each puzzle's median over seeds is one paired observation
    (Wilcoxon signed-rank), since runs on one puzzle are not independent. One shared
    puzzle: the seeds are independent draws (Mann-Whitney U).
    """
    a, b = _by_puzzle(native_runs), _by_puzzle(library_runs)
    common = sorted(set(a) & set(b))
    if not common:
        return None
    seed = zlib.crc32(f"{pset}|{native}|{library}".encode())
    if len(common) >= 2:
        x = np.array([np.median(a[p]) for p in common])
        y = np.array([np.median(b[p]) for p in common])
        test = stats.wilcoxon_paired(x, y)
        ratio, lo, hi = stats.bootstrap_median_ratio(x, y, paired=True, seed=seed)
    else:
        x = np.array(a[common[0]])
        y = np.array(b[common[0]])
        test = stats.mann_whitney(x, y)
        ratio, lo, hi = stats.bootstrap_median_ratio(x, y, paired=False, seed=seed)
    effect = stats.a12(y, x)  # P(library > native) = P(native faster)
    return Comparison(group=group, puzzle_set=pset, native=native, library=library,
                      test=test.test, n=test.n, puzzles=len(common), statistic=test.statistic,
                      p_value=test.p_value, p_holm=math.nan, significant=False, a12=effect,
                      magnitude=stats.a12_magnitude(effect),
                      native_median_s=float(np.median(x)), library_median_s=float(np.median(y)),
                      ratio=ratio, ratio_low=lo, ratio_high=hi, note=test.note)


def compare_all(runs: list[Run]) -> list[Comparison]:
    """Every native-vs-library comparison of the report, Holm-corrected together."""
    by_solver_set: dict[tuple[str, str], list[Run]] = defaultdict(list)
    for r in runs:
        by_solver_set[(r["solver"], set_key(r))].append(r)
    out = []
    for group, pset, native, library in _pairs(runs):
        c = compare_pair(group, pset, native, library, by_solver_set[(native, pset)],
                         by_solver_set[(library, pset)])
        if c is not None:
            out.append(c)
    adjusted = stats.holm([c.p_value for c in out])
    for rank, i in enumerate(stats.holm_order([c.p_value for c in out]), start=1):
        out[i].holm_rank = rank
    for c, p in zip(out, adjusted, strict=True):
        c.p_holm = p
        c.significant = bool(p < ALPHA) if not math.isnan(p) else False
    return out
