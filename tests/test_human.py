"""native.human (each technique on a crafted position, the whole path, stuck and finished
runs), the shared technique vocabulary and rating, and the hodoku.human adapter."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.native import human
from sudoku_compare.native.human import Board, solve_path
from sudoku_compare.problems.checker import changes_a_given, is_solution, violations
from sudoku_compare.problems.parsing import parse_line
from sudoku_compare.problems.puzzle import duplicate_given
from sudoku_compare.problems.sets import load_set
from sudoku_compare.problems.solutions import first_solution
from sudoku_compare.problems.techniques import (
    BY_NAME,
    HODOKU_ALIASES,
    common_name,
    rate,
)
from sudoku_compare.verify import verify
from sudoku_compare.vocabulary import StopReason

from .conftest import needs_public

FULL = (1 << 9) - 1
NO_SOLUTION = "012345678" + "0" * 18 + "9" + "0" * 53


def cell(r: int, c: int) -> int:
    """Cell index of row r, column c (both from 1, as the step log writes them)."""
    return (r - 1) * 9 + (c - 1)


def mask(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def position(**cells: int) -> list[int]:
    """An empty 9x9 grid, every cell with all nine candidates, except ``rXcY=mask`` ones."""
    cand = [FULL] * 81
    for name, m in cells.items():
        r, c = name[1:].split("c")
        cand[cell(int(r), int(c))] = m
    return cand


def without(cand: list[int], digit: int, cells: list[int]) -> list[int]:
    for c in cells:
        cand[c] &= ~mask(digit)
    return cand


def view(cand: list[int], values: list[int] | None = None) -> human.View:
    return Board.from_candidates(3, cand, values).view()


def row(r: int) -> list[int]:
    return [cell(r, c) for c in range(1, 10)]


def col(c: int) -> list[int]:
    return [cell(r, c) for r in range(1, 10)]


# -- each technique makes the elimination it must ------------------------------------------
def test_full_house_from_a_real_row():
    board = Board.from_puzzle(parse_line("12345678" + "0" * 73))
    step = human.full_house(board.view())
    assert step.technique == "full_house" and step.placements == ((cell(1, 9), 9),)


def test_naked_single():
    step = human.naked_single(view(position(r2c3=mask(5))))
    assert step.placements == ((cell(2, 3), 5),)


def test_hidden_single():
    cand = without(position(), 5, [c for c in row(1) if c != cell(1, 4)])
    step = human.hidden_single(view(cand))
    assert step.technique == "hidden_single" and step.placements == ((cell(1, 4), 5),)


def test_locked_candidates_pointing():
    # in box 1, digit 7 only in row 1 (r1c1, r1c2): it leaves the rest of row 1
    cand = without(position(), 7, [cell(1, 3)] + [cell(r, c) for r in (2, 3) for c in (1, 2, 3)])
    step = human.locked_candidates_pointing(view(cand))
    assert step.cells == (cell(1, 1), cell(1, 2))
    assert set(step.eliminations) == {(cell(1, c), 7) for c in range(4, 10)}


def test_locked_candidates_claiming():
    # in row 1, digit 4 only in box 1 (r1c1, r1c2): it leaves the rest of box 1
    cand = without(position(), 4, [cell(1, c) for c in range(3, 10)])
    step = human.locked_candidates_claiming(view(cand))
    assert set(step.eliminations) == {(cell(r, c), 4) for r in (2, 3) for c in (1, 2, 3)}


def test_naked_pair():
    step = human.naked_subset(view(position(r1c1=mask(1, 2), r1c5=mask(1, 2))), 2)
    assert step.technique == "naked_pair" and step.digits == (1, 2)
    others = [c for c in row(1) if c not in (cell(1, 1), cell(1, 5))]
    assert set(step.eliminations) == {(c, d) for c in others for d in (1, 2)}


def test_naked_triple():
    cand = position(r1c1=mask(1, 2), r1c5=mask(2, 3), r1c9=mask(1, 3))
    step = human.naked_subset(view(cand), 3)
    assert step.technique == "naked_triple"
    others = [c for c in row(1) if c not in (cell(1, 1), cell(1, 5), cell(1, 9))]
    assert set(step.eliminations) == {(c, d) for c in others for d in (1, 2, 3)}


def test_naked_quad():
    cand = position(r1c1=mask(1, 2), r1c3=mask(2, 3), r1c5=mask(3, 4), r1c9=mask(1, 4))
    step = human.naked_subset(view(cand), 4)
    assert step.technique == "naked_quad" and step.digits == (1, 2, 3, 4)
    assert len(step.eliminations) == 5 * 4


@pytest.mark.parametrize("digits,cols", [((3, 6), (3, 8)), ((4, 5, 6), (1, 5, 9)),
                                         ((1, 2, 8, 9), (1, 4, 5, 9))])
def test_hidden_subsets(digits, cols):
    cand = position()
    keep = {cell(1, c) for c in cols}
    for d in digits:
        without(cand, d, [c for c in row(1) if c not in keep])
    step = human.hidden_subset(view(cand), len(digits))
    assert step.technique == {2: "hidden_pair", 3: "hidden_triple", 4: "hidden_quad"}[len(digits)]
    others = set(range(1, 10)) - set(digits)
    assert set(step.eliminations) == {(c, d) for c in keep for d in others}


def test_x_wing():
    # digit 1: rows 1 and 5 only in columns 2 and 6 -> columns 2 and 6 lose 1 elsewhere
    cand = position()
    for r in (1, 5):
        without(cand, 1, [cell(r, c) for c in range(1, 10) if c not in (2, 6)])
    step = human.basic_fish(view(cand), 2)
    assert step.technique == "x_wing" and step.digits == (1,)
    assert set(step.eliminations) == {(cell(r, c), 1) for c in (2, 6)
                                      for r in range(1, 10) if r not in (1, 5)}


def test_swordfish_by_columns():
    # digit 2: columns 1, 4, 7 only in rows {1,5}, {5,9}, {1,9}
    cand = position()
    for c, rows in ((1, (1, 5)), (4, (5, 9)), (7, (1, 9))):
        without(cand, 2, [cell(r, c) for r in range(1, 10) if r not in rows])
    step = human.basic_fish(view(cand), 3)
    assert step.technique == "swordfish"
    assert set(step.eliminations) == {(cell(r, c), 2) for r in (1, 5, 9)
                                      for c in range(1, 10) if c not in (1, 4, 7)}


def test_jellyfish():
    cand = position()
    for r, cols in ((1, (1, 3)), (3, (3, 5)), (5, (5, 7)), (7, (7, 1))):
        without(cand, 3, [cell(r, c) for c in range(1, 10) if c not in cols])
    step = human.basic_fish(view(cand), 4)
    assert step.technique == "jellyfish"
    assert set(step.eliminations) == {(cell(r, c), 3) for c in (1, 3, 5, 7)
                                      for r in range(1, 10) if r not in (1, 3, 5, 7)}


def test_skyscraper():
    # digit 4: rows 1 and 5 only in columns {1,5} and {1,6}; the tops r1c5, r5c6 see
    # r2c6, r3c6 (box 2 and column 6) and r4c5, r6c5 (box 5 and column 5)
    cand = position()
    for r, cols in ((1, (1, 5)), (5, (1, 6))):
        without(cand, 4, [cell(r, c) for c in range(1, 10) if c not in cols])
    step = human._turbot(view(cand), "skyscraper")
    assert step.technique == "skyscraper" and step.digits == (4,)
    assert set(step.eliminations) == {(cell(2, 6), 4), (cell(3, 6), 4), (cell(4, 5), 4),
                                      (cell(6, 5), 4)}


def test_two_string_kite():
    # digit 6: row 1 only at r1c2, r1c7; column 1 only at r3c1, r8c1; r1c2 and r3c1 share
    # box 1, so r1c7 or r8c1 holds 6 and r8c7 (which sees both) does not
    cand = position()
    without(cand, 6, [cell(1, c) for c in range(1, 10) if c not in (2, 7)])
    without(cand, 6, [cell(r, 1) for r in range(1, 10) if r not in (3, 8)])
    step = human._turbot(view(cand), "two_string_kite")
    assert step.technique == "two_string_kite"
    assert step.eliminations == ((cell(8, 7), 6),)
    assert human._turbot(view(cand), "skyscraper") is None


def test_w_wing():
    # r1c1 and r5c3 are {1,2} and do not see each other; digit 1 in column 2 only at
    # r2c2 (box 1, sees r1c1) and r5c2 (row 5, sees r5c3): one of the pair holds 2
    cand = position(r1c1=mask(1, 2), r5c3=mask(1, 2))
    without(cand, 1, [cell(r, 2) for r in range(1, 10) if r not in (2, 5)])
    step = human.w_wing(view(cand))
    assert step.technique == "w_wing" and step.digits == (1, 2)
    seen_by_both = {cell(r, 3) for r in (1, 2, 3)} | {cell(r, 1) for r in (4, 5, 6)}
    assert set(step.eliminations) == {(c, 2) for c in seen_by_both}


def test_xy_wing():
    # pivot r1c1 {1,2}, pincers r1c5 {1,3} (row) and r3c1 {2,3} (column and box):
    # 3 leaves the cells that see both pincers
    cand = position(r1c1=mask(1, 2), r1c5=mask(1, 3), r3c1=mask(2, 3))
    step = human.xy_wing(view(cand))
    assert step.cells == (cell(1, 1), cell(1, 5), cell(3, 1))
    assert set(step.eliminations) == {(c, 3) for c in (cell(1, 2), cell(1, 3), cell(3, 4),
                                                       cell(3, 5), cell(3, 6))}


def test_xyz_wing():
    # pivot r1c1 {1,2,3}, pincers r1c2 {1,3} and r2c1 {2,3}: 3 leaves what sees all three
    cand = position(r1c1=mask(1, 2, 3), r1c2=mask(1, 3), r2c1=mask(2, 3))
    step = human.xyz_wing(view(cand))
    assert step.technique == "xyz_wing"
    expected = {cell(r, c) for r in (1, 2, 3) for c in (1, 2, 3)} - {cell(1, 1), cell(1, 2),
                                                                     cell(2, 1)}
    assert set(step.eliminations) == {(c, 3) for c in expected}


def test_no_technique_fires_on_an_open_position():
    assert human.next_step(view(position())) is None


def test_contradictions_are_found():
    with pytest.raises(human.Contradiction):
        view(position(r1c1=0)).check()
    with pytest.raises(human.Contradiction):   # digit 9 has no place in row 1
        view(without(position(), 9, row(1))).check()


# -- whole paths --------------------------------------------------------------------------
@needs_public
def test_easy51_0_is_solved_by_logic_alone():
    puzzle = load_set("easy51")[0]
    out = verify(puzzle, registry.create("native.human").solve(puzzle, Budget(5.0), 0))
    assert out.status == "solved" and is_solution(puzzle, out.grid)
    assert out.stop_reason == StopReason.TARGET and out.counters["search_guesses"] == 0
    log = out.extra["step_log"]
    assert len(log) == out.counters["steps"] == puzzle.n_empty   # singles only: one cell a step
    assert {s["technique"] for s in log} <= {"full_house", "naked_single", "hidden_single"}
    assert out.extra["rating_level"] == "easy"


@needs_public
def test_every_step_on_top95_agrees_with_the_solution():
    """Soundness: no placement or elimination of any step contradicts the unique solution."""
    for puzzle in load_set("top95"):
        path = solve_path(puzzle, "search")
        assert path.solved and is_solution(puzzle, path.grid)
        solution = path.grid
        for step in path.steps:
            assert all(solution[c] == d for c, d in step.placements), step
            assert all(solution[c] != d for c, d in step.eliminations), step


@needs_public
def test_a_stuck_puzzle_is_unsolved_with_a_grid_consistent_with_its_givens():
    puzzle = next(p for p in load_set("top95") if not solve_path(p).solved)
    out = verify(puzzle, registry.create("native.human").solve(puzzle, Budget(5.0), 0))
    assert out.status == "unsolved" and out.stop_reason == StopReason.FINISHED
    grid = np.asarray(out.grid).ravel()
    assert not changes_a_given(puzzle, grid)
    assert duplicate_given(tuple(int(v) for v in grid), 3) is None
    assert {v.kind for v in violations(puzzle, grid)} == {"empty"}
    solution = first_solution(puzzle).ravel()
    assert all(solution[c] == v for c, v in enumerate(grid) if v)
    assert out.extra["rating_level"] == "incomplete"
    assert len(out.extra["stuck_candidates"].split()) == 81
    # the same puzzle finished by search: one logged search step, counted guesses
    done = verify(puzzle, registry.create("native.human-search").solve(puzzle, Budget(5.0), 0))
    assert done.status == "solved" and done.counters["search_guesses"] > 0
    assert done.extra["step_log"][-1]["technique"] == "search"
    assert done.extra["rating_level"] == "extreme"


def test_no_solution_is_a_contradiction():
    out = registry.create("native.human").solve(parse_line(NO_SOLUTION), Budget(5.0), 0)
    assert out.stop_reason == StopReason.EXHAUSTED and "contradiction" in out.extra


def test_small_and_large_boxes():
    small = parse_line("1.3....2.1...32.")
    path = solve_path(small)
    assert path.solved and is_solution(small, path.grid)


def test_deadline_stops_between_steps():
    from sudoku_compare.budget import Deadline

    path = solve_path(parse_line("0" * 81), "search", Deadline(0.0))
    assert path.end == "clock" and not path.steps


# -- vocabulary and rating ----------------------------------------------------------------
def test_every_native_technique_is_in_the_vocabulary():
    assert {name for name, _ in human.TECHNIQUES} | {"search"} == set(BY_NAME)


def test_hodoku_names_map_to_common_names():
    assert common_name("X_WING") == "x_wing"
    assert common_name("LOCKED_CANDIDATES_1") == "locked_candidates_pointing"
    assert set(HODOKU_ALIASES.values()) <= set(BY_NAME)


def test_rating_follows_hodokus_rule():
    assert rate(["naked_single"] * 10, True).level == "easy"
    r = rate(["hidden_single"] * 40 + ["x_wing"], True)
    assert (r.level, r.score, r.hardest, r.steps) == ("hard", 40 * 14 + 140, "x_wing", 41)
    # 60 hidden singles (840 points) exceed easy's 800: the level is raised to medium
    assert rate(["hidden_single"] * 60, True).level == "medium"
    assert rate(["naked_single"], False).level == "incomplete"


# -- hodoku.human -------------------------------------------------------------------------
def _hodoku():
    return pytest.importorskip("hodoku", reason="hodoku.human needs hodoku-py (pip install "
                               '"sudoku-compare[hodoku]")')


def test_every_native_technique_has_a_hodoku_counterpart():
    hodoku = _hodoku()
    names = {common_name(t.name) for t in hodoku.SolutionType}
    assert set(BY_NAME) <= names


@needs_public
def test_hodoku_loop_is_the_librarys_own():
    """The adapter's clocked loop takes HoDoKu's steps and gets its level and score."""
    hodoku = _hodoku()
    from sudoku_compare.adapters.hodoku_human import hodoku_path, rating

    lib = hodoku.Solver()
    for puzzle in load_set("easy51")[:3] + load_set("top95")[:3]:
        line = puzzle.to_line().replace(".", "0")
        mine, theirs = hodoku_path(line), lib.solve(line)
        assert [s.type for s in mine.steps] == [s.type for s in theirs.steps]
        assert rating(mine.steps, mine.solved)[:2] == (theirs.level.name.lower(), theirs.score)
        assert mine.grid == theirs.solution


@needs_public
def test_hodoku_record_matches_native_record():
    _hodoku()
    puzzle = load_set("easy51")[0]
    budget = Budget(10.0)
    theirs = verify(puzzle, registry.create("hodoku.human").solve(puzzle, budget, 0))
    ours = verify(puzzle, registry.create("native.human").solve(puzzle, budget, 0))
    assert theirs.status == ours.status == "solved"
    assert set(theirs.extra["step_log"][0]) >= set(ours.extra["step_log"][0])
    assert theirs.counters["steps"] == len(theirs.extra["step_log"])
    assert theirs.extra["rating_level"] in ("easy", "medium")
    techniques = {k for k in theirs.counters if k.startswith("steps_")}
    assert techniques <= {f"steps_{n}" for n in BY_NAME} | {"steps_" + common_name(t.name)
                                                           for t in _hodoku().SolutionType}


@needs_public
def test_hodoku_honours_max_seconds_inside_a_step():
    _hodoku()
    import time

    # top95:6 takes HoDoKu several seconds (forcing nets); stop it after 0.3 s
    puzzle = load_set("top95")[6]
    solver = registry.create("hodoku.human")
    solver.warmup()
    start = time.perf_counter()
    out = verify(puzzle, solver.solve(puzzle, Budget(0.3), 0))
    elapsed = time.perf_counter() - start
    assert out.stop_reason == StopReason.CLOCK and out.status == "unsolved"
    assert elapsed < 0.3 + 0.5, elapsed
    grid = np.asarray(out.grid).ravel()
    solution = first_solution(puzzle).ravel()
    assert all(solution[c] == v for c, v in enumerate(grid) if v)


def test_hodoku_refuses_puzzles_without_one_solution():
    _hodoku()
    from sudoku_compare.checks import SEVERAL

    solver = registry.create("hodoku.human")
    none = solver.solve(parse_line(NO_SOLUTION), Budget(5.0), 0)
    several = verify(parse_line(SEVERAL), solver.solve(parse_line(SEVERAL), Budget(5.0), 0))
    assert none.stop_reason == StopReason.EXHAUSTED
    assert several.status == "unsolved" and "several" in several.extra["refused"]


def test_call_with_deadline_interrupts_and_never_fires_late():
    import time

    from sudoku_compare.adapters.hodoku_human import _Interrupted, call_with_deadline

    def spin() -> None:
        while True:
            pass

    start = time.perf_counter()
    with pytest.raises(_Interrupted):
        call_with_deadline(spin, 0.05)
    assert time.perf_counter() - start < 1.0
    for _ in range(50):   # quick calls: the timer is cancelled, nothing is raised later
        assert call_with_deadline(lambda: 7, 0.01) == 7
    time.sleep(0.05)


# -- the command line ---------------------------------------------------------------------
@needs_public
def test_solve_json_prints_the_technique_log(capsys):
    import json

    from sudoku_compare.bench.cli import main

    assert main(["solve", "native.human", "easy51:0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "solved"
    log = out["extra"]["step_log"]
    assert len(log) == out["counters"]["steps"] and log[0]["placements"]
    assert main(["solve", "native.human", "easy51:0"]) == 0
    text = capsys.readouterr().out
    assert "rating: easy" in text and f"  {log[0]['technique']}: {log[0]['placements'][0]}" in text


@needs_public
@pytest.mark.parametrize("which", ["native", "hodoku"])
def test_puzzles_show_rate_human(capsys, which):
    if which == "hodoku":
        _hodoku()
    from sudoku_compare.bench.cli import main

    assert main(["puzzles", "show", "easy51:0", "--rate", which]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert f"{which}.human: easy (score" in header


# -- the report ---------------------------------------------------------------------------
def _run(solver: str, index: int, status: str, techniques: list[str], level: str,
         hardest: str) -> dict:
    return {"solver": solver, "puzzle_set": "toy", "puzzle_index": index, "status": status,
            "stop_reason": "target" if status == "solved" else "finished", "elapsed_s": 0.01,
            "versions": {}, "extra": {"step_log": [{"technique": t} for t in techniques],
                                      "rating_level": level, "rating_hardest": hardest,
                                      "end": "solved" if status == "solved" else "stuck"}}


def test_human_report_counts_logic_steps_and_agreement():
    from sudoku_compare.bench.reporting.human import human_report

    runs = [_run("native.human", 0, "solved", ["naked_single", "x_wing"], "hard", "x_wing"),
            _run("hodoku.human", 0, "solved", ["naked_single", "x_wing"], "hard", "x_wing"),
            _run("native.human", 1, "unsolved", ["hidden_single"], "incomplete", ""),
            _run("hodoku.human", 1, "solved", ["hidden_single", "search"], "extreme", "search"),
            _run("native.human", 2, "solved", ["naked_single"], "easy", "naked_single"),
            _run("hodoku.human", 2, "solved", ["naked_single"], "medium", "naked_single")]
    text = human_report(runs, commands=["make it"])
    assert "| native.human | 2/3 (67 %) | 2/3 (67 %) | 1 | 0 |" in text
    assert "| hodoku.human | 3/3 (100 %) | 2/3 (67 %) | 0 | 0 |" in text
    assert "| x_wing | 1 (1) | 1 (1) |" in text and "| search | - | 1 (1) |" in text
    assert "levels agree on 1/2 (50 %)" in text and "hardest technique on 2/2 (100 %)" in text
    assert "| easy | 1 |  |  |" in text and "| incomplete |  |  | 1 |" in text


def test_list_json_reports_the_hodoku_version(capsys):
    hodoku = _hodoku()
    import importlib.metadata
    import json

    from sudoku_compare.bench.cli import main

    assert main(["list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    rows = listed if isinstance(listed, list) else listed["solvers"]
    row = next(r for r in rows if r["name"] == "hodoku.human")
    assert row["version"] == importlib.metadata.version("hodoku-py") and hodoku
    assert row["counterpart"] == "native.human" and row["family"] == "human"
