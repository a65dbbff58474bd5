"""The column table a report holds of a store (bench/run_table.py): every value read back
as SQLite handed it (type and sign included), whatever the column's form, and a report's
figures doing work linear in the runs."""

from __future__ import annotations

import json
import math
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.bench import run_table
from sudoku_compare.bench.run_table import RunView, read_table

NAMES = ("solver", "elapsed_s", "trace")
JSON = frozenset({"trace"})

#: what a number column can hold: a missing value, an int beyond a double's range, a float
numbers = st.one_of(st.none(), st.integers(-2 ** 62, 2 ** 62), st.floats(allow_nan=False))
texts = st.one_of(st.none(), st.text(max_size=10))
json_values = st.lists(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=4), c, max_size=3),
    max_leaves=30), max_size=6)  # a trace: a list of anything JSON


def _table(rows: list[tuple]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    # elapsed_s untyped: SQLite hands back what was stored (a REAL column makes -0.0 and
    # 1 the doubles 0.0 and 1.0)
    conn.execute("CREATE TABLE runs (k INTEGER, solver TEXT, elapsed_s, trace TEXT)")
    conn.executemany("INSERT INTO runs VALUES (?, ?, ?, ?)",
                     [(k, *row) for k, row in enumerate(rows)])
    return conn


def _same(a: object, b: object) -> bool:
    """Equal, of the same type, and a zero of the same sign."""
    if type(a) is not type(b) or a != b:
        return False
    return not isinstance(a, float) or a != 0.0 or math.copysign(1, a) == math.copysign(1, b)


def _read(conn: sqlite3.Connection) -> list[RunView]:
    return read_table(conn, NAMES, "SELECT solver, elapsed_s, trace FROM runs ORDER BY k", (),
                      JSON)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(texts, numbers, st.one_of(st.none(), json_values)), max_size=40))
def test_every_value_reads_back_as_stored(rows):
    conn = _table([(s, n, None if j is None else json.dumps(j)) for s, n, j in rows])
    stored = conn.execute("SELECT solver, elapsed_s, trace FROM runs ORDER BY k").fetchall()
    views = _read(conn)
    assert len(views) == len(rows)
    for view, (s, n, raw) in zip(views, stored, strict=True):
        assert list(view) == list(NAMES) and len(view) == 3
        assert _same(view["solver"], s) and _same(view["elapsed_s"], n)
        assert view["trace"] == (json.loads(raw) if raw else raw)


def test_columns_change_form_past_their_thresholds_and_keep_every_value(monkeypatch):
    """More rows than a chunk, more distinct texts than two bytes code, more distinct
    numbers than are coded, long JSON texts kept as text: all read back the same."""
    monkeypatch.setattr(run_table, "CHUNK", 1000)
    n = 70_000
    long_trace = [[i, 0.5, 3.0] for i in range(10)]
    rows = [(f"s{i}", -0.0 if i == 5 else (i if i % 3 else i / 7), json.dumps(
        long_trace if i % 2 else [])) for i in range(n)]
    conn = _table(rows)
    stored = conn.execute("SELECT elapsed_s FROM runs ORDER BY k").fetchall()
    views = _read(conn)
    table = views[0]._table
    assert table.columns["solver"].codes.typecode == "I"
    assert table.columns["elapsed_s"].coded is None
    assert len(table.columns["trace"].values) == 1  # "[]" once, the long ones as text
    assert _same(views[5]["elapsed_s"], -0.0)
    for i in (0, 1, 2, 5, 65_535, 65_536, n - 1):
        assert _same(views[i]["solver"], f"s{i}")
        assert _same(views[i]["elapsed_s"], stored[i][0])
        assert views[i]["trace"] == (long_trace if i % 2 else [])


def test_a_view_is_a_read_only_mapping_of_the_selected_columns():
    views = _read(_table([("native.bitmask", 1.5, "[]")]))
    v = views[0]
    assert dict(v) == {"solver": "native.bitmask", "elapsed_s": 1.5, "trace": []}
    assert v.get("grid") is None and v.get("grid", 7) == 7 and "grid" not in v
    with pytest.raises(KeyError):
        v["grid"]
    assert views[0] is v and "native.bitmask" in repr(v)


