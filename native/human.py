"""``native.human``: solve as a person does, one named logical step at a time, and rate it.

The solver keeps the candidates of every empty cell as a bit set (digit ``d`` is bit
``d-1``, in a numpy int64 array) and repeats one loop: try the techniques in order of
difficulty, apply the first step any of them finds, start again from the easiest. The
order is HoDoKu's (so the two step logs can be compared technique by technique):

* full house, naked single, hidden single (placements);
* locked candidates, pointing (a digit of a box confined to one line leaves the rest of
  the line) and claiming (a digit of a line confined to one box leaves the rest of the box);
* naked pair, naked triple, hidden pair, hidden triple, naked quad, hidden quad;
* basic fish: X-wing, swordfish, jellyfish (a digit confined to k rows whose positions
  span k columns leaves those columns elsewhere; and rows and columns swapped);
* skyscraper and 2-string kite (two strong links on one digit, joined at one end);
* W-wing, XY-wing and XYZ-wing.

Each step is recorded (technique, the cells and digits of its pattern, its placements
and eliminations, written ``r1c2=5`` and ``r3c4<>7`` as HoDoKu writes them). When no
technique applies the solver stops: the outcome carries the stuck grid (its placed digits,
0 elsewhere; the bench then calls the run ``unsolved``) and the candidates left, in
``extra["stuck_candidates"]``. With ``finish="search"`` it finishes from there by
backtracking instead (fewest candidates first, singles propagated, digits ascending):
one ``search`` step in the log and ``counters["search_guesses"]`` say so. An empty cell
with no candidate, or a digit with no place left in a unit, is a contradiction: the
puzzle has no solution (``stop_reason`` ``exhausted``).

Rating: the path's level and score on HoDoKu's scale (see
:mod:`sudoku_compare.problems.techniques`), its hardest technique and its step count, in
``extra`` (``rating_level``, ``rating_score``, ``rating_hardest``) and ``counters["steps"]``;
``counters["steps_<technique>"]`` counts each technique. The step log itself is
``extra["step_log"]`` (a list of dicts: ``solve --json`` prints it).

Why numpy and Python integers, not numba: a step is found by a handful of array
operations on the candidate bits (one view per step: bits per cell, positions per unit
and digit) followed by short loops over Python ints. Measured in one process on the
shared 2-core box: easy51 (51 puzzles, about 54 steps each) in 0.34 s, top95 in 0.9 s,
i.e. well under a millisecond a step, against HoDoKu's median of about 0.1 s a puzzle;
the log and the step objects are Python anyway, and a numba version would have to rebuild
them outside the kernel, so numba does not pay here. Every box size 2..5 works (the fish,
subsets, single-digit patterns and wings are written for any side).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Literal

import numpy as np

from sudoku_compare.budget import Budget, Deadline
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle, duplicate_given
from sudoku_compare.problems.techniques import HumanRating, cell_name, rate
from sudoku_compare.problems.topology import topology
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

Finish = Literal["none", "search"]


# -- the geometry, as Python ints ---------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Geometry:
    """Units and peers of one box size in the forms the techniques use."""

    box: int
    side: int
    cells: int
    units: np.ndarray                 # (3N, N) cells: rows, columns, boxes
    unit_cells: list[list[int]]
    row_of: list[int]
    col_of: list[int]
    box_of: list[int]
    #: peers of each cell as a bit set over cells
    peer_mask: list[int]
    peers: list[list[int]]
    digit_shift: np.ndarray           # 0..N-1, to split candidate words into bits


@cache
def geometry(box: int) -> Geometry:
    t = topology(box)
    peers = [list(map(int, row)) for row in t.peers]
    return Geometry(box, t.side, t.cells, t.units, [list(map(int, u)) for u in t.units],
                    list(map(int, t.row_of)), list(map(int, t.col_of)), list(map(int, t.box_of)),
                    [sum(1 << p for p in ps) for ps in peers], peers,
                    np.arange(t.side, dtype=np.int64))


def bits_of(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return bin(mask).count("1")


# -- a position and the steps on it -------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One logical step: what found it, its pattern, and what it changes."""

    technique: str
    #: the cells and digits of the pattern (the pivot and pincers, the base line cells, ...)
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()

    def to_dict(self, side: int) -> dict:
        return {"technique": self.technique,
                "cells": [cell_name(c, side) for c in self.cells],
                "digits": list(self.digits),
                "placements": [f"{cell_name(c, side)}={d}" for c, d in self.placements],
                "eliminations": [f"{cell_name(c, side)}<>{d}" for c, d in self.eliminations]}


