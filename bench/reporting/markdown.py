"""Render a :class:`ReportSummary` as GitHub-readable markdown.

Only formatting lives here: every number comes from the summary, which ``--json`` dumps
as it is, so the markdown and the data cannot disagree.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

from .comparisons import ALPHA, Comparison
from .seed_view import SeedViewRow, unqualified_sets
from .stats import BOOTSTRAP_MIN_N
from .summary import COUNTER_ORDER, EXACT_FAMILIES, FamilyTable, Metadata, ReportSummary, SolverRow

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


def family_section(table: FamilyTable) -> list[str]:
    out = [f"### {table.family} — {table.puzzle_set}", ""]
    header = ["solver", "origin", "runs", "solved", "success % [Wilson 95 %]",
              "time to solution, median [IQR]", "evaluations to solution, median [IQR]",
              "ERT (s)", "ERT (evaluations)", "PAR-2 (s)", "evaluations/s", "not solved"]
    rows = []
    for r in table.rows:
        rows.append([f"`{r.solver}`", r.origin, str(r.runs), str(r.solved),
                     f"{fmt_pct(r.success_rate)} [{fmt_pct(r.wilson_low)}, {fmt_pct(r.wilson_high)}]",
                     _median_iqr(r.time_median, r.time_q1, r.time_q3, fmt_seconds),
                     _median_iqr(r.evals_median, r.evals_q1, r.evals_q3, fmt_number),
                     fmt_seconds(r.ert_seconds), fmt_number(r.ert_evaluations),
                     fmt_seconds(r.par2_seconds), fmt_number(r.evals_per_second),
                     _status_text(r.statuses)])
    out += _table(header, rows) + [""]
    if any(r.family in EXACT_FAMILIES for r in table.rows):
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


def comparisons_section(comps: list[Comparison]) -> list[str]:
    out = ["## Native against library", ""]
    if not comps:
        return out + ["No native and library solver ran on the same puzzles, so nothing "
                      "is compared.", ""]
    tested = sum(1 for c in comps if not math.isnan(c.p_value))
    out += [f"Measure: PAR-2 time of each run (its time when solved, twice its budget when not). "
            f"Several puzzles: paired Wilcoxon signed-rank over puzzles, each puzzle's median over "
            f"seeds being one observation; one puzzle: Mann-Whitney U over seeds. A12 = "
            f"P(native run faster) + ½ P(tie) on the same observations (0.5: no effect). Holm "
            f"correction over the {tested} tests of this report that could be run; "
            f"significant = Holm p < {ALPHA}. Ratio = median native / median library "
            f"(< 1: native faster), with a seeded percentile bootstrap 95 % interval when both "
            f"sides have at least {BOOTSTRAP_MIN_N} observations.", ""]
    if any(c.test == "wilcoxon" and c.n < 6 and not c.note for c in comps):
        out += ["With 5 or fewer puzzles the exact two-sided Wilcoxon p-value cannot fall "
                "below 0.0625, so those tests cannot be significant at 0.05 whatever the data; "
                "read their A12 and ratio instead, and run more puzzles for a test.", ""]
    by_group: dict[str, list[Comparison]] = defaultdict(list)
    for c in comps:
        by_group[c.group].append(c)
    for group, cs in by_group.items():
        out += [f"### {group}", ""]
        rows = []
        for c in cs:
            ratio = DASH if math.isnan(c.ratio) else f"{c.ratio:.3g}"
            if not math.isnan(c.ratio_low):
                ratio += f" [{c.ratio_low:.3g}, {c.ratio_high:.3g}]"
            p = c.note if c.note else fmt_p(c.p_value)
            rows.append([c.puzzle_set, f"`{c.native}`", f"`{c.library}`", c.test, str(c.n),
                         p, fmt_p(c.p_holm), "yes" if c.significant else "no",
                         DASH if math.isnan(c.a12) else f"{c.a12:.3f} ({c.magnitude})",
                         fmt_seconds(c.native_median_s), fmt_seconds(c.library_median_s), ratio])
        out += _table(["set", "native", "library", "test", "n", "p", "p (Holm)", "significant",
                       "A12 (native faster)", "native median", "library median",
                       "ratio [95 % CI]"], rows) + [""]
    return out


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
        out += [f"![{f.kind}]({f.path})", "", f"*{f.caption}*", ""]
    return out


READING = """## How to read this report

- *success* counts a run only when the bench verified its grid (every unit valid, every
  given kept); the Wilson interval is the 95 % score interval of the rate.
- *time/evaluations to solution* are over solved runs only; *ERT* divides everything spent by
  all runs (solved or not) by the number of successes (∞: none solved); *PAR-2* is the mean
  time with an unsolved run counted as twice its budget; *evaluations/s* is total
  evaluations over total solve time (the implementation's overhead per evaluation).
- *not solved* lists the statuses: unsolved (stopped within budget without a solution),
  timeout (killed at the hard deadline), memout, error, invalid (a wrong grid claimed solved).
"""


def render(summary: ReportSummary, title: str = "sudoku-compare report",
           preamble: list[str] | None = None) -> str:
    """The whole report as one markdown string."""
    meta = summary.metadata
    out = [f"# {title}", "", f"Regenerate: `{meta.report_command}`", ""]
    out += preamble or []
    if meta.partial:
        out += ["> **This report covers a partial campaign** (see Metadata).", ""]
    out += metadata_section(meta)
    out += ["## Results per family and puzzle set", ""]
    for t in summary.tables:
        out += family_section(t)
    out += comparisons_section(summary.comparisons)
    out += seed_view_section(summary.seed_view)
    out += figures_section(summary)
    out += [READING]
    return "\n".join(out).rstrip() + "\n"
