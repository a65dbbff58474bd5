"""``sudoku-compare run``: a campaign of solvers x puzzles x seeds into a SQLite file.

All input (solver names, ``--param`` values, the puzzle file, the limits, the ``--db``
file) is checked before any run or database write, so a typo costs nothing and exits 2
with one line. ``--retry failed`` runs the stored error, memout and timeout runs again.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys

from sudoku_compare.budget import Budget
from sudoku_compare.problems.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run a campaign (isolated, verified, resumable)")
    p.add_argument("--solvers", required=True, help="comma-separated solver names")
    p.add_argument("--puzzles", required=True, help="SET, SET:I, SET:START:STOP, FILE[:...]")
    p.add_argument("--seeds", type=int, default=1, help="seeds per solver and puzzle")
    p.add_argument("--max-seconds", type=float, default=10.0)
    p.add_argument("--max-evals", type=int, default=None)
    p.add_argument("--db", required=True, help="SQLite file (created; a rerun resumes it)")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes (at most one per run; a warning above the CPU count)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="where runs execute: worker processes here, or a Dask cluster")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="with --executor dask: an existing Dask scheduler")
    p.add_argument("--dask-workers", type=int, default=None, metavar="N",
                   help="with --executor dask and no --scheduler: a loopback LocalCluster "
                        "of N worker processes (default --workers)")
    p.add_argument("--campaign-seed", type=int, default=0)
    p.add_argument("--memory-mb", type=int, default=None,
                   help="data-segment (RLIMIT_DATA) cap per worker in MB (default 3072, at least 600)")
    p.add_argument("--retry", default=None, metavar="STATUS[,STATUS]",
                   help="run stored runs with these statuses again, keeping every attempt "
                        "(failed = error,memout,timeout)")
    p.add_argument("--param", action="append", default=[], metavar="[SOLVER:]K=V",
                   help="parameter override; without SOLVER: for every listed solver that has K")
    p.add_argument("--grid", action="append", default=[], metavar="SOLVER:K=V1,V2,...",
                   help="sweep a parameter: SOLVER runs as one variant SOLVER[k=v,...] per "
                        "point of the product of every --grid of it (values V1,V2, a range "
                        "START:STOP:STEP or log:START:STOP:N); variants share run seeds")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or summary")
    p.set_defaults(func=run)


def split_params(items: list[str], solvers: list[str]) -> dict[str, list[str]]:
    """``SOLVER:K=V`` goes to that solver, ``K=V`` to every listed solver that has ``K``."""
    import dataclasses

    from sudoku_compare import registry

    out: dict[str, list[str]] = {}
    for item in items:
        head, sep, rest = item.partition(":")
        if sep and "=" not in head:
            # a swept solver's --param goes to every one of its variants
            aimed = [s for s in solvers if s == head or registry.split_variant(s)[0] == head]
            if not aimed:
                raise InputError(f"--param {item!r}: {head} is not among --solvers")
            for s in aimed:
                out.setdefault(s, []).append(rest)
            continue
        key = item.partition("=")[0].strip().replace("-", "_")
        takers = [s for s in solvers
                  if key in {f.name for f in dataclasses.fields(registry.get(s).cls.Params)}]
        if not takers:
            if len(solvers) == 1:  # let the solver's own check list the valid keys
                takers = solvers
            else:
                raise InputError(f"--param {item!r}: no listed solver has a parameter {key!r}")
        for s in takers:
            out.setdefault(s, []).append(item)
    return out


def run(args: argparse.Namespace) -> int:
    from sudoku_compare.bench.campaign import (
        check_budget,
        check_memory,
        retry_statuses,
        run_campaign,
    )

    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    if not solvers:
        raise InputError("--solvers: no solver named")
    if args.workers < 1:
        raise InputError(f"--workers {args.workers}: must be at least 1")
    if args.max_evals is not None and args.max_evals < 1:
        raise InputError(f"--max-evals {args.max_evals}: must be at least 1")
    if not math.isfinite(args.max_seconds) or args.max_seconds <= 0:
        raise InputError(f"--max-seconds {args.max_seconds}: must be a finite number of seconds "
                         f"above 0 (the hard deadline is max-seconds plus a grace)")
    try:
        budget = Budget(args.max_seconds, args.max_evals)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    check_budget(budget)
    check_memory(args.memory_mb)
    retry_statuses(args.retry)
    from sudoku_compare import registry

    for s in solvers:
        registry.get(s)  # unknown names fail here, before the parameters are read
    if args.grid:
        from sudoku_compare.bench.sweeps import expand_solvers, parse_grid

        grid = parse_grid(args.grid)
        solvers = expand_solvers(solvers, grid)
    params = split_params(args.param, solvers)
    for s, items in params.items():
        swept = {k.partition("=")[0] for k in registry.split_variant(s)[1]}
        clash = swept & {i.partition("=")[0].strip().replace("-", "_") for i in items}
        if clash:
            raise InputError(f"--param {', '.join(sorted(clash))}: swept by --grid for "
                             f"{registry.split_variant(s)[0]}; set it in one place")
    if args.executor == "local" and (args.scheduler or args.dask_workers):
        raise InputError("--scheduler and --dask-workers need --executor dask")
    if args.dask_workers is not None and args.dask_workers < 1:
        raise InputError(f"--dask-workers {args.dask_workers}: must be at least 1")
    executor = None
    if args.executor == "dask":
        from sudoku_compare.bench.campaign import lazy_plan
        from sudoku_compare.bench.dask_executor import DaskExecutor

        # every input is checked before a cluster is started or reached
        lazy_plan(solvers, args.puzzles, args.seeds, budget, args.campaign_seed, params)
        executor = DaskExecutor(args.scheduler, args.dask_workers or args.workers,
                                memory_mb=check_memory(args.memory_mb))
    try:
        result = run_campaign(solvers, args.puzzles, args.seeds, budget, args.db,
                              workers=args.workers, campaign_seed=args.campaign_seed,
                              progress=not args.no_progress,
                              command=shlex.join(["sudoku-compare", *sys.argv[1:]]),
                              params=params, memory_mb=args.memory_mb, retry=args.retry,
                              executor=executor)
    finally:
        if executor is not None:
            executor.close()
    retried = f" ({result.retried} of them retried)" if result.retried else ""
    print(f"campaign {result.campaign_id}: {result.planned} runs planned, {result.executed} run "
          f"now{retried}, {result.skipped} already in {args.db}")
    return 0
