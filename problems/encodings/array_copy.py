"""Array-to-array copies for compiled kernels, written as loops.

Why not ``dst[:, :] = src``: numba lowers an array-to-array slice assignment through its
general broadcasting ``setitem``, which is slow to compile. Measured on this project's
2-core machine (numba 0.61, cold cache): the first such assignment in a process costs
about 6 s of compilation, every further kernel that uses one about 1 s more; the loop
below costs 0.2 s once. The kernels copy small grids (9x9 to 25x25) where the loop is as
fast as the slice, so the whole cost was compile time, paid by every worker of a
campaign on a fresh install.
"""

from __future__ import annotations

import numba


@numba.njit(cache=True)
def copy1d(dst, src):
    """``dst[:] = src`` (same length)."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@numba.njit(cache=True)
def copy2d(dst, src):
    """``dst[:, :] = src`` (same shape)."""
    for i in range(dst.shape[0]):
        for j in range(dst.shape[1]):
            dst[i, j] = src[i, j]


@numba.njit(cache=True)
def copy3d(dst, src):
    """``dst[:, :, :] = src`` (same shape)."""
    for i in range(dst.shape[0]):
        for j in range(dst.shape[1]):
            for k in range(dst.shape[2]):
                dst[i, j, k] = src[i, j, k]
