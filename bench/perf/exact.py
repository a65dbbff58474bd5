"""Perf section ``exact``: puzzles per second of every exact solver, one run, same machine.

Every registered solver of the exact, backtracking and CSP families that can run here
(``ortools.cpsat`` included, found through the registry like any other) solves the public
sets and the shipped generated ones, puzzle after puzzle in one warm process, each
``solve()`` timed alone and each returned grid verified with the checker afterwards (not
timed). Throughput is puzzles / total solve time; the per-puzzle figures are the median
and p90 of the solve times. ``native.bitmask`` also runs its batch entry point (a whole
set in one compiled call).

Each (solver, set) cell runs in a forked child with a hard time cap, since some solvers
(python-constraint) cannot be interrupted: a slow solver is *sampled* (the first puzzles
of the set, in file order, until the cap), and the table says how many it ran. The
reference pair (bitmask, CP-SAT) gets a larger cap so both cover whole sets, and their
ratio is taken over the puzzles both ran.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field

from sudoku_compare import registry
from sudoku_compare.bench.perf import PerfTable, batch
from sudoku_compare.bench.perf.forked import solve_in_child
from sudoku_compare.budget import Budget
from sudoku_compare.problems.catalog import find_set_file
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import load_set, resolve_puzzle

SECTION = "exact"
TITLE = "Exact solvers: puzzles per second (median and p90 per puzzle), every grid verified"

FAMILIES = ("exact", "backtracking", "csp")
PUBLIC = ["easy51", "hardest", "top95", "top1465"]
GENERATED = ["generated-easy", "generated-medium", "generated-hard", "generated-16x16"]
REFERENCE = ("native.bitmask", "ortools.cpsat")
NAIVE = "native.backtracking"
BATCH_REPEATS = 3
#: the naive kernel's rate, measured on one long search (call overhead negligible)
NAIVE_LONG = "top95:0"


@dataclass(frozen=True)
class Settings:
    cell_seconds: float       # wall cap for one (solver, set) cell
    reference_seconds: float  # the same for the reference pair
    puzzle_seconds: float     # Budget.max_seconds of one solve
    max_puzzles: int | None   # per set, before the time cap (None: all)


FULL = Settings(cell_seconds=6.0, reference_seconds=60.0, puzzle_seconds=5.0, max_puzzles=None)
QUICK = Settings(cell_seconds=0.2, reference_seconds=0.8, puzzle_seconds=0.2, max_puzzles=10)


@dataclass
class Cell:
    """What one solver did on one set."""

    solver: str
    set_name: str
    n_set: int
    times: list[float] = field(default_factory=list)   # seconds per solve, in set order
    solved: list[bool] = field(default_factory=list)   # verified by the checker
    calls: int = 0                                      # naive backtracking search calls
    capped: bool = False
    error: str = ""

    @property
    def n_run(self) -> int:
        return len(self.times)

    def throughput(self, n: int | None = None) -> float:
        t = self.times[:n] if n is not None else self.times
        return len(t) / sum(t) if t and sum(t) > 0 else math.nan


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def measure(name: str, set_name: str, puzzles: list[Puzzle], cap: float,
            puzzle_seconds: float) -> Cell:
    """Run one cell in a forked child (:mod:`.forked`): solves until they add up to ``cap``
    seconds, killed past cap + one puzzle's budget after its warm-up (20 s at most)."""
    got = solve_in_child(name, puzzles, seconds=puzzle_seconds, seed=0, cap=cap,
                         warmup_grace=20.0)
    capped = got.ended == "killed" or (got.ended == "cap" and len(got.times) < len(puzzles))
    return Cell(name, set_name, len(puzzles), got.times, got.solved, got.calls, capped,
                got.error)


def _solvers() -> tuple[list[str], list[list]]:
    """Names of the solvers to measure, and rows for the ones that cannot run here."""
    names, missing = [], []
    for spec in sorted(registry.all_specs(), key=lambda s: (FAMILIES.index(s.family)
                       if s.family in FAMILIES else 9, s.name)):
        if spec.family not in FAMILIES:
            continue
        ok, why = spec.availability()
        if ok:
            names.append(spec.name)
        else:
            missing.append([spec.name, spec.family, why])
    return names, missing


def _sets(settings: Settings) -> tuple[list[tuple[str, list[Puzzle]]], list[str]]:

    out, notes = [], []
    for name in PUBLIC + GENERATED:
        if find_set_file(name) is None:
            notes.append(f"set {name} not found here: skipped")
            continue
        try:
            puzzles = load_set(name)
        except Exception as exc:
            notes.append(f"set {name} could not be loaded ({exc}): skipped")
            continue
        if settings.max_puzzles is not None:
            puzzles = puzzles[: settings.max_puzzles]
        out.append((name, puzzles))
    return out, notes


def _batch_row(set_name: str, puzzles: list[Puzzle]) -> list:
    """The batch kernel on one set, measured by the batch section (see :mod:`.batch`)."""
    r = batch.measure(set_name, puzzles, BATCH_REPEATS)
    return [set_name, r.n, f"{r.verified}/{r.n}", r.per_second, r.us, r.guesses, r.no_guess]


