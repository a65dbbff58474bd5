"""What every exercise section shares: the experiment as data, per-variant summaries, paired
tests and markdown tables.

The experiment definitions live here (pure data) rather than beside the code that runs them
(:mod:`sudoku_compare.bench.exercises`), because reporting reads results and never runs
campaigns; the runner imports these types, not the other way round.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sudoku_compare.bench.reporting import stats
from sudoku_compare.budget import Budget

Row = dict[str, Any]
#: the seed material's difficulty names for the public sets (DESIGN: Easy, Medium, Hard)
DIFFICULTY = {"easy51": "Easy", "hardest": "Medium", "top95": "Hard",
              "generated-easy": "generated easy", "generated-medium": "generated medium",
              "generated-hard": "generated hard"}
#: significance level of every test in the report (after Holm's correction within a section)
ALPHA = 0.05


@dataclass(frozen=True)
class Variant:
    """One configured solver: a label for tables and the ``(name, params)`` pair run."""

    label: str
    solver: str
    params: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.solver}[{shown}]" if shown else self.solver


@dataclass(frozen=True)
class Experiment:
    """One exercise's runs: variants x puzzles x seeds under one budget (a campaign each)."""

    key: str
    variants: tuple[Variant, ...]
    puzzles: tuple[str, ...]
    seeds: int
    budget: Budget

    def budget_text(self) -> str:
        b = self.budget
        if b.max_evaluations is not None:
            return (f"equal work: {b.max_evaluations:,} evaluations a run (the binding limit; "
                    f"{b.max_seconds:g} s wall-clock safety cap)")
        return f"{b.max_seconds:g} s wall-clock a run (no evaluation limit)"

    def text(self) -> str:
        names = "; ".join(v.describe() for v in self.variants)
        return (f"{names}. Puzzles: {', '.join(self.puzzles)}. Seeds: {self.seeds} a puzzle, "
                f"derived from the run's identity, the same for every variant (paired). "
                f"Budget: {self.budget_text()}.")


@dataclass
class ExperimentResult:
    """The stored rows of every variant of an experiment, keyed by variant label."""

    experiment: Experiment
    runs: dict[str, list[Row]]

    def rows(self, label: str) -> list[Row]:
        return self.runs.get(label, [])


@dataclass
class Section:
    """One exercise as the report prints it."""

    title: str
    question: str
    experiment: str
    body: list[str]
    answer: str
    figures: list[str] = field(default_factory=list)

    def to_markdown(self, number: int) -> str:
        out = [f"## {number}. {self.title}", "", f"**Question.** {self.question}", "",
               f"**Experiment.** {self.experiment}", ""]
        out += self.body
        out += ["", f"**Answer.** {self.answer}", ""]
        return "\n".join(out)


# -- per-run measures -------------------------------------------------------------------


def solved(row: Row) -> bool:
    return row.get("status") == "solved"


def evaluations(row: Row) -> float:
    v = row.get("evaluations")
    return float(v) if v is not None else math.nan


def penalised_evaluations(row: Row, budget: Budget) -> float:
    """PAR-2 in evaluations: the evaluations of a solved run, twice the budget otherwise, so
    every failure ranks behind every success (the per-run measure the tests rank)."""
    if solved(row):
        return evaluations(row)
    return 2.0 * float(budget.max_evaluations or 0)


def best_energy(row: Row) -> float:
    v = row.get("best_energy")
    if v is None:
        return 0.0 if solved(row) else math.nan
    return float(v)


def puzzle_key(row: Row) -> tuple[str, int]:
    return (str(row.get("puzzle_set")), int(row.get("puzzle_index") or 0))


