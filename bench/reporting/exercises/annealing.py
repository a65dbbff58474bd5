"""Sections: cooling schedules, and adaptive against fixed reheating (native.sa)."""

from __future__ import annotations

from collections import defaultdict

from .common import (
    SUMMARY_HEADER,
    ExperimentResult,
    Row,
    Section,
    compare,
    comparison_rows,
    fmt,
    penalised_evaluations,
    rank_key,
    rate_text,
    summarise,
    summary_cells,
    table,
    with_holm,
)


def _by_set(rows: list[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        out[str(r.get("puzzle_set"))].append(r)
    return out


def _per_set_table(result: ExperimentResult, extra: tuple[str, ...] = ("schedule done",),
                   extra_cells=None) -> list[str]:
    sets = sorted({str(r.get("puzzle_set")) for rows in result.runs.values() for r in rows})
    lines: list[str] = []
    for pset in sets:
        lines += [f"*{pset}*", ""]
        body = []
        for v in result.experiment.variants:
            rows = [r for r in result.rows(v.label) if str(r.get("puzzle_set")) == pset]
            s = summarise(rows)
            cells = summary_cells(v.label, s)
            cells += extra_cells(rows, s) if extra_cells else [s.schedule_fraction]
            body.append(cells)
        lines += table(SUMMARY_HEADER + extra, body) + [""]
    return lines


def cooling_section(result: ExperimentResult) -> Section:
    exp = result.experiment
    default = next(v.label for v in exp.variants
                   if v.params.get("schedule") == "exponential" and v.params.get("alpha") == 0.999)
    summaries = {v.label: summarise(result.rows(v.label)) for v in exp.variants}
    ranked = sorted(summaries, key=lambda k: rank_key(summaries[k]))
    best, worst = ranked[0], ranked[-1]

    def measure(r: Row) -> float:
        return penalised_evaluations(r, exp.budget)

    comps = with_holm([compare(v.label, result.rows(v.label), default, result.rows(default),
                               measure) for v in exp.variants if v.label != default])
    body = ["Per puzzle set (\"schedule done\": the mean share of the last heating phase's "
            "levels completed when the run stopped; below 1 the budget ended the cooling "
            "first):", ""]
    body += _per_set_table(result)
    body += ["All puzzles, each variant against the seed's default (exponential, α = 0.999): "
             "paired Wilcoxon over puzzles on each puzzle's median PAR-2 evaluations (a "
             "solved run counts its evaluations, an unsolved one twice the budget), Holm's "
             "correction over the section's tests:", ""]
    body += comparison_rows(comps)
    signif = [c for c in comps if c.significant()]
    s_best, s_def, s_worst = summaries[best], summaries[default], summaries[worst]
    if best == default:
        first = (f"Over {', '.join(exp.puzzles)} at {exp.budget.max_evaluations:,} evaluations "
                 f"a run, the seed's default (exponential, α = 0.999) ranked first: solved "
                 f"{rate_text(s_def)}, ERT {fmt(s_def.ert)} evaluations; the worst was "
                 f"{worst} ({rate_text(s_worst)}).")
    else:
        first = (f"Over {', '.join(exp.puzzles)} at {exp.budget.max_evaluations:,} evaluations "
                 f"a run, {best} ranked first (solved {rate_text(s_best)}, ERT "
                 f"{fmt(s_best.ert)} evaluations) against the seed's exponential α = 0.999 "
                 f"({rate_text(s_def)}, ERT {fmt(s_def.ert)}); the worst was {worst} "
                 f"({rate_text(s_worst)}).")
    if signif:
        names = "; ".join(f"{c.a} ({'better' if c.share_a_better > 0.5 else 'worse'}, "
                          f"Holm p = {c.p_holm:.3g})" for c in signif)
        second = (f"Against the default, {len(signif)} of {len(comps)} variants differ "
                  f"significantly on per-puzzle PAR-2 evaluations: {names}; the others show "
                  f"no significant difference.")
    else:
        second = (f"No variant differs significantly from the default on per-puzzle PAR-2 "
                  f"evaluations ({len(comps)} paired Wilcoxon tests, Holm-corrected), so on "
                  f"these puzzles the ranking is not evidence of a better schedule.")
    return Section(
        "Cooling schedules (native.sa)",
        "Which cooling schedule (exponential, linear, logarithmic) and which length (α, which "
        "sets the number of levels K = ⌈ln(Tmin/T0)/ln α⌉ for all three) solves most often "
        "and at the lowest cost?",
        "native.sa (the seed's annealer: T0 = 1, Tmin = 0.001, 100 moves a level), "
        "max_restarts = -1 (restart until the budget is spent), grid schedule × α: "
        + exp.text(), body, f"{first} {second}")


def reheat_section(result: ExperimentResult) -> Section:
    exp = result.experiment
    labels = [v.label for v in exp.variants]
    none_l, fixed_l, adaptive_l = labels

    def measure(r: Row) -> float:
        return penalised_evaluations(r, exp.budget)

    def reheats(rows: list[Row], _s) -> list[object]:
        counts = [float((r.get("counters") or {}).get("reheats", 0)) for r in rows]
        return [sum(counts) / len(counts) if counts else float("nan")]

    comps = with_holm([compare(fixed_l, result.rows(fixed_l), none_l, result.rows(none_l),
                               measure),
                       compare(adaptive_l, result.rows(adaptive_l), none_l,
                               result.rows(none_l), measure),
                       compare(adaptive_l, result.rows(adaptive_l), fixed_l,
                               result.rows(fixed_l), measure)])
    body = ["Per puzzle set (\"reheats\": mean reheats a run):", ""]
    body += _per_set_table(result, ("reheats",), reheats)
    body += ["All puzzles, paired Wilcoxon over puzzles on median PAR-2 evaluations, Holm:", ""]
    body += comparison_rows(comps)
    s = {k: summarise(result.rows(k)) for k in labels}
    by_set = {k: _by_set(result.rows(k)) for k in labels}
    hard = [p for p in by_set[none_l] if p != "easy51"]
    hard_text = ""
    if hard:
        p = hard[0]
        hs = {k: summarise(by_set[k].get(p, [])) for k in labels}
        hard_text = (f" (on {p}: none {hs[none_l].solved}/{hs[none_l].runs}, fixed "
                     f"{hs[fixed_l].solved}/{hs[fixed_l].runs}, adaptive "
                     f"{hs[adaptive_l].solved}/{hs[adaptive_l].runs}, median final energy "
                     f"{fmt(hs[none_l].median_energy)} / {fmt(hs[fixed_l].median_energy)} / "
                     f"{fmt(hs[adaptive_l].median_energy)})")
    first = (f"At {exp.budget.max_evaluations:,} evaluations a run, no reheat solved "
             f"{rate_text(s[none_l])}, fixed reheat {rate_text(s[fixed_l])} and adaptive "
             f"reheat {rate_text(s[adaptive_l])}{hard_text}.")
    c = comps[2]
    second = (f"Adaptive against fixed reheating: {c.verdict()}; fixed reheat against none: "
              f"{comps[0].verdict()}.")
    return Section(
        "Adaptive against fixed reheating (native.sa)",
        "Does reheating after 50 stagnant levels help the annealer, and does the seed's "
        "adaptive factor (0.5 / (1 + reheats so far)) do better than the fixed factor 0.5?",
        "native.sa with reheat_stagnation = 0 (none) or 50, reheat_factor = 0.5, "
        "adaptive_reheat false/true, max_restarts = -1: " + exp.text(), body,
        f"{first} {second}")
