"""Difficulty from search effort: how many guesses a propagation solver needs.

The solver is the classic one (Norvig's; what tdoku's "% no guess" and "guesses per
puzzle" measure): apply naked singles (a cell with one candidate) and hidden singles (a
digit with one place in a unit) until nothing changes, then guess on a cell with the
fewest candidates, digits in ascending order. A *guess* is one digit tried at such a
choice point. The search is run to the end (all solutions, at most two), so the count
does not depend on whether the right digit happened to come first in the lucky branch
only; it is deterministic for a given puzzle.

Bands (defined by this rating, used by the generator and the shipped sets):

* ``easy``: 0 guesses, singles alone solve it;
* ``medium``: 1 to 4 guesses;
* ``hard``: 5 guesses or more.
"""

from __future__ import annotations

from dataclasses import dataclass

from .puzzle import Puzzle
from .topology import topology

#: band name -> (min guesses, max guesses inclusive, or None for no upper bound)
BANDS: dict[str, tuple[int, int | None]] = {
    "easy": (0, 0),
    "medium": (1, 4),
    "hard": (5, None),
}


@dataclass(frozen=True)
class Rating:
    """Search effort of one puzzle: guesses, choice points, and solutions found (<= 2)."""

    guesses: int
    branches: int
    solutions: int

    @property
    def band(self) -> str:
        return band_of(self.guesses)


def band_of(guesses: int) -> str:
    for name, (lo, hi) in BANDS.items():
        if guesses >= lo and (hi is None or guesses <= hi):
            return name
    raise AssertionError("bands cover every count")  # pragma: no cover


class _Search:
    def __init__(self, box: int):
        topo = topology(box)
        self.side = topo.side
        self.full = (1 << self.side) - 1
        self.peers = [list(map(int, row)) for row in topo.peers]
        self.units = [list(map(int, u)) for u in topo.units]
        self.guesses = 0
        self.branches = 0
        self.solutions = 0

    def assign(self, cand: list[int], cell: int, bit: int) -> bool:
        """Set ``cell`` to the digit ``bit`` and propagate; False on a contradiction."""
        todo = [(cell, bit)]
        while todo:
            cell, bit = todo.pop()
            # a cell already reduced to ``bit`` is processed again: harmless, and it
            # is how a naked single's peers lose its digit
            if not cand[cell] & bit:
                return False
            cand[cell] = bit
            for p in self.peers[cell]:
                m = cand[p]
                if m & bit:
                    m &= ~bit
                    if not m:
                        return False
                    cand[p] = m
                    if m & (m - 1) == 0:
                        todo.append((p, m))
            if not todo:
                todo.extend(self._hidden_singles(cand))
                if todo and todo[0] == (-1, 0):
                    return False
        return True

    def _hidden_singles(self, cand: list[int]) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = []
        for unit in self.units:
            once = twice = 0
            for c in unit:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != self.full:
                return [(-1, 0)]  # a digit with no place left in this unit
            singles = once & ~twice
            while singles:
                bit = singles & -singles
                singles ^= bit
                for c in unit:
                    if cand[c] & bit:
                        if cand[c] != bit:
                            found.append((c, bit))
                        break
        return found

    def solve(self, cand: list[int], limit: int = 2) -> None:
        best = -1
        best_k = self.side + 1
        for i, m in enumerate(cand):
            if m & (m - 1):
                k = m.bit_count()
                if k < best_k:
                    best, best_k = i, k
                    if k == 2:
                        break
        if best < 0:
            self.solutions += 1
            return
        self.branches += 1
        m = cand[best]
        while m and self.solutions < limit:
            bit = m & -m
            m ^= bit
            self.guesses += 1
            trial = list(cand)
            if self.assign(trial, best, bit):
                self.solve(trial, limit)


def rate(puzzle: Puzzle) -> Rating:
    """Guesses a singles-plus-guessing solver needs to exhaust the puzzle's search."""
    s = _Search(puzzle.box)
    cand = [s.full] * puzzle.n_cells
    ok = True
    for i, v in enumerate(puzzle.cells):
        if v and ok:
            ok = s.assign(cand, i, 1 << (v - 1))
    if ok:
        hidden = s._hidden_singles(cand)
        for cell, bit in hidden:
            if cell < 0 or not s.assign(cand, cell, bit):
                ok = False
                break
    if ok:
        s.solve(cand)
    return Rating(s.guesses, s.branches, s.solutions)
