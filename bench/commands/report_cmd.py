"""``sudoku-compare report --db FILE --out FILE.md [--json [FILE]] [--csv DIR]``.

The report reads each run's latest attempt; when runs were retried (``run --retry``) it
says how many on stderr, and ``--csv`` carries each run's ``attempt`` column.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from .outputs import checked_dir, checked_file, writing


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="write a markdown report (with SVG figures) of a campaign",
                       description="Summarise a campaign database: per family and puzzle set, "
                       "success with Wilson intervals, time and evaluations to solution, ERT, "
                       "PAR-2, native-vs-library tests with A12 and Holm, the seed's view, figures.")
    p.add_argument("--db", required=True, help="campaign database (SQLite) written by `run`")
    p.add_argument("--out", help="markdown file to write; figures go to <stem>_figures/ beside it")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="also write the summary as JSON (to FILE, or stdout without FILE)")
    p.add_argument("--csv", metavar="DIR", help="also write runs.csv and summary.csv into DIR")
    p.add_argument("--title", default="sudoku-compare report", help="the report's heading")
    p.set_defaults(func=run)


def command_line(args: argparse.Namespace) -> str:
    parts = ["sudoku-compare", "report", "--db", str(args.db)]
    if args.out:
        parts += ["--out", str(args.out)]
    return shlex.join(parts)


def run(args: argparse.Namespace) -> int:
    # imported here, not at module level: the statistics pull in scipy (about 0.7 s), which
    # every other command (and a bad input refused at once) should not wait for
    from sudoku_compare.bench.reporting import markdown
    from sudoku_compare.bench.reporting.report import build_summary, to_json, write_report

    if not args.out and not args.json and not args.csv:
        # nothing to write to: print the markdown (without figures) to stdout
        summary = build_summary(args.db, None, report_command=command_line(args))
        sys.stdout.write(markdown.render(summary, title=args.title))
        _say_retries(args.db)
        return 0
    json_file = None if args.json in (None, "-") else args.json
    checked_file(args.out, "--out")
    checked_file(json_file, "--json")
    checked_dir(args.csv, "--csv")
    with writing("--out/--json/--csv"):
        if args.out:
            summary = write_report(args.db, args.out, report_command=command_line(args),
                                   title=args.title, json_path=json_file, csv_dir=args.csv)
            print(f"wrote {args.out} ({len(summary.figures)} figures in "
                  f"{Path(args.out).stem}_figures/)", file=sys.stderr)
        else:
            summary = build_summary(args.db, None, report_command=command_line(args))
            if json_file:
                Path(json_file).write_text(to_json(summary), encoding="utf-8")
            if args.csv:
                from sudoku_compare.bench.reporting.report import write_csv

                write_csv(args.db, summary, args.csv)
    if args.json == "-":
        sys.stdout.write(to_json(summary))
    _say_retries(args.db)
    return 0


def _say_retries(db: str) -> None:
    """One line on stderr when some runs were stored more than once (``run --retry``)."""
    from sudoku_compare.bench.store import Store

    with Store(db, readonly=True) as store:
        n, most = store.retried()
    if n:
        runs = "1 run was" if n == 1 else f"{n} runs were"
        print(f"sudoku-compare: {runs} retried ({most} attempts at most); the tables use the "
              f"latest attempt of each, earlier ones are kept in the store's run_attempts",
              file=sys.stderr)
