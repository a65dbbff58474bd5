"""The words the package agrees on: families, encodings and why a run stopped.

Listed once here so that registration, the runner, the store and the reports check
against the same names; a typo in a solver's ``family`` is refused when it registers
instead of producing an empty report section.
"""

from __future__ import annotations

from enum import StrEnum

#: Exact search: a run ends with a proof (solution found or none exists).
EXACT_FAMILIES: tuple[str, ...] = ("backtracking", "csp", "exact")
#: Stochastic search: a run ends at the target energy or when a budget is spent.
STOCHASTIC_FAMILIES: tuple[str, ...] = ("annealing", "genetic", "swarm")
#: Families of the later seeds (human strategies, tabu search, probabilistic inference).
OTHER_FAMILIES: tuple[str, ...] = ("human", "tabu", "probabilistic")
FAMILIES: tuple[str, ...] = EXACT_FAMILIES + STOCHASTIC_FAMILIES + OTHER_FAMILIES

#: How a solver represents a candidate grid; a native and its library counterpart
#: share one (the module under ``problems/encodings`` of the same name, where there is one).
ENCODINGS: tuple[str, ...] = (
    "grid",               # the 2-D array of digits, 0 for empty (exact solvers)
    "csp",                # variables per cell, pairwise != constraints
    "csp-alldifferent",   # variables per cell, one AllDifferent per unit
    "exact-cover",        # Knuth's 4·n² column matrix
    "row-permutation",    # each row a permutation of its free digits
    "box-permutation",    # each box a permutation of its free digits
    "integer-cells",      # one integer gene per free cell
    "random-keys",        # one real key per free cell, ranked into permutations
    "sat-cnf",            # one Boolean per (cell, digit), exactly-one clauses (SAT, SMT)
)


class StopReason(StrEnum):
    """Why a run ended, so that runs stopped by different rules are never compared.

    ``target``: the target energy was reached (stochastic) · ``finished``: the
    algorithm ended by itself (proof, or its schedule/generations/restarts done) ·
    ``exhausted``: an exact search proved there is no (further) solution ·
    ``evaluations``: the evaluation budget was spent · ``clock``: the solver saw its
    deadline · ``killed``: the bench killed the process after the grace period ·
    ``error``: the solver raised or its process died.
    """

    TARGET = "target"
    FINISHED = "finished"
    EXHAUSTED = "exhausted"
    EVALUATIONS = "evaluations"
    CLOCK = "clock"
    KILLED = "killed"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


def is_budget_stop(reason: str | None) -> bool:
    """True when a budget ended the run rather than the algorithm itself."""
    return reason in (StopReason.EVALUATIONS, StopReason.CLOCK, StopReason.KILLED)
