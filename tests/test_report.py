"""The report on a fixture database whose every number is computed by hand here.

The expected values are written out (or computed with the textbook formula) in this file,
never by calling the report's own functions, so a wrong formula in the report fails here.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudoku_compare.bench.cli import main
from sudoku_compare.bench.reporting.report import build_summary, write_report
from sudoku_compare.bench.store import Store

BUDGET = 10.0
P1, P2 = "1" + "0" * 80, "2" + "0" * 80
H1 = "3" + "0" * 80
T1, T2 = "4" + "0" * 80, "5" + "0" * 80
G = [str(i) + "0" * 80 for i in range(6, 10)] + ["12" + "0" * 79, "13" + "0" * 79]

# (solver, family, origin, set, puzzle, seed_index, status, elapsed, evaluations, counters)
RUNS = [
    # annealing on easy51: 2 puzzles x 2 seeds
    ("native.sa", "annealing", "native", "easy51", P1, 0, "solved", 1.0, 100, None),
    ("native.sa", "annealing", "native", "easy51", P1, 1, "solved", 3.0, 300, None),
    ("native.sa", "annealing", "native", "easy51", P2, 0, "solved", 2.0, 200, None),
    ("native.sa", "annealing", "native", "easy51", P2, 1, "unsolved", 10.0, 1000, None),
    ("simanneal.sa", "annealing", "simanneal", "easy51", P1, 0, "solved", 4.0, 400, None),
    ("simanneal.sa", "annealing", "simanneal", "easy51", P1, 1, "timeout", None, None, None),
    ("simanneal.sa", "annealing", "simanneal", "easy51", P2, 0, "solved", 5.0, 500, None),
    ("simanneal.sa", "annealing", "simanneal", "easy51", P2, 1, "solved", 6.0, 600, None),
    # annealing on hardest: 1 puzzle x 3 seeds (Mann-Whitney)
    *[("native.sa", "annealing", "native", "hardest", H1, i, "solved", t, 10 * i + 10, None)
      for i, t in enumerate((1.0, 2.0, 3.0))],
    *[("simanneal.sa", "annealing", "simanneal", "hardest", H1, i, "solved", t, 10, None)
      for i, t in enumerate((4.0, 5.0, 6.0))],
    # genetic on easy51: 6 puzzles x 1 seed, native always faster (Wilcoxon exact p = 2/64)
    *[("native.ga", "genetic", "native", "easy51", g, 0, "solved", 0.1 * (k + 1), 50, None)
      for k, g in enumerate(G)],
    *[("pygad.ga", "genetic", "pygad", "easy51", g, 0, "solved", 1.0 + k, 60, None)
      for k, g in enumerate(G)],
    # exact on hardest: one run each (too few runs)
    ("native.norvig", "exact", "native", "hardest", H1, 0, "solved", 0.002, 0,
     {"search_calls": 30, "assignments": 60, "backtracks": 3, "guesses": 4}),
    ("ortools.cpsat", "csp", "ortools", "hardest", H1, 0, "solved", 0.004, 0, {}),
    # exact on top95: every run times out (all pairs tied)
    ("native.norvig", "exact", "native", "top95", T1, 0, "timeout", None, 0, {}),
    ("native.norvig", "exact", "native", "top95", T2, 0, "error", 0.5, 0, {}),
    ("ortools.cpsat", "csp", "ortools", "top95", T1, 0, "memout", 10.0, 0, {}),
    ("ortools.cpsat", "csp", "ortools", "top95", T2, 0, "invalid", 2.0, 0, {}),
]
PLANNED = len(RUNS) + 2
#: why each fixture run stopped, as the runner records it (the unsolved native.sa run used
#: its whole 10 s: the clock; a memout is an error; an invalid grid was claimed solved)
STOP = {"solved": "target", "unsolved": "clock", "timeout": "killed", "error": "error",
        "memout": "error", "invalid": "target"}


def _trace(evals: int | None, status: str) -> list[list[float]]:
    if not evals:
        return []
    return [[1, 0.0, 20.0], [evals // 2, 0.1, 5.0], [evals, 0.2, 0.0 if status == "solved" else 2.0]]


def make_db(path: Path) -> Path:
    with Store(path) as store:
        store.add_campaign("c1", "2026-12-03T07:00:00", "sudoku-compare run --fixture",
                           {"seeds": 3, "budget": {"max_seconds": BUDGET}},
                           {"cpu": "Fixture CPU", "cores": 2, "python": "3.11.0"}, PLANNED)
        for i, (solver, fam, origin, pset, puzzle, si, status, t, e, counters) in enumerate(RUNS):
            store.add_run({
                "run_id": f"r{i}", "campaign_id": "c1", "solver": solver, "family": fam,
                "origin": origin, "encoding": "x", "params": {}, "puzzle_set": pset,
                "puzzle_index": int(puzzle.rstrip("0")), "puzzle": puzzle, "seed": 1000 + si, "seed_index": si,
                "max_seconds": BUDGET, "max_evaluations": None, "status": status,
                "elapsed_s": t, "evaluations": e, "iterations": 0, "restarts": 0,
                "best_energy": 0.0, "counters": counters or {}, "trace": _trace(e, status),
                "extra": {}, "versions": {"python": "3.11.0", origin: "1.0"}, "grid": None,
                "violations": [], "error": None, "finished_at": "2026-12-03T07:01:00",
                "stop_reason": STOP[status]})
    return path


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The textbook Wilson score interval."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = tmp_path_factory.mktemp("report")
    db = make_db(d / "fixture.db")
    out = d / "out" / "fixture.md"
    summary = write_report(db, out, report_command="sudoku-compare report --db fixture.db",
                           json_path=d / "fixture.json", csv_dir=d / "csv")
    return db, out, summary, d


def _row(summary, solver, pset):
    for t in summary.tables:
        for r in t.rows:
            if r.solver == solver and r.puzzle_set == pset:
                return r
    raise AssertionError(f"no row {solver} {pset}")


def _comparison(summary, native, library, pset):
    for c in summary.comparisons:
        if (c.native, c.library, c.puzzle_set) == (native, library, pset):
            return c
    raise AssertionError("no such comparison")


def test_native_sa_row_by_hand(report):
    _, _, s, _ = report
    r = _row(s, "native.sa", "easy51")
    assert (r.runs, r.solved, r.puzzles, r.seeds) == (4, 3, 2, 2)
    assert r.success_rate == 0.75
    lo, hi = wilson(3, 4)
    assert r.wilson_low == pytest.approx(lo) and r.wilson_high == pytest.approx(hi)
    assert r.wilson_low == pytest.approx(0.3006418, abs=1e-6)  # published value for 3/4
    # solved times 1, 3, 2 -> median 2, quartiles (linear) 1.5 and 2.5
    assert (r.time_median, r.time_q1, r.time_q3) == (2.0, 1.5, 2.5)
    assert (r.evals_median, r.evals_q1, r.evals_q3) == (200.0, 150.0, 250.0)
    assert r.ert_seconds == pytest.approx((1 + 3 + 2 + 10) / 3)
    # an equal-time table (no evaluation budget) has no ERT in evaluations: the clock stopped
    # the failed run, so its 1000 evaluations measure speed, not work
    assert r.view == "equal time" and math.isnan(r.ert_evaluations)
    assert math.isnan(r.par2_evaluations)
    assert r.par2_seconds == pytest.approx((1 + 3 + 2 + 2 * BUDGET) / 4)
    assert r.evals_per_second == pytest.approx(1600 / 16)
    assert r.statuses == {"solved": 3, "unsolved": 1}
    assert r.stop_reasons == {"target": 3, "clock": 1}
    assert r.schedule_fraction_runs == 0 and math.isnan(r.schedule_fraction_median)
    assert (r.role, r.partner) == ("counterpart", "simanneal.sa")


def test_library_row_charges_killed_runs_their_budget(report):
    _, _, s, _ = report
    r = _row(s, "simanneal.sa", "easy51")
    assert r.solved == 3 and r.statuses == {"solved": 3, "timeout": 1}
    assert r.ert_seconds == pytest.approx((4 + BUDGET + 5 + 6) / 3)
    assert math.isnan(r.ert_evaluations)  # the killed run's evaluations are unknown
    assert r.stop_reasons == {"target": 3, "killed": 1}
    assert (r.role, r.partner) == ("library", "native.sa")
    assert r.par2_seconds == pytest.approx((4 + 2 * BUDGET + 5 + 6) / 4)


def test_nothing_solved_gives_infinite_ert_and_zero_rate(report):
    _, _, s, _ = report
    r = _row(s, "ortools.cpsat", "top95")
    assert r.solved == 0 and math.isinf(r.ert_seconds)
    assert r.wilson_low == 0.0 and r.wilson_high == pytest.approx(wilson(0, 2)[1])
    assert r.statuses == {"memout": 1, "invalid": 1}
    assert r.par2_seconds == pytest.approx(2 * BUDGET)
    n = _row(s, "native.norvig", "top95")
    assert n.statuses == {"timeout": 1, "error": 1}


def test_exact_counters_are_means_per_run(report):
    _, _, s, _ = report
    r = _row(s, "native.norvig", "hardest")
    assert r.counters == {"search_calls": 30, "assignments": 60, "backtracks": 3, "guesses": 4}
    table = [t for t in s.tables if t.puzzle_set == "hardest" and t.family == "exact"][0]
    assert [x.solver for x in table.rows] == ["native.norvig", "ortools.cpsat"]


def test_wilcoxon_over_puzzle_medians(report):
    _, _, s, _ = report
    c = _comparison(s, "native.sa", "simanneal.sa", "easy51")
    assert c.test == "wilcoxon" and c.n == 2
    # PAR-2 medians per puzzle: native P1 (1,3)->2, P2 (2,20)->11; library P1 (4,20)->12,
    # P2 (5,6)->5.5. Differences -10, +5.5: exact two-sided p over 4 sign patterns = 1.
    assert c.p_value == pytest.approx(1.0)
    # paired effect: native better on P1 (2 < 12), worse on P2 (11 > 5.5) -> share 1/2;
    # rank-biserial: library - native = +10 (rank 2), -5.5 (rank 1) -> (2 - 1) / 3
    assert c.nonzero == 2 and math.isnan(c.a12)
    assert c.share_better == pytest.approx(0.5)
    assert c.rank_biserial == pytest.approx(1 / 3)
    assert math.isnan(c.share_low)  # 2 puzzles: too few for a bootstrap interval
    assert (c.kind, c.view, c.unit, c.budget) == ("counterpart", "equal time", "s", BUDGET)
    assert c.native_median == pytest.approx(6.5) and c.library_median == pytest.approx(8.75)
    assert c.ratio == pytest.approx(6.5 / 8.75)


def test_mann_whitney_within_one_puzzle(report):
    _, _, s, _ = report
    c = _comparison(s, "native.sa", "simanneal.sa", "hardest")
    assert c.test == "mann-whitney" and c.n == 6
    # native 1,2,3 all below library 4,5,6: U = 0, exact two-sided p = 2 / C(6,3) = 0.1
    assert c.p_value == pytest.approx(0.1)
    assert c.a12 == 1.0 and c.method == "exact"
    # 3 runs a side: no interval, so no verbal magnitude either
    assert c.magnitude == "" and math.isnan(c.a12_low)
    assert c.ratio == pytest.approx(2.0 / 5.0)
    assert math.isnan(c.ratio_low)  # 3 seeds a side: too few for a bootstrap interval


def test_holm_order_and_adjustment(report):
    _, _, s, _ = report
    g = _comparison(s, "native.ga", "pygad.ga", "easy51")
    h = _comparison(s, "native.sa", "simanneal.sa", "hardest")
    e = _comparison(s, "native.sa", "simanneal.sa", "easy51")
    assert g.p_value == pytest.approx(2 / 64)  # all six differences negative
    # native k-th time 0.1 (k + 1) vs library 1 + k: medians 0.35 and 3.5
    assert g.ratio == pytest.approx(0.1) and g.ratio_low <= g.ratio <= g.ratio_high
    assert (g.holm_rank, h.holm_rank, e.holm_rank) == (1, 2, 3)
    assert g.p_holm == pytest.approx(3 * 2 / 64)
    assert h.p_holm == pytest.approx(max(3 * 2 / 64, 2 * 0.1))
    assert e.p_holm == pytest.approx(1.0)
    assert not any(c.significant for c in s.comparisons)


def test_degenerate_comparisons_are_not_tested(report):
    _, _, s, _ = report
    one = _comparison(s, "native.norvig", "ortools.cpsat", "hardest")
    assert math.isnan(one.p_value) and one.note == "n/a: too few runs" and one.holm_rank == 0
    tied = _comparison(s, "native.norvig", "ortools.cpsat", "top95")
    assert math.isnan(tied.p_value) and tied.note == "n/a: all pairs tied"
    assert math.isnan(tied.p_holm)


def test_seed_view(report):
    _, _, s, _ = report
    rows = {(r.solver, r.puzzle_set): r for r in s.seed_view}
    sa = rows[("native.sa", "easy51")]
    assert sa.difficulty == "Easy" and sa.status == "Disqualified"
    assert sa.solved_puzzles == 1 and sa.puzzles == 2
    assert sa.total_seconds == pytest.approx((1 + 3 + 2 + 10) / 2)
    hard = rows[("native.sa", "hardest")]
    assert hard.difficulty == "Medium" and hard.status == "Success" and hard.solved_puzzles == 1
    assert rows[("ortools.cpsat", "top95")].difficulty == "Hard"
    # difficulties come out Easy, Medium, Hard
    order = [r.difficulty for r in s.seed_view]
    assert order == sorted(order, key=["Easy", "Medium", "Hard"].index)


def test_seed_view_counts_a_puzzle_listed_twice_twice():
    """easy51 holds one puzzle on two lines; the seed's loop counted 51 puzzles, not 50."""
    from sudoku_compare.bench.reporting.seed_view import seed_view

    def run(index: int, status: str) -> dict:
        return {"solver": "native.dlx", "family": "exact", "origin": "native",
                "puzzle_set": "easy51", "puzzle_index": index, "puzzle": "same givens",
                "seed": 1, "seed_index": 0, "status": status, "elapsed_s": 0.5,
                "max_seconds": 1.0, "evaluations": None}

    (row,) = seed_view([run(3, "solved"), run(7, "solved"), run(9, "unsolved")])
    assert (row.puzzles, row.solved_puzzles, row.status) == (3, 2, "Disqualified")


