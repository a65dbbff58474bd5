"""The library adapters: each solves (or honestly fails) easy51:0, verified, seeded, on budget.

Every test asks the registry whether the adapter's library is importable and skips with
the registry's own reason (which names the pip extra) when it is not.
"""

import importlib.util
import json

import numpy as np
import pytest

from sudoku_compare import registry
from sudoku_compare.bench.api import solve
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Status
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle

EASY = Puzzle.from_string(
    "902005403100063025508407060026309001057010290090670530240530600705200304080041950",
    name="easy51:0")
#: AI Escargot: CP-SAT needs real search on it (non-zero branches)
ESCARGOT = Puzzle.from_string(
    "100007090030020008009600500005300900010080002600004000300000010040000007007000300")

ADAPTERS = ["ortools.cpsat", "python-constraint.csp", "mealpy.pso", "simanneal.sa",
            "pygad.ga", "deap.ga"]
#: expected to solve easy51:0 within the small budgets below
SOLVING = ["ortools.cpsat", "python-constraint.csp", "simanneal.sa", "pygad.ga", "deap.ga"]


def require(name: str):
    """The registered spec, or a skip with the adapter's availability reason."""
    reg = registry.load()
    if name not in reg:
        pytest.skip(f"{name} is not registered (module not written yet)")
    ok, reason = reg[name].availability()
    if not ok:
        pytest.skip(reason)
    return reg[name]


def run(name, puzzle=EASY, seed=1, max_seconds=20.0, max_evaluations=None, **params):
    require(name)
    out, _ = solve(name, puzzle, Budget(max_seconds, max_evaluations), seed=seed, params=params)
    assert out.error is None, out.error
    return out


@pytest.mark.parametrize("name", ADAPTERS)
def test_declares_its_library(name):
    spec = require(name)
    cls = spec.cls
    assert cls.origin != "native" and cls.extra and cls.requires
    assert cls.library_version() is not None
    assert name.startswith(cls.origin + ".")


@pytest.mark.parametrize("name", SOLVING)
def test_solves_easy_and_is_verified(name):
    # seed 1 solves within ~25k evaluations (3-4 s idle); the wide deadline is for loaded CI
    out = run(name, max_seconds=90.0)
    assert out.status is Status.SOLVED and out.claims_solved
    assert is_solution(EASY, out.grid)
    assert out.versions.get(registry.get(name).origin)


@pytest.mark.parametrize("name", ADAPTERS)
def test_same_seed_same_outcome(name):
    spec = require(name)
    if not spec.cls.deterministic:
        pytest.skip(f"{name} does not declare itself deterministic")
    kw = {"max_evaluations": 3000} if spec.cls.stochastic else {}
    if name == "mealpy.pso":
        kw["epoch"] = 20
    a, b = run(name, seed=5, **kw), run(name, seed=5, **kw)
    assert np.array_equal(a.grid, b.grid)
    assert (a.evaluations, a.iterations, a.counters, a.best_energy) == \
           (b.evaluations, b.iterations, b.counters, b.best_energy)


@pytest.mark.parametrize("name", ["mealpy.pso", "simanneal.sa", "pygad.ga", "deap.ga"])
def test_evaluation_budget_is_exact(name):
    require(name)
    # a budget far too small to solve: the run stops at it exactly, with its best grid
    out = run(name, seed=3, max_evaluations=250)
    assert out.evaluations == 250 or (out.status is Status.SOLVED and out.evaluations < 250)
    assert out.stop_reason == ("target" if out.status is Status.SOLVED else "evaluations")
    if out.status is not Status.SOLVED:
        assert out.status is Status.UNSOLVED and not out.claims_solved
        assert out.best_energy is not None and out.best_energy > 0
        assert out.grid is not None


@pytest.mark.parametrize("name", ["mealpy.pso", "simanneal.sa", "pygad.ga", "deap.ga"])
def test_deadline_is_honoured(name):
    require(name)
    hard = Puzzle.from_string(ESCARGOT.to_line())
    out = run(name, puzzle=hard, seed=2, max_seconds=0.5,
              **({"epoch": 100000} if name == "mealpy.pso" else {}))
    assert out.elapsed_s < 2.0
    assert out.status in (Status.SOLVED, Status.UNSOLVED)


