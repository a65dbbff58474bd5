"""The SQLite store of campaign results: one row per run, committed within a fraction of a second of its end.

Only the campaign driver writes (workers send outcomes back to it), so there is a
single writer; WAL mode lets a report read while a campaign runs. The schema is the
contract between ``bench`` (writer) and the report writer (reader).

Safety, because ``--db`` is whatever path a user typed:

* **Only our own files are written.** A new store gets ``PRAGMA application_id`` =
  :data:`APPLICATION_ID`. Before the first write an existing file is inspected through a
  read-only, immutable connection (no lock, no journal, no ``-shm``: the file cannot
  change; a copy of it and its ``-wal`` when a log beside it holds pages): it must carry our application id, or be a store of ours written before the id
  existed (application id 0 with our ``meta``/``runs``/``campaigns`` tables and a
  ``schema_version``). Anything else (a text file, random bytes, another program's SQLite
  file, a truncated or damaged store, a directory, a place we may not write) is refused
  with an :class:`InputError` naming the path and the reason, and nothing is written.
  An empty (0-byte) file holds nothing to damage and is adopted as a new store.
* **Older schemas are migrated explicitly** (:data:`ADDED_COLUMNS`, :data:`ADDED_TABLES`,
  one step per version, in one transaction); a store from a newer version is refused.
* **One writer per database.** A writer holds an exclusive ``flock`` on ``<db>.lock``
  beside the database for as long as it is open, and writes its pid into it; a second
  writer is refused at once with a message naming that pid (:class:`StoreBusyError`).
  The kernel drops a ``flock`` when its process dies, even by SIGKILL, so a stale lock
  file never blocks: the next writer simply takes it. The lock file is left in place
  (unlinking a lock file others may have open lets two writers hold "the" lock).
  Readers (``readonly=True``: reports) take no lock; WAL lets them read during a run.
* **Every attempt is kept.** ``runs`` holds the latest attempt of each run id (its
  ``attempt`` column counts them), ``run_attempts`` the earlier ones, so a report reads
  ``runs`` and uses the latest attempt without knowing retries exist.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sudoku_compare.problems.errors import InputError

from .run_table import RunView, read_table

SCHEMA_VERSION = 3
#: ``PRAGMA application_id`` of a sudoku-compare store ("SDKC"): how a file says it is ours
APPLICATION_ID = 0x53444B43

RUNS_COLUMNS_SQL = """
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
    status TEXT NOT NULL,      -- solved|solved-late|unsolved|timeout|memout|error|invalid
    elapsed_s REAL,            -- the solve alone (no import, no JIT, no process start)
    evaluations INTEGER,       -- NULL: unknown (the run was killed before it reported)
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
    schedule_fraction REAL,    -- share of the solver's own schedule completed, 0..1 (v2)
    attempt INTEGER DEFAULT 1, -- 1 for the first attempt of this run id, 2 after one retry (v3)
    memory_mb INTEGER          -- the worker's data-segment cap for this attempt (v3)