def test_partial_campaign_is_reported(report):
    _, out, s, _ = report
    assert s.metadata.partial
    assert f"{len(RUNS)} of {PLANNED} planned runs" in " ".join(s.metadata.partial_reasons)
    text = out.read_text()
    assert "Partial campaign" in text and "Fixture CPU, 2 cores" in text
    assert "sudoku-compare run --fixture" in text


def test_markdown_shows_the_numbers(report):
    _, out, _, _ = report
    text = out.read_text()
    lo, hi = wilson(3, 4)
    assert f"75.0 [{100 * lo:.1f}, {100 * hi:.1f}]" in text
    assert "| `native.sa` | native counterpart of simanneal.sa | 4 | 3 |" in text
    assert "### annealing — easy51 — equal time, 10 s per run" in text
    assert "charges an unsolved run 2 × 10 s = 20 s" in text
    assert "| target 3, clock 1 | unknown |" in text  # stop reasons, no schedule recorded
    assert "6.5 s" in text  # PAR-2 of native.sa on easy51
    assert "n/a: all pairs tied" in text and "n/a: too few runs" in text
    assert "native.sa | Easy (easy51) | 8000 ms | 1/2 solved | Disqualified" in text
    assert "top95: no solver qualified" in text


def test_figures_exist_and_are_valid_svg(report):
    _, out, s, _ = report
    kinds = {f.kind for f in s.figures}
    assert {"ecdf-time", "convergence", "success"} <= kinds
    # no run had an evaluation budget: an ECDF over evaluations would compare clock-cut runs
    assert "ecdf-evaluations" not in kinds
    text = out.read_text()
    for f in s.figures:
        path = out.parent / f.path
        assert f"]({f.path})" in text
        root = ET.parse(path).getroot()
        assert root.tag.endswith("svg")
        assert "Seeds:" in f.caption and "Budget: 10 s per run" in f.caption
        assert "Set:" in f.caption and "Solvers:" in f.caption
    conv = [f for f in s.figures if f.kind == "convergence"]
    # one convergence figure per counterpart pair and view (here: equal time only)
    assert {f.path.rsplit("/", 1)[1] for f in conv} == {"convergence-native-sa-equal-time.svg",
                                                        "convergence-native-ga-equal-time.svg"}
    assert all(f.alt and f.legend_entries <= 8 for f in s.figures)


