"""Render a :class:`ReportSummary` as GitHub-readable markdown.

Only formatting lives here: every number comes from the summary, which ``--json`` dumps
as it is, so the markdown and the data cannot disagree.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

from .comparisons import ALPHA, Comparison
from .parameter_effect import parameter_effect_section
from .seed_view import SeedViewRow, unqualified_sets
from .stats import BOOTSTRAP_MIN_N, WILCOXON_MIN_NONZERO, wilcoxon_min_p
from .summary import (
    COUNTER_ORDER,
    EQUAL_WORK,
    EXACT_FAMILIES,
    FamilyTable,
    Metadata,
    ReportSummary,
    SetUniqueness,
    SolverRow,
    role_label,
)

DASH = "–"


# -- numbers ---------------------------------------------------------------------------
def fmt_seconds(x: float | None) -> str:
    """Seconds with a unit that keeps three significant digits readable."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return DASH
    if math.isinf(x):
        return "∞"
    if x == 0:
        return "0 s"
    if abs(x) < 1e-3:
        return f"{x * 1e6:.3g} µs"
    if abs(x) < 1:
        return f"{x * 1e3:.3g} ms"
    return f"{x:.3g} s"


def fmt_number(x: float | None) -> str:
    """Counts and rates: integers in full below a million, else three significant digits."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return DASH
    if math.isinf(x):
        return "∞"
    if abs(x) >= 1e6:
        return f"{x:.3g}"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if float(x).is_integer():
        return f"{int(x)}"
    return f"{x:.4g}"


def fmt_p(p: float) -> str:
    if math.isnan(p):
        return DASH
    if p < 1e-4:
        return f"{p:.1e}"
    return f"{p:.4f}"


def fmt_pct(x: float) -> str:
    return DASH if math.isnan(x) else f"{100 * x:.1f}"


def _median_iqr(med: float, q1: float, q3: float, fmt) -> str:
    if math.isnan(med):
        return DASH
    return f"{fmt(med)} [{fmt(q1)}, {fmt(q3)}]"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return out


# -- sections --------------------------------------------------------------------------
def metadata_section(meta: Metadata) -> list[str]:
    out = ["## Metadata", ""]
    if meta.partial:
        out += ["> **Partial campaign.** " + " ".join(r + "." for r in meta.partial_reasons), ""]
    rows = [["report written", meta.generated_at], ["database", f"`{meta.db}`"],
            ["runs in the database", str(meta.runs)],
            ["seeds per (solver, puzzle)", f"up to {meta.seeds} "
                      f"({meta.seed_values} distinct derived run seeds)"],
            ["budgets", "; ".join(
                f"{b['max_seconds']:g} s" + (f", {b['max_evaluations']} evaluations"
                                             if b["max_evaluations"] is not None else "")
                for b in meta.budgets)]]
    for c in meta.campaigns:
        m = c.machine or {}
        cpu = m.get("cpu") or m.get("processor") or "unknown"
        cores = m.get("cores") or m.get("cpu_count") or "?"
        rows += [[f"campaign `{c.campaign_id}`",
                  f"{c.created_at}; {c.finished_runs} of {c.planned_runs} planned runs present"],
                 ["command", f"`{c.command}`" if c.command else "(not recorded)"],
                 ["machine", f"{cpu}, {cores} cores; {m.get('platform', '')}".strip("; ")],
                 ["python", str(m.get("python", "?"))]]
        if m.get("libraries"):
            rows.append(["libraries", ", ".join(f"{k} {v}" for k, v in
                                                sorted(m["libraries"].items()))])
        cfg = {k: v for k, v in (c.config or {}).items()
               if not (k == "params" and not any((v or {}).values()))}
        if cfg:
            rows.append(["configuration", f"`{json.dumps(cfg, sort_keys=True, default=str)}`"])
    if meta.versions:
        rows.append(["versions (from the runs)", ", ".join(
            f"{k} {'/'.join(v)}" for k, v in meta.versions.items())])
    out += _table(["", ""], rows) + [""]
    return out + reproducibility_note(meta.budgets)


def reproducibility_note(budgets: list[dict]) -> list[str]:
    """Where the same seeds give the same tables, and where they cannot."""
    text = ("**Reproducibility.** Every run's seed is derived from the campaign seed, the "
            "puzzle and the seed index, and every adapted library is seeded with it (simanneal "
            "and DEAP through Python's global generators, reset before each run; CP-SAT with "
            "one search worker), so a run that stops by itself (solved, "
            "search exhausted, or its evaluation budget spent) is the same run on a rerun, "
            "timings aside.")
    if any(b.get("max_evaluations") is None for b in budgets):
        text += (" Runs stopped by the clock are not: with a wall-clock budget and no "
                 "evaluation budget, how far a run gets before its limit depends on the "
                 "machine's speed and load, so success counts near the limit, and the "
                 "counters and energies of unsolved runs, can differ between reruns and "
                 "machines. An evaluation budget (`sudoku-compare run --max-evals N`) makes a "
                 "stochastic campaign bit-reproducible.")
    return [text, ""]


def _status_text(statuses: dict[str, int]) -> str:
    shown = {k: v for k, v in statuses.items() if k not in ("solved",)}
    return ", ".join(f"{k} {v}" for k, v in shown.items()) or DASH


def _stops_text(stops: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in stops.items()) or DASH


def _schedule_text(row: SolverRow) -> str:
    """Median share of the schedule completed; "unknown" when no run recorded one."""
    if row.schedule_fraction_runs == 0:
        return "unknown"
    # three significant digits: 0.48 % of a cooling schedule must not print as 0 %, nor
    # 99.96 % as a finished 100 %
    share = 100 * row.schedule_fraction_median
    text = f"{share:.3g} %" if share < 99.95 or row.schedule_fraction_median >= 1 else "99.9 %"
    if row.schedule_fraction_runs < row.runs:
        text += f" ({row.schedule_fraction_runs} of {row.runs} runs)"
    return text


_SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹"


def _mark(i: int) -> str:
    return _SUPERSCRIPTS[i] if i < len(_SUPERSCRIPTS) else f"[{i + 1}]"


def _fmt_evals(n: float | int | None) -> str:
    return DASH if n is None else f"{int(n):,}"


def view_heading(table: FamilyTable) -> str:
    """The table's view and budget, in the words of the two questions."""
    if table.view == EQUAL_WORK:
        return f"equal work, {_fmt_evals(table.max_evaluations)} evaluations per run"
    return f"equal time, {fmt_seconds(table.max_seconds)} per run"


