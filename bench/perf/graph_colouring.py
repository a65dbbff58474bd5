"""Perf section: forward checking vs MAC on seeded random graph colouring (seed Sudoku-06).

Both searches are the same AIMA backtracking search (MRV with degree tie-break, LCV)
on the shared CSP model; only the inference differs. Every colouring returned is checked.
A run ends "coloured", "none" (the complete search proved there is no k-colouring) or
"timeout". Regenerate the report with::

    python -m sudoku_compare.bench.perf.graph_colouring --out reports/graph-colouring.md
"""

from __future__ import annotations

import argparse
import statistics
import time

from sudoku_compare import registry
from sudoku_compare.bench.perf import PerfTable
from sudoku_compare.problems.graph_colouring import colouring_csp, is_colouring, random_graph

SECTION = "graph-colouring"
TITLE = "Graph colouring: forward checking vs MAC"

#: the two registered searches compared: MRV (degree tie-break) + LCV, FC or MAC inference
METHODS = (("FC", "native.csp-fc"), ("MAC", "native.csp-mac"))
#: the seed exercise's two settings (n, p, k)
SEED_SETTINGS = ((15, 0.2, 3), (15, 0.4, 4))
#: the sweep: 3 colours at mean degree 4.4, near the 3-colourability threshold (~4.69)
SWEEP_K = 3
SWEEP_MEAN_DEGREE = 4.4


def run_one(n: int, p: float, k: int, seed: int, solver: str, max_seconds: float) -> dict:
    """One search; returns its counters, time and verdict (the colouring is verified)."""
    graph = random_graph(n, p, seed)
    csp = colouring_csp(graph, k)
    t0 = time.perf_counter()
    res = registry.create(solver).search_model(csp, deadline=t0 + max_seconds)
    elapsed = time.perf_counter() - t0
    if res.assignment is not None:
        if not is_colouring(graph, res.assignment, k):
            raise AssertionError(f"invalid colouring for n={n} p={p} k={k} seed={seed}")
        verdict = "coloured"
    else:
        verdict = "timeout" if res.timed_out else "none"
    return {"assignments": res.assignments, "backtracks": res.backtracks, "seconds": elapsed,
            "verdict": verdict, "edges": graph.n_edges}


def _row(label: list, runs: list[dict]) -> list:
    verdicts = [r["verdict"] for r in runs]
    return label + [
        round(statistics.mean(r["assignments"] for r in runs), 1),
        round(statistics.mean(r["backtracks"] for r in runs), 1),
        round(1000 * statistics.median(r["seconds"] for r in runs), 3),
        f"{verdicts.count('coloured')}/{len(runs)}",
        verdicts.count("none"),
        verdicts.count("timeout"),
    ]


COLUMNS = ["method", "mean assignments", "mean backtracks", "median ms", "coloured",
           "proved none", "timeouts"]


def run(quick: bool) -> list[PerfTable]:
    for _, solver in METHODS:
        registry.create(solver).warmup()  # compile outside the measured time
    seeds = range(5 if quick else 20)
    budget = 0.5 if quick else 2.0
    t1 = PerfTable("FC vs MAC on the seed's settings (G(n, p), k colours)",
                   ["n", "p", "k"] + COLUMNS)
    for n, p, k in SEED_SETTINGS:
        for name, solver in METHODS:
            t1.rows.append(_row([n, p, k, name], [run_one(n, p, k, s, solver, budget)
                                                  for s in seeds]))
    t1.notes.append(f"graph seeds {seeds.start}..{seeds.stop - 1} (random.Random(seed), as the "
                    f"seed's generate_random_graph); per-run budget {budget} s; search = MRV "
                    "(degree tie-break) + LCV, counters as the seed counts them")
    sizes = (50, 100, 150) if quick else (50, 100, 150, 200, 250)
    sweep_seeds = range(3 if quick else 10)
    t2 = PerfTable(f"Size sweep: k = {SWEEP_K}, mean degree {SWEEP_MEAN_DEGREE} "
                   "(p = degree / (n - 1))", ["n", "p"] + COLUMNS)
    for n in sizes:
        p = SWEEP_MEAN_DEGREE / (n - 1)
        for name, solver in METHODS:
            t2.rows.append(_row([n, round(p, 4), name],
                                [run_one(n, p, SWEEP_K, s, solver, budget)
                                 for s in sweep_seeds]))
    t2.notes.append(f"graph seeds {sweep_seeds.start}..{sweep_seeds.stop - 1}; per-run budget "
                    f"{budget} s; near the 3-colourability threshold many graphs have no "
                    "colouring and both searches must exhaust a tree, where MAC's stronger "
                    "pruning shows in the counts; its time gain is smaller, because a MAC node "
                    "costs more (a saved copy of the domains plus AC-3)")
    return [t1, t2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=TITLE)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", help="write a Markdown report here")
    args = ap.parse_args(argv)
    tables = run(args.quick)
    cmd = "python -m sudoku_compare.bench.perf.graph_colouring" + (" --quick" if args.quick else "")
    text = "\n".join(t.to_markdown() for t in tables)
    if args.out:
        doc = (f"# {TITLE}\n\nMade by `{cmd} --out {args.out}`.\n\n"
               "The seed's exercise (Sudoku-06, \"Comparaison Forward Checking vs MAC sur le "
               "Coloriage de Graphe\") as a reproducible table. Counts are deterministic; "
               "times are wall-clock on the machine that ran the command.\n\n" + text)
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(doc)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
