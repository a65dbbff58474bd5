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
import math
import os
import platform
import shlex
import statistics
import sys
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
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
from .seeding import derive_seed, run_id
from .store import Store, StoreWriteError

#: what ``retry=["failed"]`` (``--retry failed``) stands for
FAILED_STATUSES = ("error", "memout", "timeout")

SolverRef = str | tuple[str, dict[str, Any]]


@dataclass
class PlannedRun:
    """One run of the plan, with the columns the store needs besides the outcome."""

    task: Task
    row: dict[str, Any]


@dataclass
class CampaignResult:
    """What a campaign produced: its id, the plan size, and every run row of this campaign."""

    campaign_id: str
    planned: int
    executed: int
    skipped: int
    db: Path
    rows: list[dict[str, Any]] = field(default_factory=list)
    #: of ``executed``, the runs that were stored before and ran again (``retry``)
    retried: int = 0

    def to_dataframe(self):
        """The rows as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.rows)

    def summary(self) -> list[tuple[str, int, int, float | None]]:
        """(solver, solved, total, median seconds of solved runs) per solver."""
        by: dict[str, list[dict[str, Any]]] = {}
        for r in self.rows:
            by.setdefault(r["solver"], []).append(r)
        out = []
        for name in sorted(by):
            rs = by[name]
            times = [r["elapsed_s"] for r in rs if r["status"] == "solved" and r["elapsed_s"]]
            out.append((name, sum(r["status"] == "solved" for r in rs), len(rs),
                        statistics.median(times) if times else None))
        return out

    def summary_text(self) -> str:
        statuses = sorted({r["status"] for r in self.rows})
        lines = [f"{'solver':28} {'solved':>11} {'median s':>10}  statuses"]
        for name, solved, total, med in self.summary():
            counts = {s: sum(1 for r in self.rows if r["solver"] == name and r["status"] == s)
                      for s in statuses}
            shown = ", ".join(f"{s} {n}" for s, n in counts.items() if n)
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


def plan(solvers: Sequence[SolverRef], puzzles: str | Sequence[Puzzle | str], seeds: int,
         budget: Budget, campaign_seed: int = 0, params: dict[str, Any] | None = None,
         imports: Sequence[str] = ()) -> tuple[dict[str, Any], list[PlannedRun]]:
    """The campaign's config and every run it consists of (no work, no database)."""
    if seeds < 1:
        raise InputError("--seeds must be at least 1")
    check_budget(budget)
    import importlib

    for mod in imports:  # modules that register extra solvers, in the driver as in workers
        importlib.import_module(mod)
    refs = _solver_refs(solvers, params)
    label, chosen = _puzzle_list(puzzles)
    if not chosen:
        raise InputError(f"{label}: no puzzles selected")
    b = budget.to_dict()
    runs = []
    for name, p in refs:
        spec = registry.get(name)
        full = dataclasses.asdict(spec.create(**p).params)
        occurrences: dict[str, int] = {}
        for pset, index, pz in chosen:
            line = pz.to_line()
            if pz.box not in spec.cls.boxes:
                continue
            # A set may hold the same puzzle twice (easy51 does): the second copy is its own
            # run, not a "finished" duplicate, so the run count matches the set's size.
            occurrence = occurrences.get(line, 0)
            occurrences[line] = occurrence + 1
            identity = line if occurrence == 0 else f"{line}#{occurrence}"
            for k in range(seeds):
                rid = run_id(name, p, identity, k, b, campaign_seed)
                seed = derive_seed(campaign_seed, identity, k)
                task = Task(name, line, budget, seed, p, tuple(imports), rid,
                            spec.cls.__module__)
                runs.append(PlannedRun(task, {
                    "run_id": rid, "solver": name, "family": spec.family,
                    "origin": spec.origin, "encoding": spec.encoding, "params": full,
                    "puzzle_set": pset, "puzzle_index": index, "puzzle": line, "seed": seed,
                    "seed_index": k, "max_seconds": budget.max_seconds,
                    "max_evaluations": budget.max_evaluations}))
    config = {"solvers": [n for n, _ in refs], "params": {n: p for n, p in refs},
              "puzzles": label, "seeds": seeds, "budget": b, "campaign_seed": campaign_seed}
    return config, runs


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
    import hashlib
    import json

    if workers < 1:
        raise InputError(f"--workers {workers}: must be at least 1")
    again = retry_statuses(retry)
    cap = check_memory(memory_mb) if executor is None else getattr(executor, "memory_mb", None)
    planned = []
    for spec in specs:
        config, runs = plan(spec.solvers, spec.puzzles, spec.seeds, spec.budget,
                            spec.campaign_seed, spec.params, spec.imports)
        # the id names what is measured; the cap is recorded beside it (a retry under a
        # larger cap belongs to the same campaign)
        campaign_id = hashlib.sha256(json.dumps(config, sort_keys=True, default=str)
                                     .encode()).hexdigest()[:12]
        planned.append((spec, {**config, "memory_mb": cap}, runs, campaign_id))
    db = Path(db)
    with Store(db) as store:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        info = machine_info()
        for spec, config, runs, campaign_id in planned:
            store.add_campaign(campaign_id, stamp, spec.command or shlex.join(sys.argv), config,
                               info, len(runs), [r.task.key for r in runs])
        statuses = store.statuses()
        owner: dict[str, tuple[PlannedRun, str]] = {}
        total = 0
        for _, _, runs, campaign_id in planned:
            total += len(runs)
            for r in runs:
                if r.task.key not in statuses or statuses[r.task.key] in again:
                    owner.setdefault(r.task.key, (r, campaign_id))
        todo = [r.task for r, _ in owner.values()]
        bar = _progress_bar(total, total - len(todo), progress)
        own = executor is None
        if own:
            n = max(1, min(workers, len(todo)))  # never more processes than runs
            cpus = os.cpu_count() or 1
            if n > cpus:
                print(f"sudoku-compare: warning: {n} workers on {cpus} CPUs; runs share "
                      f"cores, so their times are measured under contention", file=sys.stderr)
            executor = LocalProcessExecutor(n, memory_mb=cap)
        stored_now = 0
        try:
            for task, out in executor.map_unordered(todo):
                row, campaign_id = owner[task.key]
                try:
                    store.add_run(_row(row, campaign_id, out, cap), retry=task.key in statuses)
                except StoreWriteError as exc:
                    raise StoreWriteError(
                        f"{exc}; the {stored_now + len(statuses)} runs stored before it are "
                        f"kept; free space and run the same command again to finish") from exc
                stored_now += 1
                if bar is not None:
                    bar.set_postfix_str(f"{task.solver} {out.status}", refresh=False)
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
            if own:
                executor.close()
        stored = store.runs()
    results = []
    for _, _, runs, campaign_id in planned:
        keys = {r.task.key for r in runs}
        ran = [r.task.key for r in runs if owner.get(r.task.key, (None, None))[1] == campaign_id]
        rows = [r for r in stored if r["run_id"] in keys]
        results.append(CampaignResult(campaign_id, len(runs), len(ran), len(runs) - len(ran), db,
                                      rows, retried=sum(k in statuses for k in ran)))
    if summary if summary is not None else progress:
        for result in results:
            print(result.summary_text(), file=sys.stderr)
    return results
