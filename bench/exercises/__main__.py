"""``python -m sudoku_compare.bench.exercises``: regenerate the exercises report."""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

from sudoku_compare.problems.errors import InputError

#: the sets whose solutions are counted (top1465 too in the full form)
COUNT_SETS_QUICK = ("easy51", "hardest", "generated-easy")
COUNT_SETS_FULL = ("easy51", "hardest", "top95", "top1465", "generated-easy",
                   "generated-medium", "generated-hard", "generated-16x16")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sudoku_compare.bench.exercises",
                                 description=__doc__)
    ap.add_argument("--out", default="reports/exercises.md", help="markdown file to write")
    ap.add_argument("--quick", action="store_true", help="CI sizes (under a minute)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--db", default=None,
                    help="directory for the SQLite store (kept, so a rerun resumes); "
                         "default: a temporary directory")
    ap.add_argument("--progress", action="store_true", help="progress bar")
    args = ap.parse_args(argv)
    if args.workers < 1:
        print(f"exercises: --workers {args.workers}: must be at least 1", file=sys.stderr)
        return 2
    from sudoku_compare.bench.exercises.plan import experiments, run
    from sudoku_compare.bench.reporting.exercises import write_report

    command = "python -m sudoku_compare.bench.exercises --out " + shlex.quote(args.out) + (
        " --quick" if args.quick else "") + f" --workers {args.workers}"
    start = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="exercises-") as tmp:
            folder = Path(args.db) if args.db else Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            db = folder / ("exercises-quick.sqlite" if args.quick else "exercises.sqlite")
            results = run(experiments(args.quick), db, args.workers, args.progress)
            write_report(results, Path(args.out), command,
                         COUNT_SETS_QUICK if args.quick else COUNT_SETS_FULL,
                         time.perf_counter() - start, args.workers, args.quick)
    except InputError as exc:
        print(f"exercises: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