class Contradiction(Exception):  # noqa: N818 - a proof, not a bug
    """The position has no solution (the message says where)."""


@dataclass(eq=False)
class Board:
    """Placed digits and the candidates of each empty cell (0 for a placed cell)."""

    geo: Geometry
    values: np.ndarray
    cand: np.ndarray

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> Board:
        geo = geometry(puzzle.box)
        dup = duplicate_given(puzzle.cells, puzzle.box)
        if dup is not None:
            raise Contradiction(f"two givens clash: {dup}")
        full = (1 << geo.side) - 1
        board = cls(geo, np.zeros(geo.cells, dtype=np.int64),
                    np.full(geo.cells, full, dtype=np.int64))
        for c, v in enumerate(puzzle.cells):
            if v:
                board.place(c, v)
        return board

    @classmethod
    def from_candidates(cls, box: int, cand: list[int], values: list[int] | None = None) -> Board:
        """A position given directly by its candidate sets (for crafted positions)."""
        geo = geometry(box)
        vals = np.array(values if values is not None else [0] * geo.cells, dtype=np.int64)
        return cls(geo, vals, np.array(cand, dtype=np.int64))

    def place(self, cell: int, digit: int) -> None:
        self.values[cell] = digit
        self.cand[cell] = 0
        self.cand[self.geo.peers[cell]] &= ~np.int64(1 << (digit - 1))

    def eliminate(self, cell: int, digit: int) -> None:
        self.cand[cell] &= ~np.int64(1 << (digit - 1))

    def apply(self, step: Step) -> None:
        for c, d in step.placements:
            self.place(c, d)
        for c, d in step.eliminations:
            self.eliminate(c, d)

    def solved(self) -> bool:
        return bool((self.values != 0).all())

    def view(self) -> View:
        return View.of(self)

    def candidates_text(self) -> str:
        """Each cell's candidates (or its digit in brackets), space separated, row-major."""
        out = []
        for c in range(self.geo.cells):
            v = int(self.values[c])
            out.append(f"[{v}]" if v else "".join(str(d + 1) if d < 9 else chr(ord("A") + d - 9)
                                                   for d in bits_of(int(self.cand[c]))))
        return " ".join(out)


@dataclass(frozen=True, eq=False)
class View:
    """One position read out for the techniques: candidates and positions as Python ints."""

    geo: Geometry
    values: list[int]
    cand: list[int]
    count: list[int]
    #: ``where[u][d]``: bit set of the positions (0..N-1 within unit u) holding digit d+1
    where: list[list[int]]
    #: ``placed[u]``: bit set of the digits (bit d for digit d+1) already placed in unit u
    placed: list[int]

    @classmethod
    def of(cls, board: Board) -> View:
        geo = board.geo
        bits = (board.cand[:, None] >> geo.digit_shift) & 1               # (cells, N)
        pos = bits[geo.units]                                              # (3N, N pos, N dig)
        where = (pos << geo.digit_shift[None, :, None]).sum(axis=1)        # (3N, N dig)
        vals = board.values[geo.units]
        placed = np.where(vals > 0, np.int64(1) << np.maximum(vals - 1, 0), 0).sum(axis=1)
        return cls(geo, board.values.tolist(), board.cand.tolist(), bits.sum(axis=1).tolist(),
                   where.tolist(), placed.tolist())

    def check(self) -> None:
        """Raise :class:`Contradiction` when a cell or a unit has run out of room."""
        side = self.geo.side
        for c, (v, k) in enumerate(zip(self.values, self.count, strict=True)):
            if v == 0 and k == 0:
                raise Contradiction(f"{cell_name(c, side)} has no candidate left")
        full = (1 << side) - 1
        for u, (placed, where) in enumerate(zip(self.placed, self.where, strict=True)):
            for d in bits_of(full & ~placed):
                if where[d] == 0:
                    raise Contradiction(f"digit {d + 1} has no place left in unit {u}")


