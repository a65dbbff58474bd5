"""Sections: backtracking against MRV, solution counts, partial-grid energy, the
forward-checking step and a cell's initial domain."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from sudoku_compare.bench.reporting import stats
from sudoku_compare.problems.puzzle import Puzzle

from . import facts
from .common import (
    DIFFICULTY,
    FC_CELL,
    FC_VALUE,
    ExperimentResult,
    Row,
    Section,
    compare,
    comparison_rows,
    fmt,
    puzzle_key,
    solved,
    table,
    with_holm,
)

#: search calls the seed printed for the first five puzzles of each set (naive backtracking)
SEED_CALLS = {"easy51": (122, 311, 477, 25565, 2544),
              "hardest": (490304, 15387, 337036, 114216, 250684),
              "top95": (12625368, 4405485, 126417, 503219, 124635056)}


def _calls(r: Row) -> float:
    c = (r.get("counters") or {}).get("search_calls")
    return float(c) if c is not None and solved(r) else math.nan


def backtracking_section(result: ExperimentResult) -> Section:
    exp = result.experiment
    simple, mrv = (v.label for v in exp.variants)
    budget_s = exp.budget.max_seconds
    by_set: dict[str, dict[str, list[Row]]] = defaultdict(lambda: defaultdict(list))
    for label in (simple, mrv):
        for r in result.rows(label):
            by_set[str(r["puzzle_set"])][label].append(r)
    order = [s for s in ("easy51", "hardest", "top95") if s in by_set] + sorted(
        s for s in by_set if s not in ("easy51", "hardest", "top95"))
    rows = []
    comps = []
    ratios = {}
    for pset in order:
        for label in (simple, mrv):
            rs = by_set[pset][label]
            ok = [solved(r) for r in rs]
            calls = [_calls(r) for r in rs if solved(r)]
            secs = [float(r.get("elapsed_s") or 0) for r in rs]
            rows.append([f"{DIFFICULTY.get(pset, pset)} ({pset})", label,
                         f"{sum(ok)}/{len(rs)}", stats.median_iqr(calls)[0],
                         max(calls) if calls else math.nan,
                         stats.median_iqr([s for s, k in zip(secs, ok, strict=True) if k])[0],
                         stats.par2(secs, ok, budget_s)])
        a, b = by_set[pset][mrv], by_set[pset][simple]
        both = {puzzle_key(r) for r in a if solved(r)} & {puzzle_key(r) for r in b if solved(r)}
        ca = [_calls(r) for r in sorted(a, key=puzzle_key) if puzzle_key(r) in both]
        cb = [_calls(r) for r in sorted(b, key=puzzle_key) if puzzle_key(r) in both]
        ratios[pset] = (float(np.median(np.array(cb) / np.array(ca))) if ca else math.nan,
                        len(both), len(a))
        comps.append(compare(f"MRV {pset}", [r for r in a if puzzle_key(r) in both],
                             f"simple {pset}", [r for r in b if puzzle_key(r) in both], _calls))
    comps = with_holm(comps)
    body = table(("difficulty (set)", "solver", "solved", "median search calls (solved)",
                  "max search calls", "median s (solved)", f"PAR-2 s (budget {budget_s:g} s)"),
                 rows)
    body += ["", "Median ratio simple / MRV of search calls per puzzle (puzzles both solved), "
                 "and paired Wilcoxon over those puzzles on search calls, Holm over the sets:", ""]
    body += table(("set", "puzzles both solved", "median ratio simple/MRV"),
                  [[p, f"{ratios[p][1]}/{ratios[p][2]}", ratios[p][0]] for p in order])
    body += [""] + comparison_rows(comps)
    check = []
    for pset, printed in SEED_CALLS.items():
        got = {puzzle_key(r)[1]: _calls(r) for r in by_set.get(pset, {}).get(simple, [])}
        for i, want in enumerate(printed):
            if i in got:
                check.append([f"{pset}:{i}", want, got[i], "yes" if got[i] == want else "NO"])
    if check:
        body += ["", "The simple backtracking's counts against the seed's printed figures "
                     "(the same definition of a search call):", ""]
        body += table(("puzzle", "seed printed", "measured", "equal"), check)
    hardest = order[-1] if order else ""
    r_h = ratios.get(hardest, (math.nan, 0, 0))
    unsolved = {p: sum(not solved(r) for r in by_set[p][simple]) for p in order}
    first = ("MRV needed fewer search calls than row-major backtracking at every difficulty: "
             if all(ratios[p][0] > 1 for p in order if not math.isnan(ratios[p][0]))
             else "MRV did not need fewer search calls at every difficulty: ")
    first += ", ".join(f"median ratio {fmt(ratios[p][0])} on {DIFFICULTY.get(p, p)} ({p})"
                       for p in order) + "."
    lost = [f"{unsolved[p]} {p}" for p in order if unsolved[p]]
    second = ("; ".join(f"{DIFFICULTY.get(c.a.split()[-1], '')} {c.a.split()[-1]}: "
                        f"{c.verdict()}" for c in comps)
              + (f"; the simple search ran out of its {budget_s:g} s on {', '.join(lost)} "
                 f"puzzles" if lost else "; both solved every puzzle")
              + f" (ratio on {hardest}: {fmt(r_h[0])}).")
    return Section(
        "Backtracking against MRV",
        "How many search calls and how much time do row-major backtracking and MRV "
        "backtracking need per difficulty?",
        "native.backtracking (row-major cells, values 1..9, the seed's "
        "BacktrackingDotNetSolver) and native.backtracking-mrv (the fewest-candidates cell "
        "first, the seed's guided exercise), deterministic (one run a puzzle): " + exp.text(),
        body, f"{first} {second[0].upper() + second[1:] if second else ''}")


def counts_section(sets: dict[str, list[Puzzle]], witness: Puzzle) -> Section:
    counted = [facts.count_set(name, ps) for name, ps in sets.items()]
    rows = [[c.name, c.puzzles, c.counts.get(0, 0), c.counts.get(1, 0), c.counts.get(2, 0),
             c.duplicates] for c in counted]
    body = table(("set", "puzzles", "no solution", "exactly one", "two or more",
                  "repeated lines"), rows)
    multi = facts.multi_solution_example(witness)
    removed = ", ".join(f"({r}, {c})" for r, c in multi.removed)
    body += ["", f"Multi-solution example: the witness puzzle with the givens at {removed} "
                 f"removed (row-major, the first removal that leaves several solutions):", "",
             f"`{multi.line}`", "",
             f"It has exactly {multi.solutions:,} solutions (counted to the end, limit "
             f"{multi.limit:,})."]
    unique = all(c.counts.get(1, 0) == c.puzzles for c in counted)
    total = sum(c.puzzles for c in counted)
    first = (f"Every one of the {total:,} puzzles in {', '.join(c.name for c in counted)} has "
             f"exactly one solution" if unique else
             "Not every puzzle has exactly one solution: " + "; ".join(
                 f"{c.name} {c.counts.get(0, 0)} with none and {c.counts.get(2, 0)} with two "
                 f"or more" for c in counted if c.counts.get(1, 0) != c.puzzles))
    dups = [f"{c.name} repeats {c.duplicates} line(s)" for c in counted if c.duplicates]
    first += (" (" + "; ".join(dups) + ")" if dups else "") + "."
    second = (f"Removing {len(multi.removed)} given(s) from the witness puzzle already leaves "
              f"{multi.solutions:,} solutions, so uniqueness rests on those givens.")
    return Section(
        "Solution counts of the sets",
        "How many solutions does each puzzle of the sets have, and what does a puzzle with "
        "several look like?",
        "problems/solutions.py's counter (an MRV bitmask search independent of every solver, "
        "stopping at 2 for the sets), on every puzzle of: " + ", ".join(sets) + "; the "
        "multi-solution example counted to the end.", body, f"{first} {second}")


def energy_section(witness: Puzzle) -> Section:
    box = witness.box
    init = facts.seed_initial_grid()
    band = np.zeros_like(init)
    band[:3] = init[:3]
    band = np.where(witness.grid() != 0, witness.grid(), band)
    cases = [("witness puzzle (givens only, 36 empty cells)", witness.grid()),
             ("seed's initialised grid, top band kept, the rest givens only", band),
             ("seed's initialised grid (full, printed energy 31)", init)]
    rows = []
    values = []
    for name, g in cases:
        e = facts.partial_energy(g, box)
        shared = facts.shared_energy(g, box)
        values.append((name, e, shared))
        rows.append([name, int((g == 0).sum()), e.skipped_units, e.rows, e.cols, e.boxes,
                     e.total, shared, "yes" if shared == e.total else "NO"])
    body = table(("grid", "empty cells", "all-zero units skipped", "row conflicts",
                  "column conflicts", "box conflicts", "partial energy",
                  "shared energy (rows + cols + boxes)", "equal"), rows)
    full = values[2][1]
    first = (f"The partial energy of the witness puzzle is {values[0][1].total} (its givens "
             f"never clash), {values[1][1].total} once the seed's top band is filled in, and "
             f"{full.total} on the seed's full initialised grid "
             f"({'the' if full.total == facts.SEED_INITIAL_ENERGY else 'not the'} "
             f"{facts.SEED_INITIAL_ENERGY} the seed printed; rows {full.rows}, columns "
             f"{full.cols}, boxes {full.boxes}).")
    agree = all(v[1].total == v[2] for v in values)
    second = ("Skipping the all-zero units changes nothing numerically, since an empty unit "
              "holds no duplicate digit, and the package's shared energy (row + column + box "
              f"duplicates) {'agrees on all three grids' if agree else 'DISAGREES'}.")
    return Section(
        "Partial-grid energy on the seed's witness grid",
        "What is the energy of a partially filled grid when only units holding a non-zero "
        "value are counted?",
        "The seed's ComputePartialEnergy (count − 1 per non-zero digit, summed over rows, "
        "columns and boxes with a non-zero value), computed directly on the witness puzzle "
        f"({witness.name}) and the seed's printed initialised grid, checked against the "
        "encoding's compiled energy.", body, f"{first} {second}")


def fc_section(witness: Puzzle, result: ExperimentResult) -> Section:
    steps = [facts.fc_step(witness, FC_CELL, FC_VALUE, prune_givens=p) for p in (False, True)]
    body = []
    for s in steps:
        model = ("domains pruned by the givens (prune_givens=True)" if s.pruned_givens else
                 "the seed's model (empty cells start with 1..9, givens are variables)")
        body += [f"*{model}: assign {s.var} = {s.value}; {s.neighbours} neighbours examined, "
                 f"{len(s.changes)} lost values, domain values {s.values_before} → "
                 f"{s.values_after}, "
                 f"{'wipe-out at ' + str(s.wiped_out) if s.wiped_out else 'no empty domain'}:*",
                 ""]
        body += table(("neighbour", "values removed", "domain size before", "after"),
                      [[str(n), ", ".join(map(str, rem)), b, a] for n, rem, b, a in s.changes])
        body.append("")
    runs = []
    for _label, rows in result.runs.items():
        for r in rows:
            c = r.get("counters") or {}
            placed = r["puzzle"][FC_CELL[0] * 9 + FC_CELL[1]] not in ".0"
            runs.append(["witness with (0, 1) = 6 given" if placed else "witness as given",
                         r["status"], c.get("assignments"), c.get("backtracks"),
                         r.get("elapsed_s")])
    body += ["native.csp-fc (forward checking, the seed's FC search) on the witness, as given "
             "and with the exercise's assignment made a given:", ""]
    body += table(("puzzle", "status", "assignments", "backtracks", "seconds"), runs)
    s0, s1 = steps
    first = (f"In the seed's model, assigning {FC_CELL} = {FC_VALUE} removes {FC_VALUE} from "
             f"{len(s0.changes)} of its {s0.neighbours} neighbours (every empty peer, since "
             f"their domains start full) and "
             f"{'empties ' + str(s0.wiped_out) if s0.wiped_out else 'empties none'}; "
             f"with the givens' values already pruned it removes it from {len(s1.changes)} "
             f"({', '.join(str(n) for n, *_ in s1.changes) or 'none'}).")
    bt = [row for row in runs if row[3] is not None]
    early = ("Forward checking signals an early failure here" if s0.wiped_out or s1.wiped_out
             else "Forward checking signals no early failure here")
    second = (early + "; native.csp-fc then ends the "
              + " and the ".join(f"{row[0]} {row[1]} with {fmt(row[2])} assignments and "
                                 f"{fmt(row[3])} backtracks" for row in bt) + "."
              if bt else early + ".")
    return Section(
        "Forward-checking trace on the seed's example",
        "Which domains does forward checking prune when cell (0, 1) of the witness puzzle is "
        "assigned 6, and does any become empty?",
        "The seed's analyze_fc_propagation: the seed's CSP builder (shared CSP model, the "
        "seed's neighbour order), propagate((0, 1), 6) with an empty assignment, on "
        f"{witness.name}; and native.csp-fc run through the campaign API on the witness "
        "(1 run each, 10 s).", body, f"{first} {second}")


def domain_section(witness: Puzzle) -> Section:
    r, c = FC_CELL
    d = facts.cell_domain(witness, r, c)
    cand = witness.candidates(r * witness.side + c)
    from sudoku_compare.problems.encodings.csp_model import sudoku_csp

    csp = sudoku_csp(witness, prune_givens=True)
    model = sorted(int(csp.labels[x]) for x in csp.domain_of(r * witness.side + c))
    body = table(("cell", "row values", "column values", "box values", "domain",
                  "Puzzle.candidates", "CSP model (prune_givens)"),
                 [[str(d.cell), " ".join(map(str, d.row_values)), " ".join(map(str, d.col_values)),
                   " ".join(map(str, d.box_values)), "{" + ", ".join(map(str, d.domain)) + "}",
                   str(cand), str(model)]])
    sizes = facts.domain_sizes(witness)
    body += ["", "Initial domain sizes of all empty cells of the witness:", ""]
    body += table(("domain size", "cells"), [[k, sizes[k]] for k in sorted(sizes)])
    agree = list(d.domain) == cand == model
    in_col = [x for x in (1, 5) if x in d.col_values]
    first = (f"Cell {d.cell} of the witness puzzle has the initial domain "
             f"{{{', '.join(map(str, d.domain))}}} ({len(d.domain)} values), the same from "
             f"Puzzle.candidates and the CSP model: {'yes' if agree else 'NO'}.")
    second = (f"Of the seed's hint (\"not 9, in the row; not 1, 5, in the column\"), 9 is in the "
              f"row and {', '.join(map(str, in_col)) or 'neither 1 nor 5'} "
              f"{'is' if len(in_col) == 1 else 'are'} in column {c}"
              f"{'' if len(in_col) == 2 else ' (1 is excluded by the box)'}; over all "
              f"{sum(sizes.values())} empty cells, {sizes.get(1, 0)} start with a single value.")
    return Section(
        "A cell's initial domain",
        "Which values can cell (0, 1) of the witness puzzle take before any search?",
        "The seed's get_cell_domain ({1..9} minus the values in the cell's row, column and "
        f"box), computed on {witness.name}, checked against the package's candidates and the "
        "CSP model's pruned domain.", body, f"{first} {second}")
