"""Campaigns: resumable after SIGKILL, seeds from the run's identity, bad input stops early."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_compare.bench.campaign import CampaignSpec, plan, run_campaign, run_campaigns
from sudoku_compare.bench.cli import main
from sudoku_compare.bench.seeding import derive_seed, run_id
from sudoku_compare.bench.store import Store
from sudoku_compare.budget import Budget
from sudoku_compare.problems.errors import InputError

from .fixtures_solvers import MODULE

ROOT = Path(__file__).resolve().parents[1]
EASY = "000260701680070090190004500820100040004602900050003028009300074040050036703018000"
SEEDS = 12


def test_seeds_and_run_ids_are_stable_and_distinct():
    a = derive_seed(0, EASY, 3)
    assert a == derive_seed(0, EASY, 3)
    assert len({derive_seed(0, EASY, k) for k in range(50)}) == 50
    assert derive_seed(1, EASY, 0) != derive_seed(0, EASY, 0)
    b = Budget(1.0).to_dict()
    assert run_id("x", {}, EASY, 0, b) != run_id("x", {}, EASY, 0, Budget(2.0).to_dict())


def test_every_solver_gets_the_same_seed_on_the_same_puzzle_and_seed_index():
    """Fairness: native and library variants start from the same seeded state.

    Two native variants stand in for a native/library pair so that the test runs without
    the optional libraries: the seed does not depend on the solver at all.
    """
    runs = plan(["native.sa", "native.sa-reheat"], [EASY], 3, Budget(1.0))[1]
    by_solver: dict[str, list[int]] = {}
    for r in runs:
        by_solver.setdefault(r.row["solver"], []).append(r.task.seed)
    assert by_solver["native.sa"] == by_solver["native.sa-reheat"]
    assert len(set(by_solver["native.sa"])) == 3
    assert len({r.row["run_id"] for r in runs}) == 6


def test_the_plan_does_not_depend_on_solver_order():
    p1 = {r.task.key: r.task.seed for r in plan(["native.backtracking", "native.norvig"],
                                                [EASY], 3, Budget(1.0))[1]}
    p2 = {r.task.key: r.task.seed for r in plan(["native.norvig", "native.backtracking"],
                                                [EASY], 3, Budget(1.0))[1]}
    assert p1 == p2 and len(p1) == 6


def test_bad_input_raises_before_any_work(tmp_path):
    with pytest.raises(InputError, match="unknown solver"):
        run_campaign(["native.nope"], [EASY], 1, Budget(1.0), tmp_path / "x.db")
    with pytest.raises(InputError, match="max_calls"):
        run_campaign(["native.backtracking"], [EASY], 1, Budget(1.0), tmp_path / "x.db",
                     params={"native.backtracking": ["bogus=1"]})
    assert not (tmp_path / "x.db").exists()


def test_a_malformed_puzzle_file_stops_run_with_exit_2_before_any_db_write(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text(EASY + "\n" + EASY[:-1] + "\n")
    db = tmp_path / "r.db"
    code = main(["run", "--solvers", "native.backtracking", "--puzzles", str(bad), "--db", str(db)])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and f"{bad}:2:" in err
    assert not db.exists()


def test_run_cli_resumes_and_reports(tmp_path, capsys):
    db = tmp_path / "r.db"
    args = ["run", "--solvers", "native.backtracking", "--puzzles", EASY, "--seeds", "2",
            "--db", str(db), "--no-progress", "--max-seconds", "5"]
    assert main(args) == 0
    assert "2 run now, 0 already" in capsys.readouterr().out
    assert main(args) == 0
    assert "0 run now, 2 already" in capsys.readouterr().out
    with Store(db) as store:
        rows = store.runs()
        (camp,) = store.campaigns()
    assert [r["status"] for r in rows] == ["solved", "solved"]
    assert camp["planned_runs"] == 2 and camp["machine"]["cores"] >= 1
    assert "numpy" in camp["machine"]["libraries"]


def test_a_campaign_extending_an_earlier_one_is_complete_not_partial(tmp_path):
    """One more solver on the same puzzles: the earlier runs count for the new campaign."""
    from sudoku_compare.bench.reporting.summary import metadata

    db = tmp_path / "ext.db"
    run_campaign(["native.backtracking"], [EASY], 2, Budget(5.0), db, progress=False)
    result = run_campaign(["native.backtracking", "native.dlx"], [EASY], 2, Budget(5.0), db,
                          progress=False)
    assert (result.executed, result.skipped) == (2, 2)
    with Store(db, readonly=True) as store:
        campaigns = store.campaigns()
        runs = store.runs()
    assert [c["present_runs"] for c in campaigns] == [2, 4]
    meta = metadata(runs, campaigns, str(db), "test")
    assert not meta.partial, meta.partial_reasons
    assert [c.finished_runs for c in meta.campaigns] == [2, 4]


def test_campaigns_sharing_one_pool_are_stored_as_if_run_alone(tmp_path):
    """``compare``'s groups: two budgets, one pool; each campaign keeps its own runs."""
    shared, alone = tmp_path / "shared.db", tmp_path / "alone.db"
    specs = [CampaignSpec(["native.backtracking"], [EASY], 2, Budget(5.0)),
             CampaignSpec(["native.dlx", "native.norvig"], [EASY], 1, Budget(2.0))]
    results = run_campaigns(specs, shared, workers=2, progress=False)
    assert [(r.planned, r.executed, r.skipped) for r in results] == [(2, 2, 0), (2, 2, 0)]
    for spec in specs:
        run_campaign(spec.solvers, spec.puzzles, spec.seeds, spec.budget, alone, progress=False)
    with Store(shared, readonly=True) as a, Store(alone, readonly=True) as b:
        assert [c["campaign_id"] for c in a.campaigns()] == [c["campaign_id"]
                                                            for c in b.campaigns()]
        assert [c["present_runs"] for c in a.campaigns()] == [2, 2]
        ours = {r["run_id"]: (r["campaign_id"], r["max_seconds"], r["status"]) for r in a.runs()}
        theirs = {r["run_id"]: (r["campaign_id"], r["max_seconds"], r["status"])
                  for r in b.runs()}
    assert ours == theirs and len(ours) == 4
    again = run_campaigns(specs, shared, workers=2, progress=False)
    assert [(r.executed, r.skipped) for r in again] == [(0, 2), (0, 2)]