def test_the_store_reads_a_missing_column_as_none_and_refuses_an_unknown_one(tmp_path):
    from sudoku_compare.bench.store import Store

    from .test_report import RUNS, make_db

    db = make_db(tmp_path / "f.db")
    with Store(db, readonly=True) as store:
        with pytest.raises(ValueError, match="not run columns: nope"):
            store.read_only_runs(["solver", "nope"])
        store.conn.execute("PRAGMA query_only = 1")
        views = store.read_only_runs(["solver", "status"])
    assert len(views) == len(RUNS)
    assert sorted(v["solver"] for v in views) == sorted(r[0] for r in RUNS)


def test_the_figures_do_work_linear_in_the_runs(tmp_path, monkeypatch):
    """Counted, not timed: the budget of each run is read a bounded number of times (the
    equal-work figures once tested each run against a list rebuilt per run: 2,040 runs took
    28 s)."""
    from sudoku_compare.bench.reporting import figures

    calls = {"n": 0}
    real = figures.view_budget

    def counting(run):
        calls["n"] += 1
        return real(run)

    monkeypatch.setattr(figures, "view_budget", counting)

    def rows(n: int) -> list[dict]:
        return [{"solver": s, "family": "exact", "origin": "native", "puzzle_set": "easy51",
                 "puzzle_index": i, "puzzle": str(i), "seed_index": 0, "seed": 0,
                 "status": "solved", "elapsed_s": 0.001, "evaluations": 10,
                 "max_seconds": 5.0, "max_evaluations": 1000, "stop_reason": "target",
                 "trace": [], "params": {}} for s in ("native.dlx", "native.norvig")
                for i in range(n)]

    counts = []
    for n in (50, 200):
        calls["n"] = 0
        figures.write_figures(rows(n), tmp_path / f"f{n}", f"f{n}", [])
        counts.append(calls["n"])
    assert counts[0] > 0 and counts[1] <= 5 * counts[0]


def test_a_text_in_a_number_column_is_refused_naming_the_column():
    with pytest.raises(run_table.StoredValueError, match="elapsed_s cannot be read .'abc' "
                                                         "where a number belongs"):
        _read(_table([("a", 1.0, "[]"), ("b", "abc", "[]")]))


@pytest.mark.parametrize("column, text", [("counters", "{bad"), ("trace", "[[1, 2, 3]" * 10),
                                          ("elapsed_s", "abc"), ("seed_index", "q"),
                                          ("counters", "[1, 2]"), ("trace", '{"a": 1}')])
def test_a_stored_json_text_that_is_not_json_is_one_line_and_exit_2(tmp_path, capsys, column,
                                                                     text):
    from sudoku_compare.bench.cli import main

    from .test_report import make_db

    db = make_db(tmp_path / "f.db")
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE runs SET {column} = ? WHERE rowid = 2", (text,))
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "r.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"a stored run's {column} cannot be read" in err[0]
    assert not (tmp_path / "r.md").exists()


def test_an_ecdf_curve_keeps_every_step_below_the_cap_and_its_ends_above_it():
    import numpy as np

    from sudoku_compare.bench.reporting.figures import ecdf_steps

    values = np.sort(np.random.default_rng(0).random(50))
    xs, ys = ecdf_steps(values, 60)
    assert np.array_equal(xs, np.concatenate([values, values[-1:]]))
    assert np.array_equal(ys, np.arange(1, 52).clip(max=50) / 60)
    many = np.sort(np.random.default_rng(1).random(10_000))
    xs, ys = ecdf_steps(many, 10_000, cap=100)
    assert len(xs) <= 101 and xs[0] == many[0] and xs[-1] == many[-1] and ys[-1] == 1.0
    exact = np.searchsorted(many, xs, side="right") / 10_000  # the true ECDF at each x
    assert np.array_equal(ys[:-1], exact[:-1]) and np.all(np.diff(ys) <= 1 / 99 + 1e-12)


def test_every_json_column_of_the_store_has_a_shape():
    from sudoku_compare.bench.store import JSON_COLUMNS

    assert set(run_table.JSON_SHAPES) == set(JSON_COLUMNS)
