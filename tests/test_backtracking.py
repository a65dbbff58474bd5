import pytest

from sudoku_compare.bench.api import solve
from sudoku_compare.bench.budget import Budget
from sudoku_compare.bench.outcome import Status

from .conftest import needs_public


@needs_public
@pytest.mark.parametrize("ref", ["easy51:0", "easy51:1", "hardest:0", "top95:0"])
def test_naive_backtracking_solves_and_is_verified(ref):
    outcome, _ = solve("native.backtracking", ref, Budget(60))
    assert outcome.status is Status.SOLVED
    assert outcome.counters["search_calls"] > 0


def test_literal_puzzle():
    ez = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
    outcome, _ = solve("native.backtracking", ez)
    assert outcome.status is Status.SOLVED
