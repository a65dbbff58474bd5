"""Wall-clock reads and bit tricks shared by the compiled exact solvers.

A numba kernel cannot see a Python ``Deadline``; it reads ``time.perf_counter`` through
``objmode`` (about a microsecond per read), so kernels read it only every few thousand
steps and still honour ``budget.max_seconds`` to within a millisecond.
"""

from __future__ import annotations

import math
import time

import numba

#: a deadline that never comes, for batch runs and unlimited budgets
NO_DEADLINE = math.inf


@numba.njit(cache=True)
def now() -> float:
    """``time.perf_counter()`` from inside a compiled kernel."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@numba.njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Number of set bits of a non-negative int64 (SWAR; numba has no popcount intrinsic)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@numba.njit(cache=True, inline="always")
def lowest_digit(bit: int) -> int:
    """The digit (1-based) of a single-bit mask."""
    d = 1
    while bit > 1:
        bit >>= 1
        d += 1
    return d