Finder = Callable[[View], "Step | None"]


def _cells_of(view: View, u: int, positions: int) -> list[int]:
    unit = view.geo.unit_cells[u]
    return [unit[i] for i in bits_of(positions)]


# -- singles ------------------------------------------------------------------------------
def full_house(view: View) -> Step | None:
    """The last empty cell of a unit takes the last digit."""
    full = (1 << view.geo.side) - 1
    for unit, placed in zip(view.geo.unit_cells, view.placed, strict=True):
        empty = [c for c in unit if view.values[c] == 0]
        if len(empty) == 1:
            missing = full & ~placed
            if popcount(missing) == 1 and view.cand[empty[0]] == missing:
                d = missing.bit_length()
                return Step("full_house", (empty[0],), (d,), placements=((empty[0], d),))
    return None


def naked_single(view: View) -> Step | None:
    """A cell with one candidate takes it."""
    for c, (v, k) in enumerate(zip(view.values, view.count, strict=True)):
        if v == 0 and k == 1:
            d = view.cand[c].bit_length()
            return Step("naked_single", (c,), (d,), placements=((c, d),))
    return None


def hidden_single(view: View) -> Step | None:
    """A digit with one place left in a unit goes there."""
    for u, where in enumerate(view.where):
        for d, positions in enumerate(where):
            if positions and positions & (positions - 1) == 0:
                c = _cells_of(view, u, positions)[0]
                return Step("hidden_single", (c,), (d + 1,), placements=((c, d + 1),))
    return None


# -- intersections ------------------------------------------------------------------------
def _locked(view: View, technique: str, from_units: range, line_of: Callable[[int], int | None],
            only_digit: int | None = None) -> Step | None:
    """A digit of unit u whose cells all lie in one other unit leaves the rest of that unit."""
    geo = view.geo
    for u in from_units:
        for d, positions in enumerate(view.where[u]):
            if (only_digit is not None and d != only_digit) or popcount(positions) < 2:
                continue
            cells = _cells_of(view, u, positions)
            others = {line_of(c) for c in cells}
            if len(others) != 1:
                continue
            target = others.pop()
            if target is None:
                continue
            bit = 1 << d
            inside = set(geo.unit_cells[u])
            elim = tuple((c, d + 1) for c in geo.unit_cells[target]
                         if c not in inside and view.cand[c] & bit)
            if elim:
                return Step(technique, tuple(cells), (d + 1,), eliminations=elim)
    return None


def locked_candidates_pointing(view: View) -> Step | None:
    """In a box, a digit confined to one row (column) leaves the rest of that row (column)."""
    geo = view.geo
    n = geo.side
    boxes = range(2 * n, 3 * n)
    lines = (lambda c: geo.row_of[c], lambda c: n + geo.col_of[c])
    for b in boxes:  # HoDoKu's order: each box, each digit, its row then its column
        for digit in range(n):
            for line_of in lines:
                step = _locked(view, "locked_candidates_pointing", range(b, b + 1), line_of, digit)
                if step is not None:
                    return step
    return None


def locked_candidates_claiming(view: View) -> Step | None:
    """In a row or column, a digit confined to one box leaves the rest of that box."""
    geo = view.geo
    n = geo.side
    return _locked(view, "locked_candidates_claiming", range(2 * n), lambda c: 2 * n + geo.box_of[c])


# -- subsets ------------------------------------------------------------------------------
_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


@cache
def _subset_order(geo: Geometry) -> tuple[int, ...]:
    """Units in the order HoDoKu searches subsets: boxes, then rows, then columns."""
    n = geo.side
    return (*range(2 * n, 3 * n), *range(2 * n))


