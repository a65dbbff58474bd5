"""Native against library: rank tests, paired effect sizes, Holm, bootstrap, per view.

The measure compared is each run's PAR-2 value in the unit of the budget that binds: in
an **equal-work** comparison (a shared evaluation budget) its evaluations when solved and
2 × max_evaluations when not; in an **equal-time** comparison its time when solved and
2 × max_seconds when not. So a failure always ranks behind a success, a solver cannot win
by failing fast, and a failure is never charged a budget that did not stop it. Where the
runs of a pair were stopped by different rules (a library cut off by the clock inside an
equal-work comparison, runs ended by the evaluation budget inside an equal-time one, or
stop reasons not recorded) no test is run and the ratio is "–", with the reason.

Pairs come in the order of the tables: each adapter against its declared counterpart
first, then the native improvements (the counterpart's class with other settings) and the
other natives of the group, labelled as such. The exact families (backtracking, csp,
exact) form one comparison group, since they answer the same question (a complete search).
"""

from __future__ import annotations

import math
import zlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import stats
from .summary import (
    EQUAL_TIME,
    EQUAL_WORK,
    Run,
    budget_sort_key,
    comparison_group,
    counterpart_of,
    penalised_evaluations,
    penalised_seconds,
    puzzle_key,
    roles,
    set_key,
    sort_sets,
    view_budget,
    views_of,
    withheld_reason,
)

ALPHA = 0.05
#: pair kinds in report order
KIND_ORDER = ("counterpart", "native improvement", "native variant")


@dataclass
class Comparison:
    """One native-vs-library test on one puzzle set, under one budget, in one view."""

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
    #: unpaired effect (Mann-Whitney over seeds): P(native run better) + half the ties
    a12: float
    magnitude: str
    #: medians of the compared measure (seconds or evaluations, see ``unit``)
    native_median: float
    library_median: float
    #: median(native) / median(library) PAR-2: < 1 means native is better
    ratio: float
    ratio_low: float
    ratio_high: float
    holm_rank: int = 0     # 1 = the first test Holm's step-down examines (0: not tested)
    note: str = ""         # why there is no p-value, when there is none
    view: str = EQUAL_TIME
    unit: str = "s"        # "s" (equal time) or "evaluations" (equal work)
    #: the budget that bound: PAR-2's penalty is twice it
    budget: float = math.nan
    #: counterpart | native improvement | native variant
    kind: str = "native variant"
    #: Wilcoxon: puzzles whose observations differ (the test discards the others)
    nonzero: int | None = None
    method: str = ""
    a12_low: float = math.nan
    a12_high: float = math.nan
    #: paired effect (Wilcoxon over puzzles): share of puzzles where native is better,
    #: ties counting half, and the matched-pairs rank-biserial correlation
    share_better: float = math.nan
    share_low: float = math.nan
    share_high: float = math.nan
    rank_biserial: float = math.nan
    rb_low: float = math.nan
    rb_high: float = math.nan


def _kind(native: str, native_role: tuple[str, str | None], library: str) -> str:
    """counterpart (the library names this native), native improvement (the counterpart's
    algorithm with other settings) or native variant (anything else, including the twin of
    another library of the group)."""
    role, _ = native_role
    if counterpart_of(library) == native:
        return "counterpart"
    if role == "native improvement":
        return role
    return "native variant"


def _pairs(runs: list[Run]) -> list[tuple[str, str, tuple[float, int | None], str, str, str]]:
    """(group, set, budget, native, library, kind) for every native and library pair
    sharing a set and a budget, counterpart pairs first."""
    solvers: dict[tuple[str, str, tuple[float, int | None]], dict[str, str]] = defaultdict(dict)
    for r in runs:
        solvers[(comparison_group(r["family"]), set_key(r), view_budget(r))][r["solver"]] = \
            r["origin"]
    out = []
    for (group, pset, budget), names in solvers.items():
        rs = roles(names)
        natives = sorted(n for n, o in names.items() if o == "native")
        libraries = sorted(n for n, o in names.items() if o != "native")
        out += [(group, pset, budget, a, b, _kind(a, rs[a], b)) for a in natives
                for b in libraries]
    set_rank = {s: i for i, s in enumerate(sort_sets(p for _, p, _, _, _, _ in out))}
    kind_rank = {k: i for i, k in enumerate(KIND_ORDER)}
    # counterpart pairs first, then improvements, then other natives (each by library)
    return sorted(out, key=lambda t: (t[0], set_rank[t[1]], budget_sort_key(t[2]),
                                      kind_rank[t[5]], t[4], t[3]))


