import re

import pytest

from sudoku_compare.problems import catalog
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.parsing import parse_file
from sudoku_compare.problems.sets import PuzzleRef, load_set, resolve_puzzle, resolve_puzzles

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


@pytest.mark.parametrize("text,expected", [
    ("easy51", dict(base="easy51")),
    ("easy51:0", dict(base="easy51", index=0)),
    ("easy51:-1", dict(base="easy51", index=-1)),
    ("easy51:0:8", dict(base="easy51", start=0, stop=8, sliced=True)),
    ("easy51::8", dict(base="easy51", start=None, stop=8, sliced=True)),
    ("easy51:3:", dict(base="easy51", start=3, stop=None, sliced=True)),
    ("  top95:2 ", dict(base="top95", index=2)),
    (EASY0, dict(base=EASY0, literal=True)),
])
def test_puzzle_ref_parses_into_a_typed_value(text, expected):
    ref = PuzzleRef.parse(text)
    for key, value in expected.items():
        assert getattr(ref, key) == value, key
    assert str(ref) == text.strip()


@pytest.mark.parametrize("text,reason", [
    ("easy51:--1", "'--1' is not an index"),
    ("easy51:²", "'²' is not an index"),
    ("easy51:1.5", "'1.5' is not an index"),
    ("easy51:", "'' is not an index"),
    ("easy51:0:1:2", "too many"),
    ("easy51:1" + "0" * 30, "out of range"),
    ("   ", "empty puzzle reference"),
    ("no-such:x", "unknown puzzle set"),
])
def test_bad_puzzle_refs_are_input_errors(text, reason):
    with pytest.raises(InputError, match=re.escape(reason)):
        PuzzleRef.parse(text)


def test_file_refs_with_colons_in_the_path(tmp_path):
    d = tmp_path / "run:2026"
    d.mkdir()
    f = d / "set.txt"
    f.write_text(f"{EASY0}\n{EASY0}\n{EASY0}\n")
    assert PuzzleRef.parse(str(f)).base == str(f)
    ref = PuzzleRef.parse(f"{f}:1")
    assert (ref.base, ref.index) == (str(f), 1)
    assert [p.name for p in resolve_puzzles(f"{f}:1:3")] == [f"{f}:1", f"{f}:2"]
    with pytest.raises(InputError, match="out of range"):
        resolve_puzzle(f"{f}:3")
    with pytest.raises(InputError, match="'x' is not an index"):
        resolve_puzzle(f"{f}:x")


def test_resolve_accepts_a_parsed_ref():
    ref = PuzzleRef.parse("generated-easy:4")
    assert resolve_puzzle(ref) == resolve_puzzle("generated-easy:4")


@needs_public
def test_shared_copies_pass_verification():
    for pub in catalog.PUBLIC_SETS.values():
        catalog.verify_public_file(SHARED / pub.filename, pub)
        assert catalog.public_file_problem(SHARED / pub.filename, pub) is None


def test_a_literal_with_a_typo_is_located_and_a_short_file_name_is_not_a_literal():
    from sudoku_compare.problems.errors import PuzzleFormatError

    with pytest.raises(PuzzleFormatError, match=r"<argument>:1:5: unknown character 'z'"):
        resolve_puzzle(EASY0[:4] + "z" + EASY0[5:])
    with pytest.raises(InputError, match="unknown puzzle set 'my_puzzles16.txt'"):
        resolve_puzzle("my_puzzles16.txt")


def test_refs_with_nul_or_huge_names_are_input_errors():
    for text in ["\x00" + EASY0[1:], "a" * 5000, "x\x00y:0", "/" * 300 + ":1:2"]:
        with pytest.raises(InputError):
            resolve_puzzles(text)
