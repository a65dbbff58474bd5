"""Swaps inside one unit of a permutation encoding, scored in O(1) from digit counts.

Both permutation encodings keep one kind of unit a permutation (the rows for
:mod:`~sudoku_compare.problems.encodings.row_permutation`, the boxes for
:mod:`~sudoku_compare.problems.encodings.box_permutation`) and score a state by the other two
kinds: a swap of two free cells of one kept unit changes only the *checked* units the two cells
lie in. Written once over a table of those units, a local search that only swaps (the plateau
walk of both swarm families) is one loop for either encoding.

``units`` is an ``(2, N*N)`` int64 table: ``units[k, x]`` is the index of cell ``x``'s checked
unit of the ``k``-th kind (:func:`row_permutation.checked_units`,
:func:`box_permutation.checked_units`); cells are flat indices ``r * N + c``; ``counts[k, u, d]``
is how often digit ``d`` sits in unit ``u`` of kind ``k``.

The energy these deltas change is the encodings' own (duplicates over the checked units, the
same number as missing digits over them): :func:`swap_delta` equals each encoding's counted
delta, so a search moved onto this module draws the same moves and takes the same decisions.
One call of :func:`swap_delta` is one evaluation.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def unit_counts(flat, units, n):
    """``counts`` of a flat state: ``(2, N, N + 1)`` digit counts of its checked units."""
    counts = np.zeros((2, n, n + 1), dtype=np.int64)
    for x in range(flat.size):
        d = flat[x]
        counts[0, units[0, x], d] += 1
        counts[1, units[1, x], d] += 1
    return counts


@numba.njit(cache=True, inline="always")
def _change(na, nb):
    """Change of a unit's duplicates when one ``a`` (``na`` copies) becomes ``b`` (``nb``)."""
    return (-1 if na >= 2 else 0) + (1 if nb >= 1 else 0)


@numba.njit(cache=True, inline="always")
def swap_delta(counts, units, flat, x, y):
    """Energy change of exchanging cells ``x`` and ``y`` (one evaluation)."""
    a = flat[x]
    b = flat[y]
    if a == b:
        return 0
    d = 0
    for k in range(2):
        ux = units[k, x]
        uy = units[k, y]
        if ux != uy:
            d += _change(counts[k, ux, a], counts[k, ux, b]) + _change(counts[k, uy, b],
                                                                       counts[k, uy, a])
    return d


@numba.njit(cache=True, inline="always")
def apply_swap(counts, units, flat, x, y):
    """Exchange cells ``x`` and ``y``, keeping ``counts`` in step."""
    a = flat[x]
    b = flat[y]
    for k in range(2):
        counts[k, units[k, x], a] -= 1
        counts[k, units[k, x], b] += 1
        counts[k, units[k, y], b] -= 1
        counts[k, units[k, y], a] += 1
    flat[x] = b
    flat[y] = a


@numba.njit(cache=True, inline="always")
def random_pair(movable, n_free, cells):
    """Two distinct free cells of one kept unit: the unit uniform among the ``movable`` ones
    (two free cells or more), the pair uniform among its ordered distinct pairs. Three draws from
    numba's generator, in the order every swap search of both encodings has always used, so the
    seeded results do not depend on which of them draws."""
    u = movable[np.random.randint(movable.size)]
    m = n_free[u]
    k1 = np.random.randint(m)
    k2 = (k1 + 1 + np.random.randint(m - 1)) % m
    return cells[u, k1], cells[u, k2]