DRIVER = """
import sys
from sudoku_compare.budget import Budget
from sudoku_compare.bench.campaign import run_campaign
run_campaign(["test.slow", "native.backtracking"], [sys.argv[2]], int(sys.argv[3]), Budget(5.0),
             sys.argv[1], workers=1, progress=False, imports=[sys.argv[4]])
"""


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def test_a_campaign_killed_midway_and_rerun_has_every_run_exactly_once(tmp_path):
    db = tmp_path / "kill.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", DRIVER, str(db), EASY, str(SEEDS), MODULE]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT)
    deadline = time.monotonic() + 90
    while _count(db) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = _count(db)
    assert 3 <= done_before < 2 * SEEDS, "the kill must land midway"
    result = run_campaign(["test.slow", "native.backtracking"], [EASY], SEEDS, Budget(5.0), db,
                          progress=False, imports=[MODULE])
    assert result.skipped == done_before
    assert result.executed == 2 * SEEDS - done_before
    with sqlite3.connect(db) as conn:
        ids = [r[0] for r in conn.execute("SELECT run_id FROM runs")]
    assert len(ids) == len(set(ids)) == 2 * SEEDS
    assert len(result.rows) == 2 * SEEDS
    assert {r["status"] for r in result.rows} == {"unsolved", "solved"}


def test_campaign_result_rows_and_dataframe(tmp_path):
    result = run_campaign(["test.crash", "test.cheat"], [EASY], 1, Budget(1.0),
                          tmp_path / "c.db", progress=False, imports=[MODULE])
    assert sorted(r["status"] for r in result.rows) == ["error", "invalid"]
    pytest.importorskip("pandas")
    df = result.to_dataframe()
    assert len(df) == 2 and "status" in df.columns
    assert "test.crash" in result.summary_text()


@given(solver=st.text(max_size=12), params=st.dictionaries(st.text(max_size=5),
       st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=5), st.booleans(),
                 st.none()), max_size=4),
       puzzle=st.text(max_size=90), k=st.integers(0, 10**6),
       max_seconds=st.floats(0.001, 1e6), campaign_seed=st.integers(-2**40, 2**40))
def test_run_keys_are_the_documented_digests(solver, params, puzzle, k, max_seconds,
                                             campaign_seed):
    """RunKeys (what a plan uses) hashes the same text as ``json.dumps`` of the whole identity,
    as every stored run id and seed was made: a resumed campaign finds its runs."""
    import hashlib
    import json

    from sudoku_compare.bench.seeding import RunKeys

    budget = {"max_seconds": max_seconds, "max_evaluations": None, "target": 0.0}

    def digest(*parts):
        text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
        return hashlib.sha256(text.encode()).digest()

    keys = RunKeys(solver, params, budget, campaign_seed)
    expected_id = digest(solver, params, puzzle, k, budget, campaign_seed).hex()[:24]
    expected_seed = int.from_bytes(digest(campaign_seed, puzzle, k)[:4], "big") & 0x7FFFFFFF
    assert keys.run_id(puzzle, k) == run_id(solver, params, puzzle, k, budget, campaign_seed)
    assert keys.run_id(puzzle, k) == expected_id
    assert keys.seed(puzzle, k) == derive_seed(campaign_seed, puzzle, k) == expected_seed
