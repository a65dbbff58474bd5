"""The seed material's view: per difficulty, total time, puzzles solved, Success/Disqualified.

The seed notebooks' ``SudokuHelper.TestSolvers`` ran every solver on a few puzzles of each
difficulty with a per-puzzle time limit and printed one line per solver and difficulty::

    Backtracking | Hard | 19171 ms | 4 resolus | Disqualified

A solver is *Disqualified* for a difficulty as soon as one puzzle is not solved within the
limit. This module reproduces that view from the store so a reader of the seeds can find
their table again; with several seeds a solver qualifies only if every seed solved every
puzzle, and the total time is the mean over seeds of the time spent on the whole set.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .summary import (
    FAMILY_ORDER,
    Run,
    comparison_group,
    puzzle_key,
    seconds_spent,
    seed_key,
    set_key,
    solved,
    solver_sort_key,
)

#: the seed's three levels: its files Easy (51), Medium (95 "hardest"), Hard (top95)
DIFFICULTY = {
    "easy51": "Easy", "hardest": "Medium", "top95": "Hard",
    "generated-easy": "Easy", "generated-medium": "Medium", "generated-hard": "Hard",
}
DIFFICULTY_ORDER = ("Easy", "Medium", "Hard")


def difficulty(puzzle_set: str) -> str:
    """The seed's difficulty name of a set; other sets stand for themselves."""
    return DIFFICULTY.get(puzzle_set, puzzle_set)


@dataclass
class SeedViewRow:
    """One line of ``TestSolvers``' output, for one solver on one puzzle set."""

    solver: str
    family: str
    origin: str
    difficulty: str
    puzzle_set: str
    puzzles: int
    seeds: int
    #: mean over seeds of the seconds spent on the whole set (failed runs count what they used)
    total_seconds: float
    #: puzzles solved by every seed
    solved_puzzles: int
    runs: int
    solved_runs: int
    status: str  # "Success" or "Disqualified"
    max_seconds: float


def _position(run: Run) -> object:
    """A puzzle as the seed counted it: a line of its file (easy51 holds one puzzle twice,
    and ``TestSolvers`` solved and counted both); by its givens when it has no index."""
    index = run.get("puzzle_index")
    return puzzle_key(run) if index is None else (run.get("puzzle_set"), int(index))


def seed_view(runs: list[Run]) -> list[SeedViewRow]:
    """One row per solver and puzzle set, ordered by difficulty, then native first."""
    groups: dict[tuple[str, str], list[Run]] = defaultdict(list)
    for r in runs:
        groups[(r["solver"], set_key(r))].append(r)
    rows = []
    for (solver, pset), rs in groups.items():
        by_puzzle: dict[object, list[bool]] = defaultdict(list)
        for r in rs:
            by_puzzle[_position(r)].append(solved(r))
        seeds = len({seed_key(r) for r in rs})
        solved_runs = sum(solved(r) for r in rs)
        rows.append(SeedViewRow(
            solver=solver, family=rs[0]["family"], origin=rs[0]["origin"],
            difficulty=difficulty(pset), puzzle_set=pset, puzzles=len(by_puzzle), seeds=seeds,
            total_seconds=sum(seconds_spent(r) for r in rs) / seeds,
            solved_puzzles=sum(all(v) for v in by_puzzle.values()), runs=len(rs),
            solved_runs=solved_runs,
            status="Success" if solved_runs == len(rs) else "Disqualified",
            max_seconds=max(float(r["max_seconds"]) for r in rs)))
    rank = {d: i for i, d in enumerate(DIFFICULTY_ORDER)}
    fam = {f: i for i, f in enumerate(FAMILY_ORDER)}
    rows.sort(key=lambda r: (rank.get(r.difficulty, len(rank)), r.difficulty, r.puzzle_set,
                             fam.get(comparison_group(r.family), len(fam)),
                             comparison_group(r.family), solver_sort_key(r.solver, r.origin)))
    return rows


def unqualified_sets(rows: list[SeedViewRow]) -> list[str]:
    """Sets where every solver is disqualified (the seed's "aucun solveur qualifie")."""
    by_set: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        by_set[r.puzzle_set].append(r.status)
    return [s for s, st in by_set.items() if all(x == "Disqualified" for x in st)]
