"""The exercises report in its ``--quick`` form: every section present, answers generated.

The quick form is a smoke test of the whole pipeline (plan, campaigns, sections, figures);
its numbers are not findings, so the assertions check structure and the facts that do not
depend on the budget: the seed's printed backtracking counts, the witness's energies, the
cell's initial domain.
"""

from __future__ import annotations

import pytest

from sudoku_compare.bench.exercises.__main__ import main

from .conftest import needs_public

SECTIONS = ("Cooling schedules", "Adaptive against fixed reheating", "Swarm size",
            "PSO convergence", "PSO parameter grid search", "Hybrid (local search)",
            "Backtracking against MRV", "Solution counts", "Partial-grid energy",
            "Forward-checking trace", "A cell's initial domain")


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exercises")
    out = folder / "exercises.md"
    assert main(["--quick", "--out", str(out), "--workers", "2", "--db", str(folder)]) == 0
    return out


@needs_public
def test_quick_report_has_every_exercise_with_an_answer(quick_report):
    text = quick_report.read_text()
    assert text.startswith("# The seeds' exercises")
    assert "Regenerate with: `python -m sudoku_compare.bench.exercises" in text
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert len(headings) == len(SECTIONS)
    for heading, name in zip(headings, SECTIONS, strict=True):
        assert name in heading
    assert text.count("**Answer.**") == len(SECTIONS)
    assert (quick_report.parent / "exercises_figures" / "swarm_size.svg").is_file()


@needs_public
def test_quick_report_facts_that_do_not_depend_on_the_budget(quick_report):
    text = quick_report.read_text()
    # the seed's printed search-call counts of simple backtracking, measured again
    assert "| top95:0 | 12,625,368 | 12,625,368 | yes |" in text
    # the seed's initialised grid has the printed energy 31, and the shared energy agrees
    assert "| seed's initialised grid (full, printed energy 31) | 0 | 0 | 0 | 18 | 13 | 31 | 31 | yes |" in text
    assert "| (0, 1) | 9 2 5 4 3 | 2 5 9 4 8 | 9 2 1 5 8 | {6, 7} | [6, 7] | [6, 7] |" in text


def test_bad_workers_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--quick", "--out", str(tmp_path / "x.md"), "--workers", "zero"])
    assert exc.value.code == 2


def test_zero_workers_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["--quick", "--out", str(tmp_path / "x.md"), "--workers", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--workers 0" in err and "\n" not in err and not (tmp_path / "x.md").exists()
