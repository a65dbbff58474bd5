"""The data model of a report: per family and puzzle set, one row per solver.

Input is the ``runs`` and ``campaigns`` tables of :mod:`sudoku_compare.bench.store`
(the contract with the campaign writer); output is plain dataclasses that the markdown
writer renders and ``--json`` dumps, so the two can never disagree.
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sudoku_compare.problems.errors import InputError

from . import stats

EXACT_FAMILIES = ("backtracking", "csp", "exact")
STOCHASTIC_FAMILIES = ("annealing", "genetic", "swarm")
FAMILY_ORDER = EXACT_FAMILIES + STOCHASTIC_FAMILIES
#: counters shown first for the exact families (others found in the runs follow)
COUNTER_ORDER = ("search_calls", "assignments", "backtracks", "guesses")
STATUS_ORDER = ("solved", "unsolved", "timeout", "memout", "error", "invalid")
#: the seed material's difficulty order first, then the generated sets
SET_ORDER = ("easy51", "generated-easy", "hardest", "generated-medium", "top95",
             "generated-hard", "top1465", "generated-16x16")

Run = dict[str, Any]


# -- reading ---------------------------------------------------------------------------
def load_db(db: str | Path) -> tuple[list[Run], list[dict[str, Any]]]:
    """(runs, campaigns) of a store, or :class:`InputError` naming what is wrong with it."""
    from sudoku_compare.bench.store import Store

    path = Path(db)
    if not path.is_file():
        raise InputError(f"{path}: no such database")
    try:
        with Store(path, readonly=True) as store:
            runs = store.runs()
            campaigns = store.campaigns()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{path}: not a sudoku-compare database ({exc})") from None
    if not runs:
        raise InputError(f"{path}: the database holds no runs")
    return runs, campaigns


# -- per-run measures ---------------------------------------------------------------------
def solved(run: Run) -> bool:
    """A run counts as solved only when the bench verified its grid."""
    return run.get("status") == "solved"


def seconds_spent(run: Run) -> float:
    """Solve time of a run; a run killed without a time is charged its whole budget."""
    t = run.get("elapsed_s")
    return float(t) if t is not None else float(run["max_seconds"])


def evaluations(run: Run) -> float:
    e = run.get("evaluations")
    return float(e) if e is not None else 0.0


def penalised_seconds(run: Run) -> float:
    """The PAR-2 time of one run: its time when solved, twice its budget otherwise."""
    return seconds_spent(run) if solved(run) else 2.0 * float(run["max_seconds"])


def set_key(run: Run) -> str:
    return run.get("puzzle_set") or "(literal puzzles)"


def puzzle_key(run: Run) -> str:
    """Pairs runs on the same puzzle by its givens, whatever set or index named it."""
    return run["puzzle"]


def seed_key(run: Run) -> int:
    si = run.get("seed_index")
    return int(si) if si is not None else int(run["seed"])


def comparison_group(family: str) -> str:
    """The complete-search families form one group; each stochastic family is its own.

    backtracking, csp and exact all answer the same question by complete search, and the
    libraries there (python-constraint, CP-SAT) are the reference for every hand-written
    complete solver, so they share a table and are compared with each other.
    """
    return "exact" if family in EXACT_FAMILIES else family


def sort_sets(names: Iterable[str]) -> list[str]:
    order = {n: i for i, n in enumerate(SET_ORDER)}
    return sorted(set(names), key=lambda n: (order.get(n, len(order)), n))


def sort_families(names: Iterable[str]) -> list[str]:
    order = {n: i for i, n in enumerate(FAMILY_ORDER)}
    return sorted(set(names), key=lambda n: (order.get(n, len(order)), n))


def solver_sort_key(name: str, origin: str) -> tuple[int, str]:
    """Native rows first, then the libraries, each alphabetical."""
    return (0 if origin == "native" else 1, name)


# -- rows ----------------------------------------------------------------------------
@dataclass
class SolverRow:
    """One solver on one puzzle set: what the family tables show."""

    solver: str
    family: str
    origin: str
    puzzle_set: str
    runs: int
    puzzles: int
    seeds: int
    solved: int
    success_rate: float
    wilson_low: float
    wilson_high: float
    #: over solved runs only (time/evaluations *to solution*)
    time_median: float
    time_q1: float
    time_q3: float
    evals_median: float
    evals_q1: float
    evals_q3: float
    ert_seconds: float
    ert_evaluations: float
    par2_seconds: float
    evals_per_second: float
    max_seconds: list[float]
    max_evaluations: list[int | None]
    #: mean per run of every counter the solver reports
    counters: dict[str, float] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)


@dataclass
class FamilyTable:
    """The rows of one comparison group (see :func:`comparison_group`) on one puzzle set."""

    family: str
    puzzle_set: str
    rows: list[SolverRow]


def solver_row(runs: list[Run]) -> SolverRow:
    """Aggregate the runs of one solver on one set."""
    first = runs[0]
    ok = np.array([solved(r) for r in runs], dtype=bool)
    secs = np.array([seconds_spent(r) for r in runs])
    evals = np.array([evaluations(r) for r in runs])
    budgets = np.array([float(r["max_seconds"]) for r in runs])
    n, k = len(runs), int(ok.sum())
    lo, hi = stats.wilson_interval(k, n)
    t_med, t_q1, t_q3 = stats.median_iqr(secs[ok])
    has_evals = bool(np.any(evals > 0))
    e_med, e_q1, e_q3 = stats.median_iqr(evals[ok]) if has_evals else (math.nan,) * 3
    sums: dict[str, float] = defaultdict(float)
    for r in runs:
        for name, value in (r.get("counters") or {}).items():
            if isinstance(value, int | float):
                sums[name] += float(value)
    known = [c for c in COUNTER_ORDER if c in sums]
    counters = {c: sums[c] / n for c in known + sorted(set(sums) - set(known))}
    status_counts = Counter(r["status"] for r in runs)
    return SolverRow(
        solver=first["solver"], family=first["family"], origin=first["origin"],
        puzzle_set=set_key(first), runs=n, puzzles=len({puzzle_key(r) for r in runs}),
        seeds=len({seed_key(r) for r in runs}), solved=k, success_rate=k / n,
        wilson_low=lo, wilson_high=hi, time_median=t_med, time_q1=t_q1, time_q3=t_q3,
        evals_median=e_med, evals_q1=e_q1, evals_q3=e_q3,
        ert_seconds=stats.ert(secs, ok),
        ert_evaluations=stats.ert(evals, ok) if has_evals else math.nan,
        par2_seconds=stats.par2(secs, ok, budgets),
        evals_per_second=stats.evaluations_per_second(evals, secs) if has_evals else math.nan,
        max_seconds=sorted({float(r["max_seconds"]) for r in runs}),
        max_evaluations=sorted({r.get("max_evaluations") for r in runs},
                               key=lambda v: (v is None, v or 0)),
        counters=counters,
        statuses={s: status_counts[s] for s in STATUS_ORDER if status_counts[s]}
        | {s: c for s, c in status_counts.items() if s not in STATUS_ORDER},
    )


def family_tables(runs: list[Run]) -> list[FamilyTable]:
    """One table per (comparison group, puzzle set), native solvers first."""
    groups: dict[tuple[str, str], dict[str, list[Run]]] = defaultdict(lambda: defaultdict(list))
    for r in runs:
        groups[(comparison_group(r["family"]), set_key(r))][r["solver"]].append(r)
    tables = []
    for fam in sort_families(f for f, _ in groups):
        for pset in sort_sets(s for f, s in groups if f == fam):
            by_solver = groups[(fam, pset)]
            rows = [solver_row(by_solver[s]) for s in by_solver]
            rows.sort(key=lambda row: solver_sort_key(row.solver, row.origin))
            tables.append(FamilyTable(fam, pset, rows))
    return tables


# -- metadata ------------------------------------------------------------------------
@dataclass
class CampaignInfo:
    campaign_id: str
    created_at: str
    command: str | None
    planned_runs: int
    finished_runs: int
    config: dict[str, Any]
    machine: dict[str, Any]


@dataclass
class Metadata:
    generated_at: str
    db: str
    campaigns: list[CampaignInfo]
    #: every distinct value of every version key found in the runs
    versions: dict[str, list[str]]
    budgets: list[dict[str, Any]]
    seeds: int
    seed_values: int
    runs: int
    partial: bool
    partial_reasons: list[str]
    report_command: str


def metadata(runs: list[Run], campaigns: list[dict[str, Any]], db: str,
             report_command: str) -> Metadata:
    """Where and how the runs were made, and whether the campaign is complete."""
    per_campaign = Counter(r["campaign_id"] for r in runs)
    # a campaign's runs may have been written by an earlier campaign it extends: count its
    # planned run ids when the store recorded them, else the rows it wrote itself
    infos = [CampaignInfo(c["campaign_id"], c["created_at"], c.get("command"),
                          int(c["planned_runs"]),
                          c["present_runs"] if c.get("present_runs") is not None
                          else per_campaign.get(c["campaign_id"], 0),
                          c.get("config") or {}, c.get("machine") or {}) for c in campaigns]
    reasons = [f"campaign {c.campaign_id}: {c.finished_runs} of {c.planned_runs} planned runs "
               "are in the database" for c in infos if c.finished_runs < c.planned_runs]
    known = {c.campaign_id for c in infos}
    orphans = sorted(set(per_campaign) - known)
    if orphans:
        reasons.append(f"runs of unrecorded campaign(s) {', '.join(orphans)}: their plan is unknown")
    reasons += missing_runs(runs)
    versions: dict[str, set[str]] = defaultdict(set)
    for r in runs:
        for k, v in (r.get("versions") or {}).items():
            versions[k].add(str(v))
    budgets = sorted({(float(r["max_seconds"]), r.get("max_evaluations")) for r in runs},
                     key=lambda b: (b[0], b[1] is None, b[1] or 0))
    return Metadata(
        generated_at=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), db=db,
        campaigns=infos, versions={k: sorted(v) for k, v in sorted(versions.items())},
        budgets=[{"max_seconds": s, "max_evaluations": e} for s, e in budgets],
        seeds=len({seed_key(r) for r in runs}), seed_values=len({r["seed"] for r in runs}),
        runs=len(runs), partial=bool(reasons), partial_reasons=reasons,
        report_command=report_command)


def missing_runs(runs: list[Run]) -> list[str]:
    """Holes in a campaign's grid: a solver lacking (puzzle, seed) pairs others have.

    Within one campaign, puzzle set and comparison group every solver should have the
    same pairs; a hole
    means a run is missing (killed campaign, lost worker) even when no plan says so.
    """
    cells: dict[tuple[str, str, str], dict[str, set[tuple[str, int]]]] = defaultdict(
        lambda: defaultdict(set))
    for r in runs:
        key = (r["campaign_id"], set_key(r), comparison_group(r["family"]))
        cells[key][r["solver"]].add((puzzle_key(r), seed_key(r)))
    out = []
    for (cid, pset, _), by_solver in sorted(cells.items()):
        every = set().union(*by_solver.values())
        for solver, have in sorted(by_solver.items()):
            if len(have) < len(every):
                out.append(f"campaign {cid}, {pset}: {solver} lacks {len(every) - len(have)} "
                           f"of {len(every)} (puzzle, seed) runs")
    return out


# -- the whole report as data --------------------------------------------------------
@dataclass
class FigureRef:
    """A figure written beside the report: its path relative to the markdown and caption."""

    kind: str
    path: str
    caption: str


@dataclass
class ReportSummary:
    """Everything a report says, as data (``--json`` writes :meth:`to_dict`)."""

    metadata: Metadata
    tables: list[FamilyTable]
    comparisons: list[Any]
    seed_view: list[Any]
    figures: list[FigureRef]
    markdown_path: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: nan becomes null and infinity the string "inf" (JSON has neither)."""
        return _json_safe(asdict(self))


def _json_safe(obj: Any) -> Any:
    if isinstance(obj, float):
        if math.isnan(obj):
            return None
        if math.isinf(obj):
            return "inf" if obj > 0 else "-inf"
        return obj
    if isinstance(obj, dict):
        return {str(k): _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_json_safe(v) for v in obj]
    return obj