def view_sentence(table: FamilyTable) -> str:
    if table.view == EQUAL_WORK:
        n = table.max_evaluations or 0
        return (f"**Equal work** (compares algorithms): every run had a budget of {n:,} "
                f"objective evaluations; success, ERT and PAR-2 are in evaluations, and PAR-2 "
                f"charges an unsolved run 2 × {n:,} = {2 * n:,} evaluations. Times are in the "
                "equal-time table, where there is one.")
    both = (f" (the runs also had {_fmt_evals(table.max_evaluations)} evaluations each)"
            if table.max_evaluations is not None else "")
    return (f"**Equal time** (compares implementations): every run had "
            f"{fmt_seconds(table.max_seconds)} of solve time{both}; time to solution, ERT and "
            f"PAR-2 are in seconds, and PAR-2 charges an unsolved run 2 × "
            f"{fmt_seconds(table.max_seconds)} = {fmt_seconds(2 * table.max_seconds)}.")


def family_section(table: FamilyTable) -> list[str]:
    out = [f"### {table.family} — {table.puzzle_set} — {view_heading(table)}", "",
           view_sentence(table), ""]
    notes: list[str] = []

    def withheld(r: SolverRow) -> str:
        note = f"`{r.solver}`: {r.withheld}"
        if note not in notes:
            notes.append(note)
        return DASH + _mark(notes.index(note))

    rows = []
    work = table.view == EQUAL_WORK
    for r in table.rows:
        cells = [f"`{r.solver}`", role_label(r.role, r.partner), str(r.runs), str(r.solved),
                 f"{fmt_pct(r.success_rate)} [{fmt_pct(r.wilson_low)}, {fmt_pct(r.wilson_high)}]"]
        if work:
            ert = withheld(r) if r.withheld else fmt_number(r.ert_evaluations)
            if r.ert_evaluations_lower_bound and not r.withheld:
                ert = "≥ " + ert
            cells += [_median_iqr(r.evals_median, r.evals_q1, r.evals_q3, fmt_number), ert,
                      withheld(r) if r.withheld else fmt_number(r.par2_evaluations)]
        else:
            cells += [_median_iqr(r.time_median, r.time_q1, r.time_q3, fmt_seconds),
                      fmt_seconds(r.ert_seconds),
                      withheld(r) if r.withheld else fmt_seconds(r.par2_seconds),
                      _median_iqr(r.evals_median, r.evals_q1, r.evals_q3, fmt_number),
                      fmt_number(r.evals_per_second)]
        cells += [_stops_text(r.stop_reasons), _schedule_text(r), _status_text(r.statuses)]
        rows.append(cells)
    head = ["solver", "role", "runs", "solved", "success % [Wilson 95 %]"]
    if work:
        head += ["evaluations to solution, median [IQR]", "ERT (evaluations)",
                 "PAR-2 (evaluations)"]
    else:
        head += ["time to solution, median [IQR]", "ERT (s)", "PAR-2 (s)",
                 "evaluations to solution, median [IQR]", "evaluations/s"]
    head += ["stopped by", "schedule done, median", "not solved"]
    out += _table(head, rows) + [""]
    why = ("so its ERT and PAR-2 in evaluations would compare runs stopped by different rules"
           if work else "so its PAR-2 in seconds would charge twice the time budget to runs "
           "the clock did not stop")
    for i, note in enumerate(notes):
        text = (f"{note}: an evaluations figure of it would be a count of zeros" if
                note.endswith("counts no evaluations") else f"{note}, {why}")
        out.append(f"{_mark(i)} Not shown: {text}." + ("  " if i < len(notes) - 1 else ""))
    if notes:
        out.append("")
    if any(r.ert_evaluations_lower_bound and not r.withheld for r in table.rows) and work:
        out += ["≥: some runs' evaluations are unknown or a lower bound (a worker that died "
                "before reporting), so the ERT shown undercounts.", ""]
    if any(r.family in EXACT_FAMILIES for r in table.rows) and not work:
        out += counters_table(table.rows)
    return out


