"""``sudoku-compare perf``: the project's own benchmark, as ratios within one run.

Each section is a module here exposing ``SECTION`` (its name), ``TITLE`` and
``run(quick: bool) -> list[PerfTable]``; this package finds them all.
"""

from __future__ import annotations

import importlib
import pkgutil
import statistics
from dataclasses import dataclass, field

from sudoku_compare.bench.api import solve
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Status


@dataclass
class PerfTable:
    """One table of a perf report: a title, column names and rows (already formatted or numbers)."""

    title: str
    columns: list[str]
    rows: list[list] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_markdown(self) -> str:
        def fmt(v) -> str:
            if isinstance(v, float):
                return f"{v:,.3g}" if abs(v) < 1000 else f"{v:,.0f}"
            if isinstance(v, int):
                return f"{v:,}"
            return str(v)

        lines = [f"### {self.title}", "", "| " + " | ".join(self.columns) + " |",
                 "|" + "---|" * len(self.columns)]
        lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in self.rows]
        if self.notes:
            lines += [""] + [f"- {n}" for n in self.notes]
        return "\n".join(lines) + "\n"


def mini_campaign(name: str, puzzles, seeds, seconds: float) -> tuple[int, int, float, float]:
    """(solved, runs, median seconds, median evaluations over the solved runs) of ``name`` on
    every puzzle x seed, in process through ``bench.api.solve`` (so every grid is verified)."""
    times, evals, runs = [], [], 0
    for p in puzzles:
        for seed in seeds:
            out, _ = solve(name, p, Budget(max_seconds=seconds), seed=seed)
            runs += 1
            if out.status == Status.SOLVED:
                times.append(out.elapsed_s)
                evals.append(out.evaluations)
    med_t = statistics.median(times) if times else float("nan")
    med_e = statistics.median(evals) if evals else float("nan")
    return len(times), runs, med_t, med_e


def sections() -> dict[str, object]:
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "SECTION") and hasattr(mod, "run"):
            found[mod.SECTION] = mod
    return found
