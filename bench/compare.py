"""The main job: every family, native against its libraries, one campaign each, one report.

``sudoku-compare compare`` (no arguments) must finish in under two minutes on 2 cores,
worker start-up and JIT warm-up included, so each comparison group gets its own small
default slice of puzzles, seeds and time budget (:data:`DEFAULTS`): the complete solvers
answer in milliseconds and get more puzzles and one seed (they are deterministic); the
stochastic families get fewer puzzles, two seeds and a short budget. The worst case (every
run hitting its budget) is printed before anything runs.

Solvers are discovered from the registry, never listed here: a family's natives are the
``native`` solvers of the family, its libraries the available non-native solvers of the
same comparison group; unavailable ones are named in the report.
"""

from __future__ import annotations

import math
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.sets import load_set, resolve_puzzles

from .campaign import CampaignSpec, run_campaigns
from .reporting.report import write_report
from .reporting.summary import FAMILY_ORDER, comparison_group, solver_sort_key

#: the shipped default set, and what to use while it does not exist yet
DEFAULT_SET = "generated-easy"
FALLBACK_SETS = ("easy51",)


@dataclass(frozen=True)
class GroupDefaults:
    """How much of the default set a group gets in ``compare`` with no arguments."""

    puzzles: int
    seeds: int
    max_seconds: float


DEFAULTS: dict[str, GroupDefaults] = {
    "exact": GroupDefaults(puzzles=5, seeds=1, max_seconds=1.0),
    "annealing": GroupDefaults(puzzles=3, seeds=2, max_seconds=1.5),
    "genetic": GroupDefaults(puzzles=2, seeds=2, max_seconds=1.0),
    "swarm": GroupDefaults(puzzles=2, seeds=2, max_seconds=1.0),
}
FALLBACK_DEFAULTS = GroupDefaults(puzzles=3, seeds=2, max_seconds=1.5)


@dataclass
class GroupPlan:
    """One campaign of a comparison: which solvers, on what, with what budget."""

    group: str
    solvers: list[str]
    unavailable: list[tuple[str, str]]
    puzzles: str              # a puzzle reference (SET, SET:START:STOP, or several, comma-separated)
    n_puzzles: int
    seeds: int
    max_seconds: float
    note: str = ""

    @property
    def runs(self) -> int:
        return len(self.solvers) * self.n_puzzles * self.seeds

    @property
    def worst_case_seconds(self) -> float:
        return self.runs * self.max_seconds


@dataclass
class ComparisonPlan:
    groups: list[GroupPlan]
    workers: int
    notes: list[str] = field(default_factory=list)

    @property
    def worst_case_seconds(self) -> float:
        return sum(g.worst_case_seconds for g in self.groups) / max(1, self.workers)


def default_set() -> tuple[str, str]:
    """(set name, note): the shipped generated set, else a fallback that exists here."""

    for name in (DEFAULT_SET, *FALLBACK_SETS):
        try:
            load_set(name)
        except InputError:
            continue
        note = "" if name == DEFAULT_SET else (
            f"the shipped set {DEFAULT_SET} was not found; {name} was used instead")
        return name, note
    raise InputError(f"no default puzzle set: neither {DEFAULT_SET} (shipped) nor "
                     f"{', '.join(FALLBACK_SETS)} (set SUDOKU_COMPARE_PUZZLES) was found; "
                     "give --puzzles")


def count_puzzles(ref: str) -> int:

    return sum(len(resolve_puzzles(r)) for r in split_refs(ref))


def split_refs(ref: str) -> list[str]:
    return [r.strip() for r in ref.split(",") if r.strip()]


def _has_slice(ref: str) -> bool:
    """True when a reference already picks puzzles (SET:I or SET:START:STOP)."""
    _, _, tail = ref.partition(":")
    return bool(tail) and not Path(ref).exists()


