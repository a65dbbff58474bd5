"""Sections: swarm size, PSO convergence, the PSO parameter grid search with a hold-out pick,
and hybrid (local search) against pure swarm."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from sudoku_compare.budget import Budget

from .common import (
    SUMMARY_HEADER,
    Comparison,
    ExperimentResult,
    Row,
    Section,
    best_energy,
    compare,
    comparison_rows,
    fmt,
    penalised_evaluations,
    puzzle_key,
    rank_key,
    rate_text,
    summarise,
    summary_cells,
    table,
    with_holm,
)
from .plotting import new_figure, save

#: the seed's observed stagnation: "l'erreur reste souvent bloquée à 2-4"
STAGNATION_LEVELS = (2, 4)


def _measure(budget: Budget, rows_a: list[Row], rows_b: list[Row]):
    """PAR-2 evaluations when either side solved something, else the final best energy
    (with no success the evaluations are all equal and say nothing)."""
    if any(r.get("status") == "solved" for r in rows_a + rows_b):
        return "PAR-2 evaluations", lambda r: penalised_evaluations(r, budget)
    return "final best energy", best_energy


def _compare(label_a: str, rows_a: list[Row], label_b: str, rows_b: list[Row],
             budget: Budget) -> tuple[Comparison, str]:
    name, measure = _measure(budget, rows_a, rows_b)
    return compare(label_a, rows_a, label_b, rows_b, measure), name


# -- swarm size ---------------------------------------------------------------------------


def _size_of(params: dict) -> int:
    return int(params.get("organisms", params.get("swarm_size", 0)))


def size_section(hive: ExperimentResult, swap: ExperimentResult, figures: Path,
                 rel: str) -> Section:
    body: list[str] = []
    answers: list[str] = []
    comps: list[Comparison] = []
    measures: list[str] = []
    curves = []
    for res, seed_size, what in ((hive, 200, "workers/explorers swarm (native.pso-swarm)"),
                                 (swap, 40, "swap PSO (native.pso-swap)")):
        exp = res.experiment
        summaries = {v.label: summarise(res.rows(v.label)) for v in exp.variants}
        sizes = {v.label: _size_of(v.params) for v in exp.variants}
        ref = min(sizes, key=lambda k: abs(sizes[k] - seed_size))
        best = min(summaries, key=lambda k: rank_key(summaries[k]))
        body += [f"*{what}, {exp.budget.max_evaluations:,} evaluations a run:*", ""]
        body += table(SUMMARY_HEADER, [summary_cells(k, s) for k, s in summaries.items()])
        body.append("")
        c, m = _compare(best, res.rows(best), ref, res.rows(ref), exp.budget)
        comps.append(c)
        measures.append(m)
        curves.append((what, [sizes[k] for k in summaries], summaries))
        answers.append((what, best, ref, summaries))
    comps = with_holm(comps)
    body += [f"Best size against the size nearest the seed's (200 organisms; 40 particles), "
             f"paired Wilcoxon over puzzles on {' / '.join(measures)} (Holm over the two):", ""]
    body += comparison_rows(comps)
    fig_name = "swarm_size.svg"
    fig, (ax1, ax2) = new_figure(ncols=2)
    for what, xs, summaries in curves:
        order = np.argsort(xs)
        x = np.array(xs)[order]
        ss = [list(summaries.values())[i] for i in order]
        ax1.errorbar(x, [s.rate for s in ss],
                     yerr=[[s.rate - s.low for s in ss], [s.high - s.rate for s in ss]],
                     marker="o", capsize=3, label=what)
        ax2.plot(x, [s.mean_energy for s in ss], marker="o", label=what)
    for ax in (ax1, ax2):
        ax.set_xscale("log")
        ax.set_xlabel("swarm size (organisms / particles)")
    ax1.set_ylabel("success rate (Wilson 95 %)")
    ax2.set_ylabel("mean final best energy")
    ax1.legend(fontsize=7)
    fig.suptitle(f"Swarm size at an equal evaluation budget ({hive.experiment.budget.max_evaluations:,}"
                 f" / {swap.experiment.budget.max_evaluations:,}); "
                 f"{', '.join(hive.experiment.puzzles)}, {hive.experiment.seeds} seeds",
                 fontsize=8)
    save(fig, figures / fig_name)
    body += ["", f"![success and final energy against swarm size]({rel}/{fig_name})"]
    sentences = []
    for (what, best, ref, summaries), c in zip(answers, comps, strict=True):
        sb, sr = summaries[best], summaries[ref]
        if best == ref:
            sentences.append(f"for the {what} the best size was {best} ({rate_text(sb)}, mean "
                             f"final energy {fmt(sb.mean_energy)}), the size nearest the "
                             f"seed's itself, so there is nothing to test it against")
            continue
        sentences.append(f"for the {what} the best size was {best} ({rate_text(sb)}, mean "
                         f"final energy {fmt(sb.mean_energy)}) against {ref} "
                         f"({rate_text(sr)}, {fmt(sr.mean_energy)}): {c.verdict()}")
    answer = (f"At an equal evaluation budget, {sentences[0]}. Likewise, {sentences[1]}.")
    return Section(
        "Swarm size at an equal evaluation budget",
        "How does the number of particles (50 to 2,000) change success and final error when "
        "every size gets the same number of evaluations?",
        hive.experiment.text() + " — and — " + swap.experiment.text(),
        body, answer)


# -- convergence -----------------------------------------------------------------------------


def best_so_far(trace: list, at: np.ndarray, solved: bool, final: float) -> np.ndarray:
    """The run's best energy after ``at`` evaluations from its trace of new bests (nan before
    its first record; held at its final value after it stopped)."""
    out = np.full(at.shape, np.nan)
    if not trace:
        return out
    ev = np.array([t[0] for t in trace], dtype=float)
    be = np.array([t[2] for t in trace], dtype=float)
    idx = np.searchsorted(ev, at, side="right") - 1
    ok = idx >= 0
    out[ok] = be[idx[ok]]
    if solved:
        out[at >= ev[-1]] = 0.0
    return out


def _checkpoints(budget: int) -> np.ndarray:
    pts = [10 ** k for k in range(2, 12) if 10 ** k < budget]
    pts += [int(budget * f) for f in (0.25, 0.5)]
    return np.array(sorted(set(pts) | {budget}), dtype=float)


def convergence_section(results: list[ExperimentResult], figures: Path, rel: str) -> Section:
    body: list[str] = []
    facts: list[str] = []
    fig_name = "pso_convergence.svg"
    fig, axes = new_figure(ncols=len(results))
    axes = np.atleast_1d(axes)
    low, high = STAGNATION_LEVELS
    for ax, res in zip(axes, results, strict=True):
        exp = res.experiment
        budget = int(exp.budget.max_evaluations or 0)
        v = exp.variants[0]
        rows = res.rows(v.label)
        at = _checkpoints(budget)
        grid = np.unique(np.geomspace(50, budget, 200).astype(int)).astype(float)
        header = ["puzzle", "statistic"] + [fmt(float(a)) for a in at]
        trows = []
        for pkey in sorted({puzzle_key(r) for r in rows}):
            prow = [r for r in rows if puzzle_key(r) == pkey]
            curves = np.array([best_so_far(r.get("trace") or [], at, r["status"] == "solved",
                                           best_energy(r)) for r in prow])
            dense = np.array([best_so_far(r.get("trace") or [], grid, r["status"] == "solved",
                                          best_energy(r)) for r in prow])
            name = f"{pkey[0]}:{pkey[1]}"
            with np.errstate(all="ignore"):
                med = np.nanmedian(curves, axis=0)
                mean = np.nanmean(curves, axis=0)
                in_band = np.mean((curves >= low) & (curves <= high), axis=0)
                dmed = np.nanmedian(dense, axis=0)
                dmean = np.nanmean(dense, axis=0)
            trows.append([name, "median best"] + [fmt(x) for x in med])
            trows.append([name, "mean best"] + [fmt(x) for x in mean])
            trows.append([name, f"share in {low}–{high}"] + [fmt(x) for x in in_band])
            line, = ax.plot(grid, dmed, label=f"{name} median")
            ax.plot(grid, dmean, linestyle="--", color=line.get_color(), label=f"{name} mean")
            finals = [best_energy(r) for r in prow]
            unsolved = [e for e in finals if e > 0]
            stuck = sum(1 for e in unsolved if low <= e <= high)
            # where the median first reached the band and how long it stayed there
            reach = next((float(a) for a, m in zip(at, med, strict=True)
                          if not math.isnan(m) and m <= high), math.nan)
            facts.append(
                f"{v.solver} on {name}: median best energy {fmt(med[0])} after {fmt(at[0])} "
                f"evaluations, "
                + (f"≤ {high} from {fmt(reach)} evaluations on, " if not math.isnan(reach)
                   else f"the median never at or below {high} within the budget, ")
                + f"{len(finals) - len(unsolved)}/{len(finals)} runs solved, and {stuck} of the "
                f"{len(unsolved)} unsolved ended at energy {low}–{high}")
        body += [f"*{v.solver}, {budget:,} evaluations a run (best energy at each number of "
                 f"evaluations, over {exp.seeds} seeds; \"share in {low}–{high}\": the share "
                 f"of runs whose best energy lies on the seed's stagnation levels):*", ""]
        body += table(header, trows) + [""]
        for level in STAGNATION_LEVELS:
            ax.axhline(level, color="grey", linewidth=0.8, linestyle=":")
        ax.text(grid[0], high + 0.3, f"seed's stagnation levels {low}–{high}", fontsize=7,
                color="grey")
        ax.set_xscale("log")
        ax.set_xlabel("evaluations")
        ax.set_ylabel("best energy so far")
        ax.set_title(f"{v.solver}, {exp.seeds} seeds, {budget:,} evals", fontsize=8)
        ax.legend(fontsize=6)
    save(fig, figures / fig_name)
    body += [f"![best energy against evaluations]({rel}/{fig_name})", "",
             "The PSO natives trace the best energy found so far (a row per new best), not the "
             "swarm's mean energy; \"mean\" here is the mean over runs of that best-so-far "
             "curve (the swarm's own mean is not recorded by native.pso-swarm or "
             "native.pso-swap)."]
    answer = ("; ".join(facts[:2]) + ". " + "; ".join(facts[2:]) + ".") if len(facts) > 2 \
        else "; ".join(facts) + "."
    return Section(
        "PSO convergence",
        "How does the swarm's best energy fall with evaluations on an easy and a hard puzzle, "
        "and does it stall at the seed's levels 2–4?",
        " — and — ".join(r.experiment.text() for r in results), body, answer)


# -- grid search with hold-out ---------------------------------------------------------------


def split_puzzles(rows: list[Row]) -> tuple[set, set]:
    """Alternate puzzles (in set order) into a pick half and a test half."""
    keys = sorted({puzzle_key(r) for r in rows})
    return set(keys[0::2]), set(keys[1::2])


def grid_section(result: ExperimentResult) -> Section:
    exp = result.experiment
    every = [r for v in exp.variants for r in result.rows(v.label)]
    pick_half, test_half = split_puzzles(every)
    default = next(v.label for v in exp.variants if v.params["inertia_start"] == 0.9
                   and v.params["c1"] == 1.0 and v.params["c2"] == 1.0)
    pick_s = {v.label: summarise([r for r in result.rows(v.label) if puzzle_key(r) in pick_half])
              for v in exp.variants}
    test_s = {v.label: summarise([r for r in result.rows(v.label) if puzzle_key(r) in test_half])
              for v in exp.variants}
    ranked = sorted(pick_s, key=lambda k: rank_key(pick_s[k]))
    pick = ranked[0]
    header = ("rank on pick half", "w c1 c2", "pick half: solved", "pick half: mean final energy",
              "test half: solved", "test half: mean final energy", "test half: ERT")
    rows = [[str(i + 1), k + (" (seed default)" if k == default else ""), rate_text(pick_s[k]),
             pick_s[k].mean_energy, rate_text(test_s[k]), test_s[k].mean_energy, test_s[k].ert]
            for i, k in enumerate(ranked)]
    body = [f"Pick half: {', '.join(f'{a}:{b}' for a, b in sorted(pick_half))}; test half: "
            f"{', '.join(f'{a}:{b}' for a, b in sorted(test_half))}. Ranked on the pick half by "
            "success, then ERT, then mean final energy; the test half is only read for the "
            "pick and the default.", ""]
    body += table(header, rows)
    tr = [r for r in result.rows(pick) if puzzle_key(r) in test_half]
    td = [r for r in result.rows(default) if puzzle_key(r) in test_half]
    if pick == default:
        comps: list[Comparison] = []
        verdict = "the pick is the seed's default, so there is nothing to test"
    else:
        c, m = _compare(pick, tr, default, td, exp.budget)
        comps = with_holm([c])
        verdict = f"on the test half ({m}): {comps[0].verdict()}"
        body += ["", f"Pick against the seed's default on the test half, paired Wilcoxon over "
                     f"puzzles on {m}:", ""]
        body += comparison_rows(comps)
    sp, tp, tdf = pick_s[pick], test_s[pick], test_s[default]
    answer = (f"The grid search picked {pick} on the pick half (solved {rate_text(sp)}, mean "
              f"final energy {fmt(sp.mean_energy)}); on the held-out half it solved "
              f"{rate_text(tp)} with mean final energy {fmt(tp.mean_energy)}, against the "
              f"seed's default {default} at {rate_text(tdf)} and {fmt(tdf.mean_energy)}. "
              f"Held out, {verdict}; the pick's pick-half figures are optimistic by "
              f"construction (selected on those runs), which is why only the test half is "
              f"tested.")
    return Section(
        "PSO parameter grid search (inertia, cognitive, social) with a hold-out pick",
        "Which inertia w and coefficients c1 (cognitive) and c2 (social) make the swap PSO "
        "solve most, picked on half of the puzzles and checked on the other half?",
        "native.pso-swap (the seed's swap PSO, the one with a velocity equation and w, c1, c2; "
        "w is the starting inertia, falling linearly to min(0.3, w)), grid w × c1 × c2: "
        + exp.text(), body, answer)


# -- hybrid against pure -----------------------------------------------------------------------


def hybrid_section(swap: ExperimentResult, hive: ExperimentResult) -> Section:
    body: list[str] = []
    comps: list[Comparison] = []
    names: list[str] = []
    fixed_lines = []
    for res in (swap, hive):
        exp = res.experiment
        labels = [v.label for v in exp.variants]
        first = min(puzzle_key(r) for r in res.rows(labels[0]))
        for k in labels:
            r = next((r for r in res.rows(k) if puzzle_key(r) == first
                      and r.get("seed_index") == 0), None)
            if r is not None:
                fixed_lines.append([k, f"{first[0]}:{first[1]}", str(r["seed"]), r["status"],
                                    r.get("evaluations"), r.get("iterations"),
                                    r.get("restarts"), best_energy(r)])
        body += [f"*Over seeds, {exp.budget.max_evaluations:,} evaluations a run:*", ""]
        body += table(SUMMARY_HEADER, [summary_cells(k, summarise(res.rows(k))) for k in labels])
        body.append("")
        for k in labels[1:]:
            c, m = _compare(k, res.rows(k), labels[0], res.rows(labels[0]), exp.budget)
            comps.append(c)
            names.append(m)
    comps = with_holm(comps)
    fixed = ["*At one fixed seed (seed index 0 of the first puzzle; the same run seed for "
             "every variant of a solver, as the seed's duel at seed 42):*", ""]
    fixed += table(("variant", "puzzle", "run seed", "status", "evaluations", "iterations",
                    "restarts", "final energy"), fixed_lines)
    body = fixed + [""] + body
    body += ["Each hybrid against its pure swarm, paired Wilcoxon over puzzles on "
             f"{' / '.join(sorted(set(names)))}, Holm:", ""]
    body += comparison_rows(comps)
    fs = {row[0]: row for row in fixed_lines}
    pure_s, seed_m = swap.experiment.variants[0].label, swap.experiment.variants[1].label
    first_sentence = ""
    if pure_s in fs and seed_m in fs:
        a, b = fs[pure_s], fs[seed_m]
        first_sentence = (f"At the fixed seed, the pure swap PSO ended {a[3]} after "
                          f"{fmt(a[4])} evaluations ({fmt(a[5])} iterations) and the seed's "
                          f"memetic variant {b[3]} after {fmt(b[4])} ({fmt(b[5])} iterations). ")
    over = "; ".join(f"{c.a} against {c.b}: {c.verdict()}" for c in comps)
    rates = ", ".join(f"{k} {rate_text(summarise(res.rows(k)))}" for res in (swap, hive)
                      for k in [v.label for v in res.experiment.variants])
    answer = f"{first_sentence}Over seeds ({rates}): {over}."
    return Section(
        "Hybrid (local search) against pure swarm",
        "Does adding a local search to the swarm (the seed's memetic swap PSO, its hybrid "
        "workers/explorers swarm) solve more or sooner than the pure swarm, at one seed and "
        "over seeds?",
        swap.experiment.text() + " — and — " + hive.experiment.text(), body, answer)