"""

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS campaigns (
    campaign_id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    command TEXT,              -- the exact command line that started it
    config TEXT NOT NULL,      -- json: solvers, params, puzzles ref, seeds, budget, campaign
                               -- seed, memory cap
    machine TEXT NOT NULL,     -- json: cpu, cores, python, platform, library versions
    planned_runs INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS runs ({RUNS_COLUMNS_SQL});
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

#: earlier attempts of retried runs (v3): the same columns as ``runs``, keyed by attempt
ATTEMPTS_TABLE = ("CREATE TABLE IF NOT EXISTS run_attempts ("
                  + RUNS_COLUMNS_SQL.replace("run_id TEXT PRIMARY KEY", "run_id TEXT NOT NULL")
                  + ", PRIMARY KEY (run_id, attempt));")

#: the tables that make a file one of our stores (any version)
OWN_TABLES = frozenset({"meta", "campaigns", "runs"})


#: text columns whose values repeat across runs (names, statuses, puzzles): one string each
SHARED_TEXT = ("campaign_id", "solver", "family", "origin", "encoding", "puzzle_set", "puzzle",
               "status", "stop_reason", "grid")
#: JSON columns whose texts repeat across runs (a campaign's parameters, library versions):
#: decoded once and the value shared, read-only, by every run that has the same text
SHARED_JSON = ("params", "versions", "extra", "violations")


#: ``json.dumps(v, sort_keys=True)`` without building an encoder per call (ten JSON columns a
#: run made that a fifth of a campaign driver's time)
_encode_json = json.JSONEncoder(sort_keys=True).encode


def _json_text(value: Any) -> Any:
    """The stored text of a JSON column's value (a text or None is stored as it is).

    A small flat dict (a run's counters, versions, parameters) is mostly one of a few:
    its text is remembered by its items, a lookup where encoding cost about 3 us."""
    if value is None or isinstance(value, str):
        return value
    if not value and isinstance(value, (list, dict)):
        return "[]" if isinstance(value, list) else "{}"
    if type(value) is dict and len(value) <= 8:
        try:  # the type is part of the key: 1, 1.0 and True are equal, their texts not
            key = tuple([(k, v.__class__, repr(v) if v.__class__ is float else v)
                         for k, v in value.items()])
            text = _RECENT_JSON.get(key)
        except TypeError:  # an unhashable value: encoded each time
            return _encode_json(value)
        if text is None:
            if len(_RECENT_JSON) >= 4096:
                _RECENT_JSON.clear()
            text = _RECENT_JSON[key] = _encode_json(value)
        return text
    return _encode_json(value)


#: JSON texts of small dicts by their items (see :func:`_json_text`)
_RECENT_JSON: dict[tuple, str] = {}


class _SharedDecoder:
    """Decodes rows of one read so that equal values are one object: each solver name,
    puzzle line and parameter set of a read held once, not once a run (about 3.0 KB a run
    decoded alone, measured, against less than half that shared)."""

    def __init__(self) -> None:
        self.text: dict[str, str] = {}
        self.json: dict[str, Any] = {}

    def __call__(self, d: dict[str, Any]) -> dict[str, Any]:
        for col in SHARED_TEXT:
            v = d.get(col)
            if v is not None:
                d[col] = self.text.setdefault(v, v)
        for col in JSON_COLUMNS:
            raw = d.get(col)
            if not raw:
                continue
            if col in SHARED_JSON:
                value = self.json.get(raw)
                if value is None:
                    value = self.json[raw] = json.loads(raw)
                d[col] = value
            else:
                d[col] = json.loads(raw)
        return d


class StoreBusyError(InputError):
    """Another process is writing this database (exit 2: choose another ``--db`` or wait)."""


class StoreWriteError(RuntimeError):
    """Writing a finished run failed (disk full, I/O error); the runs before it are kept."""


JSON_COLUMNS = ("params", "counters", "trace", "extra", "versions", "violations")
RUN_COLUMNS = (
    "run_id", "campaign_id", "solver", "family", "origin", "encoding", "params", "puzzle_set",
    "puzzle_index", "puzzle", "seed", "seed_index", "max_seconds", "max_evaluations", "status",
    "elapsed_s", "evaluations", "iterations", "restarts", "best_energy", "counters", "trace",
    "extra", "versions", "grid", "violations", "error", "finished_at", "stop_reason",
    "schedule_fraction", "attempt", "memory_mb",
)

#: (column, stored as JSON) in table order, and the insert of a first attempt: built once,
#: not per stored run
_COLUMN_KINDS = tuple((c, c in JSON_COLUMNS) for c in RUN_COLUMNS)
_COLUMNS_SQL = ", ".join(RUN_COLUMNS)
_MARKS_SQL = ", ".join("?" for _ in RUN_COLUMNS)
_INSERT_NEW = f"INSERT OR IGNORE INTO runs ({_COLUMNS_SQL}) VALUES ({_MARKS_SQL})"
_ATTEMPT = RUN_COLUMNS.index("attempt")


def _values(row: dict[str, Any], attempt: int) -> list[Any]:
    """A run row's values in table order, JSON columns as text, with its attempt number."""
    values = [_json_text(row.get(c)) if is_json else row.get(c) for c, is_json in _COLUMN_KINDS]
    values[_ATTEMPT] = attempt
    return values

#: the order every read of runs gives them in
_RUN_ORDER = " ORDER BY solver, puzzle_set, puzzle_index, seed_index"

#: columns added after version 1, with their SQL types: an older store gains them on open
ADDED_COLUMNS = {2: (("stop_reason", "TEXT"), ("schedule_fraction", "REAL")),
                 3: (("attempt", "INTEGER DEFAULT 1"), ("memory_mb", "INTEGER"))}
#: tables added after version 1
ADDED_TABLES = {3: (ATTEMPTS_TABLE,)}


def _refuse(path: Path, reason: str) -> InputError:
    return InputError(f"--db {path}: {reason}; nothing was written")


def _check_file(path: Path) -> int | None:
    """The size of a file that may be a SQLite database (None: no file yet); else refuse.

    Reads at most 16 bytes, never through SQLite.
    """
    if path.is_dir():
        raise _refuse(path, "is a directory, not a database file")
    if not path.exists():
        return None
    if not path.is_file():
        raise _refuse(path, "is not a regular file")
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            header = fh.read(16)
    except OSError as exc:
        raise _refuse(path, f"cannot be read ({exc.strerror or exc})") from None
    if size and header != b"SQLite format 3\x00":
        raise _refuse(path, "is not a SQLite database (not a sudoku-compare store)")
    return size


def inspect_file(path: str | Path, thorough: bool = True) -> int | None:
    """The schema version of the store at ``path``, None when there is none yet.

    Reads through an immutable read-only connection, so inspecting a file never changes
    it; raises :class:`InputError` for anything that is not one of our stores.
    ``thorough`` also runs ``PRAGMA quick_check`` and compares the file's length with its
    header (a truncated store), which a writer does before its first write.
    """
    path = Path(path)
    size = _check_file(path)
    if not size:
        return None
    # immutable: no lock, no journal, no -shm, so nothing beside the file changes either.
    # An immutable reader ignores a write-ahead log, though, and a store whose writer was
    # killed keeps its latest pages (even its schema) there; a read-only connection would
    # have to recover the log's index, which it may not do. So with a -wal present, the
    # file and its log are copied aside and the copy is read.
    wal = path.with_name(path.name + "-wal")
    scratch = None
    target = path
    if wal.is_file() and wal.stat().st_size:
        import shutil
        import tempfile

        scratch = tempfile.TemporaryDirectory(prefix="sudoku-compare-inspect-")
        target = Path(scratch.name) / "store.db"
        try:
            shutil.copyfile(path, target)
            shutil.copyfile(wal, target.with_name("store.db-wal"))
        except OSError as exc:
            scratch.cleanup()
            raise _refuse(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        uri = target.resolve().as_uri() + ("" if scratch else "?mode=ro&immutable=1")
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        if scratch:
            scratch.cleanup()
        raise _refuse(path, f"cannot be opened ({exc})") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id not in (0, APPLICATION_ID):
            raise _refuse(path, f"is a SQLite database of another application "
                                f"(application_id {app_id:#x})")
        if not OWN_TABLES <= tables:
            shown = ", ".join(sorted(tables)[:5]) or "none"
            raise _refuse(path, f"is a SQLite database of another schema (tables: {shown}), "
                                f"not a sudoku-compare store")
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if row is None or not str(row[0]).isdigit():
            raise _refuse(path, "has a meta table without a schema version; "
                                "not a sudoku-compare store")
        version = int(row[0])
        if version > SCHEMA_VERSION:
            raise _refuse(path, f"was written by a newer sudoku-compare (store schema "
                                f"v{version}; this version reads up to v{SCHEMA_VERSION})")
        if not thorough:
            return version
        # a truncated file can pass quick_check on its surviving pages: the header's page
        # count says how long the file must be
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        if scratch is None and size < pages * page_size:  # (a -wal may hold the tail)
            raise _refuse(path, f"is a truncated store ({size} bytes, {pages} pages of "
                                f"{page_size} expected)")
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise _refuse(path, f"is a damaged store ({check})")
        return version
    except sqlite3.DatabaseError as exc:
        raise _refuse(path, f"is not a readable sudoku-compare store ({exc})") from None
    finally:
        conn.close()
        if scratch:
            scratch.cleanup()


class _WriterLock:
    """An exclusive ``flock`` on ``<db>.lock`` held while a writer has the store open."""

    def __init__(self, db: Path, create: bool = True) -> None:
        self.path = db.with_name(db.name + ".lock")
        try:
            self.fd = os.open(self.path, os.O_RDWR | (os.O_CREAT if create else 0), 0o644)
        except OSError as exc:
            if not create and isinstance(exc, FileNotFoundError):
                raise
            raise _refuse(db, f"is in a place where files cannot be created (its lock file "
                              f"{self.path.name}: {exc.strerror or exc})") from None
        try:
            import fcntl

            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # no flock on this platform: single-writer is then on trust
            pass
        except OSError as exc:
            holder = os.pread(self.fd, 64, 0).decode(errors="replace").strip() or "unknown"
            os.close(self.fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise StoreBusyError(f"--db {db}: another campaign is writing it "
                                     f"(pid {holder}); wait for it to end or use another "
                                     f"file") from None
            raise _refuse(db, f"cannot lock {self.path.name} ({exc.strerror or exc})") from None
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    @classmethod
    def existing(cls, db: Path) -> _WriterLock | None:
        """Take the lock if its file already exists (a busy store is then refused before
        SQLite reads a page); None when there is no lock file yet."""
        try:
            return cls(db, create=False)
        except FileNotFoundError:
            return None
        except InputError as exc:
            if isinstance(exc, StoreBusyError):
                raise
            return None  # e.g. an unwritable lock file: the creating attempt reports it

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing drops the flock
            self.fd = -1


class Store:
    """A campaign database. Use as a context manager or call :meth:`close`.

    Opening for writing inspects the file first (:func:`inspect_file`), takes the writer
    lock, then creates or migrates the schema; opening ``readonly`` only inspects.
    """

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        self._lock: _WriterLock | None = None
        if readonly:
            if not self.path.exists():
                raise InputError(f"{self.path}: no such database")
            version = inspect_file(self.path, thorough=False)
            if version is None:  # an empty file: a store with no tables yet
                raise InputError(f"{self.path}: an empty file, not a sudoku-compare store")
            self.conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            self.conn.row_factory = sqlite3.Row
            return
        _check_file(self.path)
        self._lock = _WriterLock.existing(self.path)
        try:
            version = inspect_file(self.path)
            if not self.path.parent.exists():
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise _refuse(self.path, f"cannot create its folder "
                                             f"({exc.strerror or exc})") from None
            if not os.access(self.path.parent, os.W_OK) or (
                    self.path.exists() and not os.access(self.path, os.W_OK)):
                raise _refuse(self.path, "cannot be written by this user "
                                         "(a read-only file or folder)")
            if self._lock is None:
                self._lock = _WriterLock(self.path)
            self.conn = sqlite3.connect(self.path)
            try:
                self._create_or_migrate(version)
            except sqlite3.Error as exc:
                self.conn.close()
                raise _refuse(self.path, f"cannot be written ({exc})") from None
        except BaseException:
            if self._lock is not None:
                self._lock.release()
                self._lock = None
            raise
        self.conn.row_factory = sqlite3.Row

    def _create_or_migrate(self, version: int | None) -> None:
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        if version is None:
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.conn.executescript(SCHEMA + ATTEMPTS_TABLE)
            self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                              (str(SCHEMA_VERSION),))
            self.conn.commit()
            return
        if version < SCHEMA_VERSION:
            self._migrate(version)
        if self.conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        self.conn.commit()

    def _migrate(self, version: int) -> None:
        """Bring an older store of ours up to :data:`SCHEMA_VERSION`, one version at a time,
        in one transaction (a failed migration leaves the store as it was)."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            present = {r[1] for r in self.conn.execute("PRAGMA table_info(runs)")}
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for name, sql_type in ADDED_COLUMNS.get(v, ()):
                    if name not in present:
                        self.conn.execute(f"ALTER TABLE runs ADD COLUMN {name} {sql_type}")
                for sql in ADDED_TABLES.get(v, ()):
                    self.conn.execute(sql)
            self.conn.execute("CREATE TABLE IF NOT EXISTS campaign_runs (campaign_id TEXT NOT "
                              "NULL, run_id TEXT NOT NULL, PRIMARY KEY (campaign_id, run_id))")
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                              (str(SCHEMA_VERSION),))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # -- writing (the campaign driver only) ----------------------------------------
    def add_campaign(self, campaign_id: str, created_at: str, command: str, config: dict,
                     machine: dict, planned_runs: int, run_ids: Iterable[str] = ()) -> None:
        """Record a campaign (once) and, when given, the ids of the runs it plans."""
        try:
            with self.conn:
                self.conn.execute(
                    "INSERT OR IGNORE INTO campaigns VALUES (?, ?, ?, ?, ?, ?)",
                    (campaign_id, created_at, command, json.dumps(config, sort_keys=True),
                     json.dumps(machine, sort_keys=True), planned_runs))
                self.conn.executemany("INSERT OR IGNORE INTO campaign_runs VALUES (?, ?)",
                                      ((campaign_id, r) for r in run_ids))
        except sqlite3.Error as exc:
            raise StoreWriteError(f"{self.path}: cannot record the campaign ({exc})") from exc

    def add_run(self, row: dict[str, Any], retry: bool = False) -> int:
        """Store one finished run and commit at once; return its attempt number.

        A run id is stored once: without ``retry`` a second row for it is ignored. With
        ``retry`` the stored attempt moves to ``run_attempts`` and this one replaces it
        (same transaction, so a crash keeps one or the other, never neither).
        """
        return self.add_runs([(row, retry)])[0]

    def add_runs(self, rows: Sequence[tuple[dict[str, Any], bool]]) -> list[int]:
        """Store finished runs ``(row, retry)`` in one transaction (as :meth:`add_run` each);
        return their attempt numbers. A campaign commits its runs this way every fraction
        of a second: one commit per run cost about 40 us of the driver's time each. First
        attempts go in as one ``executemany``; a run then costs about 20 us, half of it
        the text of its JSON columns."""
        cols, marks = _COLUMNS_SQL, _MARKS_SQL
        attempts = [1] * len(rows)
        try:
            with self.conn:  # one transaction: commit, or roll back on any error
                fresh = [i for i, (_, retry) in enumerate(rows) if not retry]
                before = self.conn.total_changes
                self.conn.executemany(_INSERT_NEW, [_values(rows[i][0], 1) for i in fresh])
                if self.conn.total_changes - before < len(fresh):
                    # some were stored before and kept: each says which attempt it is
                    for i in fresh:
                        attempts[i] = self._attempt(rows[i][0]["run_id"]) or 1
                for i, (row, retry) in enumerate(rows):
                    if not retry:
                        continue
                    prior = self._attempt(row["run_id"])
                    values = _values(row, 1 if prior is None else prior + 1)
                    if prior is not None:
                        self.conn.execute(f"INSERT OR REPLACE INTO run_attempts ({cols}) "
                                          f"SELECT {cols} FROM runs WHERE run_id = ?",
                                          (row["run_id"],))
                    self.conn.execute(f"INSERT OR REPLACE INTO runs ({cols}) VALUES ({marks})",
                                      values)
                    attempts[i] = values[_ATTEMPT]
        except sqlite3.Error as exc:
            raise StoreWriteError(f"{self.path}: cannot store a finished run ({exc})") from exc
        return attempts

    def _attempt(self, run_id: str) -> int | None:
        """The attempt number of the stored run ``run_id``, or None if it is not stored."""
        prior = self.conn.execute("SELECT COALESCE(attempt, 1) FROM runs WHERE run_id = ?",
                                  (run_id,)).fetchone()
        return None if prior is None else int(prior[0])

    # -- reading -------------------------------------------------------------------
    def finished_run_ids(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT run_id FROM runs")}

    def statuses(self) -> dict[str, str]:
        """The status of the latest attempt of every stored run id."""
        return {r[0]: r[1] for r in self.conn.execute("SELECT run_id, status FROM runs")}

    def retried(self) -> tuple[int, int]:
        """(runs stored more than once, the most attempts of one run): what a report says
        beside its tables, which use each run's latest attempt."""
        try:
            n, most = self.conn.execute(
                "SELECT COUNT(*), MAX(attempt) FROM runs WHERE attempt > 1").fetchone()
        except sqlite3.OperationalError:  # an older store opened read-only: no attempts
            return 0, 1
        return int(n), int(most or 1)

    def attempts(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Every attempt (earlier ones and the latest), oldest first, JSON columns decoded."""
        where, args = (" WHERE run_id = ?", (run_id,)) if run_id else ("", ())
        q = (f"SELECT {', '.join(RUN_COLUMNS)} FROM run_attempts{where} UNION ALL "
             f"SELECT {', '.join(RUN_COLUMNS)} FROM runs{where} ORDER BY run_id, attempt")
        try:
            rows = self.conn.execute(q, args + args).fetchall()
        except sqlite3.OperationalError:  # an older store opened read-only: no retries
            return self.runs() if run_id is None else [r for r in self.runs()
                                                      if r["run_id"] == run_id]
        return [self._decode(dict(zip(RUN_COLUMNS, r, strict=True))) for r in rows]

    @staticmethod
    def _decode(d: dict[str, Any]) -> dict[str, Any]:
        for col in JSON_COLUMNS:
            if d.get(col):
                d[col] = json.loads(d[col])
        return d

    def runs(self, campaign_id: str | None = None, *,
             planned_by: str | None = None) -> list[dict[str, Any]]:
        """Every run as a dict, JSON columns decoded: all of them, those stored under
        ``campaign_id``, or those campaign ``planned_by`` planned (a run two campaigns
        share is stored once, under the first)."""
        return list(self.iter_runs(campaign_id, planned_by=planned_by))

    def _select(self, columns: Sequence[str] | None) -> str:
        """The select list of ``columns`` (all when None); a column this store lacks (an
        older one) reads as NULL."""
        if columns is None:
            return "*"
        unknown = sorted(set(columns) - set(RUN_COLUMNS))
        if unknown:
            raise ValueError(f"not run columns: {', '.join(unknown)}")
        present = {r[1] for r in self.conn.execute("PRAGMA table_info(runs)")}
        return ", ".join(c if c in present else f"NULL AS {c}" for c in columns)

    def iter_runs(self, campaign_id: str | None = None, *, planned_by: str | None = None,
                  columns: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
        """The rows of :meth:`runs` one at a time, as SQLite reads them, in the same order;
        with ``columns``, only those. A CSV export holds only the row in hand."""
        q = f"SELECT {self._select(columns)} FROM runs"
        args: tuple = ()
        if campaign_id:
            q += " WHERE campaign_id = ?"
            args = (campaign_id,)
        elif planned_by:
            q += " WHERE run_id IN (SELECT run_id FROM campaign_runs WHERE campaign_id = ?)"
            args = (planned_by,)
        decode = _SharedDecoder()
        for r in self.conn.execute(q + _RUN_ORDER, args):
            yield decode(dict(r))

    def read_only_runs(self, columns: Sequence[str]) -> list[RunView]:
        """Every run's ``columns`` (in :meth:`iter_runs` order) as read-only
        :class:`RunView` s over one column table, read from SQLite in chunks: what a
        report holds, about 0.17 KB a run of native.bitmask plus the text of a stochastic
        run's trace (a bitmask run took 0.42 KB as a tuple, 1.5 KB as a dict)."""
        return read_table(self.conn, columns,
                          f"SELECT {self._select(columns)} FROM runs{_RUN_ORDER}", (),
                          frozenset(JSON_COLUMNS))

    def to_run(self, campaign_ids: Sequence[str], again: Collection[str] = ()) -> int:
        """How many distinct runs the campaigns plan that are not stored yet, or are stored
        with a status in ``again`` (a retry)."""
        marks = ", ".join("?" for _ in campaign_ids)
        again = sorted(again)
        retry = f" AND r.status NOT IN ({', '.join('?' for _ in again)})" if again else ""
        q = (f"SELECT COUNT(DISTINCT c.run_id) FROM campaign_runs c WHERE c.campaign_id IN "
             f"({marks}) AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.run_id = c.run_id{retry})")
        return int(self.conn.execute(q, (*campaign_ids, *again)).fetchone()[0])

    def outcome_counts(self, planned_by: str) -> list[tuple[str, str, int]]:
        """``(solver, status, runs)`` of the runs a campaign planned, counted by SQLite (no
        row is loaded), for the summary a campaign prints at its end."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT solver, status, COUNT(*) FROM runs WHERE run_id IN (SELECT run_id FROM "
            "campaign_runs WHERE campaign_id = ?) GROUP BY solver, status ORDER BY solver, "
            "status", (planned_by,))]

    def median_seconds(self, planned_by: str, solver: str, status: str = "solved"
                       ) -> float | None:
        """The median ``elapsed_s`` of a campaign's runs of ``solver`` with ``status``
        (the mean of the two middle ones for an even count), read in order by SQLite."""
        where = ("FROM runs WHERE solver = ? AND status = ? AND elapsed_s IS NOT NULL AND "
                 "run_id IN (SELECT run_id FROM campaign_runs WHERE campaign_id = ?)")
        args = (solver, status, planned_by)
        n = self.conn.execute(f"SELECT COUNT(*) {where}", args).fetchone()[0]
        if not n:
            return None
        mid = [r[0] for r in self.conn.execute(
            f"SELECT elapsed_s {where} ORDER BY elapsed_s LIMIT ? OFFSET ?",
            (*args, 2 - n % 2, (n - 1) // 2))]
        return sum(mid) / len(mid)

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
