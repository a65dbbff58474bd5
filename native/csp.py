"""The AIMA CSP suite (seed "Sudoku-06: CSP académique") as registered solvers.

One search, :func:`backtracking_search`, composed from three plain strategy functions
(:mod:`sudoku_compare.native.csp_search`), plus conflict-directed backjumping. The
registered solvers are configured variants of one class, not a class per combination:

``native.csp-bt``       first unassigned variable, domain order, no inference
``native.csp-mrv-lcv``  MRV + degree tie-break, LCV, no inference
``native.csp-fc``       MRV + degree, LCV, forward checking
``native.csp-mac``      MRV + degree, LCV, maintained arc consistency (AC-3)
``native.csp-cbj``      conflict-directed backjumping with MRV

Counters ``assignments`` and ``backtracks`` are counted as the seed counts them (see
csp_search). ``evaluations`` is the number of assignments, which ``max_evaluations``
caps. ``--param ac3_preprocess=true`` runs AC-3 on the initial domains first and reports
``ac3_removed``. When every strategy has a compiled twin (all built-in ones do, for the
not-equal constraint), the numba kernel runs the search; ``--param engine=python`` runs
the readable Python loop instead (same counts, ~100x slower). Stop reason: ``target``
(solved), ``exhausted`` (proved unsolvable, AC-3 included), ``evaluations`` (the assignment
cap), ``clock``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._warmup import WarmOnEmptyGrid
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.csp_model import CSP, SudokuCSPBuilder, make_csp
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

from . import csp_kernel as K
from .csp_search import (
    SearchResult,
    ac3,
    first_unassigned_variable,
    forward_checking,
    lcv,
    mac,
    mrv,
    mrv_degree,
    no_inference,
    python_backtracking_search,
    python_conflict_directed_backjumping,
    unordered_domain_values,
)

#: the compiled twins of the strategy functions
SELECT_CODES = {first_unassigned_variable: K.SELECT_FIRST, mrv: K.SELECT_MRV,
                mrv_degree: K.SELECT_MRV_DEGREE}
ORDER_CODES = {unordered_domain_values: K.ORDER_DOMAIN, lcv: K.ORDER_LCV}
INFERENCE_CODES = {no_inference: K.INFER_NONE, forward_checking: K.INFER_FC, mac: K.INFER_MAC}

#: strategy names used by the solver parameters
SELECTIONS = {"first": first_unassigned_variable, "mrv": mrv, "mrv-degree": mrv_degree}
ORDERINGS = {"domain": unordered_domain_values, "lcv": lcv}
INFERENCES = {"none": no_inference, "fc": forward_checking, "mac": mac}


def _compiled(csp: CSP, *strategies) -> bool:
    tables = (SELECT_CODES, ORDER_CODES, INFERENCE_CODES)
    return csp.is_not_equal and all(s in t for s, t in zip(strategies, tables, strict=True))


def _result(status: int, assign, assignments: int, backtracks: int, best) -> SearchResult:
    solved = status == K.SOLVED
    return SearchResult([int(x) for x in assign] if solved else None, int(assignments),
                        int(backtracks), status == K.STOPPED, [int(x) for x in best])


def backtracking_search(csp: CSP, select_unassigned_variable=first_unassigned_variable,
                        order_domain_values=unordered_domain_values, inference=no_inference,
                        deadline: float = math.inf, max_assignments: int = 2**62,
                        engine: Literal["auto", "compiled", "python"] = "auto") -> SearchResult:
    """AIMA's backtracking search: the three strategies are plain functions.

    ``deadline`` is a ``time.perf_counter()`` instant. With ``engine="auto"`` the
    compiled kernel runs when all three strategies are built-in ones (and the constraint
    is "different values"); any other function runs in the Python loop.
    """
    compiled = _compiled(csp, select_unassigned_variable, order_domain_values, inference)
    if engine == "compiled" and not compiled:
        raise ValueError("the compiled engine needs built-in strategies and a not-equal CSP")
    if engine == "python" or not compiled:
        return python_backtracking_search(csp, select_unassigned_variable, order_domain_values,
                                          inference, deadline, max_assignments)
    out = K.search_kernel(csp.domains, csp.domain_size, csp.nbr_start, csp.neighbours,
                          SELECT_CODES[select_unassigned_variable],
                          ORDER_CODES[order_domain_values], INFERENCE_CODES[inference],
                          float(deadline), int(max_assignments))
    return _result(*out)


def conflict_directed_backjumping(csp: CSP, select_unassigned_variable=mrv,
                                  deadline: float = math.inf, max_assignments: int = 2**62,
                                  engine: Literal["auto", "compiled", "python"] = "auto"
                                  ) -> SearchResult:
    """The seed's CBJ (Prosser 1993, simplified): see ``python_conflict_directed_backjumping``."""
    compiled = csp.is_not_equal and select_unassigned_variable in (mrv, first_unassigned_variable)
    if engine == "compiled" and not compiled:
        raise ValueError("the compiled engine needs mrv or first_unassigned_variable")
    if engine == "python" or not compiled:
        return python_conflict_directed_backjumping(csp, select_unassigned_variable, deadline,
                                                    max_assignments)
    out = K.cbj_kernel(csp.domains, csp.domain_size, csp.nbr_start, csp.neighbours,
                       SELECT_CODES[select_unassigned_variable], float(deadline),
                       int(max_assignments))
    return _result(*out)


