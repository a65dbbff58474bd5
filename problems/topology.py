"""The geometry of a Sudoku of box size n: rows, columns, boxes, units and peers.

A grid of box size ``n`` has side ``N = n*n`` and ``N*N`` cells, indexed row-major
(``cell = row * N + col``). Everything here is computed once per box size and cached,
because every solver and encoding asks for the same tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

MIN_BOX = 2
MAX_BOX = 5


@dataclass(frozen=True)
class Topology:
    """Units and peers of the ``N x N`` grid with box size ``n``."""

    box: int
    side: int
    cells: int
    #: (3N, N) cell indices: rows first, then columns, then boxes.
    units: np.ndarray
    #: (cells, 3) unit indices of each cell: its row, column and box unit.
    cell_units: np.ndarray
    #: (cells, P) peers of each cell, P = 3N - 2n - 1 (20 on 9x9), sorted.
    peers: np.ndarray
    #: (cells,) row, column and box number of each cell.
    row_of: np.ndarray
    col_of: np.ndarray
    box_of: np.ndarray

    @property
    def n_peers(self) -> int:
        return int(self.peers.shape[1])


@cache
def topology(box: int) -> Topology:
    """The cached topology for box size ``box`` (2..5)."""
    if not MIN_BOX <= box <= MAX_BOX:
        raise ValueError(f"box size must be between {MIN_BOX} and {MAX_BOX}, got {box}")
    side = box * box
    cells = side * side
    idx = np.arange(cells).reshape(side, side)
    rows = [idx[r, :] for r in range(side)]
    cols = [idx[:, c] for c in range(side)]
    boxes = [
        idx[br * box:(br + 1) * box, bc * box:(bc + 1) * box].ravel()
        for br in range(box)
        for bc in range(box)
    ]
    units = np.array(rows + cols + boxes, dtype=np.int64)
    row_of = np.repeat(np.arange(side), side)
    col_of = np.tile(np.arange(side), side)
    box_of = (row_of // box) * box + col_of // box
    cell_units = np.stack([row_of, side + col_of, 2 * side + box_of], axis=1).astype(np.int64)
    peers = []
    for c in range(cells):
        s = set()
        for u in cell_units[c]:
            s.update(int(x) for x in units[u])
        s.discard(c)
        peers.append(sorted(s))
    peer_arr = np.array(peers, dtype=np.int64)
    for arr in (units, cell_units, peer_arr, row_of, col_of, box_of):
        arr.setflags(write=False)
    return Topology(box, side, cells, units, cell_units, peer_arr, row_of, col_of, box_of)


def box_for_cells(n_cells: int) -> int | None:
    """The box size n with n**4 == n_cells, or None when there is none in 2..5."""
    for n in range(MIN_BOX, MAX_BOX + 1):
        if n**4 == n_cells:
            return n
    return None
