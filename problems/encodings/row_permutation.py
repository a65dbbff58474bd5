"""Row permutation: the encoding of the seed annealer and the seed genetic algorithm.

**State.** An ``(N, N)`` int64 grid in which the givens are kept and every row holds, on its
free (non-given) cells, a permutation of the digits that row is missing. Rows are therefore
never in conflict; only columns and boxes can be.

**Initial state.** :func:`initial_state` shuffles each row's missing digits with the caller's
``numpy.random.Generator`` (``rng.permutation``, row by row, top to bottom), so one seed gives
one start state for every solver that uses this module.

**Objective.** :func:`energy` = sum over columns and boxes, for each digit present, of
``count - 1`` (the seed's ``ComputeEnergy``: the number of duplicates). It is 0 exactly when
the state is a solution. :func:`conflict_energy` adds the rows' duplicates; it equals
``energy`` on a row-permutation state and is the objective of the box-swap neighbour.

**Moves.**

- *row swap* (the seed's neighbour): exchange two free cells of one row. The row stays a
  permutation. :func:`swap_delta` gives the change of ``energy`` by reading only the two
  columns and (when the cells lie in different boxes) the two boxes: O(N), no copy.
- *box swap* (the seed's exercise): exchange two free cells of one box. **What is kept:** the
  box's multiset of digits, hence every box term of the energy; **what is not kept:** the row
  permutation, unless both cells share a row (then a box swap *is* a row swap whose box terms do
  not change). A box swap is therefore scored with :func:`conflict_energy` (rows + columns +
  boxes) through :func:`cell_swap_delta`, and the annealer that uses it starts from
  :func:`initial_box_state` (every box a permutation of its missing digits), where the box term
  is 0 and the objective is the rows' and columns' duplicates. Under ``energy`` alone a box swap
  across rows would be scored wrongly; that is why the two objectives are separate functions.

A compiled loop may keep per-column and per-box digit counts (:func:`unit_counts`) and read the
same row-swap delta from them in O(1) (:func:`swap_delta_counted`, kept in step by
:func:`apply_swap_counted`); the property test holds it equal to :func:`swap_delta` and to full
recomputation.

**GA operators.** :func:`order_crossover` (OX applied to the free cells of each row, exactly as
the seed's ``SudokuRowOrderedCrossover``: a segment ``[a, b]`` of parent 1 is kept, the other free
cells are filled left to right with parent 2's digits in parent 2's order, skipping digits
already used) and :func:`swap_mutation` (per row, with probability ``rate``, swap two free cells
drawn independently; nothing happens when they coincide, as in ``SudokuRowSwapMutation``). Both
keep the row-permutation invariant. :func:`to_vector` / :func:`from_vector` turn a state into the
flat chromosome libraries want (the free cells in row-major order) and back.

**What one evaluation is** (the unit of every evaluation budget, native or library): computing
the objective of one candidate state, either by a full :func:`energy` call or by one
:func:`swap_delta` / :func:`cell_swap_delta` call (candidate energy = current + delta). A library
wraps :func:`energy` with :class:`~sudoku_compare.problems.encodings.counter.EvaluationCounter`
and is charged one per call; a native loop charges itself one per full energy and one per delta,
and adds the total to the same counter. Re-reading a cached value (an elite's fitness) is not an
evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

from sudoku_compare.problems.puzzle import Puzzle

# ---------------------------------------------------------------- layout of the free cells


@dataclass(frozen=True)
class RowLayout:
    """Where a puzzle's free cells are, in the shapes the kernels read.

    ``free_cols[r, :n_free[r]]`` are the free columns of row ``r`` (ascending; the rest is -1);
    ``missing[r, :n_free[r]]`` the digits row ``r`` lacks (ascending); ``cells[r, :n_free[r]]``
    the same free cells as flat indices ``r * N + c`` (what
    :mod:`~sudoku_compare.problems.encodings.unit_swap` reads).
    """

    givens: np.ndarray
    free: np.ndarray
    free_cols: np.ndarray
    n_free: np.ndarray
    missing: np.ndarray
    box: int

    @property
    def cells(self) -> np.ndarray:
        n = self.free_cols.shape[0]
        rows = np.arange(n, dtype=np.int64)[:, None]
        return np.where(self.free_cols >= 0, rows * n + self.free_cols, -1)

    @classmethod
    def for_puzzle(cls, puzzle: Puzzle) -> RowLayout:
        givens = puzzle.grid()
        free = givens == 0
        free_cols, n_free = row_layout(free)
        n = puzzle.side
        missing = np.full((n, n), -1, dtype=np.int64)
        for r in range(n):
            digits = sorted(set(range(1, n + 1)) - {int(v) for v in givens[r] if v})
            missing[r, :len(digits)] = digits
        return cls(givens, free, free_cols, n_free, missing, puzzle.box)

    def rows_with_two(self) -> np.ndarray:
        """Rows where a swap is possible (at least two free cells)."""
        return np.flatnonzero(self.n_free >= 2)


@lru_cache(maxsize=64)
def layout_of(puzzle: Puzzle) -> RowLayout:
    """The (cached) :class:`RowLayout` of a puzzle; treat its arrays as read-only."""
    return RowLayout.for_puzzle(puzzle)


@lru_cache(maxsize=8)
def checked_units(box: int) -> np.ndarray:
    """``(2, N*N)``: each cell's column and box, the units a row swap can put in conflict (the
    table :mod:`~sudoku_compare.problems.encodings.unit_swap` scores swaps with)."""
    n = box * box
    r, c = np.divmod(np.arange(n * n, dtype=np.int64), n)
    return np.stack([c, (r // box) * box + c // box])


def row_layout(free: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(free_cols, n_free)`` of a free mask: row r's free columns are ``free_cols[r, :n_free[r]]``."""
    free = np.asarray(free, dtype=bool)
    n = free.shape[0]
    free_cols = np.full((n, n), -1, dtype=np.int64)
    n_free = free.sum(axis=1).astype(np.int64)
    for r in range(n):
        cols = np.flatnonzero(free[r])
        free_cols[r, :cols.size] = cols
    return free_cols, n_free


