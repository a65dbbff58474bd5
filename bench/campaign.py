"""A campaign: solvers x puzzles x seeds under one budget, resumable, one commit per run.

The driver plans every run (its id and seed derive from its identity, see
:mod:`sudoku_compare.bench.seeding`), skips the ids already in the store, hands the rest
to an :class:`~sudoku_compare.bench.executor.Executor`, and commits each outcome as it
arrives. Killing a campaign loses at most the runs in flight; starting it again finishes it.

``retry`` names statuses whose stored runs are run again (``failed``: error, memout,
timeout); the store keeps every attempt and the latest is the one reports read. The memory
cap is part of the campaign's recorded configuration (and of each run's row), but not of
its identity: a run id names what is measured, so a retry under a larger cap is the same run.
A disk that fills up ends the campaign with :class:`~sudoku_compare.bench.store.StoreWriteError`
(exit 1 on the command line); every run committed before it stays.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import platform
import shlex
import sys
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import resolve_puzzles
from sudoku_compare.solver import parse_params

from .executor import Executor, LocalProcessExecutor
from .runner import DEFAULT_MEMORY_MB, MIN_MEMORY_MB, Task
from .seeding import RunKeys
from .store import Store, StoreWriteError

#: a campaign commits its finished runs every COMMIT_RUNS runs or COMMIT_S seconds
COMMIT_RUNS = 512
COMMIT_S = 0.25
#: what ``retry=["failed"]`` (``--retry failed``) stands for
FAILED_STATUSES = ("error", "memout", "timeout")

SolverRef = str | tuple[str, dict[str, Any]]


@dataclass
class PlannedRun:
    """One run of the plan, with the columns the store needs besides the outcome.

    The columns shared by every run of a solver are one dict shared by them all; the row
    is assembled when the run is stored, so a plan of a million runs, produced lazily by
    :meth:`Plan.runs`, never holds a million rows."""

    task: Task
    shared: dict[str, Any]
    puzzle_set: str | None
    puzzle_index: int | None
    seed_index: int

    @property
    def row(self) -> dict[str, Any]:
        t = self.task
        return {**self.shared, "run_id": t.key, "puzzle_set": self.puzzle_set,
                "puzzle_index": self.puzzle_index, "puzzle": t.puzzle, "seed": t.seed,
                "seed_index": self.seed_index}


@dataclass
class CampaignResult:
    """What a campaign produced: its id, the plan size, and every run row of this campaign."""

    campaign_id: str
    planned: int
    executed: int
    skipped: int
    db: Path
    #: of ``executed``, the runs that were stored before and ran again (``retry``)
    retried: int = 0

    @functools.cached_property
    def rows(self) -> list[dict[str, Any]]:
        """Every stored run of this campaign, read from the store when first asked for
        (a campaign of a million runs does not hold them in the driver)."""
        with Store(self.db, readonly=True) as store:
            return store.runs(planned_by=self.campaign_id)

    def to_dataframe(self):
        """The rows as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.rows)

    def summary(self) -> list[tuple[str, int, int, float | None]]:
        """(solver, solved, total, median seconds of solved runs) per solver."""
        counts = self._counts()
        out = []
        with Store(self.db, readonly=True) as store:
            for name in sorted(counts):
                out.append((name, counts[name].get("solved", 0), sum(counts[name].values()),
                            store.median_seconds(self.campaign_id, name)))
        return out

    def _counts(self) -> dict[str, dict[str, int]]:
        """Runs per status per solver, counted in the store."""
        with Store(self.db, readonly=True) as store:
            rows = store.outcome_counts(self.campaign_id)
        counts: dict[str, dict[str, int]] = {}
        for solver, status, n in rows:
            counts.setdefault(solver, {})[status] = n
        return counts

    def summary_text(self) -> str:
        counts = self._counts()
        statuses = sorted({s for c in counts.values() for s in c})
        lines = [f"{'solver':28} {'solved':>11} {'median s':>10}  statuses"]
        for name, solved, total, med in self.summary():
            shown = ", ".join(f"{s} {counts[name][s]}" for s in statuses if counts[name].get(s))
            lines.append(f"{name:28} {solved:>5}/{total:<5} "
                         f"{(f'{med:.4f}' if med is not None else '-'):>10}  {shown}")
        return "\n".join(lines)


