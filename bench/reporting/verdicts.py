"""Verdicts: one line per (native, library) pair and view, computed from stored runs.

A *pair* is a library adapter and a native solver of its comparison group: its declared
``counterpart`` (the same algorithm on the same encoding), a *native variant* (the
counterpart's class with other settings: reheat, restarts, memetic, hybrid), or a *native
alternative* (another native algorithm of the group). A *view* is the question the budget
asks: **equal work** (a shared evaluation budget binds: compares algorithms; the measure
is PAR-2 in evaluations) or **equal time** (a shared clock binds: compares
implementations; PAR-2 in seconds). A campaign with ``max_evaluations`` set is an
equal-work campaign, one without is an equal-time campaign; runs of one view are never
compared with runs of the other.

The test is the paired Wilcoxon signed-rank test over puzzles (each puzzle's mean PAR-2
over its seeds is one observation), Holm-corrected over every pair and view of the
report; the racing plan of ``compare`` (``bench/compare.py``) calls :func:`assess` after
each round with its per-look level, so the stopping rule and the report are the same
computation.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy.stats import rankdata

from sudoku_compare import registry

from . import stats
from .summary import FAMILY_ORDER, comparison_group

EQUAL_WORK = "equal work"
EQUAL_TIME = "equal time"
#: a ratio of PAR-2 medians inside [1/margin, margin], with its interval, is "equivalent"
EQUIVALENCE_MARGIN = 1.25
#: equivalence also needs this many puzzles solved by at least one side: two solvers that
#: both fail everywhere are tied by their penalties, which is no evidence of equal speed
MIN_INFORMATIVE = 6

Run = Mapping[str, Any]


@dataclass(frozen=True)
class Pair:
    """A native solver and the library it is compared with."""

    native: str
    library: str
    #: counterpart | variant (the counterpart's class, other settings) | alternative
    kind: str
    group: str

    @property
    def label(self) -> str:
        return f"{self.native} vs {self.library}"


def pairs_for(solvers: Iterable[str], alternatives: bool = True) -> list[Pair]:
    """The pairs among ``solvers`` (registered names), counterpart pairs first.

    A native of the library's comparison group whose class is the counterpart's is an
    variant (a configured variant of the same algorithm); any other native of the
    group is an alternative (left out when ``alternatives`` is False).
    """
    specs = {n: registry.get(n) for n in solvers}
    natives = [s for s in specs.values() if s.origin == "native"]
    out: list[Pair] = []
    for lib in sorted((s for s in specs.values() if s.origin != "native"), key=lambda s: s.name):
        group = comparison_group(lib.family)
        twin = specs.get(lib.counterpart or "")
        if twin is not None:
            out.append(Pair(twin.name, lib.name, "counterpart", group))
        for nat in sorted(natives, key=lambda s: s.name):
            if comparison_group(nat.family) != group or (twin is not None and nat.name == twin.name):
                continue
            kind = "variant" if twin is not None and nat.cls is twin.cls else "alternative"
            if kind == "alternative" and not alternatives:
                continue
            out.append(Pair(nat.name, lib.name, kind, group))
    order = {"counterpart": 0, "variant": 1, "alternative": 2}
    groups = {g: i for i, g in enumerate(FAMILY_ORDER)}
    return sorted(out, key=lambda p: (groups.get(p.group, 99), p.group, order[p.kind], p.library,
                                      p.native))


def view_of(run: Run) -> str:
    """The question a run's campaign asked: equal work when it had an evaluation budget."""
    return EQUAL_WORK if run.get("max_evaluations") is not None else EQUAL_TIME


def solved_within_budget(run: Run) -> bool:
    """Verified solved, and (equal time) within its clock: a late grid does not count."""
    if run.get("status") != "solved":
        return False
    if view_of(run) == EQUAL_TIME and run.get("elapsed_s") is not None:
        return float(run["elapsed_s"]) <= float(run["max_seconds"])
    return True


def par2(run: Run) -> float:
    """PAR-2 in the unit of the binding budget: evaluations (equal work) or seconds."""
    if view_of(run) == EQUAL_WORK:
        budget = float(run["max_evaluations"])
        spent = float(run.get("evaluations") or 0)
        return spent if solved_within_budget(run) else 2.0 * budget
    spent = float(run["elapsed_s"]) if run.get("elapsed_s") is not None else float(run["max_seconds"])
    return spent if solved_within_budget(run) else 2.0 * float(run["max_seconds"])