def free_cells_per_row(free: np.ndarray) -> list[np.ndarray]:
    """The free columns of each row, as a list of arrays (what :func:`random_row_swap` takes)."""
    return [np.flatnonzero(row) for row in np.asarray(free, dtype=bool)]


def box_layout(free: np.ndarray, box: int) -> tuple[np.ndarray, np.ndarray]:
    """``(box_cells, n_free_box)``: box b's free cells (flat indices, row-major) and their count."""
    free = np.asarray(free, dtype=bool)
    n = free.shape[0]
    box_cells = np.full((n, n), -1, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    for b in range(n):
        r0, c0 = (b // box) * box, (b % box) * box
        k = 0
        for r in range(r0, r0 + box):
            for c in range(c0, c0 + box):
                if free[r, c]:
                    box_cells[b, k] = r * n + c
                    k += 1
        counts[b] = k
    return box_cells, counts


# ---------------------------------------------------------------- initial states


def initial_state(puzzle: Puzzle, rng: np.random.Generator) -> np.ndarray:
    """A row-permutation state: each row's missing digits (ascending) shuffled with
    ``rng.permutation`` onto its free cells (ascending columns), rows top to bottom."""
    layout = layout_of(puzzle)
    grid = layout.givens.copy()
    for r in range(grid.shape[0]):
        k = layout.n_free[r]
        if k:
            grid[r, layout.free_cols[r, :k]] = rng.permutation(layout.missing[r, :k])
    return grid


def initial_population(puzzle: Puzzle, rng: np.random.Generator, size: int) -> np.ndarray:
    """``(size, N, N)``: exactly ``size`` successive :func:`initial_state` draws from ``rng``."""
    return np.stack([initial_state(puzzle, rng) for _ in range(size)])


def initial_box_state(puzzle: Puzzle, rng: np.random.Generator) -> np.ndarray:
    """A box-permutation state (the start of the box-swap neighbour): each box's missing digits
    shuffled onto its free cells, boxes in row-major order."""
    grid = puzzle.grid()
    n, b = puzzle.side, puzzle.box
    for k in range(n):
        r0, c0 = (k // b) * b, (k % b) * b
        block = grid[r0:r0 + b, c0:c0 + b]
        free = block == 0
        if free.any():
            missing = np.setdiff1d(np.arange(1, n + 1), block[~free])
            block[free] = rng.permutation(missing)
    return grid


# ---------------------------------------------------------------- objective and deltas


@numba.njit(cache=True)
def energy(state, box):
    """Duplicates in columns and boxes: sum of (count - 1) over each digit present in each."""
    n = box * box
    seen = np.zeros(n + 1, dtype=np.int64)
    total = 0
    for c in range(n):
        seen[:] = 0
        for r in range(n):
            d = state[r, c]
            if d > 0:
                if seen[d] > 0:
                    total += 1
                seen[d] += 1
    for b in range(n):
        seen[:] = 0
        r0 = (b // box) * box
        c0 = (b % box) * box
        for r in range(r0, r0 + box):
            for c in range(c0, c0 + box):
                d = state[r, c]
                if d > 0:
                    if seen[d] > 0:
                        total += 1
                    seen[d] += 1
    return total


@numba.njit(cache=True)
def row_energy(state, box):
    """Duplicates in rows (0 on every row-permutation state)."""
    n = box * box
    seen = np.zeros(n + 1, dtype=np.int64)
    total = 0
    for r in range(n):
        seen[:] = 0
        for c in range(n):
            d = state[r, c]
            if d > 0:
                if seen[d] > 0:
                    total += 1
                seen[d] += 1
    return total


@numba.njit(cache=True)
def conflict_energy(state, box):
    """Duplicates in rows, columns and boxes: the objective of the box-swap neighbour."""
    return energy(state, box) + row_energy(state, box)


@numba.njit(cache=True, inline="always")
def _unit_change(na, nb):
    """Change of (count-1) terms when a unit loses one ``a`` (na copies) and gains one ``b``
    (nb copies already there)."""
    return (-1 if na >= 2 else 0) + (1 if nb >= 1 else 0)


@numba.njit(cache=True)
def _column_counts(state, c, a, b):
    na = 0
    nb = 0
    for r in range(state.shape[0]):
        d = state[r, c]
        if d == a:
            na += 1
        elif d == b:
            nb += 1
    return na, nb


@numba.njit(cache=True)
def _row_counts(state, r, a, b):
    na = 0
    nb = 0
    for c in range(state.shape[1]):
        d = state[r, c]
        if d == a:
            na += 1
        elif d == b:
            nb += 1
    return na, nb


@numba.njit(cache=True)
def _box_counts(state, r0, c0, box, a, b):
    na = 0
    nb = 0
    for r in range(r0, r0 + box):
        for c in range(c0, c0 + box):
            d = state[r, c]
            if d == a:
                na += 1
            elif d == b:
                nb += 1
    return na, nb


@numba.njit(cache=True)
def swap_delta(state, row, c1, c2, box):
    """Change of :func:`energy` if ``state[row, c1]`` and ``state[row, c2]`` were exchanged.

    Reads the two columns and, when the cells lie in different boxes, the two boxes; the
    state is not modified. One call is one evaluation.
    """
    a = state[row, c1]
    b = state[row, c2]
    if a == b or c1 == c2:
        return 0
    na, nb = _column_counts(state, c1, a, b)
    delta = _unit_change(na, nb)
    nb2, na2 = _column_counts(state, c2, b, a)
    delta += _unit_change(nb2, na2)
    if c1 // box != c2 // box:
        r0 = (row // box) * box
        na, nb = _box_counts(state, r0, (c1 // box) * box, box, a, b)
        delta += _unit_change(na, nb)
        nb2, na2 = _box_counts(state, r0, (c2 // box) * box, box, b, a)
        delta += _unit_change(nb2, na2)
    return delta


@numba.njit(cache=True)
def cell_swap_delta(state, r1, c1, r2, c2, box):
    """Change of :func:`conflict_energy` (rows + columns + boxes) if two cells were exchanged.

    Valid for any two cells; for a box swap the box terms cancel, for a row swap the row
    terms do (and then it equals :func:`swap_delta`). One call is one evaluation.
    """
    a = state[r1, c1]
    b = state[r2, c2]
    if a == b:
        return 0
    delta = 0
    if r1 != r2:
        na, nb = _row_counts(state, r1, a, b)
        delta += _unit_change(na, nb)
        nb2, na2 = _row_counts(state, r2, b, a)
        delta += _unit_change(nb2, na2)
    if c1 != c2:
        na, nb = _column_counts(state, c1, a, b)
        delta += _unit_change(na, nb)
        nb2, na2 = _column_counts(state, c2, b, a)
        delta += _unit_change(nb2, na2)
    b1r, b1c = (r1 // box) * box, (c1 // box) * box
    b2r, b2c = (r2 // box) * box, (c2 // box) * box
    if b1r != b2r or b1c != b2c:
        na, nb = _box_counts(state, b1r, b1c, box, a, b)
        delta += _unit_change(na, nb)
        nb2, na2 = _box_counts(state, b2r, b2c, box, b, a)
        delta += _unit_change(nb2, na2)
    return delta


@numba.njit(cache=True)
def unit_counts(state, box):
    """``(col_counts, box_counts)``, each ``(N, N + 1)``: how often each digit sits in each
    column and box. With them :func:`swap_delta_counted` is O(1) instead of O(N)."""
    n = box * box
    cols = np.zeros((n, n + 1), dtype=np.int64)
    boxes = np.zeros((n, n + 1), dtype=np.int64)
    for r in range(n):
        for c in range(n):
            d = state[r, c]
            cols[c, d] += 1
            boxes[(r // box) * box + c // box, d] += 1
    return cols, boxes


@numba.njit(cache=True, inline="always")
def swap_delta_counted(cols, boxes, state, row, c1, c2, box):
    """:func:`swap_delta` read from the count tables (same value, O(1)); one evaluation."""
    a = state[row, c1]
    b = state[row, c2]
    if a == b or c1 == c2:
        return 0
    delta = _unit_change(cols[c1, a], cols[c1, b]) + _unit_change(cols[c2, b], cols[c2, a])
    b1 = (row // box) * box + c1 // box
    b2 = (row // box) * box + c2 // box
    if b1 != b2:
        delta += _unit_change(boxes[b1, a], boxes[b1, b]) + _unit_change(boxes[b2, b], boxes[b2, a])
    return delta


@numba.njit(cache=True, inline="always")
def apply_swap_counted(cols, boxes, state, row, c1, c2, box):
    """:func:`apply_swap` that keeps the count tables in step."""
    a = state[row, c1]
    b = state[row, c2]
    cols[c1, a] -= 1
    cols[c1, b] += 1
    cols[c2, b] -= 1
    cols[c2, a] += 1
    b1 = (row // box) * box + c1 // box
    b2 = (row // box) * box + c2 // box
    boxes[b1, a] -= 1
    boxes[b1, b] += 1
    boxes[b2, b] -= 1
    boxes[b2, a] += 1
    state[row, c1] = b
    state[row, c2] = a


@numba.njit(cache=True)
def apply_swap(state, row, c1, c2):
    """Exchange two cells of one row in place (a row swap is its own inverse)."""
    t = state[row, c1]
    state[row, c1] = state[row, c2]
    state[row, c2] = t


@numba.njit(cache=True)
def apply_cell_swap(state, r1, c1, r2, c2):
    """Exchange any two cells in place (used by the box-swap neighbour)."""
    t = state[r1, c1]
    state[r1, c1] = state[r2, c2]
    state[r2, c2] = t


# ---------------------------------------------------------------- random moves (numpy RNG)


def random_row_swap(rng: np.random.Generator,
                    free_cells_per_row: Sequence[np.ndarray]) -> tuple[int, int, int]:
    """``(row, c1, c2)``: a uniform row among those with two free cells, then two distinct
    free columns of it, uniformly (the seed's ``GenerateNeighbor``)."""
    rows = [r for r, cols in enumerate(free_cells_per_row) if len(cols) >= 2]
    if not rows:
        raise ValueError("no row has two free cells: nothing to swap")
    row = rows[int(rng.integers(len(rows)))]
    cols = free_cells_per_row[row]
    i, j = rng.choice(len(cols), size=2, replace=False)
    return row, int(cols[i]), int(cols[j])


def random_box_swap(rng: np.random.Generator, free: np.ndarray,
                    box: int) -> tuple[int, int, int, int]:
    """``(r1, c1, r2, c2)``: a uniform box among those with two free cells, then two distinct
    free cells of it. Keeps the box's digits; see the module docstring for what it breaks."""
    box_cells, counts = box_layout(free, box)
    boxes = np.flatnonzero(counts >= 2)
    if boxes.size == 0:
        raise ValueError("no box has two free cells: nothing to swap")
    b = int(boxes[rng.integers(boxes.size)])
    i, j = rng.choice(int(counts[b]), size=2, replace=False)
    n = box * box
    x, y = int(box_cells[b, i]), int(box_cells[b, j])
    return x // n, x % n, y // n, y % n


# ---------------------------------------------------------------- GA operators


@numba.njit(cache=True)
def ox_row_into(child, a, b, row, cols, k, cut_a, cut_b, used):
    """:func:`ox_row` with a caller-owned scratch ``used`` (bool, N + 1), for hot loops."""
    used[:] = False
    for i in range(cut_a, cut_b + 1):
        v = a[row, cols[i]]
        child[row, cols[i]] = v
        used[v] = True
    fill = 0
    for i in range(k):
        if cut_a <= i <= cut_b:
            continue
        while fill < k:
            v = b[row, cols[fill]]
            fill += 1
            if not used[v]:
                child[row, cols[i]] = v
                used[v] = True
                break


@numba.njit(cache=True)
def ox_row(child, a, b, row, cols, k, cut_a, cut_b):
    """OX on one row's free cells ``cols[:k]``: keep ``a`` on ``[cut_a, cut_b]``, fill the rest
    left to right with ``b``'s digits in ``b``'s order, skipping those already used."""
    ox_row_into(child, a, b, row, cols, k, cut_a, cut_b,
                np.zeros(child.shape[1] + 1, dtype=np.bool_))


@numba.njit(cache=True)
def ox_with_cuts(p1, p2, free_cols, n_free, cuts_a, cuts_b):
    """Both OX children of ``p1`` and ``p2`` for given cuts per row (rows with < 2 free cells
    are copied from the parent that gives the segment)."""
    c1 = p1.copy()
    c2 = p2.copy()
    for r in range(p1.shape[0]):
        k = n_free[r]
        if k < 2:
            continue
        ox_row(c1, p1, p2, r, free_cols[r], k, cuts_a[r], cuts_b[r])
        ox_row(c2, p2, p1, r, free_cols[r], k, cuts_a[r], cuts_b[r])
    return c1, c2


def order_crossover(parent1: np.ndarray, parent2: np.ndarray, rng: np.random.Generator,
                    free: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two children of OX applied per row, with the same cut points for both children.

    For each row with ``k >= 2`` free cells, two cut indices are drawn uniformly in ``[0, k)``
    and ordered; child 1 keeps parent 1's segment and is filled from parent 2, child 2 the
    reverse (the seed's ``SudokuRowOrderedCrossover``). Parents are not modified.
    """
    free_cols, n_free = row_layout(free)
    n = n_free.size
    cuts_a = np.zeros(n, dtype=np.int64)
    cuts_b = np.zeros(n, dtype=np.int64)
    for r in range(n):
        if n_free[r] >= 2:
            x, y = rng.integers(0, n_free[r], size=2)
            cuts_a[r], cuts_b[r] = min(x, y), max(x, y)
    return ox_with_cuts(np.asarray(parent1, dtype=np.int64), np.asarray(parent2, dtype=np.int64),
                        free_cols, n_free, cuts_a, cuts_b)


def swap_mutation(state: np.ndarray, rng: np.random.Generator, rate: float,
                  free: np.ndarray) -> np.ndarray:
    """In place: each row with two free cells, with probability ``rate``, swaps two of them
    (drawn independently; equal draws do nothing). Returns ``state``."""
    for r, cols in enumerate(free_cells_per_row(free)):
        if cols.size < 2 or rng.random() > rate:
            continue
        i, j = rng.integers(0, cols.size, size=2)
        if i != j:
            apply_swap(state, r, int(cols[i]), int(cols[j]))
    return state


# ---------------------------------------------------------------- flat chromosomes


def to_vector(state: np.ndarray, free: np.ndarray) -> np.ndarray:
    """The free cells' digits in row-major order (a library's chromosome)."""
    return np.asarray(state)[np.asarray(free, dtype=bool)].astype(np.int64)


def from_vector(vector: np.ndarray, givens: np.ndarray, free: np.ndarray | None = None) -> np.ndarray:
    """The state whose free cells (row-major) hold ``vector``; ``givens`` is the puzzle grid."""
    state = np.array(givens, dtype=np.int64).reshape(np.shape(givens)[0], -1)
    mask = state == 0 if free is None else np.asarray(free, dtype=bool)
    state[mask] = np.asarray(vector, dtype=np.int64)
    return state


def is_row_permutation(state: np.ndarray, puzzle: Puzzle) -> bool:
    """The invariant: givens kept and every row a permutation of 1..N."""
    grid = puzzle.grid()
    state = np.asarray(state)
    n = puzzle.side
    if not np.array_equal(state[grid != 0], grid[grid != 0]):
        return False
    target = np.arange(1, n + 1)
    return all(np.array_equal(np.sort(state[r]), target) for r in range(n))


# ---------------------------------------------------------------- presolve (singles)


def presolve_singles(puzzle: Puzzle) -> tuple[Puzzle, int]:
    """The puzzle with the cells forced by naked and hidden singles filled in, and how many.

    Repeats until nothing changes. Stops early (keeping what it has) if a cell runs out of
    candidates, so an unsolvable puzzle is handed on unchanged in spirit rather than raising.
    Used by ``native.sa-presolve``, which changes the problem the annealer sees.
    """
    topo = puzzle.topology
    n = puzzle.side
    grid = puzzle.flat()
    full = (1 << n) - 1
    fixed = 0
    changed = True
    while changed:
        changed = False
        cand = np.zeros(grid.size, dtype=np.int64)
        for cell in range(grid.size):
            if grid[cell] == 0:
                used = 0
                for p in topo.peers[cell]:
                    if grid[p]:
                        used |= 1 << (int(grid[p]) - 1)
                cand[cell] = full & ~used
                if cand[cell] == 0:
                    return Puzzle.from_grid(grid, puzzle.name), fixed
        for cell in range(grid.size):  # naked singles
            m = int(cand[cell])
            if grid[cell] == 0 and m & (m - 1) == 0:
                grid[cell] = m.bit_length()
                fixed += 1
                changed = True
        if changed:
            continue
        for unit in topo.units:  # hidden singles
            for d in range(n):
                bit = 1 << d
                places = [c for c in unit if grid[c] == 0 and cand[c] & bit]
                present = any(grid[c] == d + 1 for c in unit)
                if len(places) == 1 and not present:
                    grid[places[0]] = d + 1
                    fixed += 1
                    changed = True
            if changed:
                break
    return Puzzle.from_grid(grid, puzzle.name), fixed
