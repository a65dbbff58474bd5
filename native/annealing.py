"""The seed's simulated annealing on the row-permutation encoding, compiled with numba.

The loop is the seed's ``SimulatedAnnealingSolver``: a row swap of two free cells, Metropolis
acceptance (accept when ``dE <= 0``, else with probability ``exp(-dE / T)``), ``T`` lowered after
every ``iterations_per_temperature`` proposals, until ``T <= t_min`` or energy 0, then a restart
from a fresh start state, ``max_restarts`` times at most. The seed's ``SimulatedAnnealingWith
ReheatSolver`` is the ``reheat_stagnation`` option (``native.sa-reheat``): a level whose end energy is not below its start
energy is stagnant; after that many stagnant levels ``T`` jumps back to ``t0 * reheat_factor``
(with ``adaptive_reheat`` the factor is ``reheat_factor / (1 + reheats so far)``, the seed's
exercise 2). Schedules: all run ``K = ceil(ln(t_min / t0) / ln(alpha))`` levels per heating
phase (6905 with the defaults): exponential ``T_k = T0 alpha^k``; linear from ``T0`` to ``t_min``
in ``K`` steps; logarithmic ``T_k = T0 / ln(e + k)`` (it never reaches ``t_min``, so it is
stopped at ``K`` levels). A move picks a row uniformly among those with two free cells, then a
pair of its free cells uniformly, as the seed's ``GenerateNeighbor`` (it draws an ordered
distinct pair; a swap is symmetric, so the unordered pair has the same distribution);
``neighbourhood=box`` does the same within a box, from a box-permutation start, scored by
``conflict_energy`` (see the encoding's docstring for what a box swap keeps). ``max_restarts=-1``
restarts until the budget is spent (``native.sa-restarts``; the seed stops after 5 restarts).

Runs, stop reason and schedule fraction come from the shared driver
(:mod:`sudoku_compare.native._restarts`): one heating phase is one run, and its share of the
schedule is its cooling levels since the last (re)heat over ``K`` (1 when it cooled to the end).

Evaluations (see :mod:`sudoku_compare.problems.encodings.row_permutation`): one per proposal
(one row-swap delta, read in O(1) from the encoding's column/box count tables with
``swap_delta_counted``, property-tested equal to ``swap_delta``; a box move uses
``cell_swap_delta``) and one per start state (a full ``energy``); the run never spends more than
``budget.max_evaluations``.

Speed (about 20 M proposals/s on 9x9, against 6 M/s for the first version): the clock is read
every ``CLOCK_EVERY`` proposals and the budget settled before each run of proposals, so the
inner loop tests neither; the pairs of each unit are a precomputed table (no division to pick
one); the moves' random numbers come from SplitMix64 inlined in the kernel rather than numba's
``np.random``; the Metropolis probabilities for the few possible integer deltas are computed
once per level; the kernel is compiled once per box size with the box as a constant. The
trace records only new best energies (a clock read each), so it costs nothing per move.

Reproducibility: the start states come from ``numpy.random.default_rng(seed)`` through the shared
encoding (restart ``i`` uses the ``i``-th state drawn), so restart 0 starts where a library
adapter given the same seed starts; the moves' SplitMix64 generator is seeded with one 64-bit
draw from that same Generator (after the first batch of starts) and its state carried across
batches, so nothing global is touched. Same seed and same budget give the same grid and
counters, unless the deadline cuts the run.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal, NamedTuple

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import now
from sudoku_compare.native._restarts import Progress, Restarts, keep_best, resume
from sudoku_compare.native._warmup import CompiledPerBox
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver

SCHEDULES = ("exponential", "linear", "logarithmic")
NEIGHBOURHOODS = ("row", "box")
#: bound on the energy rise of one swap (6 units change by at most +1 each; 12 leaves room)
MAX_DELTA = 12
#: proposals between two reads of the clock (about 0.2 ms of row moves; a read costs ~1 us)
CLOCK_EVERY = 4096
#: 2**-53: turns the top 53 bits of a 64-bit draw into a uniform float in [0, 1)
UNIT53 = 1.0 / 9007199254740992.0


@dataclass(frozen=True)
class AnnealingParams:
    """native.sa's settings, defaults from the seed. ``max_restarts`` counts the extra runs after the
    first (-1: until a budget ends), the same in every stochastic native, because the shared
    driver (:mod:`sudoku_compare.native._restarts`) reads it."""

    #: initial temperature (seed: 1.0)
    t0: float = 1.0
    #: exponential cooling factor T <- alpha T (seed: 0.999)
    alpha: float = 0.999
    #: proposals per temperature level (seed: 100)
    iterations_per_temperature: int = 100
    #: the temperature at which a heating phase ends (seed: 0.001)
    t_min: float = 0.001
    #: extra heating phases, each from a fresh start state, after the first ends unsolved
    #: (seed: 5, i.e. 6 phases; 0: one phase; -1: until a budget is spent)
    max_restarts: int = 5
    schedule: Literal["exponential", "linear", "logarithmic"] = "exponential"
    #: row: swap two free cells of a row; box: swap two free cells of a box (box-permutation start)
    neighbourhood: Literal["row", "box"] = "row"
    #: stagnant levels before a reheat (0: no reheat; native.sa-reheat: 50)
    reheat_stagnation: int = 0
    #: reheat to t0 * reheat_factor (seed: 0.5)
    reheat_factor: float = 0.5
    #: the factor falls as reheat_factor / (1 + reheats so far) (the seed's exercise 2)
    adaptive_reheat: bool = False
    #: fill the cells forced by naked/hidden singles before annealing (native.sa-presolve)
    presolve: bool = False

    def __post_init__(self) -> None:
        if self.schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {SCHEDULES}")
        if self.neighbourhood not in NEIGHBOURHOODS:
            raise ValueError(f"neighbourhood must be one of {NEIGHBOURHOODS}")
        if not (0 < self.alpha < 1 and 0 < self.t_min < self.t0):
            raise ValueError("need 0 < alpha < 1 and 0 < t_min < t0")
        if self.iterations_per_temperature < 1 or self.max_restarts < -1:
            raise ValueError("iterations_per_temperature >= 1 and max_restarts >= -1")


@numba.njit(cache=True)
def _temperature(schedule, base, t0, t_min, k, levels, alpha):
    if schedule == 0:
        return base * alpha ** k
    if schedule == 1:
        return base - (base - t_min * base / t0) * k / levels
    return base / math.log(math.e + k)


@numba.njit(cache=True, inline="always")
def _splitmix64(s):
    """One step of SplitMix64 (Steele, Lea & Flood 2014): ``(next state, 64 random bits)``.

    Two multiplies and three shifts: far cheaper than numba's Mersenne Twister behind
    ``np.random``, and private to the run (numba's generator is process-global)."""
    s = s + np.uint64(0x9E3779B97F4A7C15)
    z = s
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return s, z ^ (z >> np.uint64(31))


class AnnealCounters(NamedTuple):
    """Counters summed over the phases of one solve (a NamedTuple so numba carries it)."""

    moves: int
    accepted: int
    levels: int
    reheats: int


@numba.njit(cache=True, inline="always")
def _anneal_at(start, box, use_box, r1s, c1s, r2s, c2s, n_pairs,
               t0, alpha, iters_per_temp, t_min, schedule, levels,
               reheat_stagnation, reheat_factor, adaptive_reheat,
               max_evals, deadline_at, target, rng_state, t_start, trace, best,
               progress, counts):
    """One heating phase from ``start``: returns the next (Progress, AnnealCounters).

    A move is unit ``u`` (uniform over the rows, or boxes, with two free cells) and pair ``p``
    (uniform over that unit's unordered pairs of free cells: a swap is symmetric, so this is
    the seed's ordered distinct pair in distribution), both from one 64-bit draw by
    multiply-shift on its two 32-bit halves (a bias below 1e-7, no division); the
    Metropolis test draws a second number only for an uphill move. ``rng_state`` (modified)
    is the generator's state, carried from phase to phase; ``best`` (modified) the best grid
    of every phase so far. The phase's share of its schedule is its levels since the last
    (re)heat over ``levels`` (1 when it cooled to its end)."""
    best_e, evals, n_trace = resume(progress)
    moves = counts.moves
    accepted = counts.accepted
    level_count = counts.levels
    reheats = counts.reheats
    s_rng = rng_state[0]
    n_units = np.uint64(n_pairs.size)
    low32 = np.uint64(0xFFFFFFFF)
    sh32 = np.uint64(32)
    sh11 = np.uint64(11)
    accept = np.empty(MAX_DELTA + 1, dtype=np.float64)
    clock_left = CLOCK_EVERY
    timed_out = False
    state = start.copy()
    e = rp.conflict_energy(state, box) if use_box else rp.energy(state, box)
    evals += 1
    cols, boxes = rp.unit_counts(state, box)  # row moves read their delta from these
    best_e, n_trace = keep_best(best, state, e, best_e, trace, n_trace, evals, t_start)
    base = t0
    k = 0
    stagnant = 0
    t = t0
    while t > t_min and k < levels and e > target and n_pairs.size > 0:
        e_level = e
        # Metropolis probabilities exp(-d / T) for the integer deltas a move can have,
        # once a level instead of one exp() per uphill proposal (same values)
        for dd in range(MAX_DELTA + 1):
            accept[dd] = math.exp(-dd / t)
        left = iters_per_temp
        while left > 0:
            # a run of proposals with no budget or clock test inside: they are settled
            # in advance (the chunk never passes the level, the clock or the budget)
            chunk = min(left, clock_left, max_evals - evals)
            if chunk <= 0:
                break
            done = chunk
            for i in range(chunk):
                s_rng, x = _splitmix64(s_rng)
                u = np.int64(((x >> sh32) * n_units) >> sh32)
                p = np.int64(((x & low32) * np.uint64(n_pairs[u])) >> sh32)
                ra = r1s[u, p]
                ca = c1s[u, p]
                rb = r2s[u, p]
                cb = c2s[u, p]
                if use_box:
                    d = rp.cell_swap_delta(state, ra, ca, rb, cb, box)
                else:
                    d = rp.swap_delta_counted(cols, boxes, state, ra, ca, cb, box)
                if d > 0:
                    s_rng, y = _splitmix64(s_rng)
                    if np.float64(y >> sh11) * UNIT53 >= accept[d]:
                        continue
                if use_box:
                    rp.apply_cell_swap(state, ra, ca, rb, cb)
                else:
                    rp.apply_swap_counted(cols, boxes, state, ra, ca, cb, box)
                e += d
                accepted += 1
                if e < best_e:
                    best_e, n_trace = keep_best(best, state, e, best_e, trace, n_trace,
                                               evals + i + 1, t_start)
                    if e <= target:
                        done = i + 1
                        break
            evals += done
            moves += done
            left -= done
            clock_left -= done
            if e <= target:
                break
            if clock_left <= 0:
                clock_left = CLOCK_EVERY
                if now() >= deadline_at:
                    timed_out = True
                    break
        if timed_out or evals >= max_evals or e <= target:
            break
        level_count += 1
        stagnant = stagnant + 1 if e >= e_level else 0
        if reheat_stagnation > 0 and stagnant >= reheat_stagnation:
            factor = reheat_factor / (1 + reheats) if adaptive_reheat else reheat_factor
            base = t0 * factor
            k = 0
            stagnant = 0
            reheats += 1
        else:
            k += 1
        t = _temperature(schedule, base, t0, t_min, k, levels, alpha)
    rng_state[0] = s_rng
    cooled = t <= t_min or k >= levels or n_pairs.size == 0
    share = 1.0 if cooled else k / levels
    return (Progress(best_e, evals, n_trace, timed_out, share),
            AnnealCounters(moves, accepted, level_count, reheats))


@cache
def _kernel_for(box: int):
    """The annealer compiled for one box size, as a constant: the shared delta's ``// box``
    then turns into multiplications (about a fifth of a move's time on 9x9)."""

    @numba.njit(cache=True)
    def kernel(start, use_box, r1s, c1s, r2s, c2s, n_pairs, t0, alpha, iters_per_temp,
               t_min, schedule, levels, reheat_stagnation, reheat_factor, adaptive_reheat,
               max_evals, deadline_at, target, rng_state, t_start, trace, best, progress,
               counts):
        return _anneal_at(start, box, use_box, r1s, c1s, r2s, c2s, n_pairs,
                          t0, alpha, iters_per_temp, t_min, schedule, levels,
                          reheat_stagnation, reheat_factor, adaptive_reheat,
                          max_evals, deadline_at, target, rng_state, t_start, trace, best,
                          progress, counts)

    return kernel


@lru_cache(maxsize=64)
def move_table(puzzle: Puzzle, use_box: bool) -> tuple[np.ndarray, ...]:
    """``(r1, c1, r2, c2, n_pairs)``: for each unit (row, or box with ``use_box``) that has two
    free cells, its ``n_pairs[u]`` unordered pairs of free cells ``(r1, c1) <-> (r2, c2)``
    (``[u, :n_pairs[u]]``), so that a move is two table reads instead of divisions.
    Cached per puzzle (read-only arrays)."""
    layout = rp.layout_of(puzzle)
    n = layout.free.shape[0]
    if use_box:
        cells, counts = rp.box_layout(layout.free, layout.box)
        units = [[(int(x) // n, int(x) % n) for x in cells[b, :counts[b]]] for b in range(n)]
    else:
        units = [[(r, int(c)) for c in layout.free_cols[r, :layout.n_free[r]]] for r in range(n)]
    pairs = [list(itertools.combinations(u, 2)) for u in units if len(u) >= 2]
    width = max((len(p) for p in pairs), default=0)
    table = np.zeros((4, len(pairs), max(width, 1)), dtype=np.int64)
    n_pairs = np.array([len(p) for p in pairs], dtype=np.int64)
    for u, unit_pairs in enumerate(pairs):
        for k, ((ra, ca), (rb, cb)) in enumerate(unit_pairs):
            table[:, u, k] = (ra, ca, rb, cb)
    table.flags.writeable = False
    n_pairs.flags.writeable = False
    return table[0], table[1], table[2], table[3], n_pairs


def levels_per_phase(params: AnnealingParams) -> int:
    """K = ceil(ln(t_min / t0) / ln(alpha)): the levels the exponential schedule takes."""
    return int(math.ceil(math.log(params.t_min / params.t0) / math.log(params.alpha)))


@register
class SimulatedAnnealing(CompiledPerBox, Solver):
    name = "native.sa"
    family = "annealing"
    encoding = "row-permutation"
    Params = AnnealingParams
    deterministic = True
    stochastic = True
    description = ("the seed's simulated annealing: row swaps, Metropolis, T <- 0.999 T from 1.0 to "
                   "0.001, 100 moves a level, 5 restarts (numba)")

    @classmethod
    def compile_variants(cls) -> list[SimulatedAnnealing]:
        # box is a compile-time constant of the kernel, so each size is its own compilation
        # (~9 s cold); both neighbourhoods and the presolved row moves are separate paths
        return [cls(neighbourhood="row"), cls(neighbourhood="row", presolve=True),
                cls(neighbourhood="box")]

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        p = self.params
        presolved = 0
        work = puzzle
        if p.presolve:
            work, presolved = rp.presolve_singles(puzzle)
        use_box = p.neighbourhood == "box"
        rng = np.random.default_rng(seed)
        start = rp.initial_box_state if use_box else rp.initial_state
        r1s, c1s, r2s, c2s, n_pairs = move_table(work, use_box)
        # with nothing to move, a second phase would repeat the first
        driver = Restarts(budget, p.max_restarts if n_pairs.size > 0 else 0)
        best = work.grid()
        counts = AnnealCounters(0, 0, 0, 0)
        kernel = _kernel_for(work.box)
        for state, rng_state in driver.seeded_starts(lambda: start(work, rng), rng):
            driver.progress, counts = kernel(
                state, use_box, r1s, c1s, r2s, c2s, n_pairs,
                p.t0, p.alpha, p.iterations_per_temperature, p.t_min,
                SCHEDULES.index(p.schedule), levels_per_phase(p), p.reheat_stagnation,
                p.reheat_factor, p.adaptive_reheat, driver.max_evaluations, driver.deadline_at,
                driver.target, rng_state, driver.t_begin, driver.trace, best, driver.progress,
                counts)
        return driver.outcome(
            best, iterations=counts.moves,
            counters={"moves": counts.moves, "accepted": counts.accepted,
                      "levels": counts.levels, "reheats": counts.reheats,
                      "presolved_cells": presolved})


register(SimulatedAnnealing, name="native.sa-reheat", reheat_stagnation=50, reheat_factor=0.5,
         description="native.sa with the seed's reheat: after 50 stagnant levels T <- 0.5 T0")
register(SimulatedAnnealing, name="native.sa-restarts", max_restarts=-1,
         description="native.sa restarting from fresh seeded starts until the budget is spent "
                     "(the seed stops after 5 restarts)")
register(SimulatedAnnealing, name="native.sa-presolve", presolve=True,
         description="native.sa on the puzzle left after naked/hidden singles (a different, "
                     "smaller problem)")