def naked_subset(view: View, k: int) -> Step | None:
    """k cells of a unit holding k digits between them: those digits leave the unit's other cells."""
    for u in _subset_order(view.geo):
        unit = view.geo.unit_cells[u]
        pool = [c for c in unit if view.values[c] == 0 and 2 <= view.count[c] <= k]
        if len(pool) < k:
            continue
        for combo in combinations(pool, k):
            union = 0
            for c in combo:
                union |= view.cand[c]
            if popcount(union) != k:
                continue
            elim = tuple((c, d + 1) for c in unit if view.values[c] == 0 and c not in combo
                         for d in bits_of(view.cand[c] & union))
            if elim:
                return Step(f"naked_{_SUBSET_NAMES[k]}", combo,
                            tuple(d + 1 for d in bits_of(union)), eliminations=elim)
    return None


def hidden_subset(view: View, k: int) -> Step | None:
    """k digits of a unit confined to k cells: those cells lose every other digit."""
    for u in _subset_order(view.geo):
        where = view.where[u]
        pool = [d for d, positions in enumerate(where) if 2 <= popcount(positions) <= k]
        if len(pool) < k:
            continue
        for combo in combinations(pool, k):
            positions = 0
            for d in combo:
                positions |= where[d]
            if popcount(positions) != k:
                continue
            keep = sum(1 << d for d in combo)
            cells = _cells_of(view, u, positions)
            elim = tuple((c, d + 1) for c in cells for d in bits_of(view.cand[c] & ~keep))
            if elim:
                return Step(f"hidden_{_SUBSET_NAMES[k]}", tuple(cells),
                            tuple(d + 1 for d in combo), eliminations=elim)
    return None


# -- fish ---------------------------------------------------------------------------------
_FISH_NAMES = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def basic_fish(view: View, k: int) -> Step | None:
    """A digit confined, in k rows, to k columns leaves those columns' other rows (and swapped)."""
    n = view.geo.side
    for d in range(n):
        bit = 1 << d
        for by_rows in (True, False):
            base_units = range(n) if by_rows else range(n, 2 * n)
            lines = [(i, view.where[u][d]) for i, u in enumerate(base_units)
                     if 2 <= popcount(view.where[u][d]) <= k]
            for combo in combinations(lines, k):
                cover = 0
                for _, positions in combo:
                    cover |= positions
                if popcount(cover) != k:
                    continue
                base = {i for i, _ in combo}

                def cell(line: int, cross: int, by_rows: bool = by_rows) -> int:
                    return line * n + cross if by_rows else cross * n + line

                elim = tuple(sorted((cell(line, cross), d + 1) for cross in bits_of(cover)
                                    for line in range(n) if line not in base
                                    and view.cand[cell(line, cross)] & bit))
                if elim:
                    pattern = tuple(cell(line, cross) for line in sorted(base)
                                    for cross in bits_of(cover) if view.cand[cell(line, cross)] & bit)
                    return Step(_FISH_NAMES[k], pattern, (d + 1,), eliminations=elim)
    return None


# -- wings --------------------------------------------------------------------------------
def _seen_by_all(view: View, cells: tuple[int, ...], bit: int, d: int) -> tuple[tuple[int, int], ...]:
    common = ~0
    for c in cells:
        common &= view.geo.peer_mask[c]
    return tuple((c, d) for c in bits_of(common & ((1 << view.geo.cells) - 1))
                 if view.cand[c] & bit)


def w_wing(view: View) -> Step | None:
    """Two cells {x,y} that do not see each other, joined by a strong link on x (each end
    sees one of them): one of the two holds y, so y leaves every cell that sees both."""
    geo = view.geo
    bivalue = [c for c, k in enumerate(view.count) if k == 2 and view.values[c] == 0]
    for p, q in combinations(bivalue, 2):
        pair = view.cand[p]
        if view.cand[q] != pair or geo.peer_mask[p] >> q & 1:
            continue
        for x in bits_of(pair):
            y = (pair & ~(1 << x)).bit_length() - 1
            for _, a, b in _strong_links(view, x):
                for near_p, near_q in ((a, b), (b, a)):
                    if (near_p in (p, q) or near_q in (p, q)
                            or not geo.peer_mask[p] >> near_p & 1
                            or not geo.peer_mask[q] >> near_q & 1):
                        continue
                    elim = _seen_by_all(view, (p, q), 1 << y, y + 1)
                    if elim:
                        return Step("w_wing", (p, q, near_p, near_q), (x + 1, y + 1),
                                    eliminations=elim)
    return None