def counters_table(rows: list[SolverRow]) -> list[str]:
    names = [c for c in COUNTER_ORDER if any(c in r.counters for r in rows)]
    for r in rows:
        names += [c for c in r.counters if c not in names]
    if not names:
        return []
    out = ["Counters (mean per run):", ""]
    body = [[f"`{r.solver}`"] + [fmt_number(round(r.counters[c], 1)) if c in r.counters else DASH
                                 for c in names] for r in rows]
    return out + _table(["solver"] + names, body) + [""]


def _interval(value: float, low: float, high: float, digits: str = ".2f") -> str:
    if math.isnan(value):
        return DASH
    if math.isnan(low):
        return f"{value:{digits}} [no interval: < {BOOTSTRAP_MIN_N} a side]"
    return f"{value:{digits}} [{low:{digits}}, {high:{digits}}]"


def _fmt_measure(x: float, unit: str) -> str:
    return fmt_seconds(x) if unit == "s" else fmt_number(x)


def comparisons_section(comps: list[Comparison]) -> list[str]:
    out = ["## Native against library", ""]
    if not comps:
        return out + ["No native and library solver ran on the same puzzles, so nothing "
                      "is compared.", ""]
    tested = sum(1 for c in comps if not math.isnan(c.p_value))
    out += ["Measure: the PAR-2 value of each run in the unit of the budget that bound it: "
            "equal work, its evaluations when solved and twice the evaluation budget when not; "
            "equal time, its time when solved and twice the time budget when not. Several "
            "puzzles: paired Wilcoxon signed-rank over puzzles (each puzzle's median over seeds "
            "is one observation; *differing* counts the puzzles whose observations differ, the "
            "only ones the test uses), with two paired effect sizes: the share of puzzles where "
            "native is better (ties count ½; 0.5: no effect) and the matched-pairs rank-biserial "
            "correlation (−1 to 1, > 0: native better). One puzzle: Mann-Whitney U over seeds "
            "(exact; with tied values a permutation test, enumerated or seeded Monte Carlo), effect A12 = P(native run "
            "better) + ½ P(tie). Effect sizes carry seeded percentile bootstrap 95 % intervals "
            f"when there are at least {BOOTSTRAP_MIN_N} observations a side. Holm correction over "
            f"the {tested} tests of this report that could be run; significant = Holm p < "
            f"{ALPHA}. Ratio = median native / median library (< 1: native better). A pair "
            "whose runs were stopped by different rules is not tested.", ""]
    few = sorted({c.nonzero for c in comps if c.test == "wilcoxon" and c.nonzero is not None
                  and c.nonzero < WILCOXON_MIN_NONZERO and not c.note})
    if few:
        out += [f"With fewer than {WILCOXON_MIN_NONZERO} differing puzzles an exact two-sided "
                f"Wilcoxon p-value cannot fall below 0.05 (with {few[-1]} its minimum is "
                f"{wilcoxon_min_p(few[-1]):.4g}), so those tests cannot be significant whatever "
                "the data; their effect sizes are shown with intervals, which are wide or "
                "missing at these sample sizes. More puzzles are needed for a test.", ""]
    by_group: dict[tuple[str, str], list[Comparison]] = defaultdict(list)
    for c in comps:
        by_group[(c.group, c.view)].append(c)
    for (group, view), cs in by_group.items():
        out += [f"### {group} — {view}", ""]
        rows = []
        for c in cs:
            ratio = DASH if math.isnan(c.ratio) else f"{c.ratio:.3g}"
            if not math.isnan(c.ratio_low):
                ratio += f" [{c.ratio_low:.3g}, {c.ratio_high:.3g}]"
            p = c.note if c.note else fmt_p(c.p_value)
            if c.method and not c.note:
                p += f" ({c.method})"
            if c.test == "wilcoxon":
                n = f"{c.n} ({c.nonzero} differing)" if c.nonzero is not None else str(c.n)
                effect = (f"share {_interval(c.share_better, c.share_low, c.share_high)}; "
                          f"r {_interval(c.rank_biserial, c.rb_low, c.rb_high)}"
                          if not math.isnan(c.share_better) else DASH)
            else:
                n = str(c.n)
                effect = ("A12 " + _interval(c.a12, c.a12_low, c.a12_high, ".3f")
                          + (f" ({c.magnitude})" if c.magnitude else "")
                          if not math.isnan(c.a12) else DASH)
            budget = (f"{int(c.budget):,} evaluations" if c.unit == "evaluations"
                      else fmt_seconds(c.budget))
            rows.append([c.puzzle_set, budget, f"`{c.native}`", f"`{c.library}`", c.kind, c.test,
                         n, p, fmt_p(c.p_holm), "yes" if c.significant else "no", effect,
                         _fmt_measure(c.native_median, c.unit),
                         _fmt_measure(c.library_median, c.unit), ratio])
        out += _table(["set", "budget", "native", "library", "pair", "test", "n", "p",
                       "p (Holm)", "significant", "effect (native better) [95 % CI]",
                       "native median PAR-2", "library median PAR-2", "ratio [95 % CI]"],
                      rows) + [""]
    return out


