"""Stored runs as columns: what a report holds of a store, however many runs it has.

A report needs every run's numbers (paired tests over puzzles, medians, ECDFs), but not one
Python object per stored value. :func:`read_table` streams a ``SELECT`` from SQLite in
chunks of plain tuples and files each value in its column: a name, puzzle, grid or short
JSON text as a code into the column's distinct values (decoded once, shared, read-only), a
time or count packed as a machine number, a long JSON text (a stochastic run's trace) as
its text, decoded when it is read. Each run is a :class:`RunView`, a two-slot read-only
mapping over its row, so the analyses that read ``run["solver"]`` need not know.
"""

from __future__ import annotations

import json
import math
import sqlite3
from array import array
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

#: rows fetched from SQLite at a time: the only rows held as tuples
CHUNK = 4096

#: columns that hold numbers (any other value found there is refused)
NUMBER_COLUMNS = frozenset({
    "puzzle_index", "seed", "seed_index", "max_seconds", "max_evaluations", "elapsed_s",
    "evaluations", "iterations", "restarts", "best_energy", "schedule_fraction", "attempt",
    "memory_mb"})

#: what a JSON column's values decode to (the analyses read counters.items(), trace rows);
#: the store's JSON columns, every one
JSON_SHAPES = {"params": dict, "counters": dict, "extra": dict, "versions": dict,
               "trace": list, "violations": list}

#: JSON texts up to this length repeat across runs (counters, parameters, an empty trace):
#: decoded once and shared; longer ones are kept as text and decoded on each read
SHARE_JSON_UP_TO = 64

#: a numbers column is coded while it has at most this many distinct values (a budget,
#: a seed, a puzzle index), then packed (a time, an evaluation count)
CODED_NUMBERS_UP_TO = 4096

_NONE, _INT, _FLOAT, _OTHER = 0, 1, 2, 3
#: what SQLite hands back for a number or a missing one
_NUMBER_TYPES = frozenset({int, float, type(None)})
#: ints a double holds exactly; a larger one is kept as it is
_EXACT_INT = 2 ** 53


def _number_key(v: Any) -> tuple:
    """What tells two stored numbers apart: the type (1, 1.0 and True are equal in Python)
    and, for a zero, its sign (0.0 and -0.0 are equal too)."""
    if v.__class__ is float and v == 0.0:
        return float, v, math.copysign(1.0, v)
    return v.__class__, v


def _widened(codes: array, top: int) -> array:
    """``codes`` in a type wide enough for ``top`` (two bytes a run until it is not)."""
    if codes.typecode == "H" and top > 0xFFFF:
        return array("I", codes)
    if codes.typecode == "h" and top > 0x7FFF:
        return array("i", codes)
    return codes


class _Coded:
    """A column of repeated values (texts): one code a run into its distinct values."""

    __slots__ = ("codes", "values", "_index")

    def __init__(self) -> None:
        self.codes = array("H")
        self.values: list[Any] = []
        self._index: dict[Any, int] = {}

    def extend(self, column: tuple) -> None:
        index, values = self._index, self.values
        for v in set(column) - index.keys():
            index[v] = len(values)
            values.append(v)
        self.codes = _widened(self.codes, len(values))
        self.codes.extend(map(index.__getitem__, column))

    def done(self) -> _Coded:
        self._index = {}
        return self

    def at(self, i: int) -> Any:
        return self.values[self.codes[i]]


class _Json:
    """A JSON column: short texts coded to one shared decoded value, long ones kept as text
    (a code below zero) and decoded when read, so a trace costs its text, not its lists."""

    __slots__ = ("codes", "values", "texts", "_index", "_shape")

    def __init__(self, shape: type) -> None:
        self._shape = shape
        self.codes = array("h")
        self.values: list[Any] = []
        self.texts: list[str] = []
        self._index: dict[Any, int] = {}

    def extend(self, column: tuple) -> None:
        index, values, texts = self._index, self.values, self.texts
        codes = []
        for raw in column:
            code = index.get(raw)
            if code is None:
                value = self._checked(json.loads(raw)) if raw else raw
                if isinstance(raw, str) and len(raw) > SHARE_JSON_UP_TO:
                    texts.append(raw)  # read once now, so a bad text fails here, not a figure
                    code = -len(texts)
                else:
                    code = index[raw] = len(values)
                    values.append(value)
            codes.append(code)
        self.codes = _widened(self.codes, max(len(values), len(texts)))
        self.codes.extend(codes)

    def _checked(self, value: Any) -> Any:
        if not isinstance(value, self._shape):
            raise ValueError(f"a JSON {type(value).__name__} where a {self._shape.__name__} "
                             "belongs")
        return value

    def done(self) -> _Json:
        self._index = {}
        return self

    def at(self, i: int) -> Any:
        code = self.codes[i]
        return self.values[code] if code >= 0 else json.loads(self.texts[-code - 1])