# -- summaries -------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """A variant's runs in numbers: success with its Wilson interval, ERT in evaluations,
    median evaluations of the solved runs, median final best energy, median seconds."""

    runs: int
    solved: int
    low: float
    high: float
    ert: float
    median_evals_solved: float
    median_energy: float
    mean_energy: float
    median_seconds: float
    schedule_fraction: float

    @property
    def rate(self) -> float:
        return self.solved / self.runs if self.runs else math.nan


def summarise(rows: Sequence[Row]) -> Summary:
    ok = [solved(r) for r in rows]
    k = sum(ok)
    lo, hi = stats.wilson_interval(k, len(rows)) if rows else (math.nan, math.nan)
    spent = [evaluations(r) for r in rows]
    ert = stats.ert(spent, ok) if rows else math.nan
    med_solved = stats.median_iqr([evaluations(r) for r in rows if solved(r)])[0]
    energies = [best_energy(r) for r in rows]
    fractions = [float(r["schedule_fraction"]) for r in rows
                 if r.get("schedule_fraction") is not None]
    return Summary(len(rows), k, lo, hi, ert, med_solved,
                   stats.median_iqr(energies)[0],
                   float(np.mean(energies)) if energies else math.nan,
                   stats.median_iqr([float(r.get("elapsed_s") or 0.0) for r in rows])[0],
                   float(np.mean(fractions)) if fractions else math.nan)


def rank_key(s: Summary) -> tuple[float, float, float]:
    """Best first: highest success, then lowest ERT, then lowest mean final energy."""
    return (-s.rate, s.ert if math.isfinite(s.ert) else math.inf, s.mean_energy)


# -- formatting ------------------------------------------------------------------------


def fmt(v: float, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, float) and math.isinf(v):
        return "∞"
    if isinstance(v, int) or float(v).is_integer() and abs(v) >= 1:
        return f"{int(v):,}"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{digits}g}"


def rate_text(s: Summary) -> str:
    return f"{s.solved}/{s.runs} ({100 * s.rate:.0f} %, CI {100 * s.low:.0f}–{100 * s.high:.0f} %)"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        out.append("| " + " | ".join(v if isinstance(v, str) else fmt(v) for v in r) + " |")
    return out


SUMMARY_HEADER = ("variant", "solved (Wilson 95 % CI)", "ERT (evals)", "median evals (solved)",
                  "median final energy", "mean final energy", "median s")


def summary_cells(label: str, s: Summary) -> list[Any]:
    return [label, rate_text(s), s.ert, s.median_evals_solved, s.median_energy,
            s.mean_energy, s.median_seconds]


# -- paired comparisons ------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """``a`` against ``b`` over matched puzzles (each puzzle's median over seeds one pair)."""

    a: str
    b: str
    test: stats.TestResult
    #: share of puzzles where ``a`` is lower (better), ties half
    share_a_better: float
    p_holm: float = math.nan

    def verdict(self) -> str:
        t = self.test
        if math.isnan(t.p_value):
            return f"no test ({t.note})"
        p = self.p_holm if not math.isnan(self.p_holm) else t.p_value
        if p < ALPHA:
            better = self.a if self.share_a_better > 0.5 else self.b
            return (f"significant difference (Holm p = {p:.3g}, {t.nonzero} of {t.n} puzzles "
                    f"differ): {better} is better")
        return f"no significant difference (Holm p = {p:.3g}, {t.nonzero} of {t.n} puzzles differ)"

    def significant(self) -> bool:
        p = self.p_holm if not math.isnan(self.p_holm) else self.test.p_value
        return not math.isnan(p) and p < ALPHA


def per_puzzle(rows: Sequence[Row], measure: Callable[[Row], float]) -> dict[tuple[str, int], float]:
    """Each puzzle's median of ``measure`` over its seeds."""
    groups: dict[tuple[str, int], list[float]] = defaultdict(list)
    for r in rows:
        groups[puzzle_key(r)].append(measure(r))
    return {k: float(np.median(v)) for k, v in groups.items()}


def compare(label_a: str, rows_a: Sequence[Row], label_b: str, rows_b: Sequence[Row],
            measure: Callable[[Row], float]) -> Comparison:
    """Paired Wilcoxon over the puzzles both ran (lower is better)."""
    pa, pb = per_puzzle(rows_a, measure), per_puzzle(rows_b, measure)
    keys = sorted(set(pa) & set(pb))
    x = np.array([pa[k] for k in keys])
    y = np.array([pb[k] for k in keys])
    test = stats.wilcoxon_paired(x, y)
    d = y - x
    share = float((np.sum(d > 0) + 0.5 * np.sum(d == 0)) / len(d)) if len(d) else math.nan
    return Comparison(label_a, label_b, test, share)


def with_holm(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """Holm's correction across a section's tests (untestable pairs keep nan)."""
    ps = [c.test.p_value for c in comparisons]
    adjusted = stats.holm(ps) if ps else []
    return [Comparison(c.a, c.b, c.test, c.share_a_better, float(p))
            for c, p in zip(comparisons, adjusted, strict=True)]


def comparison_rows(comparisons: Sequence[Comparison]) -> list[str]:
    rows = []
    for c in comparisons:
        t = c.test
        rows.append([f"{c.a} vs {c.b}", str(t.n), "–" if t.nonzero is None else str(t.nonzero),
                     fmt(c.share_a_better), fmt(t.p_value), fmt(c.p_holm),
                     "yes" if c.significant() else "no"])
    return table(("pair (a vs b)", "puzzles", "differing", "share a better", "p", "Holm p",
                  f"p < {ALPHA}"), rows)


#: the seed's witness puzzle ("grille témoin"): easy51:0, the same in every seed notebook
WITNESS = "easy51:0"
#: the seed's forward-checking and domain exercises use cell (0, 1); FC assigns it 6
FC_CELL = (0, 1)
FC_VALUE = 6
