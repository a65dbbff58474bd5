"""``hodoku.human``: HoDoKu's human-style solver (hodoku-py), with the same record as native.human.

HoDoKu tries its techniques in a fixed order (singles, intersections, subsets, fish,
single-digit patterns, wings, uniqueness, colouring, chains, ALS, forcing chains and nets,
and brute force last), applies the first step found and starts again; it rates the path
by the hardest technique's level (EASY .. EXTREME) and a score (base points per step,
the level raised while the score exceeds the level's maximum).

What the adapter does and why:

- **The loop is the library's, with a clock.** ``hodoku.Solver.solve`` has no time limit,
  and one step (forcing nets on an EXTREME puzzle) can take seconds (LIBRARIES.md section
  11: top95 p90 5.3 s, max 12 s). The adapter runs the same loop as hodoku-py 0.2.1's
  ``SudokuSolver.solve`` (``SudokuStepFinder.get_step`` over the configured techniques in
  order, the library's ``_apply_step``, its scores and levels) and honours
  ``budget.max_seconds`` twice: the deadline is checked between steps, and a step still
  running at the deadline is interrupted by an exception raised asynchronously in the
  solving thread (``PyThreadState_SetAsyncExc``; hodoku-py is pure Python apart from a
  small fish accelerator, so the exception lands at the next bytecode, or when a C call
  returns: top95:6, 8 and 10, which take HoDoKu seconds, stopped after 2.02 s under
  ``max_seconds=2``). The run then stops with ``clock`` and the steps completed so
  far; the bench's hard deadline backs it. A test holds the loop equal to the library's
  own ``solve`` (same steps, level and score).
- **Unique puzzles only.** HoDoKu assumes a unique solution (its uniqueness techniques
  would "solve" a puzzle with several solutions to a wrong grid, measured), and its own
  solution counter did not return on a puzzle without a solution. So the project's
  counter (:func:`~sudoku_compare.problems.solutions.count_solutions`) decides first:
  none gives ``exhausted``, several give an unsolved run (``finished``, the givens as the
  grid, ``extra["refused"]`` says why), as HoDoKu's own program refuses such puzzles.
- **The record** is native.human's: ``extra["step_log"]`` (technique in the common names
  of :mod:`sudoku_compare.problems.techniques`, HoDoKu's own name beside it, cells,
  digits, placements, eliminations), ``counters`` ``steps``, ``placements``,
  ``eliminations`` and ``steps_<technique>``, and the rating in ``extra``:
  ``rating_level`` (HoDoKu's level in lower case), ``rating_score``, ``rating_hardest``.
  HoDoKu never gets stuck (brute force is its last technique, counted as ``search``), so
  a solved run "by logic alone" is one without a ``search`` step.
- 9x9 only (the library's grid); deterministic (the same steps on every run).

Counterpart: ``native.human`` (a subset of the techniques, the same order and rating
rule; it stops where its techniques end instead of brute-forcing).
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from sudoku_compare.budget import Budget, Deadline
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.solutions import count_solutions
from sudoku_compare.problems.techniques import LEVELS, cell_name, common_name
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

T = TypeVar("T")
#: an easy unique puzzle (singles only), solved once in the warm-up
_EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


class _Interrupted(Exception):  # noqa: N818 - raised into the solving thread at the deadline
    pass


def call_with_deadline(fn: Callable[[], T], seconds: float) -> T:
    """``fn()`` in this thread, interrupted by :class:`_Interrupted` after ``seconds``.

    The timer raises the exception only while ``fn`` runs (a lock orders it against the
    end of the call); an exception set just before the end is waited for here, so it can
    never surface later in the caller.
    """
    ident = threading.get_ident()
    lock = threading.Lock()
    state = {"running": True, "fired": False}

    def fire() -> None:
        with lock:
            if state["running"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                           ctypes.py_object(_Interrupted))

    timer = threading.Timer(max(seconds, 0.0), fire)
    timer.daemon = True
    delivered = False
    timer.start()
    try:
        return fn()
    except _Interrupted:
        delivered = True
        raise
    finally:
        timer.cancel()
        with lock:
            state["running"] = False
        if state["fired"] and not delivered:
            try:
                while True:  # the pending exception arrives at the next bytecode check
                    threading.Event().wait(0.001)
            except _Interrupted:
                pass
            raise _Interrupted


@dataclass(frozen=True)
class HodokuParams:
    """None: the library's defaults (its technique set and order) are the point."""


def _step_record(step: Any, placement: bool) -> dict:
    placements = list(zip(step.indices, step.values, strict=False)) if placement else []
    digits = sorted(set(step.values) if placement and step.values
                    else {c.value for c in step.candidates_to_delete} or set(step.values))
    return {"technique": common_name(step.type.name),
            "library_technique": step.type.value,
            "cells": [cell_name(c, 9) for c in step.indices],
            "digits": digits,
            "placements": [f"{cell_name(c, 9)}={d}" for c, d in placements],
            "eliminations": [f"{cell_name(c.index, 9)}<>{c.value}"
                             for c in step.candidates_to_delete]}


@dataclass
class HodokuPath:
    """The steps HoDoKu took, the grid they reached, and whether the clock stopped them."""

    steps: list[Any]
    grid: str
    solved: bool
    clock: bool