def uniqueness_section(sets: list[SetUniqueness]) -> list[str]:
    """Puzzles with several solutions, per set: a solver may return any of them."""
    if not sets:
        return []
    out = ["## Puzzles with several solutions", ""]
    if all(u.unknown == u.puzzles for u in sets):
        return out + ["Not recorded: these runs do not say whether their puzzles have one "
                      "solution, so multi-solution puzzles, if any, are counted as solved like "
                      "the others and solvers may have returned different valid grids.", ""]
    for u in sets:
        text = f"- {u.puzzle_set}: {u.several} of {u.puzzles} puzzles have several solutions"
        if u.unknown:
            text += f" ({u.unknown} not checked)"
        if u.several:
            text += ("; solvers may return different valid grids for them, and each verified "
                     "grid counts as solved")
        out.append(text + ".")
    return out + [""]


def seed_view_section(rows: list[SeedViewRow]) -> list[str]:
    out = ["## The seed notebooks' view", "",
           "As `SudokuHelper.TestSolvers` printed it: per difficulty (easy51 = Easy, hardest = "
           "Medium, top95 = Hard; the generated sets map to their bands), total time over the "
           "set (mean over seeds), puzzles solved by every seed, and *Disqualified* as soon as "
           "one run is not solved within its per-puzzle limit.", "", "```"]
    for r in rows:
        label = r.difficulty if r.difficulty == r.puzzle_set else f"{r.difficulty} ({r.puzzle_set})"
        out.append(f"{r.solver} | {label} | {r.total_seconds * 1000:.0f} ms | "
                   f"{r.solved_puzzles}/{r.puzzles} solved | {r.status}")
    out.append("```")
    for s in unqualified_sets(rows):
        out.append(f"\n{s}: no solver qualified (all disqualified or timed out).")
    return out + [""]