@dataclass
class Verdict:
    """The evidence on one pair in one view, and what it says."""

    pair: Pair
    view: str
    budget: str                      # "200,000 evaluations" or "1 s"
    puzzles: int                     # puzzles both solvers ran
    seeds: int                       # most seeds per puzzle
    native_solved: int
    native_runs: int
    library_solved: int
    library_runs: int
    native_ci: tuple[float, float]
    library_ci: tuple[float, float]
    #: median per-puzzle PAR-2 of native / of library, with a paired bootstrap interval
    ratio: float
    ratio_ci: tuple[float, float]
    p_value: float
    nonzero_pairs: int
    p_holm: float = math.nan
    #: significant | equivalent | inconclusive | stopped
    decision: str = "inconclusive"
    better: str | None = None
    why_stopped: str = ""
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The verdict in words and numbers, for the report's first section and the terminal."""
        p = self.pair
        nl, nh = self.native_ci
        ll, lh = self.library_ci
        head = (f"{p.native} vs {p.library} ({p.kind}), {self.view} ({self.budget}, "
                f"{self.puzzles} puzzles × {self.seeds} seed{'s' if self.seeds != 1 else ''}): ")
        counts = (f"solved {self.native_solved}/{self.native_runs} [{100 * nl:.0f}–{100 * nh:.0f} %] "
                  f"vs {self.library_solved}/{self.library_runs} [{100 * ll:.0f}–{100 * lh:.0f} %]")
        unit = "evaluations" if self.view == EQUAL_WORK else "time"
        if math.isfinite(self.ratio):
            ci = (f" [{self.ratio_ci[0]:.3g}–{self.ratio_ci[1]:.3g}]"
                  if all(math.isfinite(x) for x in self.ratio_ci) else "")
            ratio = f"; PAR-2 {unit} ratio native/library {self.ratio:.3g}{ci}"
        else:
            ratio = ""
        ptxt = (f"Holm p = {self.p_holm:.2g}" if math.isfinite(self.p_holm)
                else f"no test ({self.note or 'too few differing pairs'})")
        if self.decision == "significant":
            end = f"{self.better} better ({ptxt}, {self.nonzero_pairs} differing puzzles)"
        elif self.decision == "equivalent":
            end = (f"equivalent within ×{EQUIVALENCE_MARGIN:g} ({ptxt}, "
                   f"{self.nonzero_pairs} differing puzzles)")
        else:
            end = (f"inconclusive ({ptxt}, {self.nonzero_pairs} differing puzzles): "
                   f"{runs_needed(self)}")
        tail = f"; stopped: {self.why_stopped}" if self.why_stopped else ""
        return head + counts + ratio + "; " + end + tail

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["text"] = self.text()
        return d


def _budget_label(runs: Sequence[Run], view: str) -> str:
    if view == EQUAL_WORK:
        values = sorted({int(r["max_evaluations"]) for r in runs})
        return " / ".join(f"{v:,}" for v in values) + " evaluations"
    values = sorted({float(r["max_seconds"]) for r in runs})
    return " / ".join(f"{v:g}" for v in values) + " s"