def hodoku_path(line: str, deadline: Deadline | None = None) -> HodokuPath:
    """HoDoKu's solve loop on an 81-character puzzle, with the deadline checks of the docstring."""
    from hodoku.config import DEFAULT_CONFIG
    from hodoku.core.grid import Grid
    from hodoku.solver.solver import _apply_step  # the library's own; its loop has no clock
    from hodoku.solver.step_finder import SudokuStepFinder

    grid = Grid()
    grid.set_sudoku(line)
    finder = SudokuStepFinder(grid, DEFAULT_CONFIG.solve_search)
    order = DEFAULT_CONFIG.solver_steps
    steps: list[Any] = []

    def loop() -> None:
        while not grid.is_solved():
            if deadline is not None and deadline.expired():
                raise _Interrupted
            step = next((s for cfg in order
                         if (s := finder.get_step(cfg.solution_type)) is not None), None)
            if step is None:
                return
            _apply_step(grid, step)
            steps.append(step)

    clock = False
    try:
        if deadline is None:
            loop()
        else:
            call_with_deadline(loop, deadline.remaining())
    except _Interrupted:
        clock = True
    if clock:
        # a step cut short may have been half applied: rebuild the grid from whole steps
        grid = Grid()
        grid.set_sudoku(line)
        for step in steps:
            _apply_step(grid, step)
    return HodokuPath(steps, grid.get_sudoku_string(), grid.is_solved(), clock)


def rating(steps: list[Any], solved: bool) -> tuple[str, int, str]:
    """(level, score, hardest technique's common name) by the rule of HoDoKu's SudokuSolver."""
    from hodoku.config import DEFAULT_CONFIG
    from hodoku.core.scoring import DIFFICULTY_MAX_SCORE
    from hodoku.core.types import DifficultyType

    score, top, hardest, hardest_score = 0, DifficultyType.INCOMPLETE, "", -1
    for step in steps:
        cfg = DEFAULT_CONFIG.step_config.get(step.type)
        if cfg is None:
            continue
        score += cfg.base_score
        if cfg.level.value > top.value or (cfg.level == top and cfg.base_score > hardest_score):
            top, hardest, hardest_score = cfg.level, common_name(step.type.name), cfg.base_score
    if not solved:
        return "incomplete", score, hardest
    level = top if top != DifficultyType.INCOMPLETE else DifficultyType.EASY
    while DIFFICULTY_MAX_SCORE.get(level, 2**31 - 1) < score:
        level = DifficultyType(level.value + 1)
    name = level.name.lower()
    assert name in LEVELS
    return name, score, hardest


@register
class HodokuHuman(Solver):
    name = "hodoku.human"
    family = "human"
    origin = "hodoku"
    distribution = "hodoku-py"
    encoding = "grid"
    Params = HodokuParams
    requires = ("hodoku",)
    extra = "hodoku"
    boxes = (3,)
    description = ("HoDoKu's human techniques (hodoku-py) step by step, brute force last; "
                   "step log in the common technique names, HoDoKu level and score; "
                   "max_seconds checked between steps and enforced inside a step")
    counterpart = "native.human"

    def warmup(self) -> None:
        import hodoku  # noqa: F401 - the import and the solution counter's compilation

        count_solutions(Puzzle(3, (0,) * 81), limit=2)
        hodoku_path(_EASY)  # the finders' first use, outside the timed runs

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        deadline = budget.deadline()
        side = puzzle.side
        given = np.array(puzzle.cells, dtype=np.int64).reshape(side, side)
        solutions = count_solutions(puzzle, limit=2)
        if solutions != 1:
            reason = StopReason.EXHAUSTED if solutions == 0 else StopReason.FINISHED
            why = ("no solution" if solutions == 0 else
                   "several solutions: HoDoKu rates puzzles with one solution only")
            return Outcome(grid=given, stop_reason=str(reason),
                           counters={"steps": 0, "placements": 0, "eliminations": 0},
                           extra={"refused": why, "end": "refused", "rating_level": "incomplete",
                                  "rating_score": 0, "rating_hardest": "", "step_log": []})
        path = hodoku_path(puzzle.to_line().replace(".", "0"), deadline)
        records = [_step_record(s, _is_placement(s)) for s in path.steps]
        level, score, hardest = rating(path.steps, path.solved)
        counters = {"steps": len(records),
                    "placements": sum(len(r["placements"]) for r in records),
                    "eliminations": sum(len(r["eliminations"]) for r in records)}
        counts: dict[str, int] = {}
        for r in records:
            counts[r["technique"]] = counts.get(r["technique"], 0) + 1
        counters.update({f"steps_{k}": v for k, v in sorted(counts.items())})
        grid = np.array([int(ch) for ch in path.grid], dtype=np.int64).reshape(side, side)
        if path.solved:
            reason, end = StopReason.TARGET, "solved"
        elif path.clock:
            reason, end = StopReason.CLOCK, "clock"
        else:
            reason, end = StopReason.FINISHED, "stuck"
        return Outcome(grid=grid, claims_solved=path.solved, iterations=len(records),
                       counters=counters, stop_reason=str(reason),
                       extra={"rating_level": level, "rating_score": score,
                              "rating_hardest": hardest, "end": end, "step_log": records})


def _is_placement(step: Any) -> bool:
    from hodoku.solver.solver import _PLACEMENT_TYPES

    return step.type in _PLACEMENT_TYPES
