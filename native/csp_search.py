"""AIMA's backtracking search with pluggable strategies, in plain Python (the readable reference).

``backtracking_search(csp, select_unassigned_variable, order_domain_values, inference)``
is AIMA's (Russell & Norvig, fig. 6.5): variable selection, value ordering and inference
are plain functions, composed into one search, not a class per combination:

==================  ===========================  =========================  ==================
solver              select_unassigned_variable   order_domain_values        inference
==================  ===========================  =========================  ==================
native.csp-bt       first_unassigned_variable    unordered_domain_values    no_inference
native.csp-mrv-lcv  mrv_degree                   lcv                        no_inference
native.csp-fc       mrv_degree                   lcv                        forward_checking
native.csp-mac      mrv_degree                   lcv                        mac
==================  ===========================  =========================  ==================

plus :func:`conflict_directed_backjumping` (Prosser's CBJ, the seed's version, with
:func:`mrv`). The counters follow the seed (Sudoku-06) exactly, because its printed
figures are the reference:

- ``assignments`` counts every value TRIED for the selected variable, before the
  consistency check (the seed increments ``num_assignments`` at the top of the value
  loop); CBJ counts only the consistent values it actually assigns;
- ``backtracks`` counts every consistent value that was assigned and then undone (the
  seed increments ``num_backtracks`` after each failed recursion or failed inference);
  CBJ counts one per variable whose values are exhausted.

Forward checking restores a pruned value by APPENDING it to the neighbour's domain (the
seed's ``restore``), so domain orders drift during the search and LCV's stable sort sees
them; MAC restores a saved copy. Both are reproduced because the seed's counts depend on
them. The compiled kernel (:mod:`sudoku_compare.native.csp_kernel`) runs the same
search with the same counts; :func:`backtracking_search` uses it when every strategy
has a compiled twin (``engine="auto"``) and this Python loop otherwise.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from sudoku_compare.problems.encodings.csp_model import CSP


class SearchTimeout(Exception):
    """Raised inside the Python search when the deadline or the assignment limit is reached."""


@dataclass
class SearchState:
    """A node of the search: partial assignment (-1 = unassigned) and current domains."""

    csp: CSP
    assignment: list[int]
    domains: list[list[int]]
    neighbours: list[list[int]]
    assignments: int = 0
    backtracks: int = 0
    deadline: float = float("inf")
    max_assignments: int = 2**62
    extra: dict = field(default_factory=dict)

    @classmethod
    def start(cls, csp: CSP, deadline: float = float("inf"),
              max_assignments: int = 2**62) -> SearchState:
        return cls(csp, [-1] * csp.n_vars, csp.domain_lists(), csp.neighbour_lists(),
                   deadline=deadline, max_assignments=max_assignments)

    def is_consistent(self, var: int, val: int) -> bool:
        con = self.csp.constraint
        a = self.assignment
        return all(a[n] < 0 or con(var, val, n, a[n]) for n in self.neighbours[var])

    def count_assignment(self) -> None:
        if self.assignments >= self.max_assignments:
            raise SearchTimeout
        self.assignments += 1
        if self.assignments & 1023 == 0 and time.perf_counter() >= self.deadline:
            raise SearchTimeout


Undo = Callable[[], None]

# -- variable selection --------------------------------------------------------------


def first_unassigned_variable(csp: CSP, state: SearchState) -> int:
    """The first unassigned variable in the variables' order (AIMA's default)."""
    return state.assignment.index(-1)


def _remaining_values(state: SearchState, v: int) -> int:
    return sum(1 for val in state.domains[v] if state.is_consistent(v, val))


def mrv(csp: CSP, state: SearchState) -> int:
    """Minimum remaining values: fewest current values consistent with the assignment;
    ties go to the first variable (the seed's CBJ selection)."""
    return min((v for v in range(csp.n_vars) if state.assignment[v] < 0),
               key=lambda v: _remaining_values(state, v))


def mrv_degree(csp: CSP, state: SearchState) -> int:
    """MRV with the degree heuristic as tie-break (most unassigned neighbours), then the
    first variable: the seed's ``CSPHeuristics.select_mrv``."""
    a = state.assignment

    def key(v: int) -> tuple[int, int]:
        degree = sum(1 for n in state.neighbours[v] if a[n] < 0)
        return _remaining_values(state, v), -degree

    return min((v for v in range(csp.n_vars) if a[v] < 0), key=key)


# -- value ordering ----------------------------------------------------------------------


def unordered_domain_values(csp: CSP, var: int, state: SearchState) -> list[int]:
    """The current domain in its current order."""
    return list(state.domains[var])


def lcv(csp: CSP, var: int, state: SearchState) -> list[int]:
    """Least constraining value: fewest values ruled out in unassigned neighbours' domains
    (stable sort, so ties keep the domain's current order, as the seed's ``sorted``)."""
    con = csp.constraint
    a = state.assignment

    def conflicts(val: int) -> int:
        return sum(1 for n in state.neighbours[var] if a[n] < 0
                   for nval in state.domains[n] if not con(var, val, n, nval))

    return sorted(state.domains[var], key=conflicts)


# -- inference -------------------------------------------------------------------------


def _nothing() -> None:
    return None


def no_inference(csp: CSP, var: int, val: int, state: SearchState) -> tuple[bool, Undo]:
    return True, _nothing


def forward_checking(csp: CSP, var: int, val: int, state: SearchState) -> tuple[bool, Undo]:
    """Prune ``val``'s conflicts from unassigned neighbours; fail at the first emptied
    domain. The undo appends the pruned values back (the seed's ``restore``)."""
    con = csp.constraint
    removals: list[tuple[int, int]] = []
    doms = state.domains

    def undo() -> None:
        for n, v in removals:
            doms[n].append(v)

    for n in state.neighbours[var]:
        if state.assignment[n] < 0:
            dn = doms[n]
            to_remove = [nval for nval in dn if not con(var, val, n, nval)]
            for r in to_remove:
                dn.remove(r)
                removals.append((n, r))
            if not dn:
                return False, undo
    return True, undo


def revise(csp: CSP, domains: list[list[int]], xi: int, xj: int) -> bool:
    """Remove the values of ``xi`` without support in ``xj``; True if any was removed."""
    con = csp.constraint
    dj = domains[xj]
    to_remove = [a for a in domains[xi] if not any(con(xi, a, xj, b) for b in dj)]
    for a in to_remove:
        domains[xi].remove(a)
    return bool(to_remove)


def ac3(csp: CSP, domains: list[list[int]], neighbours: list[list[int]],
        arcs: list[tuple[int, int]] | None = None, removed: list | None = None) -> bool:
    """AC-3 from ``arcs`` (all arcs when None or EMPTY, as the seed's ``arcs if arcs else``);
    False when a domain is emptied. ``removed`` collects the removed (var, value) pairs."""
    queue = deque(arcs if arcs else [(x, y) for x in range(csp.n_vars) for y in neighbours[x]])
    while queue:
        xi, xj = queue.popleft()
        before = list(domains[xi]) if removed is not None else None
        if revise(csp, domains, xi, xj):
            if removed is not None:
                removed.extend((xi, v) for v in before if v not in domains[xi])
            if not domains[xi]:
                return False
            for xk in neighbours[xi]:
                if xk != xj:
                    queue.append((xk, xi))
    return True


def mac(csp: CSP, var: int, val: int, state: SearchState) -> tuple[bool, Undo]:
    """Maintain arc consistency: reduce ``var`` to ``{val}`` and run AC-3 from the arcs
    (n, var) of its unassigned neighbours. The undo restores a saved copy."""
    saved = [list(d) for d in state.domains]

    def undo() -> None:
        state.domains[:] = saved

    state.domains[var] = [val]
    arcs = [(n, var) for n in state.neighbours[var] if state.assignment[n] < 0]
    return ac3(csp, state.domains, state.neighbours, arcs), undo


# -- the search ------------------------------------------------------------------------


@dataclass
class SearchResult:
    """The end of a search: the assignment (None when it failed), the seed's counters."""

    assignment: list[int] | None
    assignments: int
    backtracks: int
    timed_out: bool = False
    #: the deepest partial assignment (for a best-effort grid when it failed)
    partial: list[int] | None = None
    extra: dict = field(default_factory=dict)


def python_backtracking_search(csp: CSP, select_unassigned_variable=first_unassigned_variable,
                               order_domain_values=unordered_domain_values,
                               inference=no_inference, deadline: float = float("inf"),
                               max_assignments: int = 2**62) -> SearchResult:
    """AIMA's ``backtracking_search`` in Python, counting as the seed does."""
    state = SearchState.start(csp, deadline, max_assignments)
    best: list[int] = list(state.assignment)
    best_depth = 0

    def backtrack(depth: int) -> bool:
        nonlocal best, best_depth
        if depth == csp.n_vars:
            return True
        var = select_unassigned_variable(csp, state)
        for val in order_domain_values(csp, var, state):
            state.count_assignment()
            if state.is_consistent(var, val):
                state.assignment[var] = val
                if depth + 1 > best_depth:
                    best, best_depth = list(state.assignment), depth + 1
                ok, undo = inference(csp, var, val, state)
                if ok and backtrack(depth + 1):
                    return True
                undo()
                state.assignment[var] = -1
                state.backtracks += 1
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, csp.n_vars + 100))
    try:
        solved = backtrack(0)
        timed_out = False
    except SearchTimeout:
        solved, timed_out = False, True
    finally:
        sys.setrecursionlimit(limit)
    return SearchResult(list(state.assignment) if solved else None, state.assignments,
                        state.backtracks, timed_out, best)


