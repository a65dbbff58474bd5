"""The perf command and its exact section: cells measured in a child, verified, capped."""

import math

from sudoku_compare.bench.cli import main
from sudoku_compare.bench.perf import PerfTable, exact, sections
from sudoku_compare.problems.puzzle import Puzzle

EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


def test_sections_include_exact():
    found = sections()
    assert "exact" in found and found["exact"] is exact


def test_measure_verifies_and_times_each_puzzle():
    puzzles = [Puzzle.from_string(EASY), Puzzle(2, (0,) * 16)]
    cell = exact.measure("native.bitmask", "tiny", puzzles, cap=5.0, puzzle_seconds=1.0)
    assert cell.n_run == 2 and cell.solved == [True, True]
    assert all(t > 0 for t in cell.times) and cell.throughput() > 0
    assert not cell.error


def test_measure_reports_a_wrong_or_missing_answer_as_unsolved():
    bad = Puzzle.from_string("12345678." + "........9" + "." * 63)  # no solution
    cell = exact.measure("native.dlx", "bad", [bad], cap=5.0, puzzle_seconds=1.0)
    assert cell.solved == [False]


def test_measure_counts_naive_search_calls():
    cell = exact.measure("native.backtracking", "easy", [Puzzle.from_string(EASY)], cap=5.0,
                         puzzle_seconds=1.0)
    assert cell.calls == 122


def test_measure_caps_a_slow_solver():
    # many copies of an easy puzzle, a cap far below the total: a sample, flagged as such
    puzzles = [Puzzle.from_string(EASY)] * 200
    cell = exact.measure("native.norvig", "many", puzzles, cap=0.05, puzzle_seconds=1.0)
    assert 0 < cell.n_run < 200 and cell.capped


def test_ratio_table_compares_on_common_puzzles():
    a = exact.Cell("native.bitmask", "s", 4, times=[0.001] * 4, solved=[True] * 4)
    b = exact.Cell("ortools.cpsat", "s", 4, times=[0.04] * 2, solved=[True] * 2)
    table = exact._ratio_table([("s", [])], ["native.bitmask", "ortools.cpsat"],
                               {("native.bitmask", "s"): a, ("ortools.cpsat", "s"): b})
    (row,) = table.rows
    assert row[1] == "ortools.cpsat" and row[2] == 2
    assert math.isclose(row[3], 40.0) and "met" in row[5]


def test_table_markdown():
    md = PerfTable("t", ["a", "b"], [[1, 2.5]], ["note"]).to_markdown()
    assert "| 1 | 2.5 |" in md and "- note" in md


def test_unknown_section_is_bad_input(tmp_path, capsys):
    assert main(["perf", "--section", "nosuch", "--out", str(tmp_path / "p.md")]) == 2
    assert "nosuch" in capsys.readouterr().err


def test_one_section_run_keeps_the_other_sections(tmp_path, monkeypatch):
    import types

    import sudoku_compare.bench.perf as perf

    def fake(name, title, value):
        mod = types.SimpleNamespace(SECTION=name, TITLE=title)
        mod.run = lambda quick: [PerfTable(f"{name} table", ["v"], [[value]])]
        return mod

    out = tmp_path / "perf.md"
    monkeypatch.setattr(perf, "sections", lambda: {"a": fake("a", "Section A", 1),
                                                   "b": fake("b", "Section B", 2)})
    assert main(["perf", "--out", str(out)]) == 0
    monkeypatch.setattr(perf, "sections", lambda: {"a": fake("a", "Section A", 7),
                                                   "b": fake("b", "Section B", 8)})
    assert main(["perf", "--section", "b", "--out", str(out)]) == 0
    text = out.read_text()
    assert text.count("## Section A") == 1 and text.count("## Section B") == 1
    assert "| 1 |" in text and "| 8 |" in text and "| 2 |" not in text
    assert text.index("## Section A") < text.index("## Section B")


def test_mini_campaign_counts_verified_solved_runs():
    from sudoku_compare.bench.perf import mini_campaign
    from sudoku_compare.problems.puzzle import Puzzle

    ez = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
    solved, runs, med_t, med_e = mini_campaign("native.backtracking", [Puzzle.from_string(ez)],
                                               range(3), 5.0)
    assert (solved, runs) == (3, 3) and med_t >= 0 and med_e == 0
