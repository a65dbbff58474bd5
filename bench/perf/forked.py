"""Timed solves in a forked child that a perf section can kill.

A perf cell (one solver on one set or size) runs in its own forked process: a solver that
ignores its deadline, or takes minutes where the others take milliseconds, must not stall the
section. The child warms the solver up (outside the clock), says ``ready``, then solves the
puzzles in order and sends ``(seconds, verified, search calls)`` after each one; the parent
stops it once the solves add up to the cell's cap, or kills it when the wall time since
``ready`` passes the cap plus one puzzle's budget and some slack.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from dataclasses import dataclass, field

from sudoku_compare import registry
from sudoku_compare.bench.execute import warm
from sudoku_compare.budget import Budget
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle

#: wall time past ``cap + puzzle budget`` before a cell is killed
SLACK_S = 1.0


@dataclass
class ChildSolves:
    """What the child reported: one time and verdict per puzzle run, in order."""

    times: list[float] = field(default_factory=list)
    #: verified by the checker (a claimed solution that is not one counts False)
    solved: list[bool] = field(default_factory=list)
    #: the solver's ``search_calls`` counter, summed (0 for solvers without one)
    calls: int = 0
    error: str = ""
    #: ``done`` (every puzzle, or an error), ``cap`` (the solves reached the cap), ``killed``
    ended: str = "done"


def _child(conn, name: str, puzzles: list[Puzzle], seconds: float, seed: int) -> None:
    try:
        solver = registry.create(name)
        warm(solver, puzzles[0])
        conn.send(("ready",))
        for p in puzzles:
            start = time.perf_counter()
            out = solver.solve(p, Budget(max_seconds=seconds), seed)
            dt = time.perf_counter() - start
            ok = bool(out.claims_solved and out.grid is not None and is_solution(p, out.grid))
            conn.send((dt, ok, int(out.counters.get("search_calls", 0))))
    except Exception as exc:  # reported in the table, never fatal to the section
        conn.send(("error", f"{type(exc).__name__}: {exc}".splitlines()[0][:120]))
    conn.send(None)
    conn.close()


def solve_in_child(name: str, puzzles: list[Puzzle], *, seconds: float, seed: int,
                   cap: float, warmup_grace: float) -> ChildSolves:
    """Solve ``puzzles`` with ``name`` in a forked child, ``seconds`` each, until the solve
    times add up to ``cap``; a child that overruns is killed, and the puzzle it was on counts
    as unsolved with its time so far."""
    got = ChildSolves()
    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, name, puzzles, seconds, seed), daemon=True)
    proc.start()
    send.close()
    ready = False
    stop = time.perf_counter() + warmup_grace
    last = time.perf_counter()
    while True:
        left = stop - time.perf_counter()
        if left <= 0 or not recv.poll(left):
            if ready:
                got.times.append(time.perf_counter() - last)
                got.solved.append(False)
            got.error = got.error or ("killed at the cell's cap" if ready else
                                      f"warm-up took over {warmup_grace:g} s")
            got.ended = "killed"
            break
        try:
            msg = recv.recv()
        except EOFError:
            got.error = got.error or "worker died"
            break
        if msg is None:
            break
        if msg[0] == "ready":
            ready, last = True, time.perf_counter()
            stop = last + cap + seconds + SLACK_S
            continue
        if msg[0] == "error":
            got.error = msg[1]
            continue
        dt, ok, calls = msg
        last = time.perf_counter()
        got.times.append(dt)
        got.solved.append(ok)
        got.calls += calls
        if sum(got.times) >= cap:
            got.ended = "cap"
            break
    if proc.is_alive():
        proc.kill()
    proc.join(5)
    recv.close()
    return got
