"""``compare``: the racing plan, the verdicts, and the command end to end on a tiny budget."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from scipy.stats import norm

from sudoku_compare.bench import compare as cmp
from sudoku_compare.bench.cli import main
from sudoku_compare.bench.reporting import verdicts as vd
from sudoku_compare.bench.store import Store
from sudoku_compare.problems.errors import InputError


def pattern_solution() -> list[int]:
    """A valid 9x9 solution by the classic shifted pattern (no data file needed)."""
    return [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]


@pytest.fixture()
def tiny_set(tmp_path: Path) -> Path:
    sol = pattern_solution()
    lines = []
    for k in (2, 5):  # blank every k-th cell: two easy puzzles
        cells = [0 if (i * 7 + k) % k == 0 else v for i, v in enumerate(sol)]
        lines.append("".join(map(str, cells)))
    path = tmp_path / "tiny.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_pairs_put_counterparts_first_and_label_variants():
    pairs = vd.pairs_for(["native.sa", "native.sa-reheat", "simanneal.sa", "native.bitmask",
                          "native.norvig", "ortools.cpsat"], alternatives=True)
    kinds = {(p.native, p.library): p.kind for p in pairs}
    assert kinds[("native.sa", "simanneal.sa")] == "counterpart"
    assert kinds[("native.sa-reheat", "simanneal.sa")] == "variant"
    assert kinds[("native.norvig", "ortools.cpsat")] == "alternative"
    assert ("native.norvig", "ortools.cpsat") not in {
        (p.native, p.library) for p in vd.pairs_for(["native.norvig", "native.bitmask",
                                                     "ortools.cpsat"], alternatives=False)}
    cpsat = [p for p in pairs if p.library == "ortools.cpsat"]
    assert cpsat[0].kind == "counterpart"


def _run(solver: str, puzzle: int, solved: bool, seconds: float, evals: int | None = None,
         max_evals: int | None = None) -> dict:
    return {"solver": solver, "puzzle": f"p{puzzle}", "status": "solved" if solved else "unsolved",
            "elapsed_s": seconds, "max_seconds": 1.0, "evaluations": evals or 0,
            "max_evaluations": max_evals}


def test_verdict_is_significant_when_native_wins_on_every_puzzle():
    pair = vd.Pair("native.sa", "simanneal.sa", "counterpart", "annealing")
    runs = [_run("native.sa", i, True, 0.01 * (i + 1)) for i in range(12)]
    runs += [_run("simanneal.sa", i, False, 1.0) for i in range(12)]
    (v,) = vd.assess([pair], runs, alpha=0.05)
    assert v.view == vd.EQUAL_TIME and v.decision == "significant" and v.better == "native.sa"
    assert v.nonzero_pairs == 12 and v.native_solved == 12 and v.library_solved == 0
    # exact two-sided Wilcoxon, 12 pairs of one sign: 2 / 2**12
    assert v.p_holm == pytest.approx(2 / 2**12)
    assert "native.sa better" in v.text() and "12 puzzles × 1 seed" in v.text()


def test_the_direction_follows_the_test_not_the_median_ratio():
    # native solves 12 of 30 puzzles, the library none: the median ratio is 1 (most
    # puzzles tie at the penalty), yet every differing puzzle favours the native
    pair = vd.Pair("native.tabu", "simanneal.sa", "alternative", "annealing")
    runs = [_run("native.tabu", i, i < 12, 0.01 if i < 12 else 1.0, 1000 if i < 12 else 20_000,
                 20_000) for i in range(30)]
    runs += [_run("simanneal.sa", i, False, 1.0, 20_000, 20_000) for i in range(30)]
    (v,) = vd.assess([pair], runs)
    assert v.ratio == 1 and v.decision == "significant" and v.better == "native.tabu"
    assert "native.tabu better" in v.text()


def test_equivalence_needs_similar_success_not_only_a_median_ratio_of_one():
    pair = vd.Pair("native.ga", "deap.ga", "counterpart", "genetic")
    # 6 of 24 puzzles solved by the native alone: median ratio 1 [1, 1], not equivalence
    runs = [_run("native.ga", i, i < 6, 0.5 if i < 6 else 1.0) for i in range(24)]
    runs += [_run("deap.ga", i, False, 1.0) for i in range(24)]
    (v,) = vd.assess([pair], runs, alpha=0.001)
    assert v.ratio == 1 and v.ratio_ci == (1, 1) and v.decision == "inconclusive"
    # both solve the same 8 puzzles in the same time: equivalent
    runs = [_run(s, i, i < 8, 0.5 if i < 8 else 1.0) for s in ("native.ga", "deap.ga")
            for i in range(24)]
    (v,) = vd.assess([pair], runs)
    assert v.decision == "equivalent"


def test_both_failing_everywhere_is_not_equivalence():
    pair = vd.Pair("native.ga", "pygad.ga", "counterpart", "genetic")
    runs = [_run(s, i, False, 1.0, 16_000, 16_000) for s in ("native.ga", "pygad.ga")
            for i in range(8)]
    (v,) = vd.assess([pair], runs)
    assert v.view == vd.EQUAL_WORK and v.decision == "inconclusive"
    assert "16,000 evaluations" in v.text()


def test_an_inconclusive_verdict_says_what_more_runs_would_settle_it():
    pair = vd.Pair("native.sa", "simanneal.sa", "counterpart", "annealing")
    # native twice as fast on 6 of 10 puzzles, 1.5 times slower on 4: no clear effect
    runs = [_run("native.sa", i, True, 0.3 if i < 6 else 0.9) for i in range(10)]
    runs += [_run("simanneal.sa", i, True, 0.6) for i in range(10)]
    (v,) = vd.assess([pair], runs)
    assert v.decision == "inconclusive" and v.nonzero_pairs == 10
    z = float(norm.isf(v.p_value / 2))
    need = math.ceil(10 * (float(norm.isf(0.025)) / z) ** 2)
    assert f"about {need} puzzles would reach p < 0.05" in v.text()
    few = vd.Verdict(pair, vd.EQUAL_TIME, "1 s", 4, 1, 1, 4, 0, 4, (0, 1), (0, 1), 0.5,
                     (0.1, 2.0), 0.25, 4)
    assert "fewer than 6 puzzles differ" in few.text()


def test_equal_work_par2_is_in_evaluations_with_the_evaluation_penalty():
    assert vd.par2(_run("x", 0, False, 0.003, 500, 20_000)) == 40_000
    assert vd.par2(_run("x", 0, True, 0.003, 500, 20_000)) == 500
    assert vd.par2(_run("x", 0, False, 0.2)) == 2.0
    late = _run("x", 0, True, 1.5)  # a grid returned after max_seconds is not within budget
    assert not vd.solved_within_budget(late) and vd.par2(late) == 2.0


def test_plan_races_the_exact_group_at_equal_time(tiny_set):
    p = cmp.plan(["exact"], puzzles=str(tiny_set), time_box=10, workers=1)
    assert [(lane.group, lane.view) for lane in p.lanes] == [("exact", vd.EQUAL_TIME)]
    assert p.lanes[0].seeds == 1 and len(p.lanes[0].puzzles) == 2
    text = "\n".join(cmp.describe_plan(p))
    assert "native.bitmask vs ortools.cpsat" in text and "time box 10 s" in text
    with pytest.raises(InputError):
        cmp.plan(["no-such-family"], puzzles=str(tiny_set))
    with pytest.raises(InputError):
        cmp.plan(["exact"], puzzles=str(tiny_set), time_box=float("inf"))


def test_default_plan_has_both_views_for_stochastic_groups():
    try:
        p = cmp.plan(workers=2)
    except InputError:
        pytest.skip("no default puzzle set here")
    views = {(lane.group, lane.view) for lane in p.lanes}
    assert ("annealing", vd.EQUAL_WORK) in views and ("annealing", vd.EQUAL_TIME) in views
    assert ("exact", vd.EQUAL_TIME) in views and p.time_box <= 90


def test_compare_end_to_end(tiny_set, tmp_path, capsys):
    out = tmp_path / "reports" / "cmp.md"
    db = tmp_path / "cmp.db"
    rc = main(["compare", "exact", "--puzzles", str(tiny_set), "--time-box", "20",
               "--workers", "1", "--out", str(out), "--db", str(db), "--quiet"])
    assert rc == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[0] == "Verdicts:" and any("native.bitmask vs ortools.cpsat" in line
                                             for line in printed)
    text = out.read_text()
    assert text.startswith("# ")
    assert "Regenerate: `sudoku-compare compare exact" in text
    first_section = next(line for line in text.splitlines() if line.startswith("## "))
    assert first_section == "## Verdicts"
    with Store(db, readonly=True) as store:
        runs = store.runs()
    assert runs and all(r["seed_index"] == 0 for r in runs)
    assert {r["puzzle"].replace(".", "0") for r in runs} == set(tiny_set.read_text().split())
    assert all(r["status"] == "solved" for r in runs if r["solver"] == "native.bitmask")
    figs = out.parent / "cmp_figures"
    for f in figs.glob("*.svg"):
        assert ET.parse(f).getroot().tag.endswith("svg")
        assert f"cmp_figures/{f.name}" in text


def test_the_cli_default_time_box_is_the_compare_default():
    from sudoku_compare.bench.commands import compare_cmd

    assert compare_cmd.DEFAULT_TIME_BOX == cmp.DEFAULT_TIME_BOX


def test_the_same_run_stored_twice_is_one_observation():
    pair = vd.Pair("native.ga", "deap.ga", "counterpart", "genetic")
    runs = [{**_run(s, i, False, 1.0, 20_000, 20_000), "seed": 7 + i}
            for s in ("native.ga", "deap.ga") for i in range(3)]
    runs.append({**_run("deap.ga", 0, False, 1.0, 20_000, 20_000), "seed": 7})  # a pilot's copy
    (v,) = vd.assess([pair], runs)
    assert (v.native_runs, v.library_runs) == (3, 3)


def test_equal_work_budgets_land_on_the_1_2_5_ladder():
    """Rates measured a few tens of percent apart give the same equal-work budget."""
    from sudoku_compare.bench.compare import ladder_step

    assert [ladder_step(x) for x in (0, 1_999, 2_000, 4_999, 5_000, 10_000)] == [
        1_000, 1_000, 2_000, 2_000, 5_000, 10_000]
    # genetic's library rate in the last report (13,268/s) and one 13 % faster, 2 s cap
    assert {ladder_step(r * 2.0) for r in (13_268, 15_000)} == {20_000}