def xy_wing(view: View) -> Step | None:
    """Pivot {x,y} sees pincers {x,z} and {y,z}: z leaves every cell that sees both pincers."""
    geo = view.geo
    bivalue = [c for c, k in enumerate(view.count) if k == 2 and view.values[c] == 0]
    for pivot in bivalue:
        pc = view.cand[pivot]
        wings = [c for c in bivalue if geo.peer_mask[pivot] >> c & 1
                 and popcount(view.cand[c] & pc) == 1]
        for a, b in combinations(wings, 2):
            ca, cb = view.cand[a], view.cand[b]
            z = ca & cb & ~pc
            if not z or (ca & pc) == (cb & pc):
                continue
            d = z.bit_length()
            elim = _seen_by_all(view, (a, b), z, d)
            if elim:
                return Step("xy_wing", (pivot, a, b), tuple(x + 1 for x in bits_of(pc | z)),
                            eliminations=elim)
    return None


def xyz_wing(view: View) -> Step | None:
    """Pivot {x,y,z} sees pincers {x,z} and {y,z}: z leaves every cell that sees all three."""
    geo = view.geo
    for pivot, (v, k) in enumerate(zip(view.values, view.count, strict=True)):
        if v or k != 3:
            continue
        pc = view.cand[pivot]
        wings = [c for c in bits_of(geo.peer_mask[pivot])
                 if view.count[c] == 2 and view.cand[c] & ~pc == 0]
        for a, b in combinations(wings, 2):
            ca, cb = view.cand[a], view.cand[b]
            if ca == cb or (ca | cb) != pc:
                continue
            z = ca & cb
            d = z.bit_length()
            elim = _seen_by_all(view, (pivot, a, b), z, d)
            if elim:
                return Step("xyz_wing", (pivot, a, b), tuple(x + 1 for x in bits_of(pc)),
                            eliminations=elim)
    return None


# -- single-digit patterns ----------------------------------------------------------------
def _strong_links(view: View, d: int) -> list[tuple[bool, int, int]]:
    """(in a row, cell, cell) of each row or column where digit d+1 has exactly two places."""
    n = view.geo.side
    out = []
    for u in range(2 * n):
        positions = view.where[u][d]
        if popcount(positions) == 2:
            a, b = _cells_of(view, u, positions)
            out.append((u < n, a, b))
    return out


def _turbot(view: View, technique: str) -> Step | None:
    """Two strong links on one digit whose near ends see each other: one far end holds the
    digit, so every cell seeing both far ends loses it. ``skyscraper``: two rows (or two
    columns) whose near ends share a column (row); ``two_string_kite``: a row and a column
    whose near ends share a box, far ends outside it."""
    geo = view.geo
    for d in range(geo.side):
        bit = 1 << d
        for (row1, a, b), (row2, c, e) in combinations(_strong_links(view, d), 2):
            if {a, b} & {c, e} or (row1 == row2) != (technique == "skyscraper"):
                continue
            for near1, far1 in ((a, b), (b, a)):
                for near2, far2 in ((c, e), (e, c)):
                    if technique == "skyscraper":
                        line = geo.col_of if row1 else geo.row_of
                        if line[near1] != line[near2] or line[far1] == line[far2]:
                            continue
                    elif (geo.box_of[near1] != geo.box_of[near2]
                          or geo.box_of[far1] == geo.box_of[near1]
                          or geo.box_of[far2] == geo.box_of[near2]):
                        continue
                    elim = _seen_by_all(view, (far1, far2), bit, d + 1)
                    if elim:
                        return Step(technique, (near1, far1, near2, far2), (d + 1,),
                                    eliminations=elim)
    return None