def machine_info() -> dict[str, Any]:
    """Where the campaign ran: CPU, cores, Python, platform, library versions."""
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numpy as np

    libs: dict[str, str] = {"numpy": np.__version__}
    for spec in registry.all_specs():
        v = spec.cls.library_version()
        if v is not None:
            libs[spec.origin] = v
    try:
        import numba

        libs["numba"] = numba.__version__
    except ImportError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "libraries": libs}


def _typed(spec: Any, name: str, given: Any) -> dict[str, Any]:
    """Overrides checked against the solver's Params (``["k=v"]`` strings are typed)."""
    if not given:
        return {}
    if isinstance(given, list | tuple):
        return parse_params(spec.cls.Params, list(given), name)
    known = {f.name for f in dataclasses.fields(spec.cls.Params)}
    out = {}
    for key, value in given.items():
        if key not in known or isinstance(value, str):
            out.update(parse_params(spec.cls.Params, [f"{key}={value}"], name))
        else:
            out[key] = value
    return out


def _solver_refs(solvers: Sequence[SolverRef], params: dict[str, Any] | None
                 ) -> list[tuple[str, dict[str, Any]]]:
    """Names with their parameter overrides; unknown names or keys raise InputError."""
    params = params or {}
    out = []
    for ref in solvers:
        name, own = (ref, {}) if isinstance(ref, str) else (ref[0], ref[1])
        spec = registry.get(name)
        ok, reason = spec.availability()
        if not ok:
            raise InputError(f"{name} is unavailable: {reason}")
        merged = {**_typed(spec, name, params.get(name)), **_typed(spec, name, own)}
        out.append((name, merged))
    return out


def _puzzle_list(puzzles: str | Sequence[Puzzle | str]) -> tuple[str, list[tuple[str, int | None,
                                                                                 Puzzle]]]:
    refs = [puzzles] if isinstance(puzzles, str) else list(puzzles)
    out: list[tuple[str, int | None, Puzzle]] = []
    for ref in refs:
        chosen = resolve_puzzles(ref) if isinstance(ref, str) else [ref]
        for pz in chosen:
            pset, index = None, None
            if pz.name and ":" in pz.name:
                base, _, tail = pz.name.rpartition(":")
                if tail.isdigit():
                    pset, index = base, int(tail)
            out.append((pset or (pz.name or "<literal>"), index, pz))
    label = puzzles if isinstance(puzzles, str) else ",".join(
        p if isinstance(p, str) else (p.name or p.to_line()) for p in puzzles)
    return label, out


@dataclass(frozen=True)
class Plan:
    """A campaign's config and its runs, produced on demand (:meth:`runs`), in a fixed
    order: solvers, then puzzles, then seeds."""

    config: dict[str, Any]
    #: how many runs :meth:`runs` yields
    size: int
    solvers: list[tuple[str, dict[str, Any]]]
    #: (puzzle set, index, line, box) of every puzzle, in order
    puzzles: list[tuple[str, int | None, str, int]]
    seeds: int
    budget: Budget
    campaign_seed: int
    imports: tuple[str, ...]

    def runs(self) -> Iterator[PlannedRun]:
        b = self.budget.to_dict()
        for name, p in self.solvers:
            spec = registry.get(name)
            shared = {"solver": name, "family": spec.family, "origin": spec.origin,
                      "encoding": spec.encoding,
                      "params": dataclasses.asdict(spec.create(**p).params),
                      "max_seconds": self.budget.max_seconds,
                      "max_evaluations": self.budget.max_evaluations}
            keys = RunKeys(name, p, b, self.campaign_seed)
            for pset, index, line, identity, k in self._identities(spec):
                task = Task(name, line, self.budget, keys.seed(identity, k), p,
                            self.imports, keys.run_id(identity, k), spec.cls.__module__)
                yield PlannedRun(task, shared, pset, index, k)

    def run_ids(self) -> Iterator[str]:
        """The ids of :meth:`runs`, in the same order, without building the runs (what the
        store records when the campaign starts: a third of the cost)."""
        b = self.budget.to_dict()
        for name, p in self.solvers:
            keys = RunKeys(name, p, b, self.campaign_seed)
            for *_, identity, k in self._identities(registry.get(name)):
                yield keys.run_id(identity, k)

    def _identities(self, spec: Any) -> Iterator[tuple[str, int | None, str, str, int]]:
        """(puzzle set, index, line, identity, seed index) of one solver's runs."""
        occurrences: dict[str, int] = {}
        for pset, index, line, box in self.puzzles:
            if box not in spec.cls.boxes:
                continue
            # A set may hold the same puzzle twice (easy51 does): the second copy is its
            # own run, not a "finished" duplicate, so the run count matches the set.
            occurrence = occurrences.get(line, 0)
            occurrences[line] = occurrence + 1
            identity = line if occurrence == 0 else f"{line}#{occurrence}"
            for k in range(self.seeds):
                yield pset, index, line, identity, k