def test_the_report_opens_with_the_verdicts_and_ends_with_the_metadata(report):
    _, out, s, d = report
    text = out.read_text()
    assert text.index("## Verdicts") < text.index("## Results per family") < text.index(
        "## Metadata")
    assert text.rstrip().splitlines()[-1].startswith("**Reproducibility.**") or (
        text.index("## Metadata") > text.index("## How to read this report"))
    (ga,) = [v for v in s.verdicts if v.pair.native == "native.ga"]
    assert ga.pair.library == "pygad.ga" and ga.puzzles == 6 and ga.native_solved == 6
    assert f"- {ga.text()}" in text
    data = json.loads((d / "fixture.json").read_text())
    assert [v["text"] for v in data["verdicts"]] == [v.text() for v in s.verdicts]
    assert data["verdicts"][0]["pair"]["native"] in ("native.sa", "native.ga", "native.norvig")


def test_pairs_share_a_hue_native_solid_library_dashed():
    from sudoku_compare.bench.reporting.figures import palette

    runs = [dict(solver=n, origin=o, family=f) for n, o, f in (
        ("native.ga", "native", "genetic"), ("pygad.ga", "pygad", "genetic"),
        ("deap.ga", "deap", "genetic"), ("native.ga-memetic", "native", "genetic"),
        ("native.sa", "native", "annealing"), ("simanneal.sa", "simanneal", "annealing"))]
    st = palette(runs)
    assert st["native.ga"]["color"] == st["pygad.ga"]["color"] == st["deap.ga"]["color"]
    assert st["native.ga"]["linestyle"] == "-"
    assert {st["pygad.ga"]["linestyle"], st["deap.ga"]["linestyle"]} == {"--", ":"}
    # the memetic improvement: a lighter tint of its counterpart's hue, drawn solid
    assert st["native.ga-memetic"]["color"] != st["native.ga"]["color"]
    assert st["native.ga-memetic"]["linestyle"] == "-"
    assert st["native.sa"]["color"] == st["simanneal.sa"]["color"]