def select_solvers(families: Sequence[str] | None) -> tuple[dict[str, list[str]],
                                                            dict[str, list[tuple[str, str]]]]:
    """Per comparison group: the solvers to run, and the unavailable ones with their reason.

    A requested family brings its native solvers and every library of its comparison group
    (``compare backtracking`` runs the native backtrackers against python-constraint and
    CP-SAT); a requested group name (``exact``) brings all of its families.
    """

    specs = registry.all_specs()
    known_families = {s.family for s in specs}
    known_groups = {comparison_group(f) for f in known_families}
    wanted = list(families or [])
    for f in wanted:
        if f not in known_families and f not in known_groups:
            raise InputError(f"unknown family {f!r}; known: "
                             f"{', '.join(sorted(known_families | known_groups))}")
    run: dict[str, list[str]] = {}
    missing: dict[str, list[tuple[str, str]]] = {}
    for s in specs:
        group = comparison_group(s.family)
        if wanted:
            as_native = s.family in wanted or group in wanted
            as_library = group in {comparison_group(f) for f in wanted} or group in wanted
            if not ((s.origin == "native" and as_native) or (s.origin != "native" and as_library)):
                continue
        ok, reason = s.availability()
        if ok:
            run.setdefault(group, []).append(s.name)
        else:
            missing.setdefault(group, []).append((s.name, reason))
    origin = {s.name: s.origin for s in specs}
    for names in run.values():
        names.sort(key=lambda n: solver_sort_key(n, origin[n]))
    order = {g: i for i, g in enumerate(FAMILY_ORDER)}
    run = dict(sorted(run.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])))
    return run, missing


def plan(families: Sequence[str] | None = None, puzzles: str | None = None,
         seeds: int | None = None, max_seconds: float | None = None,
         workers: int = 2) -> ComparisonPlan:
    """What ``compare`` will run; defaults per group, overridden by the arguments given."""
    notes: list[str] = []
    if puzzles is None:
        base, note = default_set()
        if note:
            notes.append(note)
    else:
        base = puzzles
    run, missing = select_solvers(families)
    groups = []
    for group, solvers in run.items():
        d = DEFAULTS.get(group, FALLBACK_DEFAULTS)
        ref = ",".join(r if _has_slice(r) else f"{r}:0:{d.puzzles}" for r in split_refs(base))
        ref = ",".join(_clip(r) for r in split_refs(ref))
        natives = [s for s in solvers if s.startswith("native.")]
        note = "" if natives and len(natives) < len(solvers) else (
            "no library solver available: natives only" if natives else
            "no native solver: libraries only")
        groups.append(GroupPlan(group=group, solvers=solvers, unavailable=missing.get(group, []),
                                puzzles=ref, n_puzzles=count_puzzles(ref),
                                seeds=seeds if seeds is not None else d.seeds,
                                max_seconds=max_seconds if max_seconds is not None else d.max_seconds,
                                note=note))
    for group, miss in missing.items():
        if group not in run:
            notes.append(f"{group}: every solver unavailable "
                         f"({'; '.join(f'{n}: {r}' for n, r in miss)})")
    return ComparisonPlan(groups, workers, notes)


def _clip(ref: str) -> str:
    """SET:0:K on a set of fewer than K puzzles becomes SET (the whole set)."""

    parts = ref.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        try:
            n = len(load_set(parts[0]))
        except InputError:
            return ref
        if int(parts[2]) > n:
            return f"{parts[0]}:{parts[1]}:{n}" if int(parts[1]) < n else ref
    return ref


def describe_plan(p: ComparisonPlan) -> list[str]:
    lines = []
    for g in p.groups:
        lines.append(f"{g.group}: {', '.join(g.solvers)} on {g.puzzles} ({g.n_puzzles} puzzles) "
                     f"x {g.seeds} seed(s), {g.max_seconds:g} s per run: {g.runs} runs")
        if g.unavailable:
            lines.append("  unavailable: " + "; ".join(f"{n} ({r})" for n, r in g.unavailable))
        if g.note:
            lines.append(f"  note: {g.note}")
    lines += [f"note: {n}" for n in p.notes]
    lines.append(f"worst case (every run uses its whole budget): "
                 f"{math.ceil(p.worst_case_seconds)} s on {p.workers} worker(s)")
    return lines