@dataclass(frozen=True)
class AC3Report:
    """AC-3 run once on the initial domains: the reduced CSP and what it removed."""

    consistent: bool
    csp: CSP
    removed: list[tuple[int, int]]

    @property
    def n_removed(self) -> int:
        return len(self.removed)


def ac3_preprocess(csp: CSP, engine: Literal["auto", "python"] = "auto") -> AC3Report:
    """Make the initial domains arc consistent (the seed's ``preprocess_ac3`` exercise).

    Returns the reduced CSP (same variables and neighbours) and the removed
    (variable, value index) pairs, in removal order.
    """
    if engine == "python" or not csp.is_not_equal:
        doms = csp.domain_lists()
        removed: list[tuple[int, int]] = []
        ok = ac3(csp, doms, csp.neighbour_lists(), None, removed)
    else:
        dom = csp.domains.copy()
        size = csp.domain_size.copy()
        n_vars = csp.n_vars
        max_deg = int(np.diff(csp.nbr_start).max(initial=0))
        cap = int(csp.nbr_start[-1]) + n_vars * csp.n_values * max_deg + 1
        qx = np.zeros(cap, np.int64)
        qy = np.zeros(cap, np.int64)
        rv = np.zeros(n_vars * csp.n_values + 1, np.int64)
        rl = np.zeros_like(rv)
        none = np.zeros(1, np.int64)
        ok, n = K.ac3_kernel(dom, size, n_vars, csp.nbr_start, csp.neighbours, none, none, 0,
                             qx, qy, rv, rl, True)
        removed = [(int(rv[i]), int(rl[i])) for i in range(n)]
        doms = [[int(x) for x in dom[v, :size[v]]] for v in range(n_vars)]
    reduced = make_csp(csp.names, doms, csp.neighbour_lists(), csp.labels, csp.constraint,
                       csp.units, dict(csp.meta))
    return AC3Report(bool(ok), reduced, removed)


# -- the solvers -----------------------------------------------------------------------


@dataclass(frozen=True)
class CSPParams:
    #: the search: AIMA's backtracking search or conflict-directed backjumping
    search: Literal["backtracking", "cbj"] = "backtracking"
    #: select_unassigned_variable
    select: Literal["first", "mrv", "mrv-degree"] = "first"
    #: order_domain_values
    order: Literal["domain", "lcv"] = "domain"
    #: inference after each assignment
    inference: Literal["none", "fc", "mac"] = "none"
    #: run AC-3 on the initial domains before the search (reports ac3_removed)
    ac3_preprocess: bool = False
    #: prune empty cells' domains by the givens (the seed does not)
    prune_givens: bool = False
    #: "compiled" (numba) or "python" (the readable reference loop, same counts)
    engine: Literal["compiled", "python"] = "compiled"


