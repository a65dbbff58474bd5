"""The compiled search behind ``native.bitmask``: small nodes, strong propagation, binary guesses.

Two kernels, one search. Any box size (2..5) runs on one int32 per cell: the cell's
candidate digits as bits (digit d is bit d-1, so 25 digits fit) plus a flag bit once the
cell is *placed* (its digit struck from every peer). 9x9, the size that is benchmarked,
runs on band-wise bitboards instead: per digit and band of three rows, one word of the 27
cells where the digit is still possible (30 words a node, 240 bytes, four cache lines),
so that every rule below is a few word operations per digit and band. Both give the same
grids, and the same guesses but on rare puzzles (2 of top1465, by one guess: the rules run
in another order, and an inconsistent node may show its contradiction a guess later);
tests/test_bitmask.py holds them to that. The 9x9 one is about eight times as fast (top1465
batch, 2026-12-07: 6.4 against 49 µs a puzzle).
Copying a node is the whole bookkeeping of a guess; nothing is allocated inside the
search, every scratch array comes from the caller.

Where the 9x9 time goes, and what took it down (issue 21; batch kernel, µs a puzzle on
top95 / top1465, same guesses, old and new code alternated, best of 7 each):
propagation is most of it, about 13 calls, 65 naked-single passes and 22 digit passes a
puzzle. Locked candidates became two lookups per digit and band in 512-entry tables (the
3x3 segment occupancy in, the segments that survive pointing and claiming out) instead
of 18 segment tests, and a bivalue cell's unplaced peers became one popcount (LLVM's
ctpop) instead of three SWAR counts: 15.2 / 16.0 -> 12.0 / 12.6. The digit pass then
skips every digit whose three words have not changed since it was last examined, the
parent node serving as that record after a guess (a guess and its singles touch a few
digits, not nine): -> 10.1-10.7 / 10.8-11.6 (three alternated runs, against 15.1-15.5 /
16.2-17.5 before; about 1.6 µs a guess on top1465, 2.4 before). Tracking which bands
changed, to skip naked-single work on the others, cost more than it saved then (11.2 /
12.0: the band loop no longer unrolled; it pays now, below), and forcing place9 inline
changed nothing.
Then (point 2, cheaper guesses; perf batch, five alternated runs, top95 / top1465 /
hardest): a naked single's digit comes from three bit-sliced words OR-ed in the counting
pass (one more for digit 9), and it is placed without place9's strike from the other
eight digits, which a one-candidate cell does not hold; the solved grid is read off each
digit's words instead of a digit search per cell; the unchanged-digit test is one
comparison of the three XORs: 9.5-9.7 / 10.6-11.1 / 5.5-5.8 -> 7.7-8.1 / 8.7-9.1 /
5.2-5.4 (about 1.28 µs a guess on top1465, 1.2 on hardest). Measured and dropped, none
faster on all three sets: a test-free placement over every digit of a band, a mask of the
changed digits, bands marked dirty, the digit pass or the hidden-single placement as
functions of their own or inlined, the root built without a test per cell, a branch-free
branch choice, and numba's reference counting turned off (inlined helpers that take the
node add an incref per call, which the profile charges but removing them did not repay).
Then hidden singles on rows and boxes became one table lookup per digit and band (the
segments alone in their row or box, :func:`_alone_tables`, on the index locked
candidates already read) AND-ed with the one-cell segments, instead of six tests each:
7.80-7.88 / 8.64-8.71 / 5.00-5.14 -> 7.64-7.76 / 8.43-8.49 / 4.87-4.94 (same guesses;
about 1.24 µs a guess on top1465, 1.1 on hardest). Dropped, slower on all three sets:
rescanning a band for naked singles right after placing its singles (7.7 -> 8.5 on
top95: the band loop no longer unrolls), and the root's words built from the givens'
peer masks instead of one place9 per given (8.1 -> 8.6 on top95).
Then (session of 2026-12-07; a micro-benchmark of this kernel alone, best of 5 calls in 9
alternated rounds, top95 / top1465 / hardest; same grids and guesses puzzle by puzzle):
numba's reference counting is off in the 9x9 functions (``_nrt=False``: they allocate
nothing, and a sampling profile charged 9% of the kernel to the atomic increments of the
node passed to each call); locked candidates run to their fixpoint inside one digit's
examination, ``snap`` taking the words after it, so a digit is no longer examined again only
to confirm its own deletions; the three bands' hidden singles are one test; and the
segment and stack indices of locked candidates are BMI2 ``pext``/``pdep`` (one instruction
each on this machine type, portable loops elsewhere): 7.71 / 8.81 / 4.89 -> 6.76 / 7.70 /
4.51 (about 1.13 µs a guess on top1465, 1.01 on hardest). Measured and dropped: locked
candidates skipped while a digit's segment occupancy is one already seen stable (slower on
all three: the test costs more than the table lookups it saves), the changed digits taken
as a mask before the pass (then top1465 3% faster, hardest 5% slower; it pays with the band
mask below), the root's words built
from per-digit row/column/box masks without place9 (0.28 -> 0.58 µs for the givens on
top95), the givens found as bits before placing them, and stores made unconditional
instead of tested.
Then naked singles count a band only when it changed since its last count, instead of whole
passes over the three bands (a third of them found nothing: the pass that closes each run of
naked singles), and the digit pass takes its digits as a mask: 6.68 / 7.61 / 4.44 -> 6.48 /
7.43 / 4.32 (same measure; about 1.09 µs a guess on top1465, 0.97 on hardest). Measured
and dropped: the refuted node's propagation starting from its one changed band (slower on
all three), the stale bands taken in a fixed order with a test each, and the column strike
made unconditional over the three bands.
Then (session of 2026-12-07, afternoon; same measure and same grids and guesses): the
root is built from the givens' bit masks (:func:`root9`) instead of one :func:`place9` per
given; the naked-single count ORs its nine words as a tree of pairs, and locked candidates
take rows and columns from the same words, so that the branches that follow them wait on
shorter dependency chains; place9 strikes the two other bands without a test on the band:
6.48 / 7.43 / 4.32 -> 6.16-6.29 / 7.07-7.11 / 4.18-4.21. Then the clock: the search read
it at the first guess of every puzzle even without a deadline, through objmode, about
0.85 us a read: -> 5.47-5.76 / 6.22-6.28 / 3.59-3.62 (0.91 us a guess on top1465, 0.81 on
hardest). Measured and dropped: the bands marked stale precisely after a hidden single and
at the start of a call (slower on all three, 3-5%, for 12% fewer band counts), a mask of
the changed digits kept up to date instead of ``snap`` (7% slower for the same digit
examinations and fewer instructions), a tree count in branch9, int32 tables, the solved
grid read off bit-sliced digits with no loop test, and one test for the end of locked
candidates' rounds (each within noise or slower).

Propagation at every node repeats, until nothing changes:

* naked singles: a cell left with one candidate is placed and its digit leaves the peers;
  a cell left with none is a contradiction;
* hidden singles over every unit from bit-parallel counts (``once``/``twice`` masks OR-ed
  over the unit's cells, or over the bands' words): a digit seen once in a unit goes to
  its cell, a digit not seen is a contradiction;
* locked candidates in both directions on every line/box intersection (pointing: a digit
  of a box confined to one line leaves the rest of the line; claiming: a digit of a line
  confined to one box leaves the rest of the box).

The search branches on a cell with the fewest candidates, ties going to the cell with the
most unplaced peers (the most constrained one): on top95 / top1465 this takes 6.19 / 6.85
guesses a puzzle where the first fewest-candidates cell took 11.3 / 11.4. A guess is
*binary*: the digit is placed in a copy of the node; when the copy fails, the digit is
struck from the node itself and the node is propagated again (a refuted guess is a
deduction, which often settles more than the cell) before the next branch is chosen
afresh. Every digit placed at a branch counts as one guess; a last candidate left by
refutations is a naked single, not a guess.
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic

from ._jit_clock import NO_DEADLINE, now

try:  # LLVM's cttz: one instruction; it lives in a numba module that is not public API
    from numba.cpython.unsafe.numbers import trailing_zeros
except ImportError:  # pragma: no cover - a numba that moved it: the portable loop
    @numba.njit(cache=True, inline="always")
    def trailing_zeros(x):
        n = 0
        while not (x >> n) & 1:
            n += 1
        return n

#: flag bit (above any digit) marking a cell whose digit has been removed from its peers
PLACED = np.int32(1 << 30)
#: how many guesses between two reads of the clock
CLOCK_EVERY = 256

SOLVED, UNSOLVABLE, ABORTED = 1, 0, -1


@numba.njit(cache=True, inline="always")
def _pop(x):
    """Set bits of a non-negative int (SWAR: numba has no popcount intrinsic)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@numba.njit(cache=True)
