"""The Dask executor on a loopback cluster of 2 worker processes (issue 16 points 2-4).

A run on a Dask worker goes through the same isolated worker process as locally, so it keeps
its hard deadline and verification; the driver is the only writer of the store, so a killed
Dask worker or a killed driver loses nothing and stores nothing twice.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="dask's distributed is not installed: "
                                          "pip install 'sudoku-compare[dask]'")

from sudoku_compare.bench.campaign import run_campaign  # noqa: E402
from sudoku_compare.bench.cli import main  # noqa: E402
from sudoku_compare.bench.dask_executor import DaskExecutor  # noqa: E402
from sudoku_compare.bench.store import Store  # noqa: E402
from sudoku_compare.budget import Budget  # noqa: E402

from .fixtures_solvers import MODULE  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
#: what a stored run must match between the executors (times and hosts may differ)
COMPARED = ("run_id", "solver", "puzzle_index", "seed_index", "status", "stop_reason",
            "evaluations", "iterations", "restarts", "best_energy", "grid")

pytestmark = pytest.mark.timeout(240)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stored(db: Path) -> list[tuple]:
    with Store(db, readonly=True) as store:
        rows = store.runs()
    return sorted(tuple(str(r.get(c)) for c in COMPARED) for r in rows)


def _run_ids(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT run_id FROM runs")]


def test_an_unreachable_scheduler_is_one_line_and_exit_1_before_anything_runs(tmp_path, capsys):
    address = f"tcp://127.0.0.1:{_free_port()}"
    db = tmp_path / "x.db"
    code = main(["run", "--executor", "dask", "--scheduler", address, "--solvers",
                 "native.bitmask", "--puzzles", "easy51:0:2", "--db", str(db), "--no-progress"])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and address in err[0] and "cannot reach" in err[0]
    assert not db.exists()


def test_dask_options_without_the_dask_executor_are_refused(tmp_path, capsys):
    assert main(["run", "--dask-workers", "2", "--solvers", "native.bitmask", "--puzzles",
                 "easy51:0:1", "--db", str(tmp_path / "x.db")]) == 2
    assert "need --executor dask" in capsys.readouterr().err


def test_local_and_dask_executors_store_the_same_outcomes(tmp_path):
    """Under an evaluation budget the outcome does not depend on where a run ran."""
    args = ["--solvers", "native.bitmask,native.sa", "--puzzles", "easy51:0:6", "--seeds", "2",
            "--max-evals", "20000", "--no-progress"]
    assert main(["run", *args, "--db", str(tmp_path / "local.db"), "--workers", "2"]) == 0
    assert main(["run", *args, "--db", str(tmp_path / "dask.db"), "--executor", "dask",
                 "--dask-workers", "2"]) == 0
    local, dask = _stored(tmp_path / "local.db"), _stored(tmp_path / "dask.db")
    assert len(local) == 24 and local == dask


class _KillingExecutor(DaskExecutor):
    """Kills one Dask worker process (SIGKILL) once ``after`` outcomes have come back."""

    def __init__(self, after: int, **kw) -> None:
        super().__init__(**kw)
        self.after = after
        self.killed: int | None = None

    def map_unordered(self, tasks):
        for i, item in enumerate(super().map_unordered(tasks)):
            if i + 1 == self.after and self.killed is None:
                pids = self.client.run(os.getpid)
                self.killed = next(iter(pids.values()))
                os.kill(self.killed, signal.SIGKILL)
            yield item


def test_a_dask_worker_killed_midway_loses_nothing_and_stores_nothing_twice(tmp_path):
    db = tmp_path / "kill.db"
    seeds = 12
    executor = _KillingExecutor(after=3, n_workers=2)
    try:
        result = run_campaign(["test.slow"], [EASY], seeds, Budget(5.0), db, progress=False,
                              imports=[MODULE], executor=executor)
    finally:
        executor.close()
    assert executor.killed is not None
    assert result.executed == seeds
    ids = _run_ids(db)
    assert len(ids) == len(set(ids)) == seeds
    # every run came back as test.slow's honest answer, none as a lost or failed run
    assert {r["status"] for r in result.rows} == {"unsolved"}


def test_a_hung_solver_on_a_dask_worker_is_killed_by_its_deadline(tmp_path):
    executor = DaskExecutor(n_workers=2)
    try:
        result = run_campaign(["test.hang", "native.bitmask"], [EASY], 1, Budget(1.0),
                              tmp_path / "hang.db", progress=False, imports=[MODULE],
                              executor=executor)
    finally:
        executor.close()
    statuses = {r["solver"]: r["status"] for r in result.rows}
    assert statuses == {"test.hang": "timeout", "native.bitmask": "solved"}


DRIVER = """
import sys
from sudoku_compare.budget import Budget
from sudoku_compare.bench.campaign import run_campaign
from sudoku_compare.bench.dask_executor import DaskExecutor
executor = DaskExecutor(n_workers=2)
run_campaign(["test.slow"], [sys.argv[2]], int(sys.argv[3]), Budget(5.0), sys.argv[1],
             progress=False, imports=[sys.argv[4]], executor=executor)
executor.close()
"""


def test_a_driver_killed_midway_and_started_again_finishes_the_campaign(tmp_path):
    db = tmp_path / "driver.db"
    seeds = 16
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", DRIVER, str(db), EASY, str(seeds), MODULE],
                            env=env, cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if len(_run_ids(db)) >= 3:
                    break
            except sqlite3.OperationalError:
                pass
            time.sleep(0.1)
    finally:
        # the driver and its loopback cluster, all at once and without clean-up
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    before = len(_run_ids(db))
    assert 3 <= before < seeds, "the kill must land midway"
    executor = DaskExecutor(n_workers=2)
    try:
        result = run_campaign(["test.slow"], [EASY], seeds, Budget(5.0), db, progress=False,
                              imports=[MODULE], executor=executor)
    finally:
        executor.close()
    assert (result.skipped, result.executed) == (before, seeds - before)
    ids = _run_ids(db)
    assert len(ids) == len(set(ids)) == seeds
