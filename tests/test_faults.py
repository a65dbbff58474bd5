"""Reliability (issue 17, and issue 14's killed and late runs): each case a user can meet.

Worker deaths are classified after reaping; failed runs can be retried with every attempt
kept; ``--db`` refuses any file that is not one of our stores without touching it; one
writer per store; limits that are limits; a full disk ends a campaign with exit 1 and
keeps every finished run; killed runs have unknown (not zero) evaluations and a stop
reason; a solution that comes back after the budget is ``solved-late``.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_compare.bench import campaign as campaign_mod
from sudoku_compare.bench import executor as executor_mod
from sudoku_compare.bench.campaign import run_campaign
from sudoku_compare.bench.cli import main
from sudoku_compare.bench.executor import LocalProcessExecutor
from sudoku_compare.bench.runner import MIN_MEMORY_MB, Task
from sudoku_compare.bench.store import APPLICATION_ID, SCHEMA_VERSION, Store, inspect_file
from sudoku_compare.budget import Budget
from sudoku_compare.problems.errors import InputError

from .fixtures_solvers import DEATH_SIGNALS, FLAKY_FLAG, MODULE

ROOT = Path(__file__).resolve().parents[1]
EASY = "000260701680070090190004500820100040004602900050003028009300074040050036703018000"
IMPORTS = (MODULE,)


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def _run(db: Path | str, *extra: str, solvers: str = "native.backtracking",
         puzzles: str = EASY) -> int:
    return main(["run", "--solvers", solvers, "--puzzles", puzzles, "--db", str(db),
                 "--no-progress", "--max-seconds", "5", *extra])


# -- worker deaths, classified after reaping (issue 17 point 2) ----------------------------
@pytest.fixture(scope="module")
def deaths():
    """One pool with a 1 GB cap: every signal fixture, an exit, a hog that aborts, then a
    real solve (the pool goes on after each death)."""
    names = [f"test.signal-{s.lower()}" for s in DEATH_SIGNALS]
    names += ["test.exit", "test.hog-abort", "native.backtracking"]
    tasks = [Task(n, EASY, Budget(3.0), 7, {}, IMPORTS, n) for n in names]
    with LocalProcessExecutor(workers=1, memory_mb=1024) as ex:
        return {task.solver: out for task, out in ex.map_unordered(tasks)}


@pytest.mark.parametrize("sig", DEATH_SIGNALS)
def test_a_worker_killed_by_a_signal_is_stored_with_the_signal_name(deaths, sig):
    out = deaths[f"test.signal-{sig.lower()}"]
    # far below the cap, so no signal can honestly be called a memout
    assert out.status == "error", out.error
    assert out.error.startswith(f"worker killed by {sig}"), out.error
    assert "exit code None" not in out.error
    assert out.extra["signal"] == sig
    assert out.stop_reason == "error"
    assert out.evaluations is None and "unknown" in out.extra["evaluations"]


def test_sigkill_is_not_blamed_on_the_memory_cap(deaths):
    out = deaths["test.signal-sigkill"]
    assert "not by the bench" in out.error and "OOM" in out.error


def test_a_worker_that_exits_reports_its_exit_code(deaths):
    out = deaths["test.exit"]
    assert out.status == "error" and out.error.startswith("worker exited with code 3")


def test_an_abort_at_the_memory_cap_is_a_memout(deaths):
    out = deaths["test.hog-abort"]
    assert out.status == "memout", out.error
    assert "SIGABRT" in out.error and "1024 MB cap" in out.error
    assert out.extra["peak_mb"] >= 1024 - 102.4


def test_the_pool_goes_on_after_every_death(deaths):
    assert deaths["native.backtracking"].status == "solved"


# -- retry, every attempt kept (issue 17 point 3) -----------------------------------------
def test_retry_failed_runs_again_and_keeps_every_attempt(tmp_path, monkeypatch, capsys):
    flag = tmp_path / "fail-now"
    flag.write_text("")
    monkeypatch.setenv(FLAKY_FLAG, str(flag))
    db = tmp_path / "retry.db"
    kw = dict(progress=False, imports=IMPORTS)
    first = run_campaign(["test.flaky"], [EASY], 2, Budget(5.0), db, **kw)
    assert [r["status"] for r in first.rows] == ["error", "error"]
    flag.unlink()
    plain = run_campaign(["test.flaky"], [EASY], 2, Budget(5.0), db, **kw)
    assert (plain.executed, plain.skipped) == (0, 2)          # default: no retry
    again = run_campaign(["test.flaky"], [EASY], 2, Budget(5.0), db, retry="failed",
                         memory_mb=2048, **kw)
    assert (again.executed, again.retried, again.skipped) == (2, 2, 0)
    assert [(r["status"], r["attempt"], r["memory_mb"]) for r in again.rows] == [
        ("solved", 2, 2048)] * 2
    with Store(db, readonly=True) as store:
        attempts = store.attempts()
        (camp,) = store.campaigns()
    assert [(a["attempt"], a["status"]) for a in attempts] == [
        (1, "error"), (2, "solved")] * 2
    assert len({a["run_id"] for a in attempts}) == 2         # the run id stays the identity
    assert camp["config"]["memory_mb"] == 3072                # the cap of the first run
    done = run_campaign(["test.flaky"], [EASY], 2, Budget(5.0), db, retry="failed", **kw)
    assert done.executed == 0                                 # solved runs are not retried


def test_retry_names_a_status_or_it_is_refused(tmp_path, capsys):
    assert _run(tmp_path / "x.db", "--retry", "failed,bogus") == 2
    line = _one_line(capsys)
    assert "bogus" in line and "error, memout, timeout" in line
    assert not (tmp_path / "x.db").exists()


def test_report_shows_how_many_runs_were_retried(tmp_path, monkeypatch, capsys):
    flag = tmp_path / "fail-now"
    flag.write_text("")
    monkeypatch.setenv(FLAKY_FLAG, str(flag))
    db = tmp_path / "r.db"
    run_campaign(["test.flaky"], [EASY], 1, Budget(5.0), db, progress=False, imports=IMPORTS)
    flag.unlink()
    run_campaign(["test.flaky"], [EASY], 1, Budget(5.0), db, progress=False, imports=IMPORTS,
                 retry=["error"])
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--json"]) == 0
    assert "1 run was retried (2 attempts at most)" in capsys.readouterr().err


# -- --db that is not one of our stores (issue 17 points 4, 5) ----------------------------
def _sqlite_other_schema(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE people (name TEXT)")
        conn.execute("INSERT INTO people VALUES ('ada')")
    conn.close()


def _sqlite_other_application(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id = 1234")
        conn.executescript("CREATE TABLE meta (key, value); CREATE TABLE runs (x); "
                           "CREATE TABLE campaigns (y);")
    conn.close()


def _store_with_runs(path: Path, n: int = 60) -> None:
    with Store(path) as store:
        for i in range(n):
            store.add_run({"run_id": f"r{i}", "campaign_id": "c", "solver": "s", "family": "f",
                           "origin": "o", "params": {}, "puzzle": EASY, "seed": i,
                           "max_seconds": 1.0, "status": "solved", "finished_at": "t",
                           "trace": [[k, 0.1, 1.0] for k in range(50)]})
    (path.parent / (path.name + ".lock")).unlink()


def _truncated_store(path: Path) -> None:
    _store_with_runs(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _newer_store(path: Path) -> None:
    _store_with_runs(path, 1)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                     (str(SCHEMA_VERSION + 1),))
    conn.close()


FOREIGN = {
    "text file": (lambda p: p.write_text("just some notes\n"), "not a SQLite database"),
    "random bytes": (lambda p: p.write_bytes(os.urandom(8192)), "not a SQLite database"),
    "sqlite of another schema": (_sqlite_other_schema, "another schema (tables: people)"),
    "sqlite of another application": (_sqlite_other_application, "another application"),
    "truncated store": (_truncated_store, "store"),
    "store from a newer version": (_newer_store, f"newer sudoku-compare (store schema "
                                                 f"v{SCHEMA_VERSION + 1}"),
}


@pytest.mark.parametrize("case", sorted(FOREIGN))
def test_a_db_that_is_not_our_store_is_refused_untouched(tmp_path, capsys, case):
    make, reason = FOREIGN[case]
    db = tmp_path / "target.db"
    make(db)
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    listing = sorted(p.name for p in tmp_path.iterdir())
    assert _run(db) == 2
    line = _one_line(capsys)
    assert str(db) in line and reason in line and "nothing was written" in line
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing  # no -wal, -shm, .lock


def test_a_directory_as_db_is_refused(tmp_path, capsys):
    assert _run(tmp_path) == 2
    assert "is a directory" in _one_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_place_is_refused(tmp_path, capsys):
    # /proc refuses new files even to root; a chmod-ed folder does for other users
    places = [Path("/proc/sudoku-compare-test.db")]
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        places.append(ro / "r.db")
    for db in places:
        assert _run(db) == 2
        line = _one_line(capsys)
        assert str(db) in line and "nothing was written" in line
        assert not db.exists()


def test_a_store_of_schema_v1_is_migrated_explicitly(tmp_path):
    db = tmp_path / "old.db"
    from sudoku_compare.bench.store import RUNS_COLUMNS_SQL

    v1_columns = RUNS_COLUMNS_SQL.split("finished_at TEXT NOT NULL,")[0] + "finished_at TEXT"
    with sqlite3.connect(db) as conn:
        conn.executescript(f"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
                           f"INSERT INTO meta VALUES ('schema_version', '1');"
                           f"CREATE TABLE campaigns (campaign_id TEXT PRIMARY KEY, created_at "
                           f"TEXT, command TEXT, config TEXT, machine TEXT, planned_runs INT);"
                           f"CREATE TABLE runs ({v1_columns});")
        conn.execute("INSERT INTO runs (run_id, campaign_id, solver, family, origin, params, "
                     "puzzle, seed, max_seconds, status, finished_at) VALUES "
                     "('old', 'c', 's', 'f', 'o', '{}', 'p', 1, 1.0, 'error', 't')")
    conn.close()
    assert inspect_file(db) == 1
    with Store(db) as store:
        (row,) = store.runs()
        assert row["run_id"] == "old" and row["attempt"] == 1 and "stop_reason" in row
        assert store.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert inspect_file(db) == SCHEMA_VERSION


# -- one writer per store (issue 17 point 6) ------------------------------------------------
HOLDER = """
import sys, time
from sudoku_compare.bench.store import Store
store = Store(sys.argv[1])
print("ready", flush=True)
time.sleep(60)
"""


def test_a_second_writer_is_refused_naming_the_holder_and_a_killed_holder_blocks_nothing(
        tmp_path, capsys):
    db = tmp_path / "busy.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline().strip() == "ready"
        assert _run(db) == 2
        line = _one_line(capsys)
        assert f"pid {holder.pid}" in line and "another campaign is writing it" in line
    finally:
        holder.kill()  # SIGKILL: no clean-up, the lock file stays behind
        holder.wait()
    assert (tmp_path / "busy.db.lock").exists()
    assert _run(db) == 0  # the kernel dropped the dead holder's lock
    with Store(db, readonly=True) as store:
        assert len(store.runs()) == 1


# -- limits (issue 17 point 7, and point 4's --param cases) --------------------------------
@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1"])
def test_max_seconds_must_be_finite_and_positive(tmp_path, capsys, value):
    assert _run(tmp_path / "x.db", "--max-seconds", value) == 2
    assert "--max-seconds" in _one_line(capsys)
    assert not (tmp_path / "x.db").exists()


def test_an_infinite_budget_is_refused_by_the_api_too(tmp_path):
    with pytest.raises(InputError, match="finite"):
        run_campaign(["native.backtracking"], [EASY], 1, Budget(float("inf")), tmp_path / "x.db")


@pytest.mark.parametrize("value", ["-5", "0", "1", str(MIN_MEMORY_MB - 1)])
def test_memory_mb_must_be_positive_and_enough_to_start_a_worker(tmp_path, capsys, value):
    assert _run(tmp_path / "x.db", "--memory-mb", value) == 2
    line = _one_line(capsys)
    assert f"--memory-mb {value}" in line
    if int(value) > 0:
        assert f"at least {MIN_MEMORY_MB} MB" in line
    assert not (tmp_path / "x.db").exists()


def test_workers_are_capped_at_the_number_of_runs_and_warned_above_the_cpus(
        tmp_path, monkeypatch, capsys):
    started: list[object] = []
    real = executor_mod.Worker

    def counting(**kw):
        started.append(kw)
        return real(**kw)

    # one worker per CPU starts before the plan, the rest only up to the number of runs
    monkeypatch.setattr(executor_mod, "Worker", counting)
    monkeypatch.setattr(campaign_mod.os, "cpu_count", lambda: 1)
    assert _run(tmp_path / "w.db", "--workers", "1000", "--seeds", "2") == 0
    assert len(started) == 2
    assert "warning: 2 workers on 1 CPUs" in capsys.readouterr().err


def test_workers_below_one_are_refused(tmp_path, capsys):
    assert _run(tmp_path / "x.db", "--workers", "0") == 2
    assert "--workers 0" in _one_line(capsys)


@pytest.mark.parametrize("param", ["alpha=2", "t0=nan", "iterations_per_temperature=-5"])
def test_a_param_out_of_range_is_refused_with_the_range(tmp_path, capsys, param):
    assert _run(tmp_path / "x.db", "--param", param, solvers="native.sa") == 2
    line = _one_line(capsys)
    assert param in line and ("0 < alpha < 1" in line or ">= 1" in line)
    assert not (tmp_path / "x.db").exists()


def test_a_param_out_of_range_through_the_api_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="alpha"):
        run_campaign(["native.sa"], [EASY], 1, Budget(1.0), tmp_path / "x.db",
                     params={"native.sa": {"alpha": 2.0}})
    assert not (tmp_path / "x.db").exists()


# -- a full disk (issue 17 point 9) ---------------------------------------------------------
def test_a_full_disk_ends_run_with_exit_1_one_line_and_every_finished_run_kept(
        tmp_path, monkeypatch, capsys):
    db = tmp_path / "full.db"
    real = Store.add_campaign

    def then_fill_up(self, *args, **kwargs):
        real(self, *args, **kwargs)  # SQLite's own SQLITE_FULL a few pages later
        pages = self.conn.execute("PRAGMA page_count").fetchone()[0]
        self.conn.execute(f"PRAGMA max_page_count = {pages + 2}")

    monkeypatch.setattr(Store, "add_campaign", then_fill_up)
    assert _run(db, "--seeds", "40") == 1
    line = _one_line(capsys)
    assert "full" in line and "run the same command again" in line
    with Store(db, readonly=True) as store:
        kept = store.runs()
    assert 1 <= len(kept) < 40 and all(r["status"] == "solved" for r in kept)
    monkeypatch.undo()
    assert _run(db, "--seeds", "40") == 0
    assert f"{40 - len(kept)} run now, {len(kept)} already" in capsys.readouterr().out


# -- killed, errored and late runs (issue 14 point 4) ---------------------------------------
@pytest.fixture(scope="module")
def odd_runs(tmp_path_factory):
    db = tmp_path_factory.mktemp("odd") / "odd.db"
    result = run_campaign(["test.hang", "test.counting-hang", "test.late", "test.crash", "test.cheat", "test.slow",
                           "native.backtracking"], [EASY], 1, Budget(0.5), db,
                          progress=False, imports=IMPORTS)
    return {r["solver"]: r for r in result.rows}


def test_a_killed_run_has_unknown_evaluations_and_stop_reason_killed(odd_runs):
    run = odd_runs["test.hang"]
    assert run["status"] == "timeout" and run["stop_reason"] == "killed"
    assert run["evaluations"] is None and "killed" in run["extra"]["evaluations"]


def test_a_killed_run_is_charged_its_running_evaluation_count_as_a_lower_bound(odd_runs):
    run = odd_runs["test.counting-hang"]
    assert run["status"] == "timeout" and run["stop_reason"] == "killed"
    # about 2.5 s of ~0.6 ms evaluations; the count is the last one sent before the kill
    assert run["evaluations"] > 100 and "lower bound" in run["extra"]["evaluations"]


def test_an_error_has_unknown_evaluations_and_stop_reason_error(odd_runs):
    run = odd_runs["test.crash"]
    assert run["status"] == "error" and run["stop_reason"] == "error"
    assert run["evaluations"] is None


def test_a_solution_after_max_seconds_is_solved_late(odd_runs):
    run = odd_runs["test.late"]
    assert run["elapsed_s"] > run["max_seconds"]
    assert run["status"] == "solved-late" and run["stop_reason"] == "target"


def test_every_stored_run_has_a_stop_reason(odd_runs):
    assert all(r["stop_reason"] for r in odd_runs.values()), {
        s: r["stop_reason"] for s, r in odd_runs.items()}
    assert odd_runs["native.backtracking"]["status"] == "solved"