#: (common name, finder) in the order the solver tries them (HoDoKu's)
TECHNIQUES: tuple[tuple[str, Finder], ...] = (
    ("full_house", full_house),
    ("naked_single", naked_single),
    ("hidden_single", hidden_single),
    ("locked_candidates_pointing", locked_candidates_pointing),
    ("locked_candidates_claiming", locked_candidates_claiming),
    ("naked_pair", lambda v: naked_subset(v, 2)),
    ("naked_triple", lambda v: naked_subset(v, 3)),
    ("hidden_pair", lambda v: hidden_subset(v, 2)),
    ("hidden_triple", lambda v: hidden_subset(v, 3)),
    ("naked_quad", lambda v: naked_subset(v, 4)),
    ("hidden_quad", lambda v: hidden_subset(v, 4)),
    ("x_wing", lambda v: basic_fish(v, 2)),
    ("swordfish", lambda v: basic_fish(v, 3)),
    ("jellyfish", lambda v: basic_fish(v, 4)),
    ("skyscraper", lambda v: _turbot(v, "skyscraper")),
    ("two_string_kite", lambda v: _turbot(v, "two_string_kite")),
    ("w_wing", w_wing),
    ("xy_wing", xy_wing),
    ("xyz_wing", xyz_wing),
)


def next_step(view: View) -> Step | None:
    """The first step of the easiest technique that applies, or None when stuck."""
    for _, finder in TECHNIQUES:
        step = finder(view)
        if step is not None:
            return step
    return None


# -- the last resort ----------------------------------------------------------------------
class _OutOfTime(Exception):  # noqa: N818
    pass


@dataclass
class _Search:
    """Depth-first search on candidate lists: singles propagated, fewest candidates first."""

    geo: Geometry
    deadline: Deadline | None
    guesses: int = 0
    nodes: int = 0

    def propagate(self, values: list[int], cand: list[int]) -> bool:
        geo = self.geo
        full = (1 << geo.side) - 1
        changed = True
        while changed:
            changed = False
            for c in range(geo.cells):
                if values[c] == 0:
                    m = cand[c]
                    if m == 0:
                        return False
                    if m & (m - 1) == 0:
                        self._place(values, cand, c, m)
                        changed = True
            for unit in geo.unit_cells:
                once = twice = placed = 0
                for c in unit:
                    if values[c]:
                        placed |= 1 << (values[c] - 1)
                    m = cand[c]
                    twice |= once & m
                    once |= m
                if (once | placed) != full:
                    return False
                for d in bits_of(once & ~twice):
                    for c in unit:
                        if cand[c] >> d & 1:
                            self._place(values, cand, c, 1 << d)
                            changed = True
                            break
        return True

    def _place(self, values: list[int], cand: list[int], c: int, bit: int) -> None:
        values[c] = bit.bit_length()
        cand[c] = 0
        for p in self.geo.peers[c]:
            cand[p] &= ~bit

    def search(self, values: list[int], cand: list[int]) -> list[int] | None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % 64 == 0 and self.deadline.expired():
            raise _OutOfTime
        if not self.propagate(values, cand):
            return None
        empty = [c for c in range(self.geo.cells) if values[c] == 0]
        if not empty:
            return values
        cell = min(empty, key=lambda c: popcount(cand[c]))
        for d in bits_of(cand[cell]):
            self.guesses += 1
            v, k = values.copy(), cand.copy()
            self._place(v, k, cell, 1 << d)
            found = self.search(v, k)
            if found is not None:
                return found
        return None


# -- the whole path -----------------------------------------------------------------------
@dataclass
class HumanPath:
    """What a logical solve did: its steps, where it ended and why, and its rating."""

    box: int
    steps: list[Step] = field(default_factory=list)
    grid: np.ndarray | None = None
    #: ``solved`` | ``stuck`` (no technique applies) | ``contradiction`` | ``clock``
    end: str = "stuck"
    stuck_candidates: str | None = None
    contradiction: str | None = None
    search_guesses: int = 0

    @property
    def solved(self) -> bool:
        return self.end == "solved"

    @property
    def by_logic(self) -> bool:
        """Solved without the search."""
        return self.solved and not any(s.technique == "search" for s in self.steps)

    def rating(self) -> HumanRating:
        return rate((s.technique for s in self.steps), self.solved)

    def technique_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for s in self.steps:
            counts[s.technique] = counts.get(s.technique, 0) + 1
        return counts