def initial_node(givens, node, row_of, col_of, box_of, side):
    """Fill ``node`` from the givens (nothing placed yet); False when two givens clash."""
    full = np.int32((1 << side) - 1)
    used = np.zeros(3 * side, dtype=np.int32)
    for c in range(givens.size):
        v = givens[c]
        if v == 0:
            continue
        bit = np.int32(1 << (v - 1))
        r, k, b = row_of[c], side + col_of[c], 2 * side + box_of[c]
        if (used[r] | used[k] | used[b]) & bit:
            return False
        used[r] |= bit
        used[k] |= bit
        used[b] |= bit
    for c in range(givens.size):
        v = givens[c]
        if v != 0:
            node[c] = np.int32(1 << (v - 1))
        else:
            node[c] = full & ~(used[row_of[c]] | used[side + col_of[c]]
                               | used[2 * side + box_of[c]])
            if node[c] == 0:
                return False
    return True


@numba.njit(cache=True, inline="always")
def _strike(node, c, mask, cell_units, dirty, queue, tail):
    """Remove ``mask`` from unplaced cell ``c``; the new tail, or -1 on an empty cell."""
    w = node[c] & ~mask
    if w == 0:
        return -1
    node[c] = w
    dirty[cell_units[c, 0]] = 1
    dirty[cell_units[c, 1]] = 1
    dirty[cell_units[c, 2]] = 1
    if (w & (w - 1)) == 0:
        queue[tail] = c
        tail += 1
    return tail


@numba.njit(cache=True, inline="always")
def _out_of_budget(guesses, max_guesses, deadline):
    """A guess past ``max_guesses``, or past the deadline.

    The clock is read at the first guess (a deadline already past stops the search there)
    and once every ``CLOCK_EVERY`` guesses after, and never without a deadline: a read goes
    through objmode and costs about 0.85 us, which was 12% of a batch (top1465: 7.1 ->
    6.2 us a puzzle), where no deadline is set and nearly every puzzle guesses once.
    """
    return guesses > max_guesses or (guesses % CLOCK_EVERY == 1 and deadline < NO_DEADLINE
                                      and now() > deadline)


@numba.njit(cache=True, inline="always")
def _segment_cell(line, segment, i, orient, box, side):
    """Cell ``i`` of the ``segment``-th box-long piece of a row (``orient`` 0) or a column (1):
    the cells locked candidates read and strike, for rows within bands and columns within
    stacks alike."""
    if orient == 0:
        return line * side + segment * box + i
    return (segment * box + i) * side + line


@numba.njit(cache=True, inline="always")
def _strike_segment(node, line, segment, orient, mask, box, side, cell_units, dirty, queue, tail,
                    changed):
    """Strike ``mask`` from the unplaced cells of one segment (:func:`_segment_cell`) that hold
    any of it; pointing and claiming differ only in which segments they strike. Returns
    (tail, changed), tail -1 on a contradiction."""
    for i in range(box):
        c = _segment_cell(line, segment, i, orient, box, side)
        if node[c] & mask and not (node[c] & PLACED):
            tail = _strike(node, c, mask, cell_units, dirty, queue, tail)
            if tail < 0:
                return tail, changed
            changed = True
    return tail, changed


