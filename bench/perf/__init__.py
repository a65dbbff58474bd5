"""``sudoku-compare perf``: the project's own benchmark, as ratios within one run.

Each section is a module here exposing ``SECTION`` (its name), ``TITLE`` and
``run(quick: bool) -> list[PerfTable]``; this package finds them all.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field


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


def sections() -> dict[str, object]:
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "SECTION") and hasattr(mod, "run"):
            found[mod.SECTION] = mod
    return found