class _Numbers:
    """A column of numbers: coded like :class:`_Coded` while its distinct values are few
    (keyed by type too: 1, 1.0 and True stay apart), then packed at 9 bytes a run (the
    value as a double and its kind: None, int or float; an int too large for a double
    kept aside); any other value is refused."""

    __slots__ = ("coded", "numbers", "kinds", "other")

    def __init__(self) -> None:
        self.coded: _Coded | None = _Coded()
        self.numbers = array("d")
        self.kinds = array("b")
        self.other: dict[int, Any] = {}

    def extend(self, column: tuple) -> None:
        wrong = [v for v in column if v.__class__ not in _NUMBER_TYPES]
        if wrong:  # a text or blob where the writer stores numbers: a store edited by hand
            raise ValueError(f"{wrong[0]!r} where a number belongs")
        coded = self.coded
        if coded is not None:
            coded.extend(tuple(map(_number_key, column)))
            if len(coded.values) <= CODED_NUMBERS_UP_TO:
                return
            self.coded = None
            column = tuple(key[1] for key in map(coded.values.__getitem__, coded.codes))
        start = len(self.kinds)
        kinds = []
        for k, v in enumerate(column):
            cls = v.__class__
            if cls is float:
                kinds.append(_FLOAT)
            elif cls is int and -_EXACT_INT <= v <= _EXACT_INT:
                kinds.append(_INT)
            elif v is None:
                kinds.append(_NONE)
            else:  # an int beyond a double's exact range
                kinds.append(_OTHER)
                self.other[start + k] = v
        self.kinds.extend(kinds)
        self.numbers.extend([v if k == _FLOAT or k == _INT else 0.0
                             for k, v in zip(kinds, column, strict=True)])

    def done(self) -> _Coded | _Numbers:
        """The column to read: a coded one of the plain numbers while it stayed coded."""
        coded = self.coded
        if coded is None:
            return self
        coded.done()
        coded.values = [key[1] for key in coded.values]
        return coded

    def at(self, i: int) -> Any:
        kind = self.kinds[i]
        if kind == _FLOAT:
            return self.numbers[i]
        if kind == _INT:
            return int(self.numbers[i])
        return None if kind == _NONE else self.other[i]


class StoredValueError(ValueError):
    """A stored value its column cannot hold (a JSON column's text that is not JSON)."""


class RunView(Mapping[str, Any]):
    """One stored run, read-only, as a mapping over its row of a :class:`RunTable`; a
    column the read did not select reads as missing."""

    __slots__ = ("_table", "_i")

    def __init__(self, table: RunTable, i: int) -> None:
        self._table = table
        self._i = i

    def __getitem__(self, key: str) -> Any:
        return self._table.columns[key].at(self._i)

    def get(self, key: str, default: Any = None) -> Any:
        col = self._table.columns.get(key)
        return default if col is None else col.at(self._i)

    def __contains__(self, key: object) -> bool:
        return key in self._table.columns

    def __iter__(self) -> Iterator[str]:
        return iter(self._table.columns)

    def __len__(self) -> int:
        return len(self._table.columns)

    def __repr__(self) -> str:
        return f"RunView({dict(self)!r})"


class RunTable:
    """The columns of one read; ``rows`` holds one :class:`RunView` a run, the same object
    for the same run each time (a report may tell runs apart by identity)."""

    def __init__(self, names: Sequence[str], json_columns: frozenset[str]) -> None:
        self.columns: dict[str, _Coded | _Json | _Numbers] = {
            c: _Numbers() if c in NUMBER_COLUMNS else _Json(JSON_SHAPES.get(c, object))
            if c in json_columns else _Coded() for c in names}
        self.rows: list[RunView] = []

    def extend(self, rows: list[tuple]) -> None:
        """File a chunk of rows (tuples in column order)."""
        for (name, col), values in zip(self.columns.items(), zip(*rows, strict=True),
                                       strict=True):
            try:
                col.extend(values)
            except (ValueError, TypeError) as exc:  # JSON that is not, a text for a number
                raise StoredValueError(f"a stored run's {name} cannot be read ({exc})") from None
        start = len(self.rows)
        self.rows.extend(RunView(self, i) for i in range(start, start + len(rows)))

    def done(self) -> None:
        """Drop the look-up tables the reading needed; each column takes its reading form."""
        self.columns = {name: col.done() for name, col in self.columns.items()}


def read_table(conn: sqlite3.Connection, names: Sequence[str], query: str,
               args: Sequence[Any], json_columns: frozenset[str]) -> list[RunView]:
    """The rows of ``query`` (which selects ``names``, in that order) as views over one
    :class:`RunTable`, fetched :data:`CHUNK` rows at a time as plain tuples."""
    table = RunTable(names, json_columns)
    cur = conn.cursor()
    cur.row_factory = None
    cur.execute(query, tuple(args))
    while rows := cur.fetchmany(CHUNK):
        table.extend(rows)
    table.done()
    return table.rows
