"""The data model of a report: per family and puzzle set, one row per solver.

Input is the ``runs`` and ``campaigns`` tables of :mod:`sudoku_compare.bench.store`
(the contract with the campaign writer); output is plain dataclasses that the markdown
writer renders and ``--json`` dumps, so the two can never disagree.

Two questions, never one table (see ``DESIGN.md``): an **equal-work** table (runs with a
shared evaluation budget: success, ERT and PAR-2 in evaluations, the penalty
2 × max_evaluations; it compares algorithms) and an **equal-time** table (a shared clock:
time to solution, ERT and PAR-2 in seconds, the penalty 2 × max_seconds; it compares
implementations). Which budget stopped a run is read from its ``stop_reason``
(:func:`binding_budget`), never guessed: a figure that would compare runs stopped by
different rules is left out (nan, shown "–") with the reason in the row's ``withheld``.
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sudoku_compare.bench.run_table import StoredValueError
from sudoku_compare.outcome import Status
from sudoku_compare.problems.errors import InputError
from sudoku_compare.vocabulary import EXACT_FAMILIES, FAMILIES, StopReason

from . import stats

#: the order of families in tables and figures: the vocabulary's (exact search first)
FAMILY_ORDER = FAMILIES
#: counters shown first for the exact families (others found in the runs follow)
COUNTER_ORDER = ("search_calls", "assignments", "backtracks", "guesses")
STATUS_ORDER = tuple(str(s) for s in Status)
STOP_ORDER = tuple(str(r) for r in StopReason) + ("unknown",)
EQUAL_WORK = "equal work"
EQUAL_TIME = "equal time"
#: the seed material's difficulty order first, then the generated sets
SET_ORDER = ("easy51", "generated-easy", "hardest", "generated-medium", "top95",
             "generated-hard", "top1465", "generated-16x16")

#: one stored run as a report reads it: a dict, or the store's compact read-only row
Run = Mapping[str, Any]

#: the columns reports read (the rest, e.g. run ids, timestamps and error texts, stay in the
#: store: ``report --csv`` streams every column of every run from it)
REPORT_COLUMNS = (
    "campaign_id", "solver", "family", "origin", "encoding", "params", "puzzle_set",
    "puzzle_index", "puzzle", "seed", "seed_index", "max_seconds", "max_evaluations", "status",
    "elapsed_s", "evaluations", "iterations", "restarts", "best_energy", "counters", "trace",
    "extra", "versions", "grid", "stop_reason", "schedule_fraction",
)


# -- reading ---------------------------------------------------------------------------
def _open_store(db: str | Path):
    from sudoku_compare.bench.store import Store

    path = Path(db)
    if not path.is_file():
        raise InputError(f"{path}: no such database")
    return Store(path, readonly=True)


def load_db(db: str | Path) -> tuple[list[Run], list[dict[str, Any]]]:
    """(runs, campaigns) of a store, or :class:`InputError` naming what is wrong with it.

    The runs are read-only views over the store's :data:`REPORT_COLUMNS`, read from SQLite
    in chunks into columns (about 0.17 KB a run of a fast solver held, against 1.5 KB as
    full dicts; see :mod:`sudoku_compare.bench.run_table`)."""
    try:
        with _open_store(db) as store:
            runs = store.read_only_runs(REPORT_COLUMNS)
            campaigns = store.campaigns()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{db}: not a sudoku-compare database ({exc})") from None
    except StoredValueError as exc:
        raise InputError(f"{db}: {exc}") from None
    if not runs:
        raise InputError(f"{db}: the database holds no runs")
    return runs, campaigns


def load_campaigns(db: str | Path) -> list[dict[str, Any]]:
    """The campaigns of a store (for a report of runs the caller already holds)."""
    try:
        with _open_store(db) as store:
            return store.campaigns()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{db}: not a sudoku-compare database ({exc})") from None


# -- per-run measures ---------------------------------------------------------------------
def solved(run: Run) -> bool:
    """Solved within budget: the bench verified its grid and it came back in time.

    ``solved-late`` (a verified grid after ``max_seconds``, inside the grace period) is
    not solved; an older store has no such status, so a ``solved`` run whose measured
    time exceeds its budget is read the same way (the time is in the row, nothing is
    guessed).
    """
    if run.get("status") != "solved":
        return False
    t = run.get("elapsed_s")
    return t is None or float(t) <= float(run["max_seconds"])


def seconds_spent(run: Run) -> float:
    """Solve time of a run; a run killed without a time is charged its whole budget."""
    t = run.get("elapsed_s")
    return float(t) if t is not None else float(run["max_seconds"])


def evaluations(run: Run) -> float:
    """Evaluations a run spent, 0 when unknown (see :func:`evaluations_known`)."""
    e = run.get("evaluations")
    return float(e) if e is not None else 0.0


def evaluations_known(run: Run) -> bool:
    """False when the store has no count (a killed worker) or only a lower bound (the
    last trace sample of a run that died), so a sum over such runs undercounts."""
    if run.get("evaluations") is None:
        return False
    note = (run.get("extra") or {}).get("evaluations")
    return not (isinstance(note, str) and note.startswith(("lower bound", "unknown")))


def stop_reason(run: Run) -> str:
    """The stored stop reason, or "unknown" (a store written before they were recorded)."""
    reason = run.get("stop_reason")
    return str(reason) if reason else "unknown"


def binding_budget(run: Run) -> str:
    """Which budget ended a run: "evaluations", "clock" (cooperative or killed), "neither"
    (solved, search exhausted, the algorithm's own end, an error) or "unknown"."""
    reason = stop_reason(run)
    if reason == "unknown":
        return "unknown"
    if reason == StopReason.EVALUATIONS:
        return "evaluations"
    if reason in (StopReason.CLOCK, StopReason.KILLED):
        return "clock"
    return "neither"


def penalised_seconds(run: Run) -> float:
    """The PAR-2 time of one run: its time when solved, twice its clock budget otherwise."""
    return seconds_spent(run) if solved(run) else 2.0 * float(run["max_seconds"])


def penalised_evaluations(run: Run) -> float:
    """The PAR-2 work of one run: its evaluations when solved, twice its evaluation
    budget otherwise (the budget that binds in an equal-work comparison)."""
    if solved(run):
        return evaluations(run)
    return 2.0 * float(run["max_evaluations"])


def view_budget(run: Run) -> tuple[float, int | None]:
    """(max_seconds, max_evaluations): runs of one table share both."""
    e = run.get("max_evaluations")
    return float(run["max_seconds"]), (int(e) if e is not None else None)


def counts_evaluations(runs: list[Run]) -> bool:
    """A solver counts evaluations when some run reports a positive count (exact searches
    report none, and an evaluations figure of theirs would be a column of zeros)."""
    return any(evaluations(r) > 0 for r in runs)


def views_of(runs: list[Run]) -> list[str]:
    """The views a set of runs under one budget supports.

    Equal work when they share an evaluation budget; equal time when there is no
    evaluation budget, or the clock ended (or may have ended: stop reason unknown) some
    run, or some solver counts no evaluations (its time is its only measure). So a
    campaign under ``--max-evals`` alone, where no run reached the clock, has no
    seconds table and no seconds penalty.
    """
    out = []
    max_evals = view_budget(runs[0])[1]
    if max_evals is not None:
        out.append(EQUAL_WORK)
    by_solver: dict[str, list[Run]] = defaultdict(list)
    for r in runs:
        by_solver[r["solver"]].append(r)
    if (max_evals is None or any(binding_budget(r) in ("clock", "unknown") for r in runs)
            or not all(counts_evaluations(rs) for rs in by_solver.values())):
        out.append(EQUAL_TIME)
    return out


def withheld_reason(runs: list[Run], view: str) -> str:
    """Why a solver's budget-dependent figures of ``view`` are not comparable, or "".

    Equal work: every run must have ended by its evaluation budget or by itself; a run
    the clock stopped never got its evaluations, so its ERT and PAR-2 in evaluations would
    compare different stopping rules. Equal time: no unsolved run may have been ended by
    the evaluation budget, whose runs stop after milliseconds and would be charged
    2 × max_seconds they never had. Unknown stop reasons leave the question open when
    both budgets were set.
    """
    n = len(runs)
    if view == EQUAL_WORK:
        if not counts_evaluations(runs):
            return "counts no evaluations"
        clock = sum(binding_budget(r) == "clock" for r in runs)
        unknown = sum(binding_budget(r) == "unknown" for r in runs)
        parts = []
        if clock:
            parts.append(f"{clock} of {n} runs were stopped by the clock before their "
                         "evaluation budget")
        if unknown:
            parts.append(f"{unknown} of {n} runs have no recorded stop reason (unknown)")
        return "; ".join(parts)
    both = view_budget(runs[0])[1] is not None
    failed = [r for r in runs if not solved(r)]
    evals = sum(binding_budget(r) == "evaluations" for r in failed)
    unknown = sum(binding_budget(r) == "unknown" for r in failed) if both else 0
    parts = []
    if evals:
        parts.append(f"{evals} of {n} runs were stopped by the evaluation budget, not the clock")
    if unknown:
        parts.append(f"{unknown} of {n} unsolved runs have no recorded stop reason (unknown)")
    return "; ".join(parts)


def set_key(run: Run) -> str:
    return run.get("puzzle_set") or "(literal puzzles)"


def puzzle_key(run: Run) -> str:
    """Pairs runs on the same puzzle by its givens, whatever set or index named it."""
    return run["puzzle"]


def seed_key(run: Run) -> int:
    si = run.get("seed_index")
    return int(si) if si is not None else int(run["seed"])


#: families whose solvers race in another family's group: tabu search minimises the
#: annealing objective on the annealing encoding (the annealing seed's "going further")
GROUP_OF = {"tabu": "annealing"}


def comparison_group(family: str) -> str:
    """The complete-search families form one group; each stochastic family is its own.

    backtracking, csp and exact all answer the same question by complete search, and the
    libraries there (python-constraint, CP-SAT) are the reference for every hand-written
    complete solver, so they share a table and are compared with each other. Tabu search
    joins the annealing group (:data:`GROUP_OF`).
    """
    return "exact" if family in EXACT_FAMILIES else GROUP_OF.get(family, family)


def sort_sets(names: Iterable[str]) -> list[str]:
    order = {n: i for i, n in enumerate(SET_ORDER)}
    return sorted(set(names), key=lambda n: (order.get(n, len(order)), n))


def sort_families(names: Iterable[str]) -> list[str]:
    order = {n: i for i, n in enumerate(FAMILY_ORDER)}
    return sorted(set(names), key=lambda n: (order.get(n, len(order)), n))


def solver_sort_key(name: str, origin: str) -> tuple[int, str]:
    """Native rows first, then the libraries, each alphabetical (figures' legend order)."""
    return (0 if origin == "native" else 1, name)


# -- counterpart pairs ---------------------------------------------------------------
def known_spec(name: str) -> Any:
    """The registered solver of a stored name, or None (renamed, uninstalled, broken):
    a report of an old store must still be written."""
    from sudoku_compare import registry

    try:
        return registry.get(name)
    except Exception:  # noqa: BLE001 - any failure to resolve means "not known here"
        return None


def counterpart_of(name: str) -> str | None:
    """The native twin an adapter declares (``cls.counterpart``), read defensively."""
    spec = known_spec(name)
    if spec is None:
        return None
    return getattr(getattr(spec, "cls", None), "counterpart", None) or None


def _solver_class(name: str) -> Any:
    spec = known_spec(name)
    return getattr(spec, "cls", None) if spec is not None else None


#: roles of a row, in table order
ROLE_ORDER = ("counterpart", "library", "native improvement", "native variant", "other library")


def roles(solvers: dict[str, str]) -> dict[str, tuple[str, str | None]]:
    """``{solver: (role, partner)}`` for the solvers (name -> origin) of one table.

    ``counterpart``: the native an adapter of the table names (partner: the adapters that
    name it, comma-separated: native.ga is the twin of both pygad.ga and deap.ga);
    ``library``: an adapter whose counterpart ran (partner: the native); ``native
    improvement``: a native of a counterpart's class with other settings (reheat,
    restarts, memetic, hybrid; partner: the counterpart); ``native variant``: any other
    native (another algorithm or encoding, not the library's equal); ``other library``: an
    adapter whose counterpart did not run here.
    """
    out: dict[str, tuple[str, str | None]] = {}
    libraries = sorted(n for n, o in solvers.items() if o != "native")
    twins: dict[str, list[str]] = defaultdict(list)
    for lib in libraries:
        twin = counterpart_of(lib)
        if twin is not None and solvers.get(twin) == "native":
            out[lib] = ("library", twin)
            twins[twin].append(lib)
        else:
            out[lib] = ("other library", twin)
    for twin, libs in twins.items():
        out[twin] = ("counterpart", ", ".join(libs))
    classes = {}
    for twin in twins:
        cls = _solver_class(twin)
        if cls is not None:
            classes[cls] = twin
    for name in sorted(n for n, o in solvers.items() if o == "native" and n not in out):
        cls = _solver_class(name)
        if cls is not None and cls in classes:
            out[name] = ("native improvement", classes[cls])
        else:
            out[name] = ("native variant", None)
    return out


def table_order(solvers: dict[str, str]) -> list[str]:
    """Each adapter right after its counterpart native (pairs in library order), then the
    native improvements, the other natives, and the adapters whose twin did not run."""
    rs = roles(solvers)
    out: list[str] = []
    for lib in sorted(n for n, (role, _) in rs.items() if role == "library"):
        twin = rs[lib][1]
        if twin not in out:
            out.append(twin)  # type: ignore[arg-type]
        out.append(lib)
    for role in ("native improvement", "native variant", "other library"):
        out += sorted(n for n, (r, _) in rs.items() if r == role and n not in out)
    return out


def role_label(role: str, partner: str | None) -> str:
    """The words a table prints for a row's role."""
    if role == "counterpart":
        return f"native counterpart of {partner}"
    if role == "library":
        return f"library (counterpart: {partner})"
    if role == "native improvement":
        return f"native improvement (variant of {partner})"
    if role == "native variant":
        return "native variant (not a library's counterpart)"
    return "library" + (f" (counterpart {partner} did not run)" if partner else "")


# -- rows ----------------------------------------------------------------------------
@dataclass
class SolverRow:
    """One solver on one puzzle set under one budget, in one view: what a table shows.

    Figures that do not belong to the row's view, or that would compare runs stopped by
    different rules, are nan; ``withheld`` says why for the budget-dependent ones.
    """

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
    view: str = EQUAL_TIME
    #: counterpart | library | native improvement | native variant | other library
    role: str = "native variant"
    partner: str | None = None
    #: PAR-2 in evaluations (equal work): an unsolved run counts 2 x max_evaluations
    par2_evaluations: float = math.nan
    #: ERT in evaluations sums counts some of which are unknown or lower bounds
    ert_evaluations_lower_bound: bool = False
    #: how many runs ended for each stop reason ("unknown": not recorded)
    stop_reasons: dict[str, int] = field(default_factory=dict)
    #: median share of its own schedule a run completed; nan when no run reported one
    schedule_fraction_median: float = math.nan
    schedule_fraction_runs: int = 0
    #: why the view's budget-dependent figures (ERT, PAR-2) are not shown, "" when they are
    withheld: str = ""


@dataclass
class FamilyTable:
    """The rows of one comparison group (see :func:`comparison_group`) on one puzzle set,
    under one budget, in one view (equal work or equal time)."""

    family: str
    puzzle_set: str
    rows: list[SolverRow]
    view: str = EQUAL_TIME
    max_seconds: float = math.nan
    max_evaluations: int | None = None


def _stop_counts(runs: list[Run]) -> dict[str, int]:
    c = Counter(stop_reason(r) for r in runs)
    return {k: c[k] for k in STOP_ORDER if c[k]} | {k: v for k, v in c.items()
                                                    if k not in STOP_ORDER}


def solver_row(runs: list[Run], view: str = EQUAL_TIME,
               role: tuple[str, str | None] = ("native variant", None)) -> SolverRow:
    """Aggregate the runs of one solver on one set under one budget, for ``view``."""
    first = runs[0]
    ok = np.array([solved(r) for r in runs], dtype=bool)
    secs = np.array([seconds_spent(r) for r in runs])
    evals = np.array([evaluations(r) for r in runs])
    budgets = np.array([float(r["max_seconds"]) for r in runs])
    n, k = len(runs), int(ok.sum())
    lo, hi = stats.wilson_interval(k, n)
    t_med, t_q1, t_q3 = stats.median_iqr(secs[ok])
    has_evals = counts_evaluations(runs)
    e_med, e_q1, e_q3 = stats.median_iqr(evals[ok]) if has_evals else (math.nan,) * 3
    withheld = withheld_reason(runs, view)
    nan = math.nan
    if view == EQUAL_WORK:
        max_evals = np.array([float(r["max_evaluations"]) for r in runs])
        ert_s, par2_s, eps = nan, nan, nan
        t_med = t_q1 = t_q3 = nan
        if withheld:
            ert_e, par2_e = nan, nan
        else:
            ert_e = stats.ert(evals, ok)
            par2_e = stats.par2(evals, ok, max_evals)
    else:
        ert_e, par2_e = nan, nan
        ert_s = stats.ert(secs, ok)
        par2_s = nan if withheld else stats.par2(secs, ok, budgets)
        eps = stats.evaluations_per_second(evals, secs) if has_evals else nan
    lower = bool(math.isfinite(ert_e) and not all(evaluations_known(r) for r in runs))
    fractions = [float(r["schedule_fraction"]) for r in runs
                 if r.get("schedule_fraction") is not None]
    sums: dict[str, float] = defaultdict(float)
    for r in runs:
        for name, value in (r.get("counters") or {}).items():
            if isinstance(value, int | float):
                sums[name] += float(value)
    known = [c for c in COUNTER_ORDER if c in sums]
    counters = {c: sums[c] / n for c in known + sorted(set(sums) - set(known))}
    status_counts = Counter(r["status"] for r in runs)
    late = sum(1 for r in runs if r["status"] == "solved" and not solved(r))
    if late:  # an older store: solved after its budget is reported as the runner does now
        status_counts["solved"] -= late
        status_counts["solved-late"] += late
    return SolverRow(
        solver=first["solver"], family=first["family"], origin=first["origin"],
        puzzle_set=set_key(first), runs=n, puzzles=len({puzzle_key(r) for r in runs}),
        seeds=len({seed_key(r) for r in runs}), solved=k, success_rate=k / n,
        wilson_low=lo, wilson_high=hi, time_median=t_med, time_q1=t_q1, time_q3=t_q3,
        evals_median=e_med, evals_q1=e_q1, evals_q3=e_q3,
        ert_seconds=ert_s, ert_evaluations=ert_e, par2_seconds=par2_s, evals_per_second=eps,
        max_seconds=sorted({float(r["max_seconds"]) for r in runs}),
        max_evaluations=sorted({r.get("max_evaluations") for r in runs},
                               key=lambda v: (v is None, v or 0)),
        counters=counters,
        statuses={s: status_counts[s] for s in STATUS_ORDER if status_counts[s]}
        | {s: c for s, c in status_counts.items() if s not in STATUS_ORDER and c},
        view=view, role=role[0], partner=role[1], par2_evaluations=par2_e,
        ert_evaluations_lower_bound=lower, stop_reasons=_stop_counts(runs),
        schedule_fraction_median=float(np.median(fractions)) if fractions else nan,
        schedule_fraction_runs=len(fractions), withheld=withheld,
    )


def budget_sort_key(budget: tuple[float, int | None]) -> tuple[float, bool, int]:
    return (budget[0], budget[1] is None, budget[1] or 0)


def family_tables(runs: list[Run]) -> list[FamilyTable]:
    """One table per (comparison group, puzzle set, budget, view), counterpart pairs first.

    Runs under different budgets are never pooled; under one budget the equal-work table
    comes before the equal-time one (see :func:`views_of` for which exist).
    """
    groups: dict[tuple[str, str], dict[tuple[float, int | None], dict[str, list[Run]]]] = \
        defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for r in runs:
        groups[(comparison_group(r["family"]), set_key(r))][view_budget(r)][r["solver"]].append(r)
    tables = []
    for fam in sort_families(f for f, _ in groups):
        for pset in sort_sets(s for f, s in groups if f == fam):
            for budget in sorted(groups[(fam, pset)], key=budget_sort_key):
                by_solver = groups[(fam, pset)][budget]
                origins = {s: rs[0]["origin"] for s, rs in by_solver.items()}
                rs_roles = roles(origins)
                order = table_order(origins)
                every = [r for rs in by_solver.values() for r in rs]
                for view in views_of(every):
                    rows = [solver_row(by_solver[s], view, rs_roles[s]) for s in order]
                    tables.append(FamilyTable(fam, pset, rows, view, budget[0], budget[1]))
    return tables


# -- uniqueness ----------------------------------------------------------------------
@dataclass
class SetUniqueness:
    """How many puzzles of a set have one solution, several, or an unknown number."""

    puzzle_set: str
    puzzles: int
    unique: int
    several: int
    unknown: int


def uniqueness(runs: list[Run]) -> list[SetUniqueness]:
    """Per set, puzzles by their ``unique`` flag (1, 0, or missing: unknown).

    A puzzle counts as having several solutions when any of its runs says so; a store
    written before the flag existed has no ``unique`` column, and its puzzles are unknown.
    """
    flags: dict[str, dict[str, set[int | None]]] = defaultdict(lambda: defaultdict(set))
    for r in runs:
        u = r.get("unique")
        flags[set_key(r)][puzzle_key(r)].add(None if u is None else int(bool(u)))
    out = []
    for pset in sort_sets(flags):
        per = flags[pset]
        several = sum(0 in v for v in per.values())
        unique = sum(1 in v and 0 not in v for v in per.values())
        out.append(SetUniqueness(pset, len(per), unique, several, len(per) - unique - several))
    return out


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
    #: the markdown's alt text (what the figure shows, in a few words)
    alt: str = ""
    #: entries in its legend(s), the most of any panel (a figure stays at 8 or fewer)
    legend_entries: int = 0


@dataclass
class ReportSummary:
    """Everything a report says, as data (``--json`` writes :meth:`to_dict`)."""

    metadata: Metadata
    tables: list[FamilyTable]
    comparisons: list[Any]
    seed_view: list[Any]
    figures: list[FigureRef]
    markdown_path: str | None = None
    uniqueness: list[SetUniqueness] = field(default_factory=list)
    #: one :class:`~sudoku_compare.bench.reporting.verdicts.Verdict` per pair and view
    verdicts: list[Any] = field(default_factory=list)
    #: how the verdicts' level was set (one look at 0.05, or compare's looks)
    verdict_level: str = ""
    #: one :class:`~sudoku_compare.bench.reporting.parameter_effect.ParameterEffect` per
    #: swept solver and budget (``run --grid``)
    parameter_effects: list[Any] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: nan becomes null and infinity the string "inf" (JSON has neither)."""
        d = asdict(self)
        d["verdicts"] = [v.to_dict() for v in self.verdicts]
        return _json_safe(d)


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
