"""Equal work and equal time: which table a run belongs to, and what it may be charged.

Every expected value is worked out by hand in the comments from the fixture rows below
(plain dicts, as ``Store.runs`` returns them), never by calling the report's own helpers.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from sudoku_compare.bench.reporting import markdown
from sudoku_compare.bench.reporting.comparisons import compare_all
from sudoku_compare.bench.reporting.report import summarize
from sudoku_compare.bench.reporting.summary import family_tables, uniqueness

P1, P2 = "1" + "0" * 80, "2" + "0" * 80
MAX_EVALS = 20_000

_FAMILY = {"native.sa": ("annealing", "native"), "native.sa-reheat": ("annealing", "native"),
           "simanneal.sa": ("annealing", "simanneal"), "mealpy.pso": ("swarm", "mealpy"),
           "native.pso-random-keys": ("swarm", "native"), "native.pso-swap": ("swarm", "native")}


def run(solver: str, puzzle: str, seed: int, status: str, evaluations: int | None,
        stop: str | None, *, elapsed: float | None = 0.05, max_seconds: float = 10.0,
        max_evaluations: int | None = MAX_EVALS, fraction: float | None = None,
        **extra: Any) -> dict[str, Any]:
    family, origin = _FAMILY[solver]
    return {"run_id": f"{solver}-{puzzle[:2]}-{seed}", "campaign_id": "c", "solver": solver,
            "family": family, "origin": origin, "puzzle_set": "s", "puzzle_index": 0,
            "puzzle": puzzle, "seed": 100 + seed, "seed_index": seed,
            "max_seconds": max_seconds, "max_evaluations": max_evaluations, "status": status,
            "elapsed_s": elapsed, "evaluations": evaluations, "stop_reason": stop,
            "schedule_fraction": fraction, "counters": {}, "trace": [], "extra": {},
            "versions": {}, **extra}


def _solved(solver: str, puzzle: str, seed: int, evaluations: int, **kw: Any) -> dict:
    return run(solver, puzzle, seed, "solved", evaluations, "target", **kw)


def _spent(solver: str, puzzle: str, seed: int, **kw: Any) -> dict:
    """Unsolved, its evaluation budget spent."""
    return run(solver, puzzle, seed, "unsolved", MAX_EVALS, "evaluations", **kw)


#: ``run --max-evals 20000`` alone: every failure spent its evaluations in milliseconds
EQUAL_WORK_RUNS = [
    _solved("native.sa", P1, 0, 5000), _solved("native.sa", P1, 1, 8000), _spent("native.sa", P1, 2),
    _solved("native.sa", P2, 0, 12000), _spent("native.sa", P2, 1), _spent("native.sa", P2, 2),
    _solved("simanneal.sa", P1, 0, 6000, fraction=0.25),
    _spent("simanneal.sa", P1, 1, fraction=0.25), _spent("simanneal.sa", P1, 2, fraction=0.3),
    *[_spent("simanneal.sa", P2, i, fraction=0.3) for i in range(3)],
]


def _rows(tables, view: str) -> dict[str, Any]:
    return {r.solver: r for t in tables if t.view == view for r in t.rows}


def test_max_evals_alone_gives_one_equal_work_table_in_evaluations():
    tables = family_tables(EQUAL_WORK_RUNS)
    assert [(t.view, t.max_evaluations) for t in tables] == [("equal work", MAX_EVALS)]
    rows = _rows(tables, "equal work")
    nat, lib = rows["native.sa"], rows["simanneal.sa"]
    assert (nat.solved, lib.solved) == (3, 1)
    # ERT: everything spent over successes
    assert nat.ert_evaluations == pytest.approx((5000 + 8000 + 20000 + 12000 + 20000 + 20000) / 3)
    assert lib.ert_evaluations == pytest.approx(6000 + 5 * 20000)
    # PAR-2: a failure is charged 2 x 20,000 evaluations, not 2 x max_seconds
    assert nat.par2_evaluations == pytest.approx((5000 + 8000 + 12000 + 3 * 40000) / 6)
    assert lib.par2_evaluations == pytest.approx((6000 + 5 * 40000) / 6)
    for r in (nat, lib):
        assert math.isnan(r.par2_seconds) and math.isnan(r.ert_seconds) and not r.withheld
    assert nat.stop_reasons == {"target": 3, "evaluations": 3}
    assert lib.stop_reasons == {"target": 1, "evaluations": 5}
    # schedule fractions 0.25, 0.25, 0.3, 0.3, 0.3, 0.3 -> median 0.3; native recorded none
    assert lib.schedule_fraction_median == pytest.approx(0.3) and lib.schedule_fraction_runs == 6
    assert nat.schedule_fraction_runs == 0


def test_equal_work_markdown_has_no_seconds_penalty():
    s = summarize(EQUAL_WORK_RUNS, figures=False)
    text = markdown.render(s)
    assert "### annealing — s — equal work, 20,000 evaluations per run" in text
    assert "2 × 20,000 = 40,000 evaluations" in text
    assert "PAR-2 (s)" not in text and "ERT (s)" not in text
    assert "equal time, " not in text.split("## Native against library")[0]  # no time table
    assert "| 28,333 | 24,167 |" in text  # native ERT and PAR-2 in evaluations
    assert "| 106,000 | 34,333 |" in text  # the library's
    assert "| target 1, evaluations 5 | 30 % |" in text
    assert "| target 3, evaluations 3 | unknown |" in text


def test_equal_work_comparison_is_in_evaluations():
    (c,) = compare_all(EQUAL_WORK_RUNS)
    assert (c.view, c.unit, c.budget, c.kind) == ("equal work", "evaluations", MAX_EVALS,
                                                  "counterpart")
    # per-puzzle medians of PAR-2 evaluations: native P1 (5000, 8000, 40000) -> 8000,
    # P2 (12000, 40000, 40000) -> 40000; library 40000 on both
    assert (c.native_median, c.library_median) == (24000, 40000)
    assert c.ratio == pytest.approx(0.6)
    # only P1 differs: no Wilcoxon p-value; the share counts P1 as a win and P2 as a tie
    assert c.nonzero == 1 and math.isnan(c.p_value) and c.note.startswith("n/a: too few pairs")
    assert c.share_better == pytest.approx(0.75)


#: the library is cut off by a 1 s clock after 3,000 evaluations; native spends its 20,000
MIXED_RUNS = [
    _solved("native.sa", P1, 0, 5000, max_seconds=1.0), _spent("native.sa", P1, 1, max_seconds=1.0),
    _solved("native.sa", P2, 0, 9000, max_seconds=1.0), _spent("native.sa", P2, 1, max_seconds=1.0),
    *[run("simanneal.sa", p, i, "unsolved", 3000, "clock", elapsed=1.0, max_seconds=1.0)
      for p in (P1, P2) for i in range(2)],
]


def test_mixed_stopping_rules_print_a_dash_with_a_footnote():
    tables = family_tables(MIXED_RUNS)
    # the clock bound some runs, so there is an equal-time table beside the equal-work one
    assert [t.view for t in tables] == ["equal work", "equal time"]
    work, time_ = _rows(tables, "equal work"), _rows(tables, "equal time")
    assert work["native.sa"].ert_evaluations == pytest.approx((5000 + 20000 + 9000 + 20000) / 2)
    assert math.isnan(work["simanneal.sa"].ert_evaluations)
    assert math.isnan(work["simanneal.sa"].par2_evaluations)
    assert "4 of 4 runs were stopped by the clock" in work["simanneal.sa"].withheld
    # in seconds the roles swap: native's failures stopped after 0.05 s by the evaluation
    # budget, so charging them 2 x 1 s would be the bug; the library's PAR-2 is 2 x 1 s
    assert math.isnan(time_["native.sa"].par2_seconds)
    assert "stopped by the evaluation budget" in time_["native.sa"].withheld
    assert time_["simanneal.sa"].par2_seconds == pytest.approx(2.0)
    text = markdown.render(summarize(MIXED_RUNS, figures=False))
    assert "| –¹ | –¹ |" in text
    assert "¹ Not shown: `simanneal.sa`: 4 of 4 runs were stopped by the clock" in text
    comps = compare_all(MIXED_RUNS)
    assert [c.view for c in comps] == ["equal work", "equal time"]
    for c in comps:
        assert math.isnan(c.p_value) and math.isnan(c.ratio)
        assert c.note.startswith("n/a: runs stopped by different rules")


def test_unknown_stop_reasons_are_unknown_not_guessed():
    old = [dict(r, stop_reason=None) for r in EQUAL_WORK_RUNS]
    tables = family_tables(old)
    # with both budgets and no stop reasons either could have bound: both views, no figure
    assert [t.view for t in tables] == ["equal work", "equal time"]
    work = _rows(tables, "equal work")["native.sa"]
    assert work.stop_reasons == {"unknown": 6} and math.isnan(work.ert_evaluations)
    assert "no recorded stop reason (unknown)" in work.withheld
    # with no evaluation budget only the clock could bind: PAR-2 in seconds stands
    clock_only = [dict(r, stop_reason=None, max_evaluations=None) for r in EQUAL_WORK_RUNS]
    (t,) = family_tables(clock_only)
    nat = _rows([t], "equal time")["native.sa"]
    assert t.view == "equal time" and not nat.withheld
    assert nat.par2_seconds == pytest.approx((3 * 0.05 + 3 * 20.0) / 6)


def test_exact_mann_whitney_on_one_puzzle():
    # 6 seeds a side: native solves 4 (1, 2, 3, 4 s), the library none; PAR-2 20 s each fail
    rows = [*[run("native.sa", P1, i, "solved", 100, "target", elapsed=t, max_evaluations=None)
              for i, t in enumerate((1.0, 2.0, 3.0, 4.0))],
            *[run("native.sa", P1, i, "unsolved", 1000, "clock", elapsed=10.0,
                  max_evaluations=None) for i in (4, 5)],
            *[run("simanneal.sa", P1, i, "unsolved", 900, "clock", elapsed=10.0,
                  max_evaluations=None) for i in range(6)]]
    (c,) = compare_all(rows)
    assert c.test == "mann-whitney" and c.method == "exact permutation"
    # U = 6 (4 solved below 6 failures: 0; 2 x 6 ties: 6); of the C(12, 6) = 924 splits,
    # 56 are at least as far from 18 -> p = 56 / 924 = 0.0606, not the approximated 0.028
    assert c.p_value == pytest.approx(56 / 924)
    # A12 = P(native better) + half the ties = (4 * 6 + 0.5 * 2 * 6) / 36
    assert c.a12 == pytest.approx(30 / 36)
    assert c.a12_low <= c.a12 <= c.a12_high  # 6 a side: an interval is given


def test_counterpart_pairs_first_then_improvements_and_variants():
    rows = [*EQUAL_WORK_RUNS,
            *[dict(r, solver="native.sa-reheat", run_id="h" + r["run_id"])
              for r in EQUAL_WORK_RUNS if r["solver"] == "native.sa"]]
    (t,) = family_tables(rows)
    assert [(r.solver, r.role, r.partner) for r in t.rows] == [
        ("native.sa", "counterpart", "simanneal.sa"),
        ("simanneal.sa", "library", "native.sa"),
        ("native.sa-reheat", "native improvement", "native.sa")]
    assert [(c.native, c.kind) for c in compare_all(rows)] == [
        ("native.sa", "counterpart"), ("native.sa-reheat", "native improvement")]
    text = markdown.render(summarize(rows, figures=False))
    assert "native improvement (variant of native.sa)" in text
    swarm = [dict(r, solver=s, family="swarm", origin=o)
             for s, o in (("mealpy.pso", "mealpy"), ("native.pso-random-keys", "native"),
                          ("native.pso-swap", "native")) for r in EQUAL_WORK_RUNS[:3]]
    (t,) = family_tables(swarm)
    assert [(r.solver, r.role) for r in t.rows] == [
        ("native.pso-random-keys", "counterpart"), ("mealpy.pso", "library"),
        ("native.pso-swap", "native variant")]


def test_a_late_grid_is_not_solved_within_budget():
    rows = [run("native.sa", P1, 0, "solved-late", 100, "target", elapsed=10.3,
                max_evaluations=None),
            run("native.sa", P1, 1, "solved", 100, "target", elapsed=10.2,  # an older store
                max_evaluations=None),
            run("native.sa", P1, 2, "solved", 100, "target", elapsed=3.0, max_evaluations=None)]
    (t,) = family_tables(rows)
    (r,) = t.rows
    assert r.solved == 1 and r.statuses == {"solved": 1, "solved-late": 2}
    assert r.par2_seconds == pytest.approx((3.0 + 20.0 + 20.0) / 3)


def test_uniqueness_is_counted_per_set_and_unknown_when_absent():
    rows = [dict(EQUAL_WORK_RUNS[0], unique=0), dict(EQUAL_WORK_RUNS[3], unique=1),
            dict(EQUAL_WORK_RUNS[3], puzzle="3" + "0" * 80)]  # no column: unknown
    (u,) = uniqueness(rows)
    assert (u.puzzles, u.unique, u.several, u.unknown) == (3, 1, 1, 1)
    text = "\n".join(markdown.uniqueness_section([u]))
    assert "s: 1 of 3 puzzles have several solutions (1 not checked)" in text
    assert "may return different valid grids" in text
    none = "\n".join(markdown.uniqueness_section(uniqueness(EQUAL_WORK_RUNS)))
    assert "Not recorded" in none


def test_two_libraries_share_one_counterpart():
    """native.ga is the twin of pygad.ga and of deap.ga: both pairs are counterpart pairs."""
    rows = [dict(r, solver=s, family="genetic", origin=o, run_id=s + r["run_id"])
            for s, o in (("native.ga", "native"), ("pygad.ga", "pygad"), ("deap.ga", "deap"),
                         ("native.ga-memetic", "native")) for r in EQUAL_WORK_RUNS[:6]]
    (t,) = family_tables(rows)
    assert [(r.solver, r.role, r.partner) for r in t.rows] == [
        ("native.ga", "counterpart", "deap.ga, pygad.ga"),
        ("deap.ga", "library", "native.ga"), ("pygad.ga", "library", "native.ga"),
        ("native.ga-memetic", "native improvement", "native.ga")]
    assert [(c.native, c.library, c.kind) for c in compare_all(rows)] == [
        ("native.ga", "deap.ga", "counterpart"), ("native.ga", "pygad.ga", "counterpart"),
        ("native.ga-memetic", "deap.ga", "native improvement"),
        ("native.ga-memetic", "pygad.ga", "native improvement")]


def test_ert_is_a_lower_bound_where_evaluations_are_unknown():
    # a worker that died: its evaluations are the last trace sample, a lower bound
    died = run("native.sa", P2, 2, "error", 700, "error",
               extra={"evaluations": "lower bound: the last trace sample"})
    rows = [*EQUAL_WORK_RUNS[:5], died]
    (t,) = [t for t in family_tables(rows) if t.view == "equal work"]
    (r,) = t.rows
    assert r.ert_evaluations == pytest.approx((5000 + 8000 + 20000 + 12000 + 20000 + 700) / 3)
    assert r.ert_evaluations_lower_bound
    text = "\n".join(markdown.family_section(t))
    assert "| ≥ 21,900 |" in text and "undercounts" in text


def test_max_evals_alone_draws_no_time_figure(tmp_path):
    s = summarize(EQUAL_WORK_RUNS, out=tmp_path / "w.md")
    kinds = [f.kind for f in s.figures]
    assert "ecdf-time" not in kinds and kinds.count("ecdf-evaluations") == 1
    (ecdf,) = [f for f in s.figures if f.kind == "ecdf-evaluations"]
    assert "Equal work" in ecdf.caption and "20,000 per run" in ecdf.caption
    assert (tmp_path / ecdf.path).is_file()


def test_a_solver_that_counts_no_evaluations_is_compared_on_time_only():
    rows = [dict(r, evaluations=0) if r["solver"] == "native.sa" else r
            for r in EQUAL_WORK_RUNS]
    tables = family_tables(rows)
    assert [t.view for t in tables] == ["equal work", "equal time"]
    comps = compare_all(rows)
    work = [c for c in comps if c.view == "equal work"]
    assert len(work) == 1 and work[0].note == (
        "n/a: a time-only comparison (native.sa: counts no evaluations)")
    table = [t for t in tables if t.view == "equal work"][0]
    text = "\n".join(markdown.family_section(table))
    assert "¹ Not shown: `native.sa`: counts no evaluations: an evaluations figure" in text