def solve_path(puzzle: Puzzle, finish: Finish = "none", deadline: Deadline | None = None
               ) -> HumanPath:
    """Solve ``puzzle`` by the techniques in order; see the module docstring."""
    path = HumanPath(puzzle.box)
    try:
        board = Board.from_puzzle(puzzle)
    except Contradiction as exc:
        path.end, path.contradiction = "contradiction", str(exc)
        path.grid = np.array(puzzle.cells, dtype=np.int64)
        return path
    try:
        while not board.solved():
            if deadline is not None and deadline.expired():
                path.end = "clock"
                break
            view = board.view()
            view.check()
            step = next_step(view)
            if step is None:
                break
            board.apply(step)
            path.steps.append(step)
        else:
            path.end = "solved"
    except Contradiction as exc:
        path.end, path.contradiction = "contradiction", str(exc)
    if path.end == "stuck":
        path.stuck_candidates = board.candidates_text()
        if finish == "search":
            _finish_by_search(board, path, deadline)
    path.grid = board.values.copy()
    return path


def _finish_by_search(board: Board, path: HumanPath, deadline: Deadline | None) -> None:
    search = _Search(board.geo, deadline)
    before = board.values.tolist()
    try:
        found = search.search(board.values.tolist(), board.cand.tolist())
    except _OutOfTime:
        path.end = "clock"
        found = None
    path.search_guesses = search.guesses
    if found is None:
        if path.end != "clock":
            path.end, path.contradiction = "contradiction", "the search found no solution"
        return
    placements = tuple((c, d) for c, (old, d) in enumerate(zip(before, found, strict=True)) if old == 0)
    step = Step("search", tuple(c for c, _ in placements), (), placements=placements)
    board.apply(step)
    path.steps.append(step)
    path.end = "solved"


# -- the solver ---------------------------------------------------------------------------
@dataclass(frozen=True)
class HumanParams:
    #: ``none``: stop where logic is stuck (unsolved); ``search``: finish by backtracking
    finish: Finish = "none"


_STOP = {"solved": StopReason.TARGET, "stuck": StopReason.FINISHED,
         "contradiction": StopReason.EXHAUSTED, "clock": StopReason.CLOCK}


def outcome_of(path: HumanPath) -> Outcome:
    """The Outcome of a path: stuck grid or solution, step log, counts and rating."""
    side = path.box * path.box
    rating = path.rating()
    counters = {"steps": len(path.steps),
                "placements": sum(len(s.placements) for s in path.steps),
                "eliminations": sum(len(s.eliminations) for s in path.steps),
                "search_guesses": path.search_guesses}
    counters.update({f"steps_{name}": n for name, n in sorted(path.technique_counts().items())})
    extra: dict = {"rating_level": rating.level, "rating_score": rating.score,
                   "rating_hardest": rating.hardest or "", "end": path.end,
                   "step_log": [s.to_dict(side) for s in path.steps]}
    if path.stuck_candidates is not None:
        extra["stuck_candidates"] = path.stuck_candidates
    if path.contradiction is not None:
        extra["contradiction"] = path.contradiction
    assert path.grid is not None
    return Outcome(grid=path.grid.reshape(side, side), claims_solved=path.solved,
                   iterations=len(path.steps), counters=counters, extra=extra,
                   stop_reason=str(_STOP[path.end]))


@register
class HumanSolver(Solver):
    name = "native.human"
    family = "human"
    encoding = "grid"
    Params = HumanParams
    description = ("logical techniques in HoDoKu's order (singles, locked candidates, subsets, "
                   "X-wing/swordfish/jellyfish, skyscraper, 2-string kite, W/XY/XYZ-wing), step log "
                   "and "
                   "HoDoKu-scale rating")

    def warmup_for(self, puzzle: Puzzle) -> None:
        geometry(puzzle.box)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        return outcome_of(solve_path(puzzle, self.params.finish, budget.deadline()))


register(HumanSolver, name="native.human-search", finish="search",
         description="native.human, finished by backtracking where logic is stuck")
