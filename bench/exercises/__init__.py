"""Run the experiments that answer the seeds' exercises and write ``reports/exercises.md``.

``python -m sudoku_compare.bench.exercises --out reports/exercises.md [--quick] [--workers 2]
[--db DIR]``: :mod:`.plan` defines and runs the campaigns (this is the harness side, which may
run campaigns); :mod:`sudoku_compare.bench.reporting.exercises` writes the report from their
stored rows.
"""
