"""The probabilistic-inference report: how often native.bp solves each set by inference alone.

The seeds list probabilistic inference (Infer.NET) as "expérimental" and never measure it,
so this report answers the one question that matters for it: on which sets does loopy
belief propagation with decimation finish the grid without search, and what does it cost
when it does not. It reads a campaign database (it never runs anything). Regenerate
``reports/probabilistic.md`` with the ``COMMANDS`` written at the report's top.

Kept apart from ``sudoku-compare report`` because no library runs BP on Sudoku (there is no
counterpart to test against): the interesting figures are native.bp's own counters
(``inference``, ``decimations``, ``restarts``, ``search``), which the generic report does
not break down.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import median
from typing import Any

from sudoku_compare import registry

from .standalone import report_main, write_from_db
from .stats import wilson_interval
from .summary import solved

BP, BP_SEARCH = "native.bp", "native.bp-search"
SETS = ("generated-easy", "easy51", "generated-medium", "generated-hard", "generated-16x16",
        "hardest", "top95")
SEEDS = 3
MAX_SECONDS = 10
#: the commands that fill the database this report reads
COMMANDS = tuple(
    f"sudoku-compare run --solvers {BP},{BP_SEARCH} --puzzles {s} --seeds {SEEDS} "
    f"--max-seconds {MAX_SECONDS} --workers 1 --db bp.db" for s in SETS
) + ("python -m sudoku_compare.bench.reporting.probabilistic --db bp.db "
     "--out reports/probabilistic.md",)

Run = Mapping[str, Any]


def _counter(run: Run, name: str) -> int:
    return int((run.get("counters") or {}).get(name, 0))


def by_inference(run: Run) -> bool:
    """Solved in budget with the grid completed by BP, decimation and propagation (no search)."""
    return solved(run) and _counter(run, "inference") == 1 and _counter(run, "search") == 0


def _rate(k: int, n: int) -> str:
    if not n:
        return "0/0"
    lo, hi = wilson_interval(k, n)
    return f"{k}/{n} ({100 * k / n:.0f} % [{100 * lo:.0f}–{100 * hi:.0f}])"


def _med(values: Sequence[float], fmt: str = "{:g}") -> str:
    return fmt.format(median(values)) if values else "–"


def set_rows(runs: Sequence[Run]) -> list[str]:
    """One table row per solver of one puzzle set."""
    per: dict[str, list[Run]] = defaultdict(list)
    for r in runs:
        per[r["solver"]].append(r)
    rows = []
    for s in (BP, BP_SEARCH):
        rs = per.get(s)
        if not rs:
            continue
        puzzles: dict[int, list[bool]] = defaultdict(list)
        for r in rs:
            puzzles[r["puzzle_index"]].append(by_inference(r))
        n_puz = len(puzzles)
        every = sum(all(v) for v in puzzles.values())
        some = sum(any(v) for v in puzzles.values())
        inf = [r for r in rs if by_inference(r)]
        singles_only = sum(_counter(r, "decimations") == 0 for r in inf)
        fallback = sum(_counter(r, "search") for r in rs)
        clock = sum(r.get("stop_reason") in ("clock", "killed") or r["status"] == "timeout"
                    for r in rs)
        ms = [1000 * r["elapsed_s"] for r in rs if r.get("elapsed_s") is not None]
        rows.append(
            f"| {s} | {_rate(sum(map(solved, rs)), len(rs))} | {_rate(len(inf), len(rs))} "
            f"| {every}/{n_puz} | {some}/{n_puz} | {singles_only} "
            f"| {_med([_counter(r, 'decimations') for r in inf])} "
            f"| {_med([_counter(r, 'restarts') for r in rs])} | {fallback} | {clock} "
            f"| {_med(ms, '{:.2f}')} |")
    return rows


def probabilistic_report(runs: Sequence[Run], commands: Sequence[str] = COMMANDS) -> str:
    """The whole report's markdown."""
    versions: dict[str, str] = {}
    by_set: dict[str, list[Run]] = defaultdict(list)
    for r in runs:
        if r["solver"] in (BP, BP_SEARCH):
            by_set[r["puzzle_set"]].append(r)
            versions.update(r.get("versions") or {})
    budgets = sorted({r["max_seconds"] for rs in by_set.values() for r in rs})
    lines = [
        "# Probabilistic inference: native.bp by inference alone", "",
        "Regenerate (about a minute):", "", "```", *commands, "```", "",
        "native.bp runs loopy belief propagation (sum-product messages between the "
        "cell-digit variables and the exactly-one factors of every cell and every unit-digit, "
        "damped), fixes the most certain cell (decimation), places the singles that follow, "
        "and repeats; a contradiction after a decimation restarts it from the givens with "
        f"seeded random messages ({registry.get(BP).create().params.max_restarts} restarts by default), after which it stops unsolved. "
        "native.bp-search is the same run finished by native.bitmask's complete search when "
        "the restarts are spent; such runs are counted under *fell back to search* and never "
        "as inference. No library runs BP on Sudoku (Infer.NET, the seeds' example, is .NET "
        "only), so there is no counterpart row and no test: this report measures how far "
        "inference carries, as the seeds' \"expérimental\" asks.", "",
        "*by inference alone*: verified solved within the budget, the grid completed by BP, "
        "decimation and singles (no search), over every run (puzzle × seed), with a 95 % "
        "Wilson interval; *every seed* / *some seed*: puzzles solved by inference in all / at "
        "least one of the seeds (the seed only breaks ties and draws the restart messages); "
        "*singles only*: of those runs, the ones the singles finished before BP had to decide "
        "anything (no decimation); *decimations* is the median over the runs solved by "
        "inference; *restarts* the median over all runs.", "",
        "Milliseconds are the solve alone and depend on the machine and its load; the "
        "outcomes and counters do not.", "",
        "Budget: " + ", ".join(f"{b:g} s" for b in budgets) + f" per run; {SEEDS} seeds; "
        "versions: " + ", ".join(f"{k} {v}" for k, v in sorted(versions.items())), "",
        "| set | solver | solved | by inference alone | every seed | some seed | singles only "
        "| decimations | restarts | fell back to search | clock | median ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    order = sorted(by_set, key=lambda s: (SETS.index(s) if s in SETS else len(SETS), s))
    for name in order:
        lines += [f"| {name} " + row for row in set_rows(by_set[name])]
    lines += ["", *_findings(by_set, order)]
    return "\n".join(lines).rstrip() + "\n"


def _findings(by_set: dict[str, list[Run]], order: Sequence[str]) -> list[str]:
    """Sentences computed from the table: where inference alone is complete, where it is not."""
    complete, partial = [], []
    for name in order:
        rs = [r for r in by_set[name] if r["solver"] == BP]
        if not rs:
            continue
        k = sum(map(by_inference, rs))
        if k == len(rs):
            complete.append(name)
            continue
        rest = [r for r in by_set[name] if r["solver"] == BP_SEARCH]
        tail = (f", native.bp-search {sum(map(solved, rest))}/{len(rest)} with search"
                if rest else "")
        partial.append(f"{name} ({k}/{len(rs)} by inference{tail})")
    out = []
    if complete:
        out.append("native.bp solved every run by inference alone on " + ", ".join(complete)
                   + ".")
    if partial:
        out.append("Inference alone fell short on " + "; ".join(partial) + ".")
    return out


def write_probabilistic_report(db: str | Path, out: str | Path) -> Path:
    return write_from_db(db, out, probabilistic_report)


def main(argv: Sequence[str] | None = None) -> int:
    return report_main("sudoku_compare.bench.reporting.probabilistic", __doc__.splitlines()[0],
                       probabilistic_report, argv)


if __name__ == "__main__":
    raise SystemExit(main())
