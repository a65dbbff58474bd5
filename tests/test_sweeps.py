"""Parameter sweeps: variant names, grid parsing and ranges, `run --grid` end to end, and the
report's parameter-effect view."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_compare import registry
from sudoku_compare.bench import api
from sudoku_compare.bench.cli import main
from sudoku_compare.bench.reporting.parameter_effect import parameter_effects
from sudoku_compare.bench.sweeps import expand_solvers, parse_grid
from sudoku_compare.budget import Budget
from sudoku_compare.problems.errors import InputError

from .conftest import needs_public


def test_a_variant_name_is_a_solver_name():
    spec = registry.get("native.sa[schedule=linear,alpha=0.99]")
    params = spec.create().params
    assert (params.schedule, params.alpha) == ("linear", 0.99)
    assert spec.cls is registry.get("native.sa").cls and spec.family == "annealing"
    assert spec.create(alpha=0.9).params.alpha == 0.9  # overrides still apply on top


@pytest.mark.parametrize("bad", ["native.sa[alpha=2]", "native.sa[bogus=1]",
                                 "native.sa[alpha]", "nosuch.solver[alpha=0.9]"])
def test_bad_variant_names_are_input_errors(bad):
    with pytest.raises(InputError):
        registry.get(bad)


def test_variant_name_spells_values_canonically():
    assert registry.variant_name("native.sa", {"schedule": "linear", "alpha": 0.995}) == \
        "native.sa[schedule=linear,alpha=0.995]"
    assert registry.variant_name("native.sa", {"adaptive_reheat": True}) == \
        "native.sa[adaptive_reheat=true]"
    assert registry.variant_name("native.sa", {}) == "native.sa"


def test_registered_names_may_not_look_like_variants():
    from sudoku_compare.native.annealing import SimulatedAnnealing

    with pytest.raises(ValueError, match="may not contain"):
        registry.register(SimulatedAnnealing, name="native.sa[x=1]")


def test_grid_is_the_cartesian_product_first_key_slowest():
    grid = parse_grid(["native.sa:schedule=exponential,linear", "native.sa:alpha=0.99,0.999"])
    assert expand_solvers(["native.sa", "native.ga"], grid) == [
        "native.sa[schedule=exponential,alpha=0.99]", "native.sa[schedule=exponential,alpha=0.999]",
        "native.sa[schedule=linear,alpha=0.99]", "native.sa[schedule=linear,alpha=0.999]",
        "native.ga"]


def test_ranges_linear_and_log():
    assert parse_grid(["native.pso-swarm:organisms=50:200:50"])["native.pso-swarm"][
        "organisms"] == [50, 100, 150, 200]
    assert parse_grid(["native.sa:alpha=0.9:0.99:0.03"])["native.sa"]["alpha"] == \
        [0.9, 0.93, 0.96, 0.99]
    assert parse_grid(["native.pso-swarm:organisms=log:50:800:5"])["native.pso-swarm"][
        "organisms"] == [50, 100, 200, 400, 800]


@pytest.mark.parametrize("item", [
    "native.sa", "native.sa:alpha", "native.sa:alpha=", "native.sa:bogus=1,2",
    "native.sa:alpha=0.5,2", "native.sa:alpha=0.9,0.9", "native.sa:alpha=0.9:0.8:0.05",
    "native.pso-swarm:organisms=10:20:0.5", "native.pso-swarm:organisms=log:0:10:3",
    "native.sa:t0=1:1e9:1e-9"])
def test_bad_grids_are_input_errors(item):
    with pytest.raises(InputError):
        expand_solvers(["native.sa", "native.pso-swarm"], parse_grid([item]))


def test_a_grid_solver_must_be_listed_and_swept_once():
    with pytest.raises(InputError, match="not among"):
        expand_solvers(["native.ga"], parse_grid(["native.sa:alpha=0.9,0.99"]))
    with pytest.raises(InputError, match="swept twice"):
        parse_grid(["native.sa:alpha=0.9", "native.sa:alpha=0.99"])


@given(st.lists(st.integers(min_value=10, max_value=500), min_size=1, max_size=6, unique=True))
def test_listed_integer_values_round_trip(values):
    grid = parse_grid(["native.pso-swarm:organisms=" + ",".join(map(str, values))])
    names = expand_solvers(["native.pso-swarm"], grid)
    assert [registry.get(n).create().params.organisms for n in names] == values


@needs_public
def test_run_grid_stores_every_variant_with_paired_seeds(tmp_path, capsys):
    db = tmp_path / "sweep.db"
    assert main(["run", "--solvers", "native.sa", "--grid",
                 "native.sa:schedule=exponential,linear,logarithmic", "--grid",
                 "native.sa:alpha=0.99,0.999", "--puzzles", "easy51:0:3", "--seeds", "2",
                 "--max-evals", "20000", "--db", str(db), "--no-progress"]) == 0
    con = sqlite3.connect(db)
    rows = con.execute("select solver, params, puzzle, seed_index, seed from runs").fetchall()
    con.close()
    assert len(rows) == 36 and len({r[0] for r in rows}) == 6
    assert all('"schedule"' in r[1] and '"t0"' in r[1] for r in rows)  # the full parameter set
    seeds: dict[tuple, set] = {}
    for _solver, _, puzzle, k, seed in rows:
        seeds.setdefault((puzzle, k), set()).add(seed)
    assert all(len(s) == 1 for s in seeds.values())  # every variant met the same seeds
    out = tmp_path / "sweep.md"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    text = out.read_text()
    assert "## Parameter effect (sweeps)" in text
    assert "### native.sa: 6 variants, equal work, 20,000 evaluations a run" in text
    assert "| other settings | schedule=exponential | schedule=linear | schedule=logarithmic |" in text
    assert "| other settings | alpha=0.99 | alpha=0.999 |" in text


def test_param_clashing_with_a_swept_key_is_refused(tmp_path, capsys):
    code = main(["run", "--solvers", "native.sa", "--grid", "native.sa:alpha=0.9,0.99",
                 "--param", "alpha=0.5", "--puzzles", "generated-easy:0:1",
                 "--db", str(tmp_path / "x.db"), "--no-progress"])
    assert code == 2 and "swept by --grid" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()


def test_python_api_takes_a_dict_of_lists(tmp_path):
    result = api.run_campaign(["native.sa"], "generated-easy:0:2", 1,
                              Budget(max_seconds=10, max_evaluations=5000), tmp_path / "a.db",
                              progress=False, grid={"native.sa": {"alpha": [0.99, 0.999]}})
    assert {r["solver"] for r in result.rows} == {"native.sa[alpha=0.99]", "native.sa[alpha=0.999]"}


def _run(solver, puzzle, k, ok, evals):
    return {"solver": solver, "puzzle_set": "s", "puzzle_index": puzzle, "puzzle": str(puzzle),
            "seed_index": k, "status": "solved" if ok else "unsolved", "elapsed_s": 0.01,
            "max_seconds": 10.0, "max_evaluations": 1000, "evaluations": evals,
            "stop_reason": "target" if ok else "evaluations"}


def test_best_pick_is_tested_on_the_held_out_half_only():
    # alpha=0.99 solves everything quickly; the default (0.999) never solves: on the
    # 12 held-out puzzles every pair differs in the same direction
    runs = []
    for p in range(24):
        runs.append(_run("native.sa[alpha=0.99]", p, 0, True, 100 + p))
        runs.append(_run("native.sa[alpha=0.999]", p, 0, False, 1000))
    (effect,) = parameter_effects(runs)
    (pick,) = effect.picks
    assert pick.pick == "native.sa[alpha=0.99]" and pick.default == "native.sa[alpha=0.999]"
    assert (pick.pick_puzzles, pick.test_puzzles) == (12, 12)
    assert pick.pick_solved == "12/12" and pick.default_solved == "0/12"
    assert pick.p_value == pytest.approx(2 / 2**12) and pick.better == "pick"
    (table,) = effect.tables
    (_, cells), = table.rows
    assert [c.solved for c in cells] == [24, 0] and cells[1].ert == float("inf")