def plan(solvers: Sequence[SolverRef], puzzles: str | Sequence[Puzzle | str], seeds: int,
         budget: Budget, campaign_seed: int = 0, params: dict[str, Any] | None = None,
         imports: Sequence[str] = ()) -> tuple[dict[str, Any], list[PlannedRun]]:
    """The campaign's config and every run it consists of (no work, no database)."""
    planned = lazy_plan(solvers, puzzles, seeds, budget, campaign_seed, params, imports)
    return planned.config, list(planned.runs())


def lazy_plan(solvers: Sequence[SolverRef], puzzles: str | Sequence[Puzzle | str], seeds: int,
              budget: Budget, campaign_seed: int = 0, params: dict[str, Any] | None = None,
              imports: Sequence[str] = ()) -> Plan:
    """Check a campaign's input and return its :class:`Plan` (bad input raises
    :class:`InputError` here, before anything runs); the puzzles are kept as lines."""
    if seeds < 1:
        raise InputError("--seeds must be at least 1")
    check_budget(budget)
    import importlib

    for mod in imports:  # modules that register extra solvers, in the driver as in workers
        importlib.import_module(mod)
    refs = _solver_refs(solvers, params)
    for name, p in refs:
        registry.get(name).create(**p)  # a value out of range raises InputError now
    label, chosen = _puzzle_list(puzzles)
    if not chosen:
        raise InputError(f"{label}: no puzzles selected")
    lines = [(pset, index, pz.to_line(), pz.box) for pset, index, pz in chosen]
    del chosen
    size = sum(seeds for name, _ in refs for *_, box in lines
               if box in registry.get(name).cls.boxes)
    config = {"solvers": [n for n, _ in refs], "params": {n: p for n, p in refs},
              "puzzles": label, "seeds": seeds, "budget": budget.to_dict(),
              "campaign_seed": campaign_seed}
    return Plan(config, size, refs, lines, seeds, budget, campaign_seed, tuple(imports))


def check_budget(budget: Budget) -> None:
    """Refuse a budget the hard deadline cannot enforce (``inf`` would mean no deadline)."""
    if not (math.isfinite(budget.max_seconds) and budget.max_seconds > 0):
        raise InputError(f"--max-seconds {budget.max_seconds}: must be a finite number of "
                         f"seconds above 0 (the hard deadline is max-seconds plus a grace)")


def check_memory(memory_mb: int | None) -> int:
    """The worker's data-segment cap in MB (None: the default), or InputError."""
    if memory_mb is None:
        return DEFAULT_MEMORY_MB
    if isinstance(memory_mb, bool) or not isinstance(memory_mb, int) or memory_mb <= 0:
        raise InputError(f"--memory-mb {memory_mb}: must be a positive whole number of MB "
                         f"(default {DEFAULT_MEMORY_MB})")
    if memory_mb < MIN_MEMORY_MB:
        raise InputError(f"--memory-mb {memory_mb}: a worker needs at least {MIN_MEMORY_MB} MB "
                         f"(numpy, numba and one compiled kernel take about 250 MB of data "
                         f"segment, and LLVM hangs rather than fails under 150 MB)")
    return memory_mb


def retry_statuses(retry: Collection[str] | str | None) -> frozenset[str]:
    """The statuses ``retry`` names (``failed`` = error, memout, timeout), or InputError."""
    from sudoku_compare.outcome import Status

    if not retry:
        return frozenset()
    items = retry.split(",") if isinstance(retry, str) else list(retry)
    valid = {str(s) for s in Status}
    out: set[str] = set()
    for item in (i.strip() for i in items):
        if item == "failed":
            out.update(FAILED_STATUSES)
        elif item in valid:
            out.add(item)
        elif item:
            raise InputError(f"--retry {item!r}: not a status; valid: failed (= "
                             f"{', '.join(FAILED_STATUSES)}), {', '.join(sorted(valid))}")
    return frozenset(out)