def _png_size(path):
    import struct

    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_every_figure_renders_to_png_with_at_most_8_legend_entries(tmp_path):
    """Rendered and looked at: the fixture report's figures as PNG, plus a family of 12
    exact solvers (more than 8: the figure draws 8 and names the rest in its caption)."""
    from sudoku_compare.bench.reporting.figures import write_figures
    from sudoku_compare.bench.reporting.report import verdicts_of
    from sudoku_compare.bench.reporting.summary import load_db

    runs, _ = load_db(make_db(tmp_path / "f.db"))
    many = [dict(r, solver=f"native.extra-{k}", family="exact", origin="native",
                 puzzle=f"{r['puzzle']}{k}") for k in range(10)
            for r in runs if r["solver"] == "native.norvig"]
    refs = write_figures(runs + many, tmp_path / "png", "png", verdicts_of(runs), fmt="png")
    kinds = {f.kind for f in refs}
    assert {"forest", "ecdf-time", "convergence", "success"} <= kinds
    for f in refs:
        width, height = _png_size(tmp_path / f.path)
        assert 500 <= width <= 1400 and 200 <= height <= 2000, (f.path, width, height)
        assert 1 <= f.legend_entries <= 8, (f.path, f.legend_entries)
    (exact,) = [f for f in refs if f.path.endswith("ecdf-time-exact.png")]
    assert "Not drawn (at most 8 curves a figure" in exact.caption