def solve_csp(csp: CSP, params: CSPParams, deadline: float = math.inf,
              max_assignments: int = 2**62) -> tuple[SearchResult, int]:
    """Run the configured search on ``csp``; returns (result, values removed by AC-3)."""
    removed = 0
    if params.ac3_preprocess:
        rep = ac3_preprocess(csp, "python" if params.engine == "python" else "auto")
        removed = rep.n_removed
        if not rep.consistent:
            return SearchResult(None, 0, 0, False, [-1] * csp.n_vars), removed
        csp = rep.csp
    engine = "python" if params.engine == "python" else "auto"
    if params.search == "cbj":
        res = conflict_directed_backjumping(csp, SELECTIONS[params.select], deadline,
                                            max_assignments, engine)
    else:
        res = backtracking_search(csp, SELECTIONS[params.select], ORDERINGS[params.order],
                                  INFERENCES[params.inference], deadline, max_assignments,
                                  engine)
    return res, removed


class CSPSolver(WarmOnEmptyGrid, Solver):
    """AIMA-style CSP search on the shared Sudoku CSP model (variants set the strategies)."""

    family = "csp"
    encoding = "csp"
    Params = CSPParams
    description = "AIMA backtracking search on the binary CSP model"

    def warmup(self) -> None:
        if self.params.engine == "compiled":
            tiny = make_csp([0, 1, 2], [[0, 1], [0, 1], [0, 1, 2]], [[1, 2], [0, 2], [0, 1]])
            for code in (K.INFER_NONE, K.INFER_FC, K.INFER_MAC):
                K.search_kernel(tiny.domains, tiny.domain_size, tiny.nbr_start, tiny.neighbours,
                                K.SELECT_MRV_DEGREE, K.ORDER_LCV, code, math.inf, 100)
            K.cbj_kernel(tiny.domains, tiny.domain_size, tiny.nbr_start, tiny.neighbours,
                         K.SELECT_MRV, math.inf, 100)
            ac3_preprocess(tiny)

    def search_model(self, csp: CSP, deadline: float = math.inf,
                     max_assignments: int = 2**62) -> SearchResult:
        """This variant's search on any CSP model (graph colouring, a prebuilt Sudoku model).

        The harness reaches CSP search only through the registry, so the perf sections that
        time the search alone (model building excluded) or run it on other problems call
        this method of a registered solver instead of importing the search functions.
        """
        return solve_csp(csp, self.params, deadline, max_assignments)[0]

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        deadline = budget.deadline().at
        t0 = time.perf_counter()
        csp = SudokuCSPBuilder.build_csp(puzzle, prune_givens=self.params.prune_givens)
        build_s = time.perf_counter() - t0
        max_assignments = budget.evaluations_or_max
        res, removed = solve_csp(csp, self.params, deadline, max_assignments)
        solved = res.assignment is not None
        grid = SudokuCSPBuilder.apply_solution(puzzle, res.assignment if solved else res.partial)
        counters = {"assignments": res.assignments, "backtracks": res.backtracks}
        if self.params.ac3_preprocess:
            counters["ac3_removed"] = removed
        extra: dict = {"model_build_s": build_s}
        if solved:
            reason = StopReason.TARGET
        elif not res.timed_out:
            reason = StopReason.EXHAUSTED
        elif res.assignments >= max_assignments:  # an assignment is the CSP's evaluation
            reason = StopReason.EVALUATIONS
        else:
            reason = StopReason.CLOCK
        return Outcome(grid=grid, claims_solved=solved, evaluations=res.assignments,
                       iterations=res.assignments, counters=counters, extra=extra,
                       stop_reason=str(reason))


register(CSPSolver, name="native.csp-bt",
         description="AIMA backtracking: first unassigned variable, domain order, no inference")
register(CSPSolver, name="native.csp-mrv-lcv", select="mrv-degree", order="lcv",
         description="backtracking with MRV (degree tie-break) and LCV")
register(CSPSolver, name="native.csp-fc", select="mrv-degree", order="lcv", inference="fc",
         description="forward checking with MRV (degree tie-break) and LCV")
register(CSPSolver, name="native.csp-mac", select="mrv-degree", order="lcv", inference="mac",
         description="maintaining arc consistency (AC-3) with MRV (degree tie-break) and LCV")
register(CSPSolver, name="native.csp-cbj", search="cbj", select="mrv",
         description="conflict-directed backjumping with MRV (the seed's CBJ)")
