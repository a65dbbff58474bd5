"""Perf section ``scaling``: how each family's best solver's cost grows with the grid.

The other sections compare solvers at one size; this one asks how the cost of a solve grows
from 4x4 to 25x25 (box 2 to 5), since a method whose cost grows fast loses at 25x25 however
quick it is at 9x9. Every family's best native solver and every available library solver run
on the first puzzles of a generated set of each size: 4x4 puzzles generated here (minimal,
seed 2026: no set is shipped at that size), ``generated-easy`` (9x9), ``generated-16x16`` and
``generated-25x25`` (when shipped). Each (solver, size) cell runs in a forked child, warm
(``warmup`` and ``warmup_for`` outside the clock), with a per-puzzle budget and a cell cap,
as in :mod:`.exact`: a cell that reaches its cap is *sampled* (its first puzzles), and a
puzzle still running when the child is killed counts as unsolved. Every grid is verified by
:func:`problems.checker.is_solution`.

A size the solver does not declare (``Solver.boxes``) is *refused* and never run; once a
solver solves none of a size's puzzles, the larger sizes are not run (they would only spend
their caps). The growth exponent is the least-squares slope of log(median solve time)
against log(cells) over the sizes where at least half the puzzles run were solved: time
about ``cells ** k``.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_compare import registry
from sudoku_compare.bench.perf import PerfTable
from sudoku_compare.bench.perf.forked import solve_in_child
from sudoku_compare.problems.catalog import find_set_file
from sudoku_compare.problems.generator import generate_set
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import load_set

SECTION = "scaling"
TITLE = "Cost against grid size: median solve time from 4x4 to 25x25, every grid verified"

BOXES = (2, 3, 4, 5)
#: each family's best native solver (annealing: restarts until the budget ends)
NATIVE = ("native.bitmask", "native.dlx", "native.csp-mac", "native.backtracking-mrv",
          "native.sa[max_restarts=-1]", "native.ga", "native.pso-swarm-hybrid", "native.human",
          "native.bp", "native.tabu")
#: the shipped set of each box size (box 2 has none: its puzzles are made by :func:`_sets`)
SETS = {3: "generated-easy", 4: "generated-16x16", 5: "generated-25x25"}
SMALL_SEED = 2026
SEED = 0
#: seconds a child may spend importing and compiling before its first solve
WARMUP_GRACE = 60.0
FIGURE = Path("reports/perf_figures/scaling.svg")
SVG_SALT = "sudoku-compare-perf-scaling"


@dataclass(frozen=True)
class Settings:
    puzzles: int            # the first puzzles of each size's set
    puzzle_seconds: float   # Budget.max_seconds of one solve
    cell_seconds: float     # a (solver, size) cell stops once its solves add up to this


FULL = Settings(puzzles=5, puzzle_seconds=5.0, cell_seconds=10.0)
QUICK = Settings(puzzles=1, puzzle_seconds=0.3, cell_seconds=0.3)


@dataclass
class Cell:
    """What one solver did at one box size: solve times and verdicts in set order, or why
    it did not run (``refused``, ``no set``, ``not run``)."""

    solver: str
    box: int
    offered: int = 0                                    # puzzles of this size on offer
    times: list[float] = field(default_factory=list)
    solved: list[bool] = field(default_factory=list)
    skipped: str = ""
    error: str = ""

    @property
    def n_run(self) -> int:
        return len(self.times)

    @property
    def n_solved(self) -> int:
        return sum(self.solved)

    @property
    def median_s(self) -> float:
        """Median seconds over the solved puzzles (nan when none was solved)."""
        t = [dt for dt, ok in zip(self.times, self.solved, strict=True) if ok]
        return statistics.median(t) if t else math.nan

    @property
    def fits(self) -> bool:
        """Counts towards the growth exponent: at least half the puzzles run were solved."""
        return self.n_run > 0 and 2 * self.n_solved >= self.n_run


def cells_of(box: int) -> int:
    return box ** 4


def growth_exponent(points: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of log(time) against log(cells): ``k`` in time ~ cells ** k.

    None for fewer than two distinct sizes (no slope to fit)."""
    pts = [(math.log(n), math.log(t)) for n, t in points if n > 0 and t > 0]
    if len({x for x, _ in pts}) < 2:
        return None
    mx = statistics.fmean(x for x, _ in pts)
    my = statistics.fmean(y for _, y in pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx


def measure(name: str, box: int, puzzles: list[Puzzle], settings: Settings) -> Cell:
    """One (solver, size) cell in a forked child (:mod:`.forked`), killed once it overruns its
    cap (a solver that ignores its deadline cannot stall the section)."""
    cell = Cell(name, box, len(puzzles))
    if box not in registry.get(name).cls.boxes:
        cell.skipped = "refused"
        return cell
    got = solve_in_child(name, puzzles, seconds=settings.puzzle_seconds, seed=SEED,
                         cap=settings.cell_seconds, warmup_grace=WARMUP_GRACE)
    cell.times, cell.solved, cell.error = got.times, got.solved, got.error
    return cell


def _sets(settings: Settings) -> tuple[dict[int, list[Puzzle]], list[str]]:
    """The first puzzles of each size, and a note per size saying where they came from."""
    n = settings.puzzles
    small = [p for p, _ in generate_set(2, n, SMALL_SEED)]
    sets, notes = {2: small}, [f"4x4: {len(small)} minimal puzzles made here by "
                               f"problems.generator.generate_set(2, {n}, seed {SMALL_SEED})"]
    for box, name in SETS.items():
        side = box * box
        if find_set_file(name) is None:
            notes.append(f"{side}x{side}: set {name} not found here, size not measured")
            continue
        puzzles = load_set(name, n)
        sets[box] = puzzles
        givens = statistics.fmean(p.n_givens for p in puzzles)
        notes.append(f"{side}x{side}: {name}, first {len(puzzles)} "
                     f"(mean {givens:.0f} givens of {cells_of(box)}, "
                     f"{100 * givens / cells_of(box):.0f} %)")
    notes.append("the sizes are not equally hard: the shipped 16x16 and 25x25 sets stop "
                 "removing givens at a fixed count (to keep generation fast), so they keep a "
                 "larger share of givens than the minimal 9x9 puzzles; a solver can be faster "
                 "at 25x25 than at 16x16, and the exponent mixes grid size with difficulty")
    return sets, notes


def _solvers() -> tuple[list[str], list[str]]:
    """The native list, then every library solver, by family; and notes on the missing."""
    names, missing = [], []
    specs = {s.name: s for s in registry.all_specs()}
    for name in NATIVE:
        base = registry.split_variant(name)[0]
        if base in specs:
            names.append(name)
        else:
            missing.append(f"{name} not registered")
    for spec in sorted(specs.values(), key=lambda s: (s.family, s.name)):
        if spec.origin == "native":
            continue
        ok, why = spec.availability()
        if ok:
            names.append(spec.name)
        else:
            missing.append(f"{spec.name} not measured: {why}")
    return names, missing


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def cell_text(cell: Cell) -> str:
    """``1.2 ms (4/5)``: median over the solved puzzles, solved / run (``of N`` if sampled)."""
    if cell.skipped:
        return cell.skipped
    if cell.n_run == 0:
        return "error" if cell.error else "none run"
    of = f" of {cell.offered}" if cell.n_run < cell.offered else ""
    if cell.n_solved == 0:
        return f"unsolved (0/{cell.n_run}{of})"
    return f"{_duration(cell.median_s)} ({cell.n_solved}/{cell.n_run}{of})"


def sweep(name: str, sets: dict[int, list[Puzzle]], settings: Settings) -> list[Cell]:
    """One solver across the box sizes, smallest first; stops growing after a size it
    solved none of."""
    cells: list[Cell] = []
    failed_at = None
    for box in BOXES:
        if box not in sets:
            cells.append(Cell(name, box, skipped="no set"))
        elif failed_at is not None and box in registry.get(name).cls.boxes:
            cells.append(Cell(name, box, len(sets[box]),
                              skipped=f"not run (0 solved at {failed_at})"))
        else:
            cell = measure(name, box, sets[box], settings)
            if (cell.n_run and cell.n_solved == 0) or (cell.error and not cell.n_run):
                failed_at = f"{box * box}x{box * box}"
            cells.append(cell)
    return cells


def fit(cells: list[Cell]) -> tuple[float | None, int]:
    """The growth exponent over the sizes that count (see :attr:`Cell.fits`), and how many."""
    points = [(cells_of(c.box), c.median_s) for c in cells if c.fits]
    return growth_exponent(points), len(points)


def write_figure(results: dict[str, list[Cell]], settings: Settings, path: Path) -> None:
    """Median time against cells, log-log, one line per solver; a size run but solved less
    than half the time is an ``x`` at the per-puzzle budget. Reproducible SVG (fixed hash
    salt, no date), as the reports' figures."""
    import matplotlib
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8.6, 5.0), dpi=100)
    ax = fig.add_subplot(1, 1, 1)
    tab20 = matplotlib.colormaps["tab20"].colors
    colours = tab20[0::2] + tab20[1::2]  # neighbours in the legend get distinct hues
    crowd: dict[int, int] = {}  # failed solvers drawn so far at each size
    for i, (name, cells) in enumerate(results.items()):
        colour = colours[i % len(colours)]
        style = "-" if registry.get(name).origin == "native" else "--"
        pts = [(cells_of(c.box), c.median_s) for c in cells if c.fits]
        if pts:
            k, _ = fit(cells)
            label = name + (f" (k={k:.2f})" if k is not None else "")
            ax.plot(*zip(*pts, strict=True), style, marker="o", ms=4, color=colour, label=label)
        failed = []
        for c in cells:
            if c.n_run and not c.fits:  # spread along x so coincident marks stay visible
                crowd[c.box] = crowd.get(c.box, 0) + 1
                failed.append(cells_of(c.box) * 1.06 ** (crowd[c.box] - 1))
        if failed:
            ax.plot(failed, [settings.puzzle_seconds] * len(failed), "x", ms=8, mew=2,
                    color=colour, label=None if pts else f"{name} (unsolved)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([cells_of(b) for b in BOXES], [f"{b * b}x{b * b}" for b in BOXES])
    ax.minorticks_off()
    ax.set_xlabel("grid (cells, log scale)")
    ax.set_ylabel("median solve time over solved puzzles (s)")
    ax.set_title(f"Cost against grid size: first {settings.puzzles} puzzles a size, "
                 f"{settings.puzzle_seconds:g} s budget; x = solved < half", fontsize=9)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT, "svg.fonttype": "path"}):
        fig.tight_layout()
        fig.savefig(path, format="svg", metadata={"Date": None})