def test_figures_are_reproducible(report, tmp_path):
    db, out, s, _ = report
    again = tmp_path / "fixture.md"
    write_report(db, again, report_command="sudoku-compare report --db fixture.db")
    for f in s.figures:
        assert (out.parent / f.path).read_bytes() == (again.parent / f.path).read_bytes()


def test_json_round_trips(report):
    db, _, s, d = report
    data = json.loads((d / "fixture.json").read_text())
    assert data == json.loads(json.dumps(s.to_dict()))
    rows = [r for t in data["tables"] for r in t["rows"]]
    cp = [r for r in rows if r["solver"] == "ortools.cpsat" and r["puzzle_set"] == "top95"][0]
    assert cp["ert_seconds"] == "inf"
    assert build_summary(db).to_dict()["tables"] == data["tables"]


def test_csv_holds_every_run(report):
    _, _, _, d = report
    lines = (d / "csv" / "runs.csv").read_text().splitlines()
    assert len(lines) == 1 + len(RUNS)
    assert lines[0].startswith("run_id,campaign_id,solver")
    assert (d / "csv" / "summary.csv").read_text().count("\n") == 1 + 10


def test_cli_report_json_stdout(report, tmp_path, capsys):
    db, _, _, _ = report
    out = tmp_path / "cli.md"
    assert main(["report", "--db", str(db), "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metadata"]["runs"] == len(RUNS)
    assert out.is_file() and (tmp_path / "cli_figures").is_dir()


def test_cli_report_bad_database(tmp_path, capsys):
    assert main(["report", "--db", str(tmp_path / "missing.db"), "--out",
                 str(tmp_path / "x.md")]) == 2
    assert "missing.db" in capsys.readouterr().err
    empty = tmp_path / "empty.db"
    Store(empty).close()
    assert main(["report", "--db", str(empty), "--out", str(tmp_path / "x.md")]) == 2


def test_the_report_says_where_the_same_seeds_cannot_give_the_same_table():
    from sudoku_compare.bench.reporting.markdown import reproducibility_note

    clock = " ".join(reproducibility_note([{"max_seconds": 1.0, "max_evaluations": None}]))
    counted = " ".join(reproducibility_note([{"max_seconds": 1.0, "max_evaluations": 500}]))
    assert "Runs stopped by the clock are not" in clock
    assert "Runs stopped by the clock" not in counted and "Reproducibility" in counted


def test_a_report_reads_compact_rows_of_its_columns_and_csv_streams_every_column(tmp_path):
    """load_db keeps only the columns reports read, as read-only rows that read like the
    store's dicts; runs.csv still has every stored column of every run."""
    import csv

    from sudoku_compare.bench.reporting.report import build_summary, write_csv
    from sudoku_compare.bench.reporting.summary import REPORT_COLUMNS, load_db
    from sudoku_compare.bench.run_table import RunView
    from sudoku_compare.bench.store import RUN_COLUMNS

    db = make_db(tmp_path / "f.db")
    runs, _ = load_db(db)
    with Store(db, readonly=True) as store:
        full = store.runs()
        with pytest.raises(ValueError, match="not run columns: nope"):
            next(store.iter_runs(columns=["solver", "nope"]))
    assert len(runs) == len(full) == len(RUNS)
    for compact, whole in zip(runs, full, strict=True):
        assert isinstance(compact, RunView) and list(compact) == list(REPORT_COLUMNS)
        assert dict(compact) == {c: whole[c] for c in REPORT_COLUMNS}
        assert compact.get("run_id") is None and "run_id" not in compact
        with pytest.raises(KeyError):
            compact["error"]
    paths = write_csv(db, build_summary(db, figures=False), tmp_path / "csv")
    with paths[0].open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == list(RUN_COLUMNS) and len(rows) == len(RUNS) + 1
    assert [r[RUN_COLUMNS.index("run_id")] for r in rows[1:]] == [r["run_id"] for r in full]