def figures_section(summary: ReportSummary) -> list[str]:
    if not summary.figures:
        return []
    out = ["## Figures", ""]
    for f in summary.figures:
        if f.kind != "forest":  # shown under the verdicts
            out += [f"![{f.alt or f.kind}]({f.path})", "", f"*{f.caption}*", ""]
    return out


READING = """## How to read this report

- *success* counts a run only when the bench verified its grid (every unit valid, every
  given kept); the Wilson interval is the 95 % score interval of the rate.
- *equal work* tables share an evaluation budget (they compare algorithms: ERT and PAR-2 in
  evaluations, an unsolved run charged twice the evaluation budget); *equal time* tables
  share a clock (they compare implementations: ERT and PAR-2 in seconds, an unsolved run
  charged twice the time budget). A figure is shown as "–" with a numbered note when it
  would compare runs stopped by different rules.
- *time/evaluations to solution* are over solved runs only; *ERT* divides everything spent by
  all runs (solved or not) by the number of successes (∞: none solved); *PAR-2* is the mean
  with an unsolved run counted as twice its budget; *evaluations/s* is total evaluations over
  total solve time (the implementation's overhead per evaluation).
- *role*: each library row follows its declared native counterpart (the same algorithm on the
  same encoding); native improvements (the counterpart's algorithm with other settings:
  reheat, restarts, memetic, hybrid) and other native variants follow, and are not the
  library's equal.
- *stopped by* counts why runs ended: target (solved), evaluations (the evaluation budget),
  clock (the time budget), killed (hard deadline), exhausted (no solution exists),
  finished (the algorithm's own end with budget left), error; unknown: not recorded.
  *schedule done* is the median share of its own schedule (cooling, generations, epochs,
  restarts) a run completed; unknown when no run recorded it.
- *not solved* lists the statuses: solved-late (a verified grid after the time budget: not
  solved within it), unsolved (stopped within budget without a solution), timeout (killed at
  the hard deadline), memout, error, invalid (a wrong grid claimed solved).
"""


def verdicts_section(summary: ReportSummary) -> list[str]:
    """The report's first section: one line per pair and view, then the forest plot."""
    out = ["## Verdicts", "",
           "One line per pair and view, the counterpart pairs first. Equal work shares an "
           "evaluation budget (compares algorithms); equal time shares a clock (compares "
           "implementations). Solved counts carry 95 % Wilson intervals; the PAR-2 ratio is "
           "the median over puzzles of native / library with a paired bootstrap interval "
           "(below 1: the native is better); p values are paired Wilcoxon over puzzles, "
           f"{summary.verdict_level or 'Holm over every line'}. The side called better is the "
           "one the signed-rank test favours; the median ratio stays 1 when fewer than half "
           "the puzzles differ (most of them tied at the penalty), so the two can disagree.",
           ""]
    out += [f"- {v.text()}" for v in summary.verdicts]
    if not summary.verdicts:
        out.append("- no counterpart pair had runs on both sides")
    out.append("")
    for f in summary.figures:
        if f.kind == "forest":
            out += [f"![Forest plot of the PAR-2 ratios of every pair]({f.path})", "",
                     f"*{f.caption}*", ""]
    return out


def render(summary: ReportSummary, title: str = "sudoku-compare report",
           preamble: list[str] | None = None) -> str:
    """The whole report as one markdown string: verdicts first, details, metadata last."""
    meta = summary.metadata
    out = [f"# {title}", "", f"Regenerate: `{meta.report_command}`", ""]
    if meta.partial:
        out += ["> **This report covers a partial campaign** (see Metadata).", ""]
    out += verdicts_section(summary)
    out += preamble or []
    out += ["## Results per family and puzzle set", ""]
    for t in summary.tables:
        out += family_section(t)
    out += comparisons_section(summary.comparisons)
    out += parameter_effect_section(summary.parameter_effects)
    out += uniqueness_section(summary.uniqueness)
    out += seed_view_section(summary.seed_view)
    out += figures_section(summary)
    out += [READING]
    out += metadata_section(meta)
    return "\n".join(out).rstrip() + "\n"
