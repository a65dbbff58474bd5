import os
from pathlib import Path

import pytest

#: the public sets: SUDOKU_COMPARE_PUZZLES when set, else ../shared/puzzles beside the checkout
_BESIDE = Path(__file__).resolve().parents[2] / "shared" / "puzzles"
# resolved: the README runs the tests with a relative path (../shared/puzzles), and a test
# that turns it into a file:// URL needs it absolute
SHARED = Path(os.environ.get("SUDOKU_COMPARE_PUZZLES") or _BESIDE).resolve()


@pytest.fixture(autouse=True)
def _puzzle_dir(monkeypatch):
    if "SUDOKU_COMPARE_PUZZLES" not in os.environ and SHARED.is_dir():
        monkeypatch.setenv("SUDOKU_COMPARE_PUZZLES", str(SHARED))


def public_sets_available() -> bool:
    return (SHARED / "Sudoku_Easy51.txt").is_file()


needs_public = pytest.mark.skipif(not public_sets_available(),
                                  reason="public puzzle sets not found (set SUDOKU_COMPARE_PUZZLES)")

#: fixture packages carry their own tests (run by test_entry_point.py in their own session)
collect_ignore_glob = ["fixtures/*"]