def python_conflict_directed_backjumping(csp: CSP, select_unassigned_variable=mrv,
                                         deadline: float = float("inf"),
                                         max_assignments: int = 2**62) -> SearchResult:
    """The seed's CBJ: conflict sets gathered from rejecting assigned neighbours; an
    exhausted variable jumps back to the most recent variable of its conflict set and
    merges its set into it (chronological fallback when the set is empty)."""
    state = SearchState.start(csp, deadline, max_assignments)
    con = csp.constraint
    conflict_sets: list[set[int]] = [set() for _ in range(csp.n_vars)]
    history: list[int] = []
    a = state.assignment

    def solve_cbj(depth: int) -> tuple[bool, int | None]:
        if depth == csp.n_vars:
            return True, None
        var = select_unassigned_variable(csp, state)
        history.append(var)
        conflict_sets[var] = set()
        for val in csp.domain_of(var):
            rejecters = {n for n in state.neighbours[var] if a[n] >= 0 and not con(var, val, n, a[n])}
            if rejecters:
                conflict_sets[var] |= rejecters
                continue
            a[var] = val
            state.count_assignment()
            solved, jump = solve_cbj(depth + 1)
            if solved:
                return True, None
            a[var] = -1
            if jump is not None and jump != var:
                history.pop()
                return False, jump
        state.backtracks += 1
        history.pop()
        if not conflict_sets[var]:
            return False, None
        target = next((v for v in reversed(history) if v in conflict_sets[var]), None)
        if target is None:
            return False, None
        conflict_sets[target] |= conflict_sets[var] - {target}
        return False, target

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, csp.n_vars + 100))
    try:
        solved, _ = solve_cbj(0)
        timed_out = False
    except SearchTimeout:
        solved, timed_out = False, True
    finally:
        sys.setrecursionlimit(limit)
    return SearchResult(list(a) if solved else None, state.assignments, state.backtracks,
                        timed_out, list(a))