def _per_puzzle(runs: Iterable[Run]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for r in runs:
        out[r["puzzle"]].append(par2(r))
    return out


def budget_of(run: Run) -> float:
    """The value of the budget that defines a run's view (evaluations or seconds)."""
    if view_of(run) == EQUAL_WORK:
        return float(run["max_evaluations"])
    return float(run["max_seconds"])


def verdict_for(pair: Pair, view: str, runs: Sequence[Run], seed: int = 0) -> Verdict | None:
    """The raw evidence (no Holm yet) on ``pair`` in ``view``; None when a side has no runs.

    Only runs under one budget are compared: the largest budget both sides ran (a pilot
    or an earlier campaign under another budget is left out, never mixed in).
    """
    nat = [r for r in runs if r["solver"] == pair.native and view_of(r) == view]
    lib = [r for r in runs if r["solver"] == pair.library and view_of(r) == view]
    shared = {budget_of(r) for r in nat} & {budget_of(r) for r in lib}
    if not shared:
        return None
    budget = max(shared)
    nat = _once([r for r in nat if budget_of(r) == budget])
    lib = _once([r for r in lib if budget_of(r) == budget])
    a, b = _per_puzzle(nat), _per_puzzle(lib)
    common = sorted(set(a) & set(b))
    # only puzzles both ran count, so a side raced longer is not credited with more runs
    nat = [r for r in nat if r["puzzle"] in b]
    lib = [r for r in lib if r["puzzle"] in a]
    x = np.array([np.mean(a[k]) for k in common])
    y = np.array([np.mean(b[k]) for k in common])
    test = stats.wilcoxon_paired(x, y) if common else stats.TestResult(
        "wilcoxon", math.nan, math.nan, 0, "no puzzle run by both")
    ratio, lo, hi = stats.bootstrap_median_ratio(x, y, paired=True, seed=seed)
    ns, ls = sum(map(solved_within_budget, nat)), sum(map(solved_within_budget, lib))
    seeds = max((len(a[k]) for k in common), default=0)
    informative = len({r["puzzle"] for r in nat + lib if solved_within_budget(r)})
    d = x - y
    ranks = rankdata(np.abs(d[d != 0]))
    # the signed-rank test's own direction: which side's differences carry more rank (the
    # median ratio is 1 whenever fewer than half the puzzles differ, so it cannot say)
    w_native, w_library = float(ranks[d[d != 0] < 0].sum()), float(ranks[d[d != 0] > 0].sum())
    return Verdict(pair, view, _budget_label(nat + lib, view), len(common), seeds, ns, len(nat),
                   ls, len(lib), stats.wilson_interval(ns, len(nat)),
                   stats.wilson_interval(ls, len(lib)), ratio, (lo, hi), test.p_value,
                   int(np.count_nonzero(x != y)), note=test.note,
                   extra={"puzzles_solved_by_either": informative,
                          "rank_sum_native_better": w_native,
                          "rank_sum_library_better": w_library})


def _once(runs: list[Run]) -> list[Run]:
    """One run per (puzzle, run seed): the same run stored by two campaigns (compare's pilot
    of a library's schedule, when the sized budget equals the pilot's) is one observation."""
    seen: dict[tuple[Any, Any], Run] = {}
    for i, r in enumerate(runs):  # a row without a seed (hand-made) is its own observation
        seen.setdefault((r["puzzle"], r["seed"]) if r.get("seed") is not None else (i, None), r)
    return list(seen.values())


def assess(pairs: Sequence[Pair], runs: Sequence[Run], alpha: float = 0.05,
           views: Sequence[str] = (EQUAL_WORK, EQUAL_TIME)) -> list[Verdict]:
    """Every pair's verdict in every view that has runs, Holm-corrected together.

    ``alpha`` is the level of this look (``compare`` divides 0.05 by its number of
    looks, so repeated looks keep the family-wise error at 0.05). Equivalence needs the
    whole paired interval of the PAR-2 ratio inside the margin, no significant difference,
    at least :data:`MIN_INFORMATIVE` puzzles that one side solved, and success rates within
    the margin of each other.
    """
    out = [v for pair in pairs for view in views if (v := verdict_for(pair, view, runs))]
    for v, p in zip(out, stats.holm([v.p_value for v in out]), strict=True):
        v.p_holm = p
        lo, hi = v.ratio_ci
        if math.isfinite(p) and p < alpha:
            v.decision = "significant"
            wn, wl = (v.extra.get("rank_sum_native_better"),
                      v.extra.get("rank_sum_library_better"))
            favours_native = wn > wl if wn is not None and wl is not None else v.ratio < 1
            v.better = v.pair.native if favours_native else v.pair.library
        elif (math.isfinite(lo) and math.isfinite(hi) and lo >= 1 / EQUIVALENCE_MARGIN
              and hi <= EQUIVALENCE_MARGIN
              and v.extra.get("puzzles_solved_by_either", 0) >= MIN_INFORMATIVE
              and _similar_success(v)):
            v.decision = "equivalent"
        else:
            v.decision = "inconclusive"
    return out


def _similar_success(v: Verdict) -> bool:
    """Success rates within the equivalence margin of each other (the lower at least
    1 / margin of the higher). The PAR-2 ratio alone cannot show equivalence when most
    puzzles tie at the penalty: its median is then 1 with a [1, 1] interval even where
    one side solved 6 puzzles and the other none."""
    a = v.native_solved / v.native_runs if v.native_runs else 0.0
    b = v.library_solved / v.library_runs if v.library_runs else 0.0
    return max(a, b) > 0 and min(a, b) >= max(a, b) / EQUIVALENCE_MARGIN


def runs_needed(v: Verdict) -> str:
    """What more runs would settle an inconclusive verdict (a rough, stated rule)."""
    if v.decision != "inconclusive":
        return ""
    if v.native_solved == 0 and v.library_solved == 0:
        return ("neither side solved a puzzle: a larger budget, not more puzzles, would tell "
                "them apart")
    if v.nonzero_pairs < 6:
        return ("fewer than 6 puzzles differ: a two-sided Wilcoxon test cannot reach 0.05 "
                "below 6 differing pairs; run more puzzles (compare --time-box)")
    if not (math.isfinite(v.p_value) and 0 < v.p_value < 1):
        return "more puzzles would narrow the interval (compare --time-box)"
    from scipy.stats import norm

    z = float(norm.isf(v.p_value / 2))
    if z < 0.5:
        return "no sign of a difference at this budget (the equivalence margin needs more puzzles)"
    # the test statistic grows as the square root of the puzzles at a fixed effect
    need = math.ceil(v.puzzles * (float(norm.isf(0.05 / 2)) / z) ** 2)
    return (f"at the same effect about {max(need, v.puzzles + 1)} puzzles would reach p < 0.05 "
            "before the Holm correction (compare --time-box)")
