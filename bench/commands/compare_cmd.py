"""``sudoku-compare compare [FAMILY ...]``: the main job, each native raced against its library.

With no arguments: every comparison group on the shipped generated sets, raced in rounds
within a time box (60 s of campaigns by default, under two minutes in all on 2 cores),
writing ``reports/compare.md`` (verdicts first) and its figures; the verdict lines end
the terminal output.
"""

from __future__ import annotations

import argparse
import math
import sys

from sudoku_compare.problems.errors import InputError

from .outputs import checked_file

#: bench.compare's default, repeated here so that building the CLI does not import it
DEFAULT_TIME_BOX = 90.0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="race native solvers against their libraries and report",
                       description="Race each library adapter against its native counterpart "
                       "(and the native improvements against the library) on the same puzzles, "
                       "seeds and budgets, at equal time and at equal work, in rounds until each "
                       "pair has a verdict or the time box ends; then write a markdown report.")
    p.add_argument("families", nargs="*", metavar="FAMILY",
                   help="families or groups (exact, backtracking, csp, annealing, genetic, "
                   "swarm, ...); default: all")
    p.add_argument("--puzzles", help="SET, SET:START:STOP or a file; several comma-separated "
                   "(default: the shipped generated sets)")
    p.add_argument("--seeds", type=int, help="seeds per puzzle (default 1: the tests pair puzzles)")
    p.add_argument("--max-seconds", type=float,
                   help=f"equal-time budget per run (default {1.0:g} s)")
    p.add_argument("--max-evals", type=int, help="equal-work budget per run (default: sized from "
                   "the libraries' schedules and the time box)")
    p.add_argument("--time-box", type=float, default=DEFAULT_TIME_BOX,
                   help=f"seconds of campaigns in all (default {DEFAULT_TIME_BOX:g})")
    p.add_argument("--all-pairs", action="store_true",
                   help="also race every other native of a group against its libraries")
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
        raise InputError(f"--seeds {args.seeds}: must be at least 1")
    if args.max_seconds is not None and not (args.max_seconds > 0 and math.isfinite(args.max_seconds)):
        raise InputError(f"--max-seconds {args.max_seconds}: must be a finite positive number")
    if args.max_evals is not None and args.max_evals < 1:
        raise InputError(f"--max-evals {args.max_evals}: must be at least 1")
    if not (args.time_box > 0 and math.isfinite(args.time_box)):
        raise InputError(f"--time-box {args.time_box}: must be a finite positive number")
    if args.workers < 1:
        raise InputError(f"--workers {args.workers}: must be at least 1")
    checked_file(args.out, "--out")
    # imported when the command runs, not when the CLI starts: it pulls in the report
    # writer (scipy, matplotlib: about a second), which `sudoku-compare solve` never needs
    from sudoku_compare.bench.compare import compare, compare_command

    command = compare_command(args.families, args.puzzles, args.seeds, args.max_seconds,
                              args.out, args.db, args.workers, args.title, args.max_evals,
                              args.time_box)
    if args.all_pairs:
        command += " --all-pairs"
    if args.campaign_seed:
        command += f" --campaign-seed {args.campaign_seed}"
    summary, verdicts = compare(args.families or None, args.puzzles, args.seeds, args.max_seconds,
                                out=args.out, db=args.db, workers=args.workers,
                                progress=not args.quiet, command=command, title=args.title,
                                campaign_seed=args.campaign_seed, max_evaluations=args.max_evals,
                                time_box=args.time_box, alternatives=args.all_pairs)
    print(f"wrote {args.out} ({len(summary.figures)} figures, {summary.metadata.runs} runs)",
          file=sys.stderr)
    print("Verdicts:")
    for v in verdicts:
        print(f"- {v.text()}")
    return 0