def run(quick: bool) -> list[PerfTable]:
    settings = QUICK if quick else FULL
    sets, set_notes = _sets(settings)
    names, missing = _solvers()
    for name in names:  # import and compile once in the parent, so children fork warm
        try:
            registry.create(name).warmup()
        except Exception:  # the child meets the same error and reports it
            pass
    results = {name: sweep(name, sets, settings) for name in names}
    rows = []
    for name, cells in results.items():
        k, used = fit(cells)
        trouble = [f"{c.box * c.box}x{c.box * c.box}: {c.error}" for c in cells if c.error]
        rows.append([name, registry.get(name).family, *(cell_text(c) for c in cells),
                     f"{k:.2f} ({used} sizes)" if k is not None else "-", "; ".join(trouble)])
    notes = [
        f"first {settings.puzzles} puzzles a size, seed {SEED}, "
        f"Budget(max_seconds={settings.puzzle_seconds:g}) a puzzle, a cell stops after "
        f"{settings.cell_seconds:g} s of solving (then `of N`: the first puzzles only); "
        "one forked child per (solver, size), warm-up outside the clock",
        "each cell: median solve time over the puzzles solved (grid verified by the "
        "checker), then solved / run; unsolved = no verified grid within the budget",
        "refused = a size the solver does not declare; not run = a larger size after one it "
        "solved none of; no set = no puzzles of that size here",
        "growth exponent k: least-squares slope of log(median time) against log(cells) over "
        "the sizes solved at least half the time (time ~ cells^k); at 4x4 a fast solver's "
        "time is mostly the per-call overhead, which flattens k",
        *set_notes, *missing,
    ]
    if quick:
        notes.append("quick run: figure not written")
    else:
        write_figure(results, settings, FIGURE)
        notes.append(f"figure: [{FIGURE.name}](perf_figures/{FIGURE.name}) (log-log, one line "
                     "per solver, x = a size solved less than half the time)")
    columns = ["solver", "family", *(f"{b * b}x{b * b}" for b in BOXES), "growth exponent",
               "note"]
    return [PerfTable("Median solve time and solved / run, per box size", columns, rows, notes)]