def _row(planned: PlannedRun, campaign_id: str, out: Outcome,
         memory_mb: int | None = None) -> dict[str, Any]:
    d = out.to_dict()
    return {**planned.row, "campaign_id": campaign_id, "memory_mb": memory_mb,
            **{c: d.get(c) for c in ("status", "elapsed_s", "evaluations", "iterations",
                                     "restarts", "best_energy", "counters", "trace", "extra",
                                     "versions", "grid", "violations", "error", "stop_reason",
                                     "schedule_fraction")},
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def _progress_bar(total: int, initial: int, enabled: bool):
    if not enabled or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, initial=initial, unit="run", file=sys.stderr, dynamic_ncols=True)


@dataclass(frozen=True)
class CampaignSpec:
    """One campaign's definition: what :func:`run_campaign` takes, as a value.

    :func:`run_campaigns` runs several of them through one pool of workers, which is how
    ``compare`` gives each comparison group its own budget without running the groups one
    after the other.
    """

    solvers: Sequence[SolverRef]
    puzzles: str | Sequence[Puzzle | str]
    seeds: int
    budget: Budget
    campaign_seed: int = 0
    params: dict[str, Any] | None = None
    imports: Sequence[str] = ()
    command: str | None = None


def run_campaign(solvers: Sequence[SolverRef], puzzles: str | Sequence[Puzzle | str], seeds: int,
                 budget: Budget, db: str | Path, workers: int = 1, campaign_seed: int = 0,
                 progress: bool = True, command: str | None = None,
                 params: dict[str, Any] | None = None, *, executor: Executor | None = None,
                 imports: Sequence[str] = (), memory_mb: int | None = None,
                 summary: bool | None = None,
                 retry: Collection[str] | str | None = None) -> CampaignResult:
    """Run solvers x puzzles x seeds in isolated warm workers into the SQLite file ``db``.

    ``solvers``: names, or ``(name, {param: value})`` pairs; ``params``: ``{name: {k: v}}``
    (or ``{name: ["k=v", ...]}``) applied to every run of that solver. ``puzzles``: a
    reference (``easy51:0:5``, a set name, a file) or a list of puzzles/references.
    Finished run ids are skipped, so calling this again resumes a killed campaign.
    Bad input (unknown solver, bad parameter, unreadable puzzles) raises
    :class:`InputError` before any run or database write. ``summary`` prints the table at
    the end (default: when ``progress``). ``retry``: statuses whose stored runs run again
    (``"failed"`` = error, memout, timeout); every attempt is kept.
    """
    spec = CampaignSpec(solvers, puzzles, seeds, budget, campaign_seed, params, imports, command)
    return run_campaigns([spec], db, workers, progress, executor=executor, memory_mb=memory_mb,
                         summary=summary, retry=retry)[0]


def run_campaigns(specs: Sequence[CampaignSpec], db: str | Path, workers: int = 1,
                  progress: bool = True, *, executor: Executor | None = None,
                  memory_mb: int | None = None, summary: bool | None = None,
                  retry: Collection[str] | str | None = None) -> list[CampaignResult]:
    """Run several campaigns into ``db`` through one pool of workers, their runs mixed.

    Every campaign is planned (and bad input raised) before anything runs; each keeps its
    own id, budget and run list in the store, exactly as if run alone, so a report cannot
    tell the difference, and running the same call again resumes all of them. One pool
    matters on a cold numba cache: while one worker compiles a module's kernels the other
    keeps running other campaigns' runs, instead of idling at the end of each campaign.
    """
    if workers < 1:
        raise InputError(f"--workers {workers}: must be at least 1")
    again = retry_statuses(retry)
    cap = check_memory(memory_mb) if executor is None else getattr(executor, "memory_mb", None)
    own = executor is None
    if own:
        # As many workers as cores start now, so their imports (about 1.3 s each) overlap
        # the plan; the rest once the plan says there are runs enough for them.
        executor = LocalProcessExecutor(workers, memory_mb=cap)
        executor.start(min(workers, os.cpu_count() or 1))
    try:
        try:
            planned = _plan_all(specs)
        except BaseException:
            if own:
                executor.abort()  # bad input: no worker is owed a clean exit
            raise
        if own:
            executor.trim(max(1, min(workers, sum(p.size for _, p, _ in planned))))
            executor.start()
        return _run_campaigns(planned, db, workers, progress, executor, own, cap, again, summary)
    finally:
        if own:
            executor.close()


