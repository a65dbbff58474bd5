"""The SQLite store of campaign results: one row per run, committed as soon as it ends.

Only the campaign driver writes (workers send outcomes back to it), so there is a
single writer; WAL mode lets a report read while a campaign runs. The schema is the
contract between ``bench`` (writer) and the report writer (reader).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS campaigns (
    campaign_id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    command TEXT,              -- the exact command line that started it
    config TEXT NOT NULL,      -- json: solvers, params, puzzles ref, seeds, budget, campaign seed
    machine TEXT NOT NULL,     -- json: cpu, cores, python, platform, library versions
    planned_runs INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,   -- hash of (solver, params, puzzle, seed index, budget)
    campaign_id TEXT NOT NULL,
    solver TEXT NOT NULL,
    family TEXT NOT NULL,
    origin TEXT NOT NULL,
    encoding TEXT,
    params TEXT NOT NULL,      -- json of the full parameter set
    puzzle_set TEXT,           -- e.g. easy51 (or a file path)
    puzzle_index INTEGER,
    puzzle TEXT NOT NULL,      -- the givens, one line
    seed INTEGER NOT NULL,     -- derived per run from the campaign seed and the run identity
    seed_index INTEGER,
    max_seconds REAL NOT NULL,
    max_evaluations INTEGER,
    status TEXT NOT NULL,      -- solved|unsolved|timeout|memout|error|invalid
    elapsed_s REAL,            -- the solve alone (no import, no JIT, no process start)
    evaluations INTEGER,
    iterations INTEGER,
    restarts INTEGER,
    best_energy REAL,
    counters TEXT,             -- json {name: int}
    trace TEXT,                -- json [[evaluations, seconds, best_energy], ...]
    extra TEXT,                -- json
    versions TEXT,             -- json {python, numpy, library...}
    grid TEXT,
    violations TEXT,           -- json list of strings
    error TEXT,
    finished_at TEXT NOT NULL,
    stop_reason TEXT,          -- target|finished|exhausted|evaluations|clock|killed|error (v2)
    schedule_fraction REAL     -- share of the solver's own schedule completed, 0..1 (v2)
);
CREATE INDEX IF NOT EXISTS runs_by_campaign ON runs (campaign_id);
-- the run ids a campaign planned: a rerun that extends an earlier campaign (one more solver)
-- finds most of its runs already stored under the earlier campaign's id; this table lets a
-- report tell "complete" from "partial" by run id, not by which campaign wrote the row
CREATE TABLE IF NOT EXISTS campaign_runs (
    campaign_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    PRIMARY KEY (campaign_id, run_id)
);
"""

JSON_COLUMNS = ("params", "counters", "trace", "extra", "versions", "violations")
RUN_COLUMNS = (
    "run_id", "campaign_id", "solver", "family", "origin", "encoding", "params", "puzzle_set",
    "puzzle_index", "puzzle", "seed", "seed_index", "max_seconds", "max_evaluations", "status",
    "elapsed_s", "evaluations", "iterations", "restarts", "best_energy", "counters", "trace",
    "extra", "versions", "grid", "violations", "error", "finished_at", "stop_reason",
    "schedule_fraction",
)
#: columns added after version 1, with their SQL types: an older store gains them on open
ADDED_COLUMNS = {2: (("stop_reason", "TEXT"), ("schedule_fraction", "REAL"))}


class Store:
    """A campaign database. Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        if readonly:
            if not self.path.exists():
                from sudoku_compare.problems.errors import InputError

                raise InputError(f"{self.path}: no such database")
            self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
            self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                              (str(SCHEMA_VERSION),))
            self._migrate()
            self.conn.commit()
        self.conn.row_factory = sqlite3.Row

    def _migrate(self) -> None:
        """Bring an older store of ours up to :data:`SCHEMA_VERSION` by adding columns."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = int(row[0])
        if version >= SCHEMA_VERSION:
            return
        present = {r[1] for r in self.conn.execute("PRAGMA table_info(runs)")}
        for v in range(version + 1, SCHEMA_VERSION + 1):
            for name, sql_type in ADDED_COLUMNS.get(v, ()):
                if name not in present:
                    self.conn.execute(f"ALTER TABLE runs ADD COLUMN {name} {sql_type}")
        self.conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                          (str(SCHEMA_VERSION),))

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    # -- writing (the campaign driver only) ----------------------------------------
    def add_campaign(self, campaign_id: str, created_at: str, command: str, config: dict,
                     machine: dict, planned_runs: int, run_ids: Sequence[str] = ()) -> None:
        """Record a campaign (once) and, when given, the ids of the runs it plans."""
        self.conn.execute(
            "INSERT OR IGNORE INTO campaigns VALUES (?, ?, ?, ?, ?, ?)",
            (campaign_id, created_at, command, json.dumps(config, sort_keys=True),
             json.dumps(machine, sort_keys=True), planned_runs))
        self.conn.executemany("INSERT OR IGNORE INTO campaign_runs VALUES (?, ?)",
                              [(campaign_id, r) for r in run_ids])
        self.conn.commit()

    def add_run(self, row: dict[str, Any]) -> None:
        """Insert one finished run and commit at once (a run id is stored exactly once)."""
        values = []
        for col in RUN_COLUMNS:
            v = row.get(col)
            if col in JSON_COLUMNS and v is not None and not isinstance(v, str):
                v = json.dumps(v, sort_keys=True)
            values.append(v)
        self.conn.execute(
            f"INSERT OR IGNORE INTO runs ({', '.join(RUN_COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in RUN_COLUMNS)})", values)
        self.conn.commit()

    # -- reading -------------------------------------------------------------------
    def finished_run_ids(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT run_id FROM runs")}

    def runs(self, campaign_id: str | None = None) -> list[dict[str, Any]]:
        """Every run as a dict, JSON columns decoded."""
        q = "SELECT * FROM runs"
        args: tuple = ()
        if campaign_id:
            q += " WHERE campaign_id = ?"
            args = (campaign_id,)
        out = []
        for r in self.conn.execute(q + " ORDER BY solver, puzzle_set, puzzle_index, seed_index", args):
            d = dict(r)
            for col in JSON_COLUMNS:
                if d.get(col):
                    d[col] = json.loads(d[col])
            out.append(d)
        return out

    def campaigns(self) -> list[dict[str, Any]]:
        """Every campaign; ``present_runs`` counts its planned run ids found in ``runs``
        (None for a database written before planned ids were recorded)."""
        try:
            present = {row[0]: row[1] for row in self.conn.execute(
                "SELECT c.campaign_id, COUNT(r.run_id) FROM campaign_runs c "
                "LEFT JOIN runs r ON r.run_id = c.run_id GROUP BY c.campaign_id")}
        except sqlite3.OperationalError:  # an older database opened read-only: no such table
            present = {}
        out = []
        for r in self.conn.execute("SELECT * FROM campaigns ORDER BY created_at"):
            d = dict(r)
            d["config"] = json.loads(d["config"])
            d["machine"] = json.loads(d["machine"])
            d["present_runs"] = present.get(d["campaign_id"])
            out.append(d)
        return out