# -- mealpy --------------------------------------------------------------------------
def test_mealpy_does_not_solve_but_reports_best_energy_honestly():
    out = run("mealpy.pso", seed=42, epoch=30)
    assert out.status is Status.UNSOLVED and not out.claims_solved
    from sudoku_compare.problems.checker import nb_errors

    assert out.best_energy == nb_errors(out.grid) > 0
    # mealpy's own count agrees with the shared counter: pop * (epochs + 1)
    assert out.extra["mealpy_nfe"] == out.evaluations == 60 * 31
    assert out.iterations == 30


def test_mealpy_is_silent(capfd):
    run("mealpy.pso", seed=1, epoch=5)
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


# -- OR-Tools ------------------------------------------------------------------------
def test_cpsat_times_model_building_apart_and_counts_search():
    out = run("ortools.cpsat", puzzle=ESCARGOT, seed=1)
    assert out.status is Status.SOLVED
    assert 0 < out.extra["model_build_s"] < out.elapsed_s
    assert out.counters["branches"] > 0  # AI Escargot needs search; easy ones often do not
    assert set(out.counters) == {"branches", "conflicts"}


def test_cpsat_reports_infeasible_without_claiming():
    bad = Puzzle.from_string("123456780" + "000000009" + "0" * 63)  # cell 9 has no digit
    out = run("ortools.cpsat", puzzle=bad)
    assert out.status is Status.UNSOLVED and not out.claims_solved


def test_cpsat_is_silent(capfd):
    run("ortools.cpsat", seed=1)
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


# -- python-constraint ---------------------------------------------------------------
def test_python_constraint_counts_checks():
    out = run("python-constraint.csp")
    assert out.counters["constraint_checks"] > 0


def test_python_constraint_min_conflicts_option_is_honest():
    out = run("python-constraint.csp", solver="min-conflicts", steps=200, seed=3)
    assert out.status in (Status.SOLVED, Status.UNSOLVED)
    assert out.claims_solved == (out.status is Status.SOLVED)


def test_python_constraint_stops_at_the_deadline():
    empty = Puzzle.from_string("0" * 81)
    out = run("python-constraint.csp", puzzle=empty, solver="min-conflicts", steps=10**7,
              max_seconds=0.3)
    # min-conflicts gives up after its steps (finished) or sees the deadline (clock)
    assert out.elapsed_s < 2.0 and out.stop_reason in ("clock", "finished")


# -- an unavailable library ----------------------------------------------------------
def _hide(monkeypatch, module: str):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **k: None if name == module else real(name, *a, **k))


def test_missing_library_shows_unavailable_with_its_extra(monkeypatch, capsys):
    from sudoku_compare.bench.cli import main

    registry.load()
    _hide(monkeypatch, "ortools")
    assert main(["list", "--json"]) == 0
    row = next(r for r in json.loads(capsys.readouterr().out) if r["name"] == "ortools.cpsat")
    assert not row["available"] and row["extra"] == "ortools"
    assert 'pip install "sudoku-compare[ortools]"' in row["reason"]
    assert main(["list"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "ortools.cpsat" in ln)
    assert "unavailable" in line and "sudoku-compare[ortools]" in line


def test_missing_library_makes_its_tests_skip_with_that_reason(monkeypatch):
    _hide(monkeypatch, "mealpy")
    with pytest.raises(pytest.skip.Exception, match=r"sudoku-compare\[mealpy\]"):
        require("mealpy.pso")


def test_missing_library_refuses_to_solve(monkeypatch):
    from sudoku_compare.problems.errors import InputError

    _hide(monkeypatch, "constraint")
    with pytest.raises(InputError, match="python-constraint"):
        solve("python-constraint.csp", EASY)


# -- simanneal -----------------------------------------------------------------------
def test_simanneal_restores_the_sigint_handler_and_is_silent(capfd):
    import signal

    before = signal.getsignal(signal.SIGINT)
    out = run("simanneal.sa", seed=4)
    assert signal.getsignal(signal.SIGINT) is before
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""
    # one full energy per schedule, then one delta per move: nothing recounted
    assert out.evaluations == out.iterations + out.restarts + 1


def test_simanneal_schedule_is_native_sa_mapped():
    from sudoku_compare.adapters.simanneal_sa import SimannealParams, schedule_steps

    # T0 = 1, alpha = 0.999, Tmin = 0.001: 6905 levels of 100 iterations
    assert schedule_steps(SimannealParams()) == 6905 * 100


def test_simanneal_runs_off_the_main_thread():
    import threading

    require("simanneal.sa")
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("out", run("simanneal.sa", seed=2)))
    t.start()
    t.join(60)
    assert box["out"].status is Status.SOLVED


