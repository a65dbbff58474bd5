import pytest

from sudoku_compare.problems import catalog
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.parsing import parse_file
from sudoku_compare.problems.sets import load_set, resolve_puzzle, resolve_puzzles

from .conftest import SHARED, needs_public

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


@needs_public
@pytest.mark.parametrize("name", sorted(catalog.PUBLIC_SETS))
def test_every_public_puzzle_parses(name):
    pub = catalog.PUBLIC_SETS[name]
    puzzles = parse_file(SHARED / pub.filename)
    assert len(puzzles) == pub.count
    assert all(p.box == 3 and p.n_givens >= 17 for p in puzzles)


@needs_public
def test_references():
    assert resolve_puzzle("easy51:0").to_line().replace(".", "0") == EASY0
    assert len(resolve_puzzles("top95:10:20")) == 10
    assert resolve_puzzle("top95:-1").name == "top95:94"
    assert resolve_puzzle(EASY0).n_empty == 36
    with pytest.raises(InputError, match="out of range"):
        resolve_puzzles("hardest:11")


def test_shipped_sets_resolve_by_name():
    for name, n in [("generated-easy", 50), ("generated-medium", 50), ("generated-hard", 50),
                    ("generated-16x16", 15)]:
        assert name in catalog.shipped_sets()
        assert catalog.where_found(name) == "shipped"
        assert len(load_set(name)) == n
    assert resolve_puzzle("generated-16x16:0").side == 16


def test_catalog_entries_are_consistent():
    for name, pub in catalog.PUBLIC_SETS.items():
        assert pub.name == name
        assert pub.url.startswith(("http://", "https://")) and pub.url.split("/")[-1]
        assert len(pub.sha256) == 64
