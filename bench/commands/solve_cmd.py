"""``sudoku-compare solve SOLVER PUZZLE``: one verified run, printed or as JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from sudoku_compare.bench.api import solve, solve_isolated
from sudoku_compare.budget import Budget
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.formatting import format_boxed


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="solve one puzzle with one solver")
    p.add_argument("solver")
    p.add_argument("puzzle", help="81 characters, SET:INDEX, or FILE[:INDEX]")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-seconds", type=float, default=10.0)
    p.add_argument("--max-evals", type=int, default=None)
    p.add_argument("--param", action="append", default=[], metavar="K=V")
    p.add_argument("--json", action="store_true")
    p.add_argument("--isolated", action="store_true",
                   help="run in a worker process with a hard deadline and a memory cap")
    p.set_defaults(func=run)


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send everything written to fd 1 (Python or C code) to stderr while the solve runs.

    ``solve --json`` promises a JSON document on stdout; a library that prints from C++
    (OR-Tools) or a solver that prints must not break it, and what they print is still
    visible on stderr.
    """
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def run(args: argparse.Namespace) -> int:
    if args.seed < 0:
        raise InputError(f"--seed {args.seed}: must be 0 or more (numpy seeds are unsigned)")
    if args.max_evals is not None and args.max_evals < 1:
        raise InputError(f"--max-evals {args.max_evals}: must be at least 1")
    try:
        budget = Budget(args.max_seconds, args.max_evals)
    except ValueError as exc:
        raise InputError(f"--max-seconds {args.max_seconds}: {exc}") from None
    run_one = solve_isolated if args.isolated else solve
    if args.json:
        with stdout_to_stderr():
            outcome, puzzle = run_one(args.solver, args.puzzle, budget=budget, seed=args.seed,
                                      params=args.param)
    else:
        outcome, puzzle = run_one(args.solver, args.puzzle, budget=budget, seed=args.seed,
                                  params=args.param)
    if args.json:
        d = outcome.to_dict()
        d = {"solver": args.solver, "puzzle": puzzle.name or puzzle.to_line(), "seed": args.seed,
             **d}
        print(json.dumps(d))
    else:
        print(f"{args.solver} on {puzzle.name}: {outcome.status} in {outcome.elapsed_s:.4f} s")
        if outcome.counters:
            print("counters: " + ", ".join(f"{k}={v}" for k, v in outcome.counters.items()))
        # human-style solvers log their steps (--json carries the log as extra.step_log)
        for step in outcome.extra.get("step_log") or []:
            changes = step["placements"] + step["eliminations"]
            print(f"  {step['technique']}: " + " ".join(changes))
        if "rating_level" in outcome.extra:
            print(f"rating: {outcome.extra['rating_level']} (score {outcome.extra['rating_score']}, "
                  f"hardest {outcome.extra['rating_hardest'] or '-'})")
        if outcome.grid is not None:
            print(format_boxed(outcome.grid, puzzle.box))
    return 0
