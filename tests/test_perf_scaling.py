"""The ``scaling`` perf section: its table, its growth fit, refused sizes, the 25x25 set."""

import math

import pytest

from sudoku_compare import registry
from sudoku_compare.bench.perf import scaling, sections
from sudoku_compare.budget import Budget
from sudoku_compare.problems.catalog import shipped_sets
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle, duplicate_given
from sudoku_compare.problems.sets import load_set
from sudoku_compare.problems.solutions import count_solutions

EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TINY = scaling.Settings(puzzles=1, puzzle_seconds=1.0, cell_seconds=1.0)
needs_25x25 = pytest.mark.skipif("generated-25x25" not in shipped_sets(),
                                 reason="puzzles/generated-25x25.txt is not shipped")


def test_section_is_found():
    assert sections()["scaling"] is scaling


@pytest.mark.slow
def test_quick_run_has_a_row_per_solver_and_a_column_per_size(monkeypatch, tmp_path):
    figure = tmp_path / "scaling.svg"
    monkeypatch.setattr(scaling, "FIGURE", figure)
    (table,) = scaling.run(quick=True)
    names, _ = scaling._solvers()
    assert [row[0] for row in table.rows] == names
    assert {"native.bitmask", "native.dlx", "native.tabu"} <= set(names)
    for box in scaling.BOXES:
        assert f"{box * box}x{box * box}" in table.columns
    assert "growth exponent" in table.columns
    assert all(len(row) == len(table.columns) for row in table.rows)
    bitmask = table.rows[names.index("native.bitmask")]
    assert bitmask[table.columns.index("4x4")].endswith("(1/1)")
    assert not figure.exists()  # a quick run never writes the figure


def test_growth_exponent_of_a_power_law_is_its_power():
    points = [(scaling.cells_of(b), 3e-6 * scaling.cells_of(b) ** 2) for b in scaling.BOXES]
    assert scaling.growth_exponent(points) == pytest.approx(2.0, abs=1e-12)
    assert scaling.growth_exponent(points[:2]) == pytest.approx(2.0, abs=1e-12)
    assert scaling.growth_exponent(points[:1]) is None


def test_fit_uses_only_sizes_solved_at_least_half_the_time():
    def cell(box, t, solved):
        return scaling.Cell("x", box, len(solved), [t] * len(solved), solved)

    cells = [cell(2, 1e-4, [True]), cell(3, 1e-4 * (81 / 16) ** 1.5, [True, False]),
             cell(4, 1.0, [True, False, False]), scaling.Cell("x", 5, skipped="no set")]
    k, used = scaling.fit(cells)
    assert used == 2 and k == pytest.approx(1.5)
    assert scaling.cell_text(cells[2]) == "1 s (1/3)"
    assert scaling.cell_text(scaling.Cell("x", 3, 5, [0.5, 0.5], [False, False])) == \
        "unsolved (0/2 of 5)"


def test_a_size_the_solver_does_not_declare_is_refused(monkeypatch):
    monkeypatch.setattr(registry.get("native.bitmask").cls, "boxes", (3, 4, 5))
    sets = {2: [Puzzle(2, (0,) * 16)], 3: [Puzzle.from_string(EASY)]}
    cells = scaling.sweep("native.bitmask", sets, TINY)
    assert [scaling.cell_text(c) for c in cells[:1]] == ["refused"]
    assert cells[0].n_run == 0
    assert cells[1].solved == [True]
    assert [c.skipped for c in cells[2:]] == ["no set", "no set"]


def test_a_size_solved_by_none_is_unsolved_and_stops_the_sweep():
    bad = Puzzle.from_string("12345678." + "........9" + "." * 63)  # no solution
    sets = {2: [Puzzle(2, (0,) * 16)], 3: [bad], 4: load_set("generated-16x16", 1)}
    cells = scaling.sweep("native.dlx", sets, TINY)
    assert scaling.cell_text(cells[1]) == "unsolved (0/1)"
    assert cells[2].skipped.startswith("not run") and cells[2].n_run == 0


@needs_25x25
def test_25x25_set_is_valid_unique_and_solved_by_bitmask():
    puzzles = load_set("generated-25x25")
    assert puzzles and all(p.box == 5 and p.side == 25 for p in puzzles)
    for p in puzzles:
        assert duplicate_given(p.cells, p.box) is None
        assert count_solutions(p) == 1
    first = puzzles[0]
    out = registry.create("native.bitmask").solve(first, Budget(max_seconds=30.0), 0)
    assert out.claims_solved and is_solution(first, out.grid)


def test_cells_are_box_to_the_fourth():
    assert [scaling.cells_of(b) for b in scaling.BOXES] == [16, 81, 256, 625]
    assert math.isnan(scaling.Cell("x", 2).median_s)
