from pathlib import Path

import numpy as np
import pytest

from sudoku_compare.bench.cli import main
from sudoku_compare.problems.catalog import shipped_sets
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.formatting import format_line
from sudoku_compare.problems.generator import generate_puzzle, generate_set
from sudoku_compare.problems.rating import band_of, rate
from sudoku_compare.problems.sets import load_set
from sudoku_compare.problems.solutions import count_solutions, first_solution

SHIPPED = Path(__file__).resolve().parents[1] / "puzzles"


def _second_count(puzzle):
    """Pure-python propagation search (the rating's), independent of the numba kernel."""
    return rate(puzzle).solutions


def test_hundred_generated_puzzles_have_exactly_one_solution():
    rng = np.random.default_rng(12345)
    puzzles = [generate_puzzle(3, rng) for _ in range(100)]
    try:
        from sudoku_compare.native.backtracking_mrv import count_solutions as native_count
    except ImportError:  # pragma: no cover
        native_count = None
    for p in puzzles:
        assert count_solutions(p, limit=2) == 1
        assert _second_count(p) == 1
        if native_count is not None:
            assert native_count(p, limit=2) == 1
        assert is_solution(p, first_solution(p).reshape(9, 9))
    # minimal: every single given removed opens a second solution
    for p in puzzles[:5]:
        for i, v in enumerate(p.cells):
            if v:
                cells = list(p.cells)
                cells[i] = 0
                assert count_solutions(type(p)(3, tuple(cells))) == 2


def test_same_seed_same_puzzles_other_seed_other_puzzles():
    a = [format_line(p.cells, 3) for p, _ in generate_set(3, 3, seed=7)]
    b = [format_line(p.cells, 3) for p, _ in generate_set(3, 3, seed=7)]
    c = [format_line(p.cells, 3) for p, _ in generate_set(3, 3, seed=8)]
    assert a == b and a != c


@pytest.mark.parametrize("box,clues", [(2, None), (2, 6), (3, 30), (4, 140)])
def test_clue_target_and_uniqueness(box, clues):
    p = generate_puzzle(box, np.random.default_rng(1), clues)
    assert count_solutions(p) == 1
    if clues is not None:
        assert p.n_givens >= clues
        if box == 4:
            assert p.n_givens == clues


def test_band_filter_keeps_only_that_band():
    for p, r in generate_set(3, 3, seed=3, band="medium"):
        assert r.band == "medium" == band_of(rate(p).guesses)


def test_shipped_sets_are_found_by_name():
    names = set(shipped_sets())
    assert {"generated-easy", "generated-medium", "generated-hard", "generated-16x16",
            "generated-25x25"} <= names
    assert load_set("generated-25x25")[0].box == 5
    assert len(load_set("generated-hard")) == 50
    assert load_set("generated-16x16")[0].box == 4


def test_regenerate_easy_byte_for_byte(tmp_path):
    shipped = SHIPPED / "generated-easy.txt"
    header = shipped.read_text().splitlines()[1]
    argv = header.split("# command: sudoku-compare ")[1].split()
    out = tmp_path / "generated-easy.txt"
    argv[argv.index("--out") + 1] = str(out)
    assert main(argv) == 0
    assert out.read_bytes() == shipped.read_bytes()


# A prefix only for these: a band's stream is the same whatever --count, so the first K
# puzzles regenerate alone (the whole of each takes 10-20 s on a loaded 2-core machine).
@pytest.mark.parametrize("name,box,band,clues,k", [
    ("generated-medium", 3, "medium", None, 10),
    ("generated-hard", 3, "hard", None, 6),
    ("generated-16x16", 4, None, 120, 4),
    ("generated-25x25", 5, None, 400, 3),
])
def test_regenerate_prefix_of_shipped_set(name, box, band, clues, k):
    lines = (SHIPPED / f"{name}.txt").read_text().splitlines()
    header = lines[1]
    assert "--seed 2026" in header and f"--box {box}" in header
    puzzles = [ln for ln in lines if not ln.startswith("#")]
    again = [format_line(p.cells, box) for p, _ in generate_set(box, k, 2026, clues, band)]
    assert again == puzzles[:k]
