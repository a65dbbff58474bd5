"""``sudoku-compare compare [FAMILY ...]``: the main job, native against library, one report.

With no arguments: every family on the shipped generated set with small per-family
defaults (under two minutes on 2 cores), writing ``reports/compare.md`` and its figures.
"""

from __future__ import annotations

import argparse
import sys

from sudoku_compare.bench.compare import compare, compare_command
from sudoku_compare.problems.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="run native solvers against their libraries and report",
                       description="Run each family's native solvers against the available "
                       "library solvers of the family on the same puzzles, seeds and budget, "
                       "then write a markdown report with figures.")
    p.add_argument("families", nargs="*", metavar="FAMILY",
                   help="families or groups (backtracking, csp, exact, annealing, genetic, "
                   "swarm); default: all")
    p.add_argument("--puzzles", help="SET, SET:START:STOP or a file; several comma-separated "
                   "(default: the shipped generated-easy set, a per-family slice of it)")
    p.add_argument("--seeds", type=int, help="seeds per puzzle (default: per family)")
    p.add_argument("--max-seconds", type=float, help="time budget per run (default: per family)")
    p.add_argument("--out", default="reports/compare.md", help="markdown report to write")
    p.add_argument("--db", help="campaign database (default: a temporary file); an existing "
                   "one resumes, skipping finished runs")
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--campaign-seed", type=int, default=0, help="seed the run seeds derive from")
    p.add_argument("--title", help="the report's heading")
    p.add_argument("--quiet", action="store_true", help="no plan or progress output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.seeds is not None and args.seeds < 1:
        raise InputError("--seeds must be at least 1")
    if args.max_seconds is not None and not args.max_seconds > 0:
        raise InputError("--max-seconds must be positive")
    if args.workers < 1:
        raise InputError("--workers must be at least 1")
    command = compare_command(args.families, args.puzzles, args.seeds, args.max_seconds,
                              args.out, args.db, args.workers, args.title)
    if args.campaign_seed:
        command += f" --campaign-seed {args.campaign_seed}"
    summary = compare(args.families or None, args.puzzles, args.seeds, args.max_seconds,
                      out=args.out, db=args.db, workers=args.workers, progress=not args.quiet,
                      command=command, title=args.title, campaign_seed=args.campaign_seed)
    print(f"wrote {args.out} ({len(summary.figures)} figures, {summary.metadata.runs} runs)",
          file=sys.stderr)
    return 0