# -- pygad / DEAP --------------------------------------------------------------------
def test_pygad_own_count_agrees_with_the_shared_counter():
    out = run("pygad.ga", seed=1, max_evaluations=1200)
    # pygad counts completed calls, the carried parents' look-ups among them (not
    # evaluations); the call that hit the budget (or target) raised
    calls = out.extra["pygad_fitness_calls"] - out.extra["carried_parents"]
    assert out.extra["carried_parents"] > 0
    assert calls in (out.evaluations, out.evaluations - 1)


@pytest.mark.parametrize("name", ["pygad.ga", "deap.ga"])
def test_ga_adapters_are_silent(name, capfd):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # DEAP's creator re-creation warning would fail here
        run(name, seed=1, max_evaluations=800)
        run(name, seed=2, max_evaluations=800)
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_deap_leaves_no_creator_duplicates():
    require("deap.ga")
    from deap import creator

    run("deap.ga", seed=1, max_evaluations=600)
    run("deap.ga", seed=1, max_evaluations=600)
    assert hasattr(creator, "SudokuCompareRowIndividual")


def test_ga_operators_keep_rows_permutations():
    from sudoku_compare.adapters._row_ga import RowChromosomes
    from sudoku_compare.problems.encodings.row_permutation import is_row_permutation

    chromo = RowChromosomes(EASY, 0)
    a, b = chromo.initial_population(2)
    for _ in range(50):
        a, b = chromo.crossover(a, b)
        a = chromo.mutate(a, 0.5)
        assert is_row_permutation(chromo.state(a), EASY)
        assert is_row_permutation(chromo.state(b), EASY)


def test_ga_adapters_start_from_native_ga_populations():
    from sudoku_compare.adapters._row_ga import RowChromosomes
    from sudoku_compare.problems.encodings import row_permutation as rp

    mine = RowChromosomes(EASY, 9).initial_population(20)
    native = rp.initial_population(EASY, np.random.default_rng(9), 20)
    assert all(np.array_equal(rp.to_vector(n, EASY.grid() == 0), m)
               for n, m in zip(native, mine, strict=True))


def test_adapters_take_native_parameter_names():
    from sudoku_compare.solver import parameter_table

    for lib, native in [("simanneal.sa", "native.sa"), ("pygad.ga", "native.ga"),
                        ("deap.ga", "native.ga")]:
        if lib not in registry.load() or native not in registry.load():
            continue
        lib_p = {n: d for n, _, d in parameter_table(registry.get(lib).cls.Params)}
        nat_p = {n: d for n, _, d in parameter_table(registry.get(native).cls.Params)}
        shared = set(lib_p) & set(nat_p)
        assert len(shared) >= 5, (lib, shared)
        assert all(lib_p[k] == nat_p[k] for k in shared), (lib, shared)


def test_ga_operator_fast_paths_equal_the_shared_operators():
    from sudoku_compare.adapters._row_ga import RowChromosomes
    from sudoku_compare.problems.encodings import row_permutation as rp

    chromo = RowChromosomes(EASY, 3)
    free = EASY.grid() == 0
    a, b = chromo.initial_population(2)
    for seed in range(20):
        chromo.rng = np.random.default_rng(seed)
        fast = chromo.crossover(a, b) + (chromo.mutate(a, 0.5),)
        rng = np.random.default_rng(seed)
        c1, c2 = rp.order_crossover(chromo.state(a), chromo.state(b), rng, free)
        m = rp.swap_mutation(chromo.state(a), rng, 0.5, free)
        for x, y in zip(fast, (c1, c2, m), strict=True):
            assert np.array_equal(x, rp.to_vector(y, free))