@numba.njit(cache=True)
def _locked(node, box, side, cell_units, dirty, lc_dirty, seg, queue, tail):
    """Pointing and claiming on the bands (rows) and stacks (columns) marked in ``lc_dirty``.

    ``lc_dirty[0:box]`` flags bands, ``lc_dirty[box:2*box]`` stacks. ``seg`` is
    (box, box) scratch: the OR of the segment (line k of the band, box j of it). Returns
    (tail, changed) with tail -1 on a contradiction.
    """
    full = np.int32((1 << side) - 1)
    changed = False
    for orient in range(2):  # 0: rows within bands, 1: columns within stacks
        for b in range(box):
            if lc_dirty[orient * box + b] == 0:
                continue
            lc_dirty[orient * box + b] = 0
            for k in range(box):
                line = b * box + k
                for j in range(box):
                    m = np.int32(0)
                    for i in range(box):
                        m |= node[_segment_cell(line, j, i, orient, box, side)]
                    seg[k, j] = m & full
            for k in range(box):
                line = b * box + k
                for j in range(box):
                    in_box = np.int32(0)   # the other lines of box j
                    in_line = np.int32(0)  # the other boxes of this line
                    for t in range(box):
                        if t != k:
                            in_box |= seg[t, j]
                        if t != j:
                            in_line |= seg[k, t]
                    s = seg[k, j]
                    point = s & ~in_box & in_line   # leaves the rest of the line
                    claim = s & ~in_line & in_box   # leaves the rest of the box
                    if point:  # struck from this line's other segments
                        for t in range(box):
                            if t != j:
                                tail, changed = _strike_segment(
                                    node, line, t, orient, point, box, side, cell_units, dirty,
                                    queue, tail, changed)
                                if tail < 0:
                                    return tail, changed
                    if claim:  # struck from this box's other lines
                        for t in range(box):
                            if t != k:
                                tail, changed = _strike_segment(
                                    node, b * box + t, j, orient, claim, box, side, cell_units,
                                    dirty, queue, tail, changed)
                                if tail < 0:
                                    return tail, changed
    return tail, changed