def _plan_all(specs: Sequence[CampaignSpec]) -> list[tuple[CampaignSpec, Plan, str]]:
    """Each campaign's lazy plan (bad input raised here, before any process starts) and its
    id. The id names what is measured; the memory cap is recorded beside it (a retry under a
    larger cap belongs to the same campaign)."""
    import hashlib
    import json

    planned: list[tuple[CampaignSpec, Plan, str]] = []
    for spec in specs:
        p = lazy_plan(spec.solvers, spec.puzzles, spec.seeds, spec.budget, spec.campaign_seed,
                      spec.params, spec.imports)
        campaign_id = hashlib.sha256(json.dumps(p.config, sort_keys=True, default=str)
                                     .encode()).hexdigest()[:12]
        planned.append((spec, p, campaign_id))
    return planned


def _run_campaigns(planned: list[tuple[CampaignSpec, Plan, str]], db: str | Path, workers: int,
                   progress: bool, executor: Executor, own: bool, cap: int | None,
                   again: frozenset[str], summary: bool | None) -> list[CampaignResult]:
    db = Path(db)
    with Store(db) as store:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        info = machine_info()
        for spec, p, campaign_id in planned:
            store.add_campaign(campaign_id, stamp, spec.command or shlex.join(sys.argv),
                               {**p.config, "memory_mb": cap}, info, p.size,
                               p.run_ids())
        statuses = store.statuses()
        total = sum(p.size for _, p, _ in planned)
        todo_count = store.to_run([c for _, _, c in planned], again)
        #: the runs sent and not yet back: their rows and campaigns (bounded by what the
        #: executor holds, so the driver's memory does not grow with the campaign)
        in_flight: dict[str, tuple[PlannedRun, str]] = {}
        executed = dict.fromkeys((c for _, _, c in planned), 0)
        retried = dict.fromkeys(executed, 0)

        def todo() -> Iterator[Task]:
            # a run two campaigns plan is run once, for the first (compare's groups
            # share runs); a single campaign's run ids are distinct by construction
            seen: set[str] | None = set() if len(planned) > 1 else None
            for _, p, campaign_id in planned:
                for r in p.runs():
                    key = r.task.key
                    if seen is not None:
                        if key in seen:
                            continue
                        seen.add(key)
                    if key in statuses and statuses[key] not in again:
                        continue
                    in_flight[key] = (r, campaign_id)
                    yield r.task

        bar = _progress_bar(total, total - todo_count, progress)
        if own:
            n = max(1, min(workers, todo_count))  # never more processes than runs
            executor.trim(n)
            cpus = os.cpu_count() or 1
            if n > cpus:
                print(f"sudoku-compare: warning: {n} workers on {cpus} CPUs; runs share "
                      f"cores, so their times are measured under contention", file=sys.stderr)
        pending: list[tuple[dict[str, Any], bool]] = []
        stored_now = 0
        last_commit = time.monotonic()

        def commit() -> None:
            nonlocal stored_now, last_commit
            try:
                store.add_runs(pending)
            except StoreWriteError as exc:
                raise StoreWriteError(
                    f"{exc}; the {stored_now + len(statuses)} runs stored before it are "
                    f"kept; free space and run the same command again to finish") from exc
            stored_now += len(pending)
            pending.clear()
            last_commit = time.monotonic()

        try:
            if todo_count:
                for task, out in executor.map_unordered(todo()):
                    row, campaign_id = in_flight.pop(task.key)
                    again_now = task.key in statuses
                    pending.append((_row(row, campaign_id, out, cap), again_now))
                    executed[campaign_id] += 1
                    retried[campaign_id] += again_now
                    # committed in small transactions: a crash loses at most the last
                    # COMMIT_S of results (run again on resume), never a stored one
                    if len(pending) >= COMMIT_RUNS or time.monotonic() - last_commit > COMMIT_S:
                        commit()
                    if bar is not None:
                        bar.set_postfix_str(f"{task.solver} {out.status}", refresh=False)
                        bar.update(1)
        finally:
            try:
                if pending:
                    commit()
            finally:
                if bar is not None:
                    bar.close()
    results = [CampaignResult(campaign_id, p.size, executed[campaign_id],
                              p.size - executed[campaign_id], db, retried=retried[campaign_id])
               for _, p, campaign_id in planned]
    if summary if summary is not None else progress:
        for result in results:
            print(result.summary_text(), file=sys.stderr)
    return results
