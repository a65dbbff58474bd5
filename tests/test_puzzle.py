import numpy as np
import pytest

from sudoku_compare.problems.parsing import parse_line
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import box_for_cells, topology

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_units_and_peers(box):
    t = topology(box)
    side = box * box
    assert t.units.shape == (3 * side, side)
    assert t.n_peers == 3 * side - 2 * box - 1
    # every unit holds each cell once; each cell is in exactly 3 units
    counts = np.bincount(t.units.ravel(), minlength=side * side)
    assert (counts == 3).all()
    for c in (0, side * side - 1, side + 1):
        peers = set(int(p) for p in t.peers[c])
        assert c not in peers
        brute = {d for d in range(side * side) if d != c and (
            d // side == c // side or d % side == c % side or t.box_of[d] == t.box_of[c])}
        assert peers == brute
    assert box_for_cells(side ** 2) == box


def test_nine_by_nine_has_twenty_peers():
    assert topology(3).n_peers == 20


def test_candidates_are_the_digits_no_peer_holds():
    p = parse_line(EASY0)
    # cell 1 (row 0, col 1): row has 9 2 5 4 3, column 2 5 9 4 8, box 9 2 1 5 8
    assert p.candidates(1) == [6, 7]
    grid = p.grid()
    grid[0, 1] = 6
    assert 6 not in p.candidates(2, grid)


def test_puzzle_is_immutable_and_grids_are_fresh():
    p = parse_line(EASY0)
    g = p.grid()
    g[0, 0] = 0
    assert p.grid()[0, 0] == 9
    with pytest.raises(AttributeError):
        p.box = 4
    assert Puzzle.from_grid(p.grid()) == p
    assert p.n_givens + p.n_empty == 81 and p.n_empty == 36


def test_from_symbols_locates_each_error():
    from sudoku_compare.problems.errors import PuzzleFormatError

    tokens = list(EASY0)
    where = [(1 + i // 9, 1 + 2 * (i % 9)) for i in range(81)]  # a spaced grid, one row a line
    assert Puzzle.from_symbols(tokens, where, "g") == parse_line(EASY0)
    bad = tokens.copy()
    bad[40] = "G"
    with pytest.raises(PuzzleFormatError, match=r"^g:5:9: unknown character 'G' for a 9x9 grid"):
        Puzzle.from_symbols(bad, where, "g")
    with pytest.raises(PuzzleFormatError, match=r"^g:1:1: a puzzle has 16, 81, 256 or 625 cells"):
        Puzzle.from_symbols(tokens[:80], where[:80], "g")
    twice = tokens.copy()
    twice[9] = "9"  # column 1 already has the 9 of cell 1, and so has box 1
    with pytest.raises(PuzzleFormatError, match=r"^g:2:1: digit 9 given twice in column 1 \(cells 1 and 10\)"):
        Puzzle.from_symbols(twice, where, "g")


def test_number_tokens_and_from_string_locations():
    from sudoku_compare.problems.errors import PuzzleFormatError
    from sudoku_compare.problems.puzzle import cell_value

    assert cell_value("16", 16) == 16 and cell_value("17", 16) is None and cell_value("0", 9) == 0
    assert cell_value("²", 9) is None and cell_value("١", 9) is None  # not ASCII digits
    with pytest.raises(PuzzleFormatError, match=r"^f\.txt:7:3: unknown character 'z'"):
        Puzzle.from_string("  z" + EASY0[1:] + "  3.2 rating", source="f.txt", line=7)
    assert Puzzle.from_string(EASY0 + "  3.2 rating") == parse_line(EASY0)


def test_puzzle_does_not_import_parsing():
    """parsing builds on puzzle; the model must not reach back (no import cycle)."""
    import ast
    from pathlib import Path

    import sudoku_compare.problems.puzzle as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert not any(name and name.split(".")[-1] == "parsing" for name in imported), imported
