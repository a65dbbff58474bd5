"""The exercises' experiments (full and ``--quick``) and running them as campaigns.

Each variant is its own campaign (a ``(name, params)`` pair), all of them through one pool of
warm workers (:func:`run_campaigns`), so every returned grid is verified, every run is stored
in SQLite and a killed regeneration resumes. Run seeds derive from (campaign seed, puzzle,
seed index) only, so every variant of an experiment meets the same seeds: the comparisons are
paired. Stochastic experiments give their solvers ``max_restarts=-1`` (restart until the
budget is spent) so that the evaluation budget, not a schedule length, ends every unsolved
run: equal work.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from sudoku_compare.bench.campaign import CampaignSpec, run_campaigns
from sudoku_compare.bench.reporting.exercises.common import (
    FC_CELL,
    FC_VALUE,
    WITNESS,
    Experiment,
    ExperimentResult,
    Variant,
)
from sudoku_compare.budget import Budget
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import resolve_puzzle

#: every exercise campaign uses this campaign seed (run seeds derive from it)
CAMPAIGN_SEED = 2026


def _sa(label: str, **params) -> Variant:
    return Variant(label, "native.sa", {"max_restarts": -1, **params})


def cooling(quick: bool) -> Experiment:
    alphas = (0.99, 0.999) if quick else (0.99, 0.999, 0.9999)
    variants = tuple(_sa(f"{s} α={a}", schedule=s, alpha=a)
                     for s in ("exponential", "linear", "logarithmic") for a in alphas)
    puzzles = ("easy51:0:2",) if quick else ("easy51:0:10", "hardest:0:5")
    budget = Budget(max_seconds=20, max_evaluations=200_000 if quick else 3_000_000)
    return Experiment("cooling", variants, puzzles, 2 if quick else 8, budget)


def reheat(quick: bool) -> Experiment:
    variants = (_sa("no reheat"),
                _sa("fixed reheat", reheat_stagnation=50, reheat_factor=0.5),
                _sa("adaptive reheat", reheat_stagnation=50, reheat_factor=0.5,
                    adaptive_reheat=True))
    puzzles = ("easy51:0:2",) if quick else ("easy51:0:10", "hardest")
    budget = Budget(max_seconds=20, max_evaluations=200_000 if quick else 3_000_000)
    return Experiment("reheat", variants, puzzles, 2 if quick else 8, budget)


SWARM_SIZES_FULL = (50, 100, 200, 500, 1000, 2000)
SWARM_SIZES_QUICK = (50, 200)


def swarm_size(quick: bool) -> tuple[Experiment, Experiment]:
    sizes = SWARM_SIZES_QUICK if quick else SWARM_SIZES_FULL
    puzzles = ("easy51:0:2",) if quick else ("easy51:0:8",)
    hive = Experiment(
        "size-swarm",
        tuple(Variant(f"{n} organisms", "native.pso-swarm", {"organisms": n, "max_restarts": -1})
              for n in sizes),
        puzzles, 2 if quick else 4,
        Budget(max_seconds=30, max_evaluations=100_000 if quick else 2_000_000))
    swap = Experiment(
        "size-swap",
        tuple(Variant(f"{n} particles", "native.pso-swap", {"swarm_size": n, "max_restarts": -1})
              for n in sizes),
        puzzles, 2 if quick else 4,
        Budget(max_seconds=30, max_evaluations=10_000 if quick else 200_000))
    return hive, swap


def convergence(quick: bool) -> tuple[Experiment, Experiment]:
    """The seed's swarm (its settings, restarted until the budget ends) and the swap PSO on an
    easy and a hard puzzle; each solver its own budget (the swap PSO is ~10x slower a move)."""
    puzzles = ("easy51:1", "top95:0")
    hive = Experiment("convergence-swarm",
                      (Variant("native.pso-swarm", "native.pso-swarm", {"max_restarts": -1}),),
                      puzzles, 2 if quick else 8,
                      Budget(max_seconds=30, max_evaluations=100_000 if quick else 2_000_000))
    swap = Experiment("convergence-swap",
                      (Variant("native.pso-swap", "native.pso-swap", {"max_restarts": -1}),),
                      puzzles, 2 if quick else 8,
                      Budget(max_seconds=30, max_evaluations=10_000 if quick else 200_000))
    return hive, swap


def grid_search(quick: bool) -> Experiment:
    inertias = (0.5, 0.9)
    coefficients = (0.5, 2.0) if quick else (0.5, 1.0, 2.0)
    variants = []
    for w, c1, c2 in itertools.product(inertias, coefficients, coefficients):
        variants.append(Variant(f"w={w} c1={c1} c2={c2}", "native.pso-swap",
                                {"inertia_start": w, "inertia_floor": min(0.3, w), "c1": c1,
                                 "c2": c2, "max_restarts": -1}))
    if not any(v.params["c1"] == 1.0 and v.params["c2"] == 1.0 and v.params["inertia_start"]
               == 0.9 for v in variants):
        variants.append(Variant("w=0.9 c1=1.0 c2=1.0", "native.pso-swap",
                                {"inertia_start": 0.9, "inertia_floor": 0.3, "c1": 1.0,
                                 "c2": 1.0, "max_restarts": -1}))
    puzzles = ("easy51:0:4",) if quick else ("easy51:0:12",)
    return Experiment("grid", tuple(variants), puzzles, 1 if quick else 3,
                      Budget(max_seconds=30, max_evaluations=10_000 if quick else 100_000))


def hybrid(quick: bool) -> tuple[Experiment, Experiment]:
    swap = Experiment(
        "hybrid-swap",
        (Variant("pure swap-PSO", "native.pso-swap", {"max_restarts": -1}),
         Variant("memetic (seed: climb every 25)", "native.pso-swap",
                 {"memetic_every": 25, "kicks": 0, "max_restarts": -1}),
         Variant("memetic ILS (native.pso-swap-memetic)", "native.pso-swap-memetic", {})),
        ("easy51:0:2",) if quick else ("easy51:0:8",), 2 if quick else 6,
        Budget(max_seconds=30, max_evaluations=10_000 if quick else 200_000))
    hive = Experiment(
        "hybrid-swarm",
        (Variant("pure workers/explorers", "native.pso-swarm", {"max_restarts": -1}),
         Variant("hybrid (native.pso-swarm-hybrid)", "native.pso-swarm-hybrid",
                 {"max_restarts": -1})),
        ("easy51:0:2",) if quick else ("easy51:0:8",), 2 if quick else 6,
        Budget(max_seconds=30, max_evaluations=100_000 if quick else 2_000_000))
    return swap, hive


def backtracking(quick: bool) -> Experiment:
    puzzles = ("easy51:0:2", "hardest:0:2", "top95:0:2") if quick else (
        "easy51", "hardest", "top95")
    return Experiment("backtracking",
                      (Variant("simple (row-major)", "native.backtracking", {}),
                       Variant("MRV", "native.backtracking-mrv", {})),
                      puzzles, 1, Budget(max_seconds=5 if quick else 10))


def forward_checking(quick: bool) -> Experiment:
    """native.csp-fc on the seed's witness puzzle, as given and with the exercise's
    assignment (0, 1) = 6 made a given: what the search spends after that assignment."""
    witness = resolve_puzzle(WITNESS)
    cells = list(witness.cells)
    cells[FC_CELL[0] * witness.side + FC_CELL[1]] = FC_VALUE
    assigned = Puzzle(witness.box, tuple(cells)).to_line()
    return Experiment("fc", (Variant("native.csp-fc", "native.csp-fc", {}),),
                      (witness.to_line(), assigned), 1, Budget(max_seconds=10))


def experiments(quick: bool) -> list[Experiment]:
    """Every experiment of the report, in the order of its sections."""
    return [cooling(quick), reheat(quick), *swarm_size(quick), *convergence(quick),
            grid_search(quick), *hybrid(quick), backtracking(quick), forward_checking(quick)]


def run(exps: list[Experiment], db: Path, workers: int,
        progress: bool = False) -> dict[str, ExperimentResult]:
    """Run every variant of every experiment as its own campaign, in one pool; returns each
    experiment's stored rows by variant label."""
    specs: list[CampaignSpec] = []
    owners: list[tuple[str, str]] = []
    for exp in exps:
        for v in exp.variants:
            specs.append(CampaignSpec([(v.solver, dict(v.params))], list(exp.puzzles), exp.seeds,
                                      exp.budget, CAMPAIGN_SEED,
                                      command=f"exercises:{exp.key}:{v.label}"))
            owners.append((exp.key, v.label))
    results = run_campaigns(specs, db, workers, progress, summary=False)
    out = {exp.key: ExperimentResult(exp, {}) for exp in exps}
    for (key, label), res in zip(owners, results, strict=True):
        out[key].runs[label] = res.rows
    return out
