"""Perf section ``swarm``: how fast the native swarms run, and how often they solve.

Two tables, measured in this run, in this process, warm (compilation excluded):

- *throughput*: evaluations per second of each swarm on easy51:0 with ``target = -1`` (an energy
  no state has), so no run stops by solving and the rate is the steady-state one; one evaluation
  is one objective value (an in-box swap delta or a full error for ``pso-swarm``, a full energy
  for a swap-PSO particle, a decoded vector for ``pso-canonical``);
- *mini-campaign*: success rate, median time and evaluations to a verified solution over a fixed
  seeded set of runs (``bench.api.solve`` checks every grid). The issue's goal (``pso-swarm`` and
  ``pso-swap-memetic`` solve >= 95 % of easy51 x 5 seeds within 30 s a run) is a full campaign:
  ``perf`` without ``--quick`` runs easy51 first 15 x 5 seeds with a 30 s cap.
"""

from __future__ import annotations

import time

from sudoku_compare import registry
from sudoku_compare.bench.perf import PerfTable, mini_campaign
from sudoku_compare.budget import Budget
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import load_set

SECTION = "swarm"
TITLE = "Native particle swarms"

EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SWARMS = ["native.pso-swarm", "native.pso-swarm-hybrid", "native.pso-swap",
          "native.pso-swap-memetic", "native.pso-canonical"]
#: solvers the mini-campaign runs (pure swap-PSO and canonical PSO: one swarm, no restart, as
#: in the seed, so their rate is what one seeded swarm does)
CAMPAIGN = SWARMS


def throughput_table(quick: bool) -> PerfTable:
    evals = 200_000 if quick else 2_000_000
    puzzle = Puzzle.from_string(EASY, name="easy51:0")
    rows = []
    for name in SWARMS:
        params = {"max_restarts": -1} if "swap" in name or "canonical" in name else {}
        solver = registry.create(name, **params)
        solver.warmup()
        budget = Budget(max_seconds=60.0, max_evaluations=evals, target=-1.0)
        start = time.perf_counter()
        out = solver.solve(puzzle, budget, 1)
        dt = time.perf_counter() - start
        rows.append([name, out.evaluations, dt, round(out.evaluations / dt) if dt > 0 else "-",
                     out.best_energy])
    notes = ["easy51:0, seed 1, target energy -1 (never reached: steady-state rate), restarts "
             "unlimited for the swap and canonical PSOs so the budget is spent"]
    return PerfTable("Throughput (evaluations per second)",
                     ["solver", "evaluations", "seconds", "evals/s", "best energy"], rows, notes)


def _puzzles(quick: bool) -> tuple[list[Puzzle], str]:

    try:
        return list(load_set("easy51")[: 3 if quick else 15]), ""
    except Exception:  # public sets absent
        return [Puzzle.from_string(EASY)], "public sets not found: easy51:0 only"


def campaign_table(quick: bool) -> PerfTable:
    seeds = range(3 if quick else 5)
    seconds = 5.0 if quick else 30.0
    puzzles, why = _puzzles(quick)
    rows = []
    for name in CAMPAIGN:
        solved, runs, med_t, med_e = mini_campaign(name, puzzles, seeds, seconds)
        rows.append([name, f"{solved}/{runs}", solved / runs, med_t, med_e])
    notes = [f"easy51 first {len(puzzles)} x seeds 0..{len(seeds) - 1}, {seconds:g} s cap a run, "
             "in-process via bench.api.solve (every grid verified); medians over solved runs"
             + (f" ({why})" if why else ""),
             "issue 5 goal: pso-swarm and pso-swap-memetic >= 95 % of easy51 x 5 seeds in 30 s; "
             "the seed-faithful pso-swarm stalls at error 2 on some puzzles (the seed reports "
             "80 %), the named variant pso-swarm-hybrid (plateau-walk local search) is the one "
             "meant to meet it"]
    return PerfTable("Mini-campaign: success rate and time to solution",
                     ["solver", "solved", "rate", "median s", "median evals"], rows, notes)


def run(quick: bool) -> list[PerfTable]:
    return [throughput_table(quick), campaign_table(quick)]
