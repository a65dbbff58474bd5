"""The probabilistic report: its figures come from the runs it reads, bad input exits 2."""

from __future__ import annotations

from sudoku_compare.bench.cli import main as cli
from sudoku_compare.bench.reporting.probabilistic import main


def test_report_counts_inference_runs(tmp_path, capsys):
    db, out = tmp_path / "bp.db", tmp_path / "p.md"
    assert cli(["run", "--solvers", "native.bp,native.bp-search", "--puzzles",
                "generated-easy:0:3", "--seeds", "2", "--max-seconds", "10", "--workers", "1",
                "--db", str(db)]) == 0
    assert main(["--db", str(db), "--out", str(out)]) == 0
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| generated-easy |")]
    assert len(rows) == 2
    # generated-easy is solved by the singles alone: every run by inference, none by search
    assert "| native.bp | 6/6 (100 %" in rows[0]
    assert rows[0].split("|")[4].strip().startswith("6/6") and rows[0].split("|")[10].strip() == "0"
    assert "native.bp solved every run by inference alone on generated-easy." in text


def test_missing_database_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "p.md")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "none.db" in err and not (tmp_path / "p.md").exists()