@numba.njit(cache=True)
def propagate(node, queue, tail, dirty, lc_dirty, seg, peers, units, cell_units, box, side,
              locked):
    """Singles (and locked candidates when ``locked``) to a fixpoint; False on a contradiction.

    ``queue[:tail]`` holds cells already reduced to one candidate; ``dirty`` flags the
    units (rows, columns, boxes) whose cells changed and must be scanned for hidden
    singles; ``lc_dirty`` the bands and stacks to scan for locked candidates.
    """
    full = np.int32((1 << side) - 1)
    n_units = 3 * side
    head = 0
    while True:
        # naked singles: place each queued cell and strike its digit from the peers
        while head < tail:
            c = queue[head]
            head += 1
            v = node[c]
            if v & PLACED:
                continue
            node[c] = v | PLACED
            for p in peers[c]:
                w = node[p]
                if w & v:
                    if w & PLACED:
                        return False
                    tail = _strike(node, p, v, cell_units, dirty, queue, tail)
                    if tail < 0:
                        return False
        # hidden singles on the units that changed
        found = False
        for u in range(n_units):
            if dirty[u] == 0:
                continue
            dirty[u] = 0
            if u < side:
                lc_dirty[u // box] = 1
            elif u < 2 * side:
                lc_dirty[box + (u - side) // box] = 1
            else:
                bx = u - 2 * side
                lc_dirty[bx // box] = 1
                lc_dirty[box + bx % box] = 1
            once = np.int32(0)
            twice = np.int32(0)
            for c in units[u]:
                v = node[c] & full
                twice |= once & v
                once |= v
            if once != full:
                return False  # some digit has no place left in this unit
            hidden = once & ~twice
            if hidden == 0:
                continue
            for c in units[u]:
                v = node[c]
                h = v & hidden
                if h != 0 and h != (v & full):
                    if h & (h - 1):
                        return False  # two digits need this same cell
                    tail = _strike(node, c, v & full & ~h, cell_units, dirty, queue, tail)
                    found = True
        if found or head < tail:
            continue
        if not locked:
            return True
        tail, changed = _locked(node, box, side, cell_units, dirty, lc_dirty, seg, queue, tail)
        if tail < 0:
            return False
        if not changed:
            return True


@numba.njit(cache=True)
def branch_cell(node, side, peers):
    """The unplaced cell with the fewest candidates, ties to the most unplaced peers; or -1.

    Measured on top95 / top1465 (guesses per puzzle): first fewest-candidates cell in
    row-major order 11.3 / 11.7; with this tie-break 6.19 / 6.85. Ordering the digits of the
    cell by how many peers share them changed little (5.7-6.1 / 6.7-7.0), so digits go in
    increasing order.
    """
    best = -1
    best_count = side + 1
    best_score = -1
    for c in range(node.size):
        v = node[c]
        if v & PLACED:
            continue
        k = _pop(v)
        if k > best_count:
            continue
        score = 0
        for p in peers[c]:
            if not (node[p] & PLACED):
                score += 1
        if k < best_count or score > best_score:
            best, best_count, best_score = c, k, score
    return best


@numba.njit(cache=True)
def _mark_all(dirty, lc_dirty):
    for u in range(dirty.size):
        dirty[u] = 1
    for b in range(lc_dirty.size):
        lc_dirty[b] = 1


@numba.njit(cache=True)
def _copy(dst, src):
    for i in range(src.size):
        dst[i] = src[i]


@numba.njit(cache=True)
def solve_one(givens, out, stack, queue, dirty, lc_dirty, seg, branch, peers, units,
              cell_units, row_of, col_of, box_of, box, side, locked, max_guesses, deadline):
    """Solve one puzzle, writing the grid to ``out``; returns (status, guesses).

    ``stack`` is (cells + 1, cells) int32 of nodes, ``queue`` (2 cells + 1,), ``dirty``
    (3 side,), ``lc_dirty`` (2 box,), ``seg`` (box, box), ``branch`` (cells + 1, 2): the
    caller's scratch, reused from puzzle to puzzle.
    """
    n_cells = givens.size
    full = np.int32((1 << side) - 1)
    for c in range(n_cells):
        out[c] = givens[c]
    root = stack[0]
    if not initial_node(givens, root, row_of, col_of, box_of, side):
        return UNSOLVABLE, 0
    tail = 0
    for c in range(n_cells):
        v = root[c]
        if (v & (v - 1)) == 0:
            queue[tail] = c
            tail += 1
    _mark_all(dirty, lc_dirty)
    if not propagate(root, queue, tail, dirty, lc_dirty, seg, peers, units, cell_units, box,
                     side, locked):
        return UNSOLVABLE, 0
    guesses = 0
    depth = 0
    while True:
        node = stack[depth]
        cell = branch_cell(node, side, peers)
        if cell < 0:
            for c in range(n_cells):
                v = node[c] & full
                d = 1
                while v > 1:
                    v >>= 1
                    d += 1
                out[c] = d
            return SOLVED, guesses
        cands = node[cell] & full
        bit = cands & -cands
        guesses += 1
        if _out_of_budget(guesses, max_guesses, deadline):
            return ABORTED, guesses
        branch[depth, 0] = cell
        branch[depth, 1] = bit
        child = stack[depth + 1]
        _copy(child, node)
        child[cell] = bit
        queue[0] = cell
        dirty[cell_units[cell, 0]] = 1
        dirty[cell_units[cell, 1]] = 1
        dirty[cell_units[cell, 2]] = 1
        if propagate(child, queue, 1, dirty, lc_dirty, seg, peers, units, cell_units, box,
                     side, locked):
            depth += 1
            continue
        # refute: strike the failed digit from the node and propagate it again, going up
        # while that fails too
        while True:
            for u in range(dirty.size):
                dirty[u] = 0
            for b in range(lc_dirty.size):
                lc_dirty[b] = 0
            node = stack[depth]
            cell = branch[depth, 0]
            tail = _strike(node, cell, branch[depth, 1], cell_units, dirty, queue, 0)
            if tail >= 0 and propagate(node, queue, tail, dirty, lc_dirty, seg, peers, units,
                                       cell_units, box, side, locked):
                break
            if depth == 0:
                return UNSOLVABLE, guesses
            depth -= 1


@numba.njit(cache=True)
def solve_many(givens, peers, units, cell_units, row_of, col_of, box_of, box, side, locked,
               max_guesses, deadline):
    """Solve each row of ``givens`` with one set of scratch; (grids, statuses, guesses)."""
    n, n_cells = givens.shape
    grids = np.zeros((n, n_cells), dtype=np.int64)
    statuses = np.zeros(n, dtype=np.int64)
    guesses = np.zeros(n, dtype=np.int64)
    stack = np.zeros((n_cells + 1, n_cells), dtype=np.int32)
    queue = np.zeros(2 * n_cells + 1, dtype=np.int64)
    dirty = np.zeros(3 * side, dtype=np.int8)
    lc_dirty = np.zeros(2 * box, dtype=np.int8)
    seg = np.zeros((box, box), dtype=np.int32)
    branch = np.zeros((n_cells + 1, 2), dtype=np.int64)
    for i in range(n):
        s, g = solve_one(givens[i], grids[i], stack, queue, dirty, lc_dirty, seg, branch,
                         peers, units, cell_units, row_of, col_of, box_of, box, side, locked,
                         max_guesses, deadline)
        statuses[i] = s
        guesses[i] = g
    return grids, statuses, guesses

# ---------------------------------------------------------------------------------------
# 9x9: band-wise bitboards
# ---------------------------------------------------------------------------------------
# A 9x9 node is 30 int64 words (240 bytes): word 3d+b holds the cells of band b (rows
# 3b..3b+2, bit 9k+c for row 3b+k, column c) where digit d+1 is still possible, placed
# cells included; words 27..29 mark the placed cells of each band. Every rule is a few
# word operations per digit and band.

BAND = (1 << 27) - 1
ROWS9 = 0x1FF
#: the cells of box j of a band, and of row k of a band
BOX27 = np.array([sum(7 << (9 * k + 3 * j) for k in range(3)) for j in range(3)], np.int64)
ROW27 = np.array([ROWS9 << (9 * k) for k in range(3)], np.int64)
#: per band position i: its row and box inside the band, its column in any band
BAND_PEERS = np.array([int(ROW27[i // 9] | BOX27[(i % 9) // 3]) for i in range(27)], np.int64)
COL27 = np.array([(1 | 1 << 9 | 1 << 18) << (i % 9) for i in range(27)], np.int64)
NODE9 = 30


@numba.njit(cache=True, inline="always")
def _spread(cols):
    """A 9-bit column set as the 27 cells of those columns in a band."""
    return cols | (cols << 9) | (cols << 18)


@numba.njit(cache=True, inline="always")
def _fold(x):
    """The columns (9 bits) a band word touches."""
    return (x | (x >> 9) | (x >> 18)) & ROWS9


@numba.njit(cache=True, _nrt=False)
def place9(node, d, b, bit):
    """Put digit d+1 on the cell ``bit`` of band b; False when it is not a candidate there."""
    if not (node[3 * d + b] & bit):
        return False
    i = trailing_zeros(bit)
    node[27 + b] |= bit
    for e in range(9):
        node[3 * e + b] &= ~bit
    node[3 * d + b] = (node[3 * d + b] & ~BAND_PEERS[i]) | bit
    col = COL27[i]
    o1 = b + 1 - 3 * (b == 2)  # the two other bands, without a test on b
    o2 = b + 2 - 3 * (b >= 1)
    node[3 * d + o1] &= ~col
    node[3 * d + o2] &= ~col
    return True


@numba.njit(cache=True, inline="always")
def _place_single9(node, d, b, i):
    """Put digit d+1 on cell i of band b, a cell with no other candidate (so no other digit's
    word to touch; the caller marks it placed): the other bands whose word of the digit
    changed, as band bits, or -1 when a peer placed just before took the digit from it."""
    x = node[3 * d + b]
    if not (x >> i) & 1:
        return -1
    node[3 * d + b] = (x & ~BAND_PEERS[i]) | (np.int64(1) << i)
    col = COL27[i]
    changed = 0
    for o in range(3):
        if o != b:
            w = node[3 * d + o]
            changed |= ((w & col) != 0) << o
            node[3 * d + o] = w & ~col
    return changed


def _bmi2_target() -> bool:
    """Whether numba compiles for a CPU with BMI2: its target (``NUMBA_CPU_NAME`` and
    ``NUMBA_CPU_FEATURES`` may name another than this machine's), not only the host."""
    features = config.CPU_FEATURES
    if features is None:
        features = llvm.get_host_cpu_features().flatten()
    return "+bmi2" in features.split(",")


def _bmi2(name):
    """``pext`` or ``pdep`` on int64 as the one instruction (3 cycles on Zen 3)."""
    @intrinsic
    def op(typingctx, x, m):
        sig = types.int64(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                                f"llvm.x86.bmi.{name}.64")
            return builder.call(fn, args)
        return sig, codegen
    return op


@numba.njit(cache=True, inline="always")
def _pext_loop(x, m):
    """The bits of ``x`` under mask ``m``, packed low (what pext does), one mask bit a step."""
    out = np.int64(0)
    k = 0
    while m:
        low = m & -m
        if x & low:
            out |= np.int64(1) << k
        k += 1
        m ^= low
    return out


@numba.njit(cache=True, inline="always")
def _pdep_loop(x, m):
    """The low bits of ``x`` spread to the set bits of ``m`` (what pdep does)."""
    out = np.int64(0)
    k = 0
    while m:
        low = m & -m
        if (x >> k) & 1:
            out |= low
        k += 1
        m ^= low
    return out


#: one instruction where the CPU has it (x86 BMI2), else the loops above (same results)
_pext, _pdep = (_bmi2("pext"), _bmi2("pdep")) if _bmi2_target() else (_pext_loop, _pdep_loop)


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's ctpop: one popcnt instruction, where :func:`_pop` takes a dozen."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


def _lc_tables():
    """Locked candidates of one digit on one band (or stack) as two 512-entry tables.

    The index is the digit's 3x3 segment occupancy: bit 3*line+box (rows of a band, for
    ``row``) or 3*box+line (bands of a stack: bit 3*band+column, for ``col``). Pointing
    (a box's digit on one line leaves that line's other boxes) and claiming (a line's
    digit in one box leaves that box's other lines) are applied to a fixpoint; the entry
    is 0 when a line or a box is left without the digit (a contradiction), else the
    segments kept: as a 27-cell band mask for ``row``, as the same 9-bit layout for
    ``col``. One lookup then does what took 18 segment tests per digit and band.
    """
    row = np.zeros(512, np.int64)
    col = np.zeros(512, np.int64)
    for transposed, out in ((False, row), (True, col)):
        for p in range(512):
            def idx(line, bx, transposed=transposed):
                return 3 * bx + line if transposed else 3 * line + bx
            occ = [[(p >> idx(ln, bx)) & 1 for bx in range(3)] for ln in range(3)]
            changed = True
            while changed:
                changed = False
                for bx in range(3):
                    lines = [ln for ln in range(3) if occ[ln][bx]]
                    if len(lines) == 1:
                        for b2 in range(3):
                            if b2 != bx and occ[lines[0]][b2]:
                                occ[lines[0]][b2] = 0
                                changed = True
                for ln in range(3):
                    boxes = [bx for bx in range(3) if occ[ln][bx]]
                    if len(boxes) == 1:
                        for l2 in range(3):
                            if l2 != ln and occ[l2][boxes[0]]:
                                occ[l2][boxes[0]] = 0
                                changed = True
            if any(not any(occ[ln]) for ln in range(3)) or any(
                    not any(occ[ln][bx] for ln in range(3)) for bx in range(3)):
                continue
            m = 0
            for ln in range(3):
                for bx in range(3):
                    if occ[ln][bx]:
                        m |= (7 << (9 * ln + 3 * bx)) if not transposed else 1 << idx(ln, bx)
            out[p] = m
    return row, col


LC_ROW, LC_COL = _lc_tables()
#: the first stack's three columns in each band's 9-bit column set, bands side by side
STACK27 = np.int64(7 | 7 << 9 | 7 << 18)
MINIROWS = sum(1 << (9 * k + 3 * j) for k in range(3) for j in range(3))
#: flag of an ``ALONE_RAW`` entry whose occupancy leaves a row or a box of the band empty
EMPTY_UNIT = 1 << 27


def _alone_tables():
    """Hidden singles of one digit on rows and boxes of a band, per ``LC_ROW`` index.

    An entry is the segments (as a 27-cell mask) alone in their row or in their box, so
    that a segment among them holding one cell is a hidden single: one AND with the
    band's one-cell segments replaces six tests of a row or box each taken or not at
    random. ``ALONE_LC`` reads the occupancy left by locked candidates (0 where
    ``LC_ROW`` finds a contradiction), ``ALONE_RAW`` the occupancy itself, with
    ``EMPTY_UNIT`` set where a row or a box has no segment.
    """
    out = []
    for table in (LC_ROW, None):
        alone = np.zeros(512, np.int64)
        for p in range(512):
            occ = [[(p >> (3 * k + j)) & 1 if table is None
                    else (int(table[p]) >> (9 * k + 3 * j)) & 1 for j in range(3)]
                   for k in range(3)]
            lines = [sum(occ[k]) for k in range(3)]
            boxes = [sum(occ[k][j] for k in range(3)) for j in range(3)]
            m = EMPTY_UNIT if 0 in lines or 0 in boxes else 0
            for k in range(3):
                for j in range(3):
                    if occ[k][j] and (lines[k] == 1 or boxes[j] == 1):
                        m |= 7 << (9 * k + 3 * j)
            alone[p] = m if table is None else m & ~EMPTY_UNIT
        out.append(alone)
    return out


ALONE_LC, ALONE_RAW = _alone_tables()


@numba.njit(cache=True, inline="always")
def _minirow_index(x):
    """A band word's occupied segments (row k, box j) as bit 3k+j: ``LC_ROW``'s index."""
    return _pext(np.int64(x | (x >> 1) | (x >> 2)), np.int64(MINIROWS))


@numba.njit(cache=True, inline="always")
def _hidden9(x, a, single_cols):
    """Hidden singles of one digit in one band word: alone in a row or box (``a``) or column."""
    # cells per segment (0..3 in its low two bits), then the one-cell segments
    t = (x & MINIROWS) + ((x >> 1) & MINIROWS) + ((x >> 2) & MINIROWS)
    hits = x & a & ((t & ~(t >> 1) & MINIROWS) * 7)
    r0 = x & ROWS9
    r1 = (x >> 9) & ROWS9
    r2 = (x >> 18) & ROWS9
    lone = single_cols & ~((r0 & r1) | (r0 & r2) | (r1 & r2))
    return hits | (x & _spread(lone))


@numba.njit(cache=True, _nrt=False)
def propagate9(node, locked, snap):
    """Singles (and locked candidates) to a fixpoint on a 9x9 node; False on a contradiction.

    Naked singles run to their own fixpoint first, band by band: a band is counted again
    only when a word of it changed since its last count (``stale``), not in whole passes
    over the three bands that end with one finding nothing. Then one pass over the digits
    whose words changed does locked candidates (two table lookups, :func:`_lc_tables`,
    repeated until the digit's words stop changing) and hidden singles (rows and boxes by
    one more lookup, :func:`_alone_tables`; columns by once/twice counts over the three
    bands). ``snap`` (27 words) holds each digit's words as they were after it was last
    examined: both rules read one digit's words only, and locked candidates left them at
    their fixpoint, so a digit whose three words still equal ``snap`` has nothing new to
    give. The digits to examine are taken as a mask when the pass starts (a digit changed
    by the pass's own placements waits for the next pass, after the naked singles).
    The caller seeds ``snap`` with the parent node (a fixpoint), so after a guess only the
    digits the guess and its singles touched are examined again; -1 words examine all.
    """
    stale = 7  # bands whose words changed since their naked singles were last counted
    while True:
        while stale:  # naked singles, band by band, until no band changed since its count
            b = trailing_zeros(stale)
            stale ^= 1 << b
            w0 = node[b]
            w1 = node[3 + b]
            w2 = node[6 + b]
            w3 = node[9 + b]
            w4 = node[12 + b]
            w5 = node[15 + b]
            w6 = node[18 + b]
            w7 = node[21 + b]
            w8 = node[24 + b]
            # cells seen once and twice or more, as a tree of pairs (a short dependency chain)
            o01 = w0 | w1
            o23 = w2 | w3
            o45 = w4 | w5
            o67 = w6 | w7
            o03 = o01 | o23
            o47 = o45 | o67
            o07 = o03 | o47
            t03 = (w0 & w1) | (w2 & w3) | (o01 & o23)
            t47 = (w4 & w5) | (w6 & w7) | (o45 & o67)
            once = o07 | w8
            twice = t03 | t47 | (o03 & o47) | (o07 & w8)
            odd = w1 | w3 | w5 | w7  # the digit of a one-candidate cell, bit-sliced: d & 1 ...
            half = w2 | w3 | w6 | w7  # ... d & 2
            high = w4 | w5 | w6 | w7  # ... d & 4 (d 8 alone has d & 8)
            open_ = BAND & ~node[27 + b]
            if open_ & ~once:
                return False
            singles = open_ & once & ~twice
            if singles:
                node[27 + b] |= singles
                top = node[24 + b]
                stale |= 1 << b
                while singles:
                    i = trailing_zeros(singles)
                    singles &= singles - 1
                    d = (((odd >> i) & 1) | (((half >> i) & 1) << 1) | (((high >> i) & 1) << 2)
                         | (((top >> i) & 1) << 3))
                    struck = _place_single9(node, d, b, i)
                    if struck < 0:
                        return False
                    stale |= struck
        progress = False
        todo = 0
        for d in range(9):
            todo |= (((node[3 * d] ^ snap[3 * d]) | (node[3 * d + 1] ^ snap[3 * d + 1])
                      | (node[3 * d + 2] ^ snap[3 * d + 2])) != 0) << d
        while todo:
            d = trailing_zeros(todo)
            todo &= todo - 1
            x0 = node[3 * d]
            x1 = node[3 * d + 1]
            x2 = node[3 * d + 2]
            if not locked:
                p0, p1, p2 = _minirow_index(x0), _minirow_index(x1), _minirow_index(x2)
                a0, a1, a2 = ALONE_RAW[p0], ALONE_RAW[p1], ALONE_RAW[p2]
                if (a0 | a1 | a2) & EMPTY_UNIT:
                    return False
            else:
                changed = False
                while True:
                    p0, p1, p2 = _minirow_index(x0), _minirow_index(x1), _minirow_index(x2)
                    # rows and columns from the same words, so that neither waits for the
                    # other; the loop ends when a round takes nothing (the fixpoint is the same)
                    r0 = LC_ROW[p0]
                    r1 = LC_ROW[p1]
                    r2 = LC_ROW[p2]
                    f = np.int64(_fold(x0) | (_fold(x1) << 9) | (_fold(x2) << 18))
                    q0 = LC_COL[_pext(f, STACK27)]
                    q1 = LC_COL[_pext(f, STACK27 << 3)]
                    q2 = LC_COL[_pext(f, STACK27 << 6)]
                    if r0 == 0 or r1 == 0 or r2 == 0 or q0 == 0 or q1 == 0 or q2 == 0:
                        return False
                    k = (_pdep(np.int64(q0), STACK27) | _pdep(np.int64(q1), STACK27 << 3)
                         | _pdep(np.int64(q2), STACK27 << 6))
                    z0 = x0 & r0 & _spread(k & ROWS9)
                    z1 = x1 & r1 & _spread((k >> 9) & ROWS9)
                    z2 = x2 & r2 & _spread(k >> 18)
                    if z0 == x0 and z1 == x1 and z2 == x2:
                        break
                    x0, x1, x2 = z0, z1, z2
                    changed = True
                # p0..p2 index the final words: the last round took nothing
                a0, a1, a2 = ALONE_LC[p0], ALONE_LC[p1], ALONE_LC[p2]
                if changed:
                    stale |= ((node[3 * d] != x0) | ((node[3 * d + 1] != x1) << 1)
                              | ((node[3 * d + 2] != x2) << 2))
                    node[3 * d] = x0
                    node[3 * d + 1] = x1
                    node[3 * d + 2] = x2
                    progress = True
            snap[3 * d] = x0
            snap[3 * d + 1] = x1
            snap[3 * d + 2] = x2
            o0, o1, o2 = _fold(x0), _fold(x1), _fold(x2)
            seen = o0 | o1 | o2
            if seen != ROWS9:
                return False  # a column without the digit
            single_cols = seen & ~((o0 & o1) | (o0 & o2) | (o1 & o2))
            h0 = _hidden9(x0, a0, single_cols) & ~node[27]
            h1 = _hidden9(x1, a1, single_cols) & ~node[28]
            h2 = _hidden9(x2, a2, single_cols) & ~node[29]
            # all three bands' hits come from the words before any is placed: a placement
            # that takes a later hit's cell leaves its unit empty, which place9 reports
            if h0 | h1 | h2:
                progress = True
                stale = 7
                for b in range(3):
                    if b == 0:
                        hits = h0
                    elif b == 1:
                        hits = h1
                    else:
                        hits = h2
                    while hits:
                        bit = hits & -hits
                        hits ^= bit
                        if not place9(node, d, b, bit):
                            return False
        if not progress:
            return True


@numba.njit(cache=True, _nrt=False)
def branch9(node):
    """(band, cell bit) of the branch: fewest candidates, then most unplaced peers; bit 0 if solved.

    A bivalue cell's unplaced peers are one popcount: its band's row and box, and its
    column in the other two bands shifted above them (the cell itself counts in every
    score alike).
    """
    best_b = -1
    best_bit = np.int64(0)
    best_score = -1
    open0 = BAND & ~node[27]
    open1 = BAND & ~node[28]
    open2 = BAND & ~node[29]
    for b in range(3):
        ones = np.int64(0)
        twos = np.int64(0)
        more = np.int64(0)
        for d in range(9):
            x = node[3 * d + b]
            more |= twos & x
            twos |= ones & x
            ones |= x
        pairs = twos & ~more & ~node[27 + b]
        if b == 0:
            own, oa, ob = open0, open1, open2
        elif b == 1:
            own, oa, ob = open1, open0, open2
        else:
            own, oa, ob = open2, open0, open1
        while pairs:
            bit = pairs & -pairs
            pairs ^= bit
            i = trailing_zeros(bit)
            col = COL27[i]
            score = _ctpop((BAND_PEERS[i] & own) | ((col & oa) << 27) | ((col & ob) << 28))
            if score > best_score:
                best_b, best_bit, best_score = b, bit, score
    if best_b >= 0:
        return best_b, best_bit
    best_count = 10
    for b in range(3):
        cells = BAND & ~node[27 + b]
        while cells:
            bit = cells & -cells
            cells ^= bit
            k = 0
            for d in range(9):
                if node[3 * d + b] & bit:
                    k += 1
            if k > best_count:
                continue
            score = _open_peers9(node, b, trailing_zeros(bit))
            if k < best_count or score > best_score:
                best_b, best_bit, best_count, best_score = b, bit, k, score
    return best_b, best_bit


@numba.njit(cache=True, _nrt=False)
def _open_peers9(node, b, i):
    """How many unplaced cells see cell i of band b (itself excluded)."""
    col = COL27[i]
    n = _pop(BAND_PEERS[i] & ~node[27 + b]) - 1
    for o in range(3):
        if o != b:
            n += _pop(col & ~node[27 + o])
    return n


#: flag of a ``ROWBOX`` entry whose segments put two givens of a digit in one row or box
CLASH = 1 << 27
#: per cell: its bit in its band's word
CELL_BIT = np.array([1 << (c % 27) for c in range(81)], np.int64)
#: root9's scratch: 27 digit-band words, then spare slots that empty cells write to
ROOT_SLOTS = 38
#: ``snap``'s length: 27 words for propagate9, the whole of it for root9 before that
SNAP9 = ROOT_SLOTS


def _rowbox_table():
    """The rows and boxes (27-cell mask) that one digit's givens in a band strike, per
    segment occupancy (``LC_ROW``'s index), with ``CLASH`` where two segments share a row
    or a box: building the root is then one lookup per digit and band, not one
    :func:`place9` per given."""
    out = np.zeros(512, np.int64)
    for p in range(512):
        segments = [(k, j) for k in range(3) for j in range(3) if (p >> (3 * k + j)) & 1]
        m = 0
        for k, j in segments:
            m |= int(ROW27[k]) | int(BOX27[j])
        rows = [k for k, _ in segments]
        boxes = [j for _, j in segments]
        if len(set(rows)) < len(rows) or len(set(boxes)) < len(boxes):
            m |= CLASH
        out[p] = m
    return out


ROWBOX = _rowbox_table()


@numba.njit(cache=True, _nrt=False)
def root9(givens, node, slots):
    """The root node of a 9x9 puzzle from its givens; False when two givens of a digit share
    a unit. ``slots`` is (ROOT_SLOTS,) scratch.

    The givens are gathered as bits, one word per digit and band, by a loop with no test
    (an empty cell writes to one of eight spare slots, so that empty cells do not all chain
    through one store); each digit's words then lose its givens' rows, boxes and columns and
    the other digits' givens. The result is the node one :func:`place9` per given builds,
    for about 0.15 us less a puzzle (top1465).
    """
    for w in range(ROOT_SLOTS):
        slots[w] = 0
    for c in range(81):
        v = givens[c]
        empty = np.int64(v == 0)
        slot = (1 - empty) * (3 * v - 3 + c // 27) + empty * (30 + (c & 7))
        slots[slot] |= CELL_BIT[c]
    placed0 = np.int64(0)
    placed1 = np.int64(0)
    placed2 = np.int64(0)
    for d in range(9):
        placed0 |= slots[3 * d]
        placed1 |= slots[3 * d + 1]
        placed2 |= slots[3 * d + 2]
    node[27] = placed0
    node[28] = placed1
    node[29] = placed2
    clash = np.int64(0)
    for d in range(9):
        g0 = slots[3 * d]
        g1 = slots[3 * d + 1]
        g2 = slots[3 * d + 2]
        q0, q1, q2 = _minirow_index(g0), _minirow_index(g1), _minirow_index(g2)
        e0, e1, e2 = ROWBOX[q0], ROWBOX[q1], ROWBOX[q2]
        cols = _spread(_fold(g0) | _fold(g1) | _fold(g2))
        n = _ctpop(g0) + _ctpop(g1) + _ctpop(g2)
        clash |= (e0 | e1 | e2) & CLASH  # two segments in one row or box
        clash |= (_ctpop(q0) + _ctpop(q1) + _ctpop(q2)) ^ n  # two givens in one segment
        clash |= _ctpop(cols & ROWS9) ^ n  # two givens in one column
        node[3 * d] = (BAND & ~placed0 & ~e0 & ~cols) | g0
        node[3 * d + 1] = (BAND & ~placed1 & ~e1 & ~cols) | g1
        node[3 * d + 2] = (BAND & ~placed2 & ~e2 & ~cols) | g2
    return clash == 0


@numba.njit(cache=True, _nrt=False)
def solve_one9(givens, out, stack, branch, snap, locked, max_guesses, deadline):
    """Solve one 9x9 puzzle on band bitboards; writes ``out``; returns (status, guesses).

    ``stack`` is (82, NODE9) int64, ``branch`` (82, 3) int64, ``snap`` (SNAP9,) int64 (see
    :func:`propagate9`; :func:`root9` uses it first): the caller's scratch.
    """
    for c in range(81):
        out[c] = givens[c]
    root = stack[0]
    if not root9(givens, root, snap):
        return UNSOLVABLE, 0
    for w in range(27):
        snap[w] = -1
    if not propagate9(root, locked, snap):
        return UNSOLVABLE, 0
    guesses = 0
    depth = 0
    while True:
        node = stack[depth]
        b, bit = branch9(node)
        if b < 0:  # solved: each digit's words are its cells (bit i of band b is cell 27b+i)
            for d in range(9):
                for b in range(3):
                    x = node[3 * d + b]
                    while x:
                        out[27 * b + trailing_zeros(x)] = d + 1
                        x &= x - 1
            return SOLVED, guesses
        d = 0
        while not (node[3 * d + b] & bit):
            d += 1
        guesses += 1
        if _out_of_budget(guesses, max_guesses, deadline):
            return ABORTED, guesses
        branch[depth, 0] = b
        branch[depth, 1] = bit
        branch[depth, 2] = d
        child = stack[depth + 1]
        for w in range(NODE9):
            child[w] = node[w]
        for w in range(27):
            snap[w] = node[w]
        place9(child, d, b, bit)
        if propagate9(child, locked, snap):
            depth += 1
            continue
        # refute: the digit leaves the cell in the node itself; go up while that fails too
        while True:
            node = stack[depth]
            for w in range(27):
                snap[w] = node[w]
            node[3 * branch[depth, 2] + branch[depth, 0]] &= ~branch[depth, 1]
            if propagate9(node, locked, snap):
                break
            if depth == 0:
                return UNSOLVABLE, guesses
            depth -= 1


@numba.njit(cache=True)
def solve_many9(givens, locked, max_guesses, deadline):
    """Solve each row of an (n, 81) array; (grids, statuses, guesses)."""
    n = givens.shape[0]
    grids = np.zeros((n, 81), dtype=np.int64)
    statuses = np.zeros(n, dtype=np.int64)
    guesses = np.zeros(n, dtype=np.int64)
    stack = np.zeros((82, NODE9), dtype=np.int64)
    branch = np.zeros((82, 3), dtype=np.int64)
    snap = np.zeros(SNAP9, dtype=np.int64)
    for i in range(n):
        s, g = solve_one9(givens[i], grids[i], stack, branch, snap, locked, max_guesses, deadline)
        statuses[i] = s
        guesses[i] = g
    return grids, statuses, guesses