def preamble(p: ComparisonPlan) -> list[str]:
    """The top of a comparison report: its command and what was (not) run."""
    out = ["What ran (one campaign per comparison group):", ""]
    for line in describe_plan(p):
        out.append(f"- {line.strip()}")
    unavailable = [n for g in p.groups for n, _ in g.unavailable]
    if unavailable:
        out += ["", f"Unavailable here, so not compared: {', '.join(unavailable)}."]
    return out + [""]


Runner = Callable[..., object]


def campaign_runner() -> tuple[Runner, str]:
    """The bench's isolated runner for several campaigns at once (one pool of workers)."""

    return run_campaigns, "bench.campaign (isolated worker processes, one pool for all groups)"


def run_plan(p: ComparisonPlan, db: str | Path, *, progress: bool = True,
             command: str | None = None, campaign_seed: int = 0,
             runner: Runner | None = None) -> str:
    """Run every group's campaign into ``db`` (a killed run resumes where it stopped).

    The groups are separate campaigns (each its own budget and seeds) but share one pool of
    workers, so on a cold numba cache one worker compiles a module while the other keeps
    running. ``runner`` takes ``(specs, db, workers, progress)`` like
    :func:`~sudoku_compare.bench.campaign.run_campaigns`. Returns a description of it.
    """

    label = "given runner"
    if runner is None:
        runner, label = campaign_runner()
    specs = [CampaignSpec(g.solvers, split_refs(g.puzzles), g.seeds,
                          Budget(max_seconds=g.max_seconds), campaign_seed, command=command)
             for g in _longest_first(p.groups)]
    runner(specs, str(db), p.workers, progress)
    return label


def _longest_first(groups: Sequence[GroupPlan]) -> list[GroupPlan]:
    """Groups with stochastic solvers first, the largest worst case first among them.

    Their runs use their whole budget and their kernels are the slowest to compile, so
    starting them first leaves the short deterministic runs to fill the end of the pool's
    schedule (longest processing time first). Only the order of work changes, no result.
    """

    def stochastic(g: GroupPlan) -> bool:
        return any(registry.get(n).cls.stochastic for n in g.solvers)

    return sorted(groups, key=lambda g: (not stochastic(g), -g.worst_case_seconds))


def compare(families: Sequence[str] | None = None, puzzles: str | None = None,
            seeds: int | None = None, max_seconds: float | None = None,
            out: str | Path = "reports/compare.md", db: str | Path | None = None,
            workers: int = 2, progress: bool = True, command: str | None = None,
            title: str | None = None, campaign_seed: int = 0):
    """Plan, run and report a comparison; returns the :class:`ReportSummary`."""

    p = plan(families, puzzles, seeds, max_seconds, workers)
    if not p.groups:
        raise InputError("nothing to compare: no available solver in the requested families")
    command = command or compare_command(families, puzzles, seeds, max_seconds, out, db, workers,
                                         title)
    if progress:
        for line in describe_plan(p):
            print(line, file=sys.stderr)
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="sudoku-compare-")
        db = Path(tmp.name) / "compare.db"
    try:
        t0 = time.perf_counter()
        label = run_plan(p, db, progress=progress, command=command, campaign_seed=campaign_seed)
        wall = time.perf_counter() - t0
        groups = ", ".join(g.group for g in p.groups)
        return write_report(db, out, report_command=command,
                            title=title or f"Native against library: {groups}",
                            preamble=preamble(p) + [f"Runner: {label}; campaigns took "
                                                    f"{wall:.0f} s of wall time.", ""],
                            db_label=None if tmp is None else "(temporary, deleted after the report)")
    finally:
        if tmp is not None:
            tmp.cleanup()


def compare_command(families, puzzles, seeds, max_seconds, out, db, workers,
                    title: str | None = None) -> str:
    parts = ["sudoku-compare", "compare", *(families or [])]
    if puzzles is not None:
        parts += ["--puzzles", puzzles]
    if seeds is not None:
        parts += ["--seeds", str(seeds)]
    if max_seconds is not None:
        parts += ["--max-seconds", f"{max_seconds:g}"]
    parts += ["--out", str(out)]
    if db is not None:
        parts += ["--db", str(db)]
    parts += ["--workers", str(workers)]
    if title:
        parts += ["--title", title]
    return shlex.join(parts)
