"""Parameter sweeps: ``run --grid SOLVER:KEY=V1,V2,...`` as configured variants.

A sweep is the cartesian product of the values given for each swept parameter of a
solver; each point becomes a configured variant named ``SOLVER[k=v,...]``
(:func:`sudoku_compare.registry.variant_name`, in the order the keys were given), which is
a solver name everywhere: the worker rebuilds the solver from it, the store keeps it with
its full parameter set, and the report groups the variants of one solver for its
"parameter effect" view. Run seeds derive from (campaign seed, puzzle, seed index), never
from the solver, so every variant of a sweep meets the same seeds: the comparisons are
paired.

Values are a comma-separated list (``alpha=0.99,0.999``), an inclusive arithmetic range
``START:STOP:STEP`` (``organisms=50:200:50``) or a log range ``log:START:STOP:N`` (``N``
values evenly spaced in log scale, rounded for an integer parameter, duplicates dropped).
Every value is typed and range-checked by the solver's ``Params`` before anything runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from sudoku_compare import registry
from sudoku_compare.problems.errors import InputError
from sudoku_compare.solver import parameter_types, parse_params

#: a sweep larger than this is refused (a typo in a range should not plan a million runs)
MAX_VARIANTS = 10_000

Grid = dict[str, dict[str, list[Any]]]


def parse_grid(items: Sequence[str]) -> Grid:
    """``["native.sa:alpha=0.99,0.999", ...]`` as ``{solver: {key: [typed values]}}``."""
    grid: Grid = {}
    for item in items:
        solver, sep, assignment = item.partition(":")
        key, eq, values = assignment.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not eq or not solver.strip() or not key or not values.strip():
            raise InputError(f"--grid {item!r}: expected SOLVER:KEY=V1,V2,... "
                             f"(or KEY=START:STOP:STEP, KEY=log:START:STOP:N)")
        solver = solver.strip()
        keys = grid.setdefault(solver, {})
        if key in keys:
            raise InputError(f"--grid {item!r}: {solver}:{key} is swept twice")
        keys[key] = _values(solver, key, values.strip(), item)
    return grid


def _values(solver: str, key: str, text: str, item: str) -> list[Any]:
    spec = registry.get(solver)
    types_ = parameter_types(spec.cls.Params)
    if key not in types_:
        parse_params(spec.cls.Params, [f"{key}=0"], solver)  # raises, listing the valid keys
    ptype = types_[key]
    assert ptype is not None  # validated at registration
    if text.startswith("log:"):
        texts = _log_range(text[4:], ptype.base is int, item)
    elif text.count(":") == 2 and ptype.base in (int, float) and not ptype.choices:
        texts = _linear_range(text, ptype.base is int, item)
    else:
        texts = [t.strip() for t in text.split(",")]
    if any(not t for t in texts):
        raise InputError(f"--grid {item!r}: an empty value")
    out: list[Any] = []
    for t in texts:
        value = parse_params(spec.cls.Params, [f"{key}={t}"], solver)[key]
        if value in out:
            raise InputError(f"--grid {item!r}: {key}={t} is given twice")
        out.append(value)
    return out


def _numbers(parts: Sequence[str], item: str) -> list[float]:
    try:
        nums = [float(p) for p in parts]
    except ValueError:
        raise InputError(f"--grid {item!r}: range bounds must be numbers") from None
    if not all(math.isfinite(x) for x in nums):
        raise InputError(f"--grid {item!r}: range bounds must be finite")
    return nums


def _spell(x: float, integer: bool) -> str:
    return str(int(round(x))) if integer else repr(float(f"{x:.12g}"))


def _linear_range(text: str, integer: bool, item: str) -> list[str]:
    start, stop, step = _numbers(text.split(":"), item)
    if step == 0 or (stop - start) * step < 0:
        raise InputError(f"--grid {item!r}: STEP must be non-zero and go from START to STOP")
    if integer and not all(float(x).is_integer() for x in (start, stop, step)):
        raise InputError(f"--grid {item!r}: an integer parameter needs integer bounds and step")
    count = math.floor((stop - start) / step * (1 + 1e-12)) + 1
    if count > MAX_VARIANTS:
        raise InputError(f"--grid {item!r}: {count:,} values (at most {MAX_VARIANTS:,})")
    return [_spell(start + i * step, integer) for i in range(count)]


def _log_range(text: str, integer: bool, item: str) -> list[str]:
    parts = text.split(":")
    if len(parts) != 3:
        raise InputError(f"--grid {item!r}: a log range is log:START:STOP:N")
    start, stop, n = _numbers(parts, item)
    if start <= 0 or stop <= 0 or not n.is_integer() or not 2 <= n <= MAX_VARIANTS:
        raise InputError(f"--grid {item!r}: a log range needs START, STOP > 0 and N >= 2")
    ratio = (stop / start) ** (1 / (n - 1))
    out: list[str] = []
    for i in range(int(n)):
        t = _spell(start * ratio ** i, integer)
        if t not in out:
            out.append(t)
    return out


def variants(grid: Mapping[str, Mapping[str, Sequence[Any]]]) -> dict[str, list[str]]:
    """``{solver: [variant names]}``: the cartesian product of each solver's swept values,
    the first key varying slowest. Values may be typed or strings; both are checked."""
    out: dict[str, list[str]] = {}
    total = 0
    for solver, keys in grid.items():
        spec = registry.get(solver)
        if not keys:
            raise InputError(f"--grid {solver}: no parameter swept")
        names = list(keys)
        points = list(itertools.product(*(list(keys[k]) for k in names)))
        total += len(points)
        if total > MAX_VARIANTS:
            raise InputError(f"--grid: {total:,} variants (at most {MAX_VARIANTS:,})")
        found = []
        for point in points:
            typed = parse_params(spec.cls.Params, [f"{k}={registry.spell_value(v)}" for k, v in
                                                   zip(names, point, strict=True)], solver)
            name = registry.variant_name(solver, typed)
            registry.get(name)  # the combination itself is checked (Params.__post_init__)
            found.append(name)
        out[solver] = found
    return out


def expand_solvers(solvers: Sequence[str], grid: Mapping[str, Mapping[str, Sequence[Any]]]
                   ) -> list[str]:
    """``solvers`` with each swept one replaced by its variants (in place, in order)."""
    for solver in grid:
        if solver not in solvers:
            raise InputError(f"--grid {solver}: {solver} is not among --solvers")
    named = variants(grid)
    out: list[str] = []
    for s in solvers:
        out += named.get(s, [s])
    return out
