"""The plateau walk both swarm families use as their local search (pso-swap's memetic option,
the workers/explorers hybrid): random swaps inside the kept units, each taken when it does not
raise the energy, so the walk crosses the plateaus where a descent stops.

One loop for either permutation encoding, through
:mod:`~sudoku_compare.problems.encodings.unit_swap`: the swap search is the algorithm, the
encoding only says which cells may swap and which units score them.
"""

from __future__ import annotations

import numba
import numpy as np

from sudoku_compare.native._jit_clock import now
from sudoku_compare.problems.encodings import unit_swap

#: proposals between two reads of the clock
CLOCK_EVERY = 1024


@numba.njit(cache=True)
def plateau_walk(grid, e, cells, n_free, units, steps, kick_after, max_evals, evals,
                 deadline_at):
    """``steps`` random swaps of two free cells of one kept unit (``cells[u, :n_free[u]]``,
    flat indices), each taken when it does not raise the energy; after ``kick_after`` proposals
    with no new best, one swap is taken whatever it costs. Stops early at energy 0, at
    ``max_evals`` or at ``deadline_at`` (read every :data:`CLOCK_EVERY` proposals). ``grid``
    (C-contiguous, of energy ``e``) ends as the best state seen. One evaluation per proposal.
    Returns (best energy, evals)."""
    movable = np.flatnonzero(n_free >= 2)
    if movable.size == 0 or e <= 0:
        return e, evals
    n = grid.shape[0]
    best = grid.reshape(grid.size)
    cur = best.copy()
    counts = unit_swap.unit_counts(cur, units, n)
    cur_e = e
    since = 0
    for step in range(steps):
        if evals >= max_evals or cur_e <= 0:
            break
        if step % CLOCK_EVERY == 0 and now() >= deadline_at:
            break
        x, y = unit_swap.random_pair(movable, n_free, cells)
        d = unit_swap.swap_delta(counts, units, cur, x, y)
        evals += 1
        since += 1
        if d <= 0 or since >= kick_after:
            unit_swap.apply_swap(counts, units, cur, x, y)
            cur_e += d
            if since >= kick_after:
                since = 0
            if cur_e < e:
                e = cur_e
                best[:] = cur
                since = 0
    return e, evals