def run(quick: bool) -> list[PerfTable]:
    settings = QUICK if quick else FULL
    names, missing = _solvers()
    sets, set_notes = _sets(settings)
    for name in names:  # compile/import once in the parent so children fork warm
        try:
            registry.create(name).warmup()
        except Exception:
            pass
    cells: dict[tuple[str, str], Cell] = {}
    for set_name, puzzles in sets:
        for name in names:
            cap = settings.reference_seconds if name in REFERENCE else settings.cell_seconds
            cells[name, set_name] = measure(name, set_name, puzzles, cap, settings.puzzle_seconds)

    rows = []
    for set_name, puzzles in sets:
        for name in names:
            c = cells[name, set_name]
            if not c.times:
                rows.append([set_name, name, 0, "-", "-", "-", "-", c.error or "no puzzle "
                             f"finished within {settings.cell_seconds:g} s"])
                continue
            us = [t * 1e6 for t in c.times]
            note = []
            if c.n_run < len(puzzles):
                note.append(f"sampled: first {c.n_run} of {len(puzzles)} (time cap)")
            if c.error:
                note.append(c.error)
            rows.append([set_name, name, c.n_run, f"{sum(c.solved)}/{c.n_run}",
                         c.throughput(), statistics.median(us), _quantile(us, 0.9),
                         "; ".join(note)])
    notes = [
        f"one warm process per (solver, set), solve() timed alone (model building included "
        f"for CP-SAT), seed 0, Budget(max_seconds={settings.puzzle_seconds:g}) per puzzle; "
        f"a cell stops after {settings.cell_seconds:g} s of solving "
        f"({settings.reference_seconds:g} s for {' and '.join(REFERENCE)})",
        "solved = grids the checker accepted / puzzles run; the pure-Python and naive "
        "solvers are sampled on the big sets (see the last column): their figures are over "
        "the first puzzles of the set only",
    ] + set_notes + [f"{r[0]} not measured: {r[2]}" for r in missing]
    if settings.max_puzzles is not None:
        notes.append(f"quick run: at most the first {settings.max_puzzles} puzzles of each set")
    tables = [PerfTable("Every exact solver on every set", ["set", "solver", "puzzles run",
                        "solved", "puzzles/s", "median µs", "p90 µs", "note"], rows, notes)]
    tables.append(_ratio_table(sets, names, cells))
    if "native.bitmask" in names:
        tables.append(PerfTable(
            "native.bitmask batch kernel (a whole set in one compiled call)",
            ["set", "puzzles", "solved", "puzzles/s", "µs/puzzle", "guesses/puzzle",
             "% no guess"], [_batch_row(s, p) for s, p in sets],
            [f"no Python per puzzle: the throughput tdoku's benchmark reports; best of "
             f"{BATCH_REPEATS} runs of the whole set; guesses counts every digit placed at a "
             "branch cell (a candidate left alone by refuted guesses is a deduction); "
             "`--section batch` has more sets, the reference C++ figures, and takes "
             "--puzzles FILE_OR_SET"]))
    if NAIVE in names:
        tables.append(_naive_table(sets, cells))
    return tables


def _ratio_table(sets, names, cells) -> PerfTable:
    """bitmask / CP-SAT and bitmask / every other solver, puzzles per second on the same puzzles."""
    rows, notes = [], []
    if "native.bitmask" not in names:
        return PerfTable("Ratios", ["set"], [], ["native.bitmask not available"])
    others = [n for n in names if n != "native.bitmask"]
    for set_name, _ in sets:
        b = cells["native.bitmask", set_name]
        for other in others:
            c = cells[other, set_name]
            n = min(b.n_run, c.n_run)
            if n == 0:
                continue
            ratio = b.throughput(n) / c.throughput(n)
            med = statistics.median(c.times[:n]) / statistics.median(b.times[:n])
            goal = ""
            if other == "ortools.cpsat":
                goal = ("goal ≥ 20×: " + ("met" if ratio >= 20 else "NOT met")
                        if set_name in ("top95", "top1465") else
                        "goal ≥ 1×: " + ("met" if ratio >= 1 else "NOT met"))
            rows.append([set_name, other, n, ratio, med, goal])
    if "ortools.cpsat" not in names:
        notes.append("ortools.cpsat not available: no bitmask / CP-SAT ratio")
    notes.append("ratio = bitmask puzzles/s ÷ the other's, over the first n puzzles both ran; "
                 "median ratio = the other's median time ÷ bitmask's")
    rows.sort(key=lambda r: (r[1] != "ortools.cpsat", r[1]))
    return PerfTable("Ratios: native.bitmask against each solver (same puzzles, same run)",
                     ["set", "against", "n", "throughput ratio", "median ratio", "goal"],
                     rows, notes)


def _naive_long_row() -> list | None:
    """One long naive search, solve() only, in this process: the kernel's own rate."""

    try:
        puzzle = resolve_puzzle(NAIVE_LONG)
    except Exception:
        return None
    solver = registry.create(NAIVE)
    solver.warmup()
    best = None
    for _ in range(2):
        start = time.perf_counter()
        out = solver.solve(puzzle, Budget(max_seconds=30.0), 0)
        dt = time.perf_counter() - start
        if is_solution(puzzle, out.grid) and (best is None or dt < best[3]):
            best = [f"{NAIVE_LONG} alone (best of 2)", 1, out.counters["search_calls"], dt,
                    out.counters["search_calls"] / dt / 1e6]
    return best


def _naive_table(sets, cells) -> PerfTable:
    rows = []
    for set_name, _ in sets:
        c = cells[NAIVE, set_name]
        if c.times:
            secs = sum(c.times)
            rows.append([set_name, c.n_run, c.calls, secs, c.calls / secs / 1e6 if secs else "-"])
    long_row = _naive_long_row()
    if long_row:
        rows.append(long_row)
    return PerfTable("native.backtracking: search calls per second", ["set", "puzzles run",
                     "search calls", "seconds", "M calls/s"], rows,
                     ["the seed's counting (see native/backtracking.py); goal ≥ 20 M calls/s; "
                      "puzzles stopped by their deadline count their calls up to the stop; on "
                      "sets of short searches the ~20 µs per solve() call dominates, so the "
                      f"kernel's rate is the {NAIVE_LONG} row (12.6 M calls)"])