def _by_puzzle(runs: list[Run], measure: Callable[[Run], float]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for r in runs:
        out[puzzle_key(r)].append(measure(r))
    return out


def compare_pair(group: str, pset: str, native: str, library: str,
                 native_runs: list[Run], library_runs: list[Run], *,
                 view: str = EQUAL_TIME, kind: str = "native variant") -> Comparison | None:
    """Test one pair on the puzzles both ran, in ``view``; None when they share no puzzle.

    Several shared puzzles: each puzzle's median over seeds is one paired observation
    (Wilcoxon signed-rank, paired effect sizes), since runs on one puzzle are not
    independent. One shared puzzle: the seeds are independent draws (Mann-Whitney U,
    A12). A pair whose runs were stopped by different rules gets no test (see module).
    """
    measure = penalised_evaluations if view == EQUAL_WORK else penalised_seconds
    a, b = _by_puzzle(native_runs, measure), _by_puzzle(library_runs, measure)
    common = sorted(set(a) & set(b))
    if not common:
        return None
    shared = set(common)
    why = [f"{name}: {reason}" for name, rs in ((native, native_runs), (library, library_runs))
           if (reason := withheld_reason([r for r in rs if puzzle_key(r) in shared], view))]
    max_s, max_e = view_budget(native_runs[0])
    budget = float(max_e) if view == EQUAL_WORK and max_e is not None else max_s
    base = dict(group=group, puzzle_set=pset, native=native, library=library,
                puzzles=len(common), p_holm=math.nan, significant=False, view=view,
                unit="evaluations" if view == EQUAL_WORK else "s", budget=budget, kind=kind)
    if why:
        nan = math.nan
        return Comparison(**base, test="wilcoxon" if len(common) >= 2 else "mann-whitney",
                          n=len(common), statistic=nan, p_value=nan, a12=nan, magnitude="",
                          native_median=nan, library_median=nan, ratio=nan, ratio_low=nan,
                          ratio_high=nan,
                          note=("n/a: a time-only comparison (" if all(
                              w.endswith("counts no evaluations") for w in why)
                              else "n/a: runs stopped by different rules (")
                          + "; ".join(why) + ")")
    seed = zlib.crc32(f"{pset}|{native}|{library}|{view}".encode())
    extra: dict = {}
    if len(common) >= 2:
        x = np.array([np.median(a[p]) for p in common])
        y = np.array([np.median(b[p]) for p in common])
        test = stats.wilcoxon_paired(x, y, seed=seed)
        ratio, lo, hi = stats.bootstrap_median_ratio(x, y, paired=True, seed=seed)
        eff = stats.paired_effect(x, y, seed=seed)
        effect, e_lo, e_hi, magnitude = math.nan, math.nan, math.nan, ""
        extra = dict(share_better=eff.share, share_low=eff.share_low, share_high=eff.share_high,
                     rank_biserial=eff.rank_biserial, rb_low=eff.rb_low, rb_high=eff.rb_high)
    else:
        x = np.array(a[common[0]])
        y = np.array(b[common[0]])
        test = stats.mann_whitney(x, y, seed=seed)
        ratio, lo, hi = stats.bootstrap_median_ratio(x, y, paired=False, seed=seed)
        effect, e_lo, e_hi = stats.a12_interval(y, x, seed=seed)  # P(native lower)
        # a verbal magnitude only where an interval backs it
        magnitude = stats.a12_magnitude(effect) if math.isfinite(e_lo) else ""
    return Comparison(**base, test=test.test, n=test.n, statistic=test.statistic,
                      p_value=test.p_value, a12=effect, magnitude=magnitude,
                      native_median=float(np.median(x)), library_median=float(np.median(y)),
                      ratio=ratio, ratio_low=lo, ratio_high=hi, note=test.note,
                      nonzero=test.nonzero, method=test.method, a12_low=e_lo, a12_high=e_hi,
                      **extra)


def compare_all(runs: list[Run]) -> list[Comparison]:
    """Every native-vs-library comparison of the report, in every view its runs support,
    Holm-corrected together."""
    by_key: dict[tuple[str, str, tuple[float, int | None]], list[Run]] = defaultdict(list)
    for r in runs:
        by_key[(r["solver"], set_key(r), view_budget(r))].append(r)
    out = []
    for group, pset, budget, native, library, kind in _pairs(runs):
        nat, lib = by_key[(native, pset, budget)], by_key[(library, pset, budget)]
        for view in views_of(nat + lib):
            c = compare_pair(group, pset, native, library, nat, lib, view=view, kind=kind)
            if c is not None:
                out.append(c)
    adjusted = stats.holm([c.p_value for c in out])
    for rank, i in enumerate(stats.holm_order([c.p_value for c in out]), start=1):
        out[i].holm_rank = rank
    for c, p in zip(out, adjusted, strict=True):
        c.p_holm = p
        c.significant = bool(p < ALPHA) if not math.isnan(p) else False
    return out
