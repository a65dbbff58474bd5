"""The exercises report: the seeds' "Exercice à compléter" cells answered by measurement.

:func:`write_report` turns the stored rows of the exercise campaigns (run by
:mod:`sudoku_compare.bench.exercises`, which this package never imports: reporting reads
results and never runs campaigns) and a few direct computations into one markdown file, a
section per exercise: the question, the experiment, the table or figure, and an answer
whose every number and verdict is computed from the data.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Sequence
from pathlib import Path

from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import resolve_puzzle, resolve_puzzles

from . import annealing, search, swarm
from .common import WITNESS, ExperimentResult, Section

__all__ = ["build_sections", "write_report"]


def build_sections(results: dict[str, ExperimentResult], figures: Path, rel: str,
                   count_sets: Sequence[str]) -> list[Section]:
    """Every section, in the issue's order."""
    witness = resolve_puzzle(WITNESS).renamed(WITNESS)
    sets: dict[str, list[Puzzle]] = {name: resolve_puzzles(name) for name in count_sets}
    return [
        annealing.cooling_section(results["cooling"]),
        annealing.reheat_section(results["reheat"]),
        swarm.size_section(results["size-swarm"], results["size-swap"], figures, rel),
        swarm.convergence_section([results["convergence-swarm"], results["convergence-swap"]],
                                  figures, rel),
        swarm.grid_section(results["grid"]),
        swarm.hybrid_section(results["hybrid-swap"], results["hybrid-swarm"]),
        search.backtracking_section(results["backtracking"]),
        search.counts_section(sets, witness),
        search.energy_section(witness),
        search.fc_section(witness, results["fc"]),
        search.domain_section(witness),
    ]


def write_report(results: dict[str, ExperimentResult], out: Path, command: str,
                 count_sets: Sequence[str], elapsed_s: float, workers: int,
                 quick: bool) -> Path:
    """Write the markdown report (and its figures in ``<stem>_figures/`` beside it)."""
    figures = out.parent / f"{out.stem}_figures"
    sections = build_sections(results, figures, figures.name, count_sets)
    runs = sum(len(rows) for r in results.values() for rows in r.runs.values())
    head = [
        "# The seeds' exercises, answered by measurement",
        "",
        f"Regenerate with: `{command}`",
        "",
        ("Quick form (CI sizes: tiny puzzles, seeds and budgets; the numbers are a smoke "
         "test, not findings). " if quick else "") +
        f"{runs:,} runs through the campaign API (every grid verified by the independent "
        f"checker, each run in an isolated warm worker), {workers} worker(s), "
        f"{elapsed_s:.0f} s in all, {time.strftime('%Y-%m-%d', time.gmtime())}, "
        f"Python {platform.python_version()} on {platform.machine()}. Run seeds derive from "
        "(campaign seed 2026, puzzle, seed index), so every variant of an experiment meets "
        "the same seeds. Success rates carry Wilson 95 % intervals; ERT is all evaluations "
        "spent over the successes; pairwise tests are paired Wilcoxon signed-rank tests over "
        "puzzles (each puzzle's median over seeds is one observation), Holm-corrected within "
        "each section; \"no significant difference\" means Holm p ≥ 0.05, not equality. "
        "The answers are generated from these numbers.",
        "",
        "Contents: " + " · ".join(f"{i}. {s.title}" for i, s in enumerate(sections, 1)),
        "",
    ]
    text = "\n".join(head) + "\n" + "\n".join(s.to_markdown(i)
                                              for i, s in enumerate(sections, 1))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return out
