"""The statistics of a report, as small pure functions.

Why these and not means with standard deviations: solver run times are heavy-tailed and
censored by the budget (an unsolved run has no time to solution), so the report uses
rank statistics, rates with proper intervals and budget-aware aggregates:

- a success rate is a binomial proportion, often near 0 or 1 with few runs, where the
  normal ("Wald") interval is wrong; the Wilson interval stays inside [0, 1];
- median and IQR describe a skewed sample without being dragged by one long run;
- ERT (expected running time, as COCO defines it) charges the cost of failed runs to the
  successes, so a fast-but-unreliable solver does not look better than it is;
- PAR-2 (SAT competitions) gives every unsolved run twice the budget, one number that
  ranks reliability and speed together;
- tests are rank tests (Wilcoxon, Mann-Whitney) reported with an effect size that matches
  the design (paired: the share of puzzles where native is better and the matched-pairs
  rank-biserial correlation; unpaired: Vargha-Delaney A12), each with a seeded bootstrap
  interval, because with many runs a tiny difference is "significant" and with few runs a
  large one is not; an unpaired effect size on paired data hides a consistent difference
  behind the spread between puzzles;
- p-values are exact where the normal approximation is wrong: Mann-Whitney with fewer than
  20 runs a side or with ties (every unsolved run has the same PAR-2 value) is a permutation
  test, Wilcoxon with tied differences a sign-flip permutation test; Holm's step-down
  controls the family-wise error over all tests of a report;
- a bootstrap interval for the ratio of medians says "how many times faster", with an
  uncertainty, without assuming a distribution.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np
from scipy import stats as sps

Floats = Sequence[float] | np.ndarray


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a success rate ``successes / n``.

    Chosen over the normal approximation because it stays within [0, 1] and keeps its
    coverage at rates of 0 or 1 with a handful of runs, which is where solvers live.
    ``n == 0`` gives ``(nan, nan)``: no runs, no rate.
    """
    if n == 0:
        return math.nan, math.nan
    if not 0 <= successes <= n:
        raise ValueError(f"successes={successes} outside 0..{n}")
    ci = sps.binomtest(int(successes), int(n)).proportion_ci(confidence_level=confidence,
                                                            method="wilson")
    return float(ci.low), float(ci.high)


def median_iqr(values: Floats) -> tuple[float, float, float]:
    """(median, first quartile, third quartile); all nan for an empty sample.

    Run times are skewed; the median and the interquartile range are not moved by one
    pathological run, unlike the mean and standard deviation.
    """
    a = np.asarray(values, dtype=float)
    if a.size == 0:
        return math.nan, math.nan, math.nan
    q1, med, q3 = np.percentile(a, [25, 50, 75])
    return float(med), float(q1), float(q3)


def ert(spent: Floats, solved: Sequence[bool] | np.ndarray) -> float:
    """Expected running time: everything spent over all runs, divided by the successes.

    ``spent`` is per run (seconds or evaluations), including the runs that failed. With
    success probability p and mean cost per run c this estimates c / p, the cost of
    solving once by restarting until success. ``inf`` when nothing was solved.
    """
    s = np.asarray(spent, dtype=float)
    ok = np.asarray(solved, dtype=bool)
    if s.shape != ok.shape:
        raise ValueError("spent and solved must have the same length")
    k = int(ok.sum())
    if k == 0:
        return math.inf
    return float(s.sum() / k)


def par_penalised(seconds: Floats, solved: Sequence[bool] | np.ndarray,
                  budget_seconds: Floats | float, factor: float = 2.0) -> np.ndarray:
    """Per-run penalised time: the time when solved, ``factor`` x the budget otherwise.

    This is the per-run measure that PAR-k averages and that the comparisons rank, so
    a failure always ranks behind any success.
    """
    t = np.asarray(seconds, dtype=float)
    ok = np.asarray(solved, dtype=bool)
    b = np.broadcast_to(np.asarray(budget_seconds, dtype=float), t.shape)
    return np.where(ok, t, factor * b)


def par2(seconds: Floats, solved: Sequence[bool] | np.ndarray,
         budget_seconds: Floats | float) -> float:
    """PAR-2 score: mean time, an unsolved run counting twice its budget (nan if no runs)."""
    p = par_penalised(seconds, solved, budget_seconds, 2.0)
    return float(p.mean()) if p.size else math.nan


def evaluations_per_second(evaluations: Floats, seconds: Floats) -> float:
    """Objective evaluations per second of solve time, summed over runs.

    A ratio of sums, not a mean of ratios, so that very short runs (dominated by fixed
    overhead) do not weigh as much as long ones. nan when no time or no evaluations.
    """
    e = float(np.sum(np.asarray(evaluations, dtype=float)))
    s = float(np.sum(np.asarray(seconds, dtype=float)))
    if s <= 0 or e <= 0:
        return math.nan
    return e / s


def a12(x: Floats, y: Floats) -> float:
    """Vargha-Delaney A12: P(X > Y) + 0.5 P(X = Y) for one draw from each sample.

    0.5 is no effect; 0.56 / 0.64 / 0.71 are the usual small / medium / large
    thresholds. It is the effect size that goes with a rank test and, unlike a p-value,
    does not grow with the number of runs. nan if a sample is empty.
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.size == 0 or b.size == 0:
        return math.nan
    greater = (a[:, None] > b[None, :]).sum()
    equal = (a[:, None] == b[None, :]).sum()
    return float((greater + 0.5 * equal) / (a.size * b.size))


def a12_magnitude(value: float) -> str:
    """Vargha and Delaney's verbal scale for |A12 - 0.5|."""
    if math.isnan(value):
        return ""
    d = abs(value - 0.5)
    if d < 0.06:
        return "negligible"
    if d < 0.14:
        return "small"
    if d < 0.21:
        return "medium"
    return "large"


@dataclass(frozen=True)
class TestResult:
    """A two-sided test: its name, statistic, p-value and the number of observations."""

    test: str
    statistic: float
    p_value: float
    n: int
    #: why no p-value was computed ("" when the test ran)
    note: str = ""
    #: Wilcoxon: the pairs that differ (the test discards the others; its power rests on them)
    nonzero: int | None = None
    #: how the p-value was computed: "exact", "permutation", "normal approximation"
    method: str = ""


#: the fewest differing pairs with which an exact two-sided Wilcoxon p-value can fall
#: below 0.05: its smallest value with m differing pairs is 2 / 2**m (m = 5: 0.0625)
WILCOXON_MIN_NONZERO = 6


def wilcoxon_min_p(nonzero: int) -> float:
    """The smallest two-sided p-value an exact Wilcoxon test on ``nonzero`` differing pairs
    can give (every difference of one sign): ``2 / 2**nonzero``, capped at 1."""
    return min(1.0, 2.0 ** (1 - nonzero)) if nonzero > 0 else 1.0


#: at most this many rearrangements and a permutation test enumerates them all (exact)
EXACT_PERMUTATIONS = 200_000
#: Monte Carlo resamples of a permutation test too large to enumerate
PERMUTATION_RESAMPLES = 20_000


def wilcoxon_paired(x: Floats, y: Floats, seed: int = 0) -> TestResult:
    """Paired Wilcoxon signed-rank test (two-sided) on matched observations.

    Used over puzzles, each puzzle's median over seeds being one observation: runs on
    the same puzzle are not independent, so 120 timings on 8 puzzles are 8 observations.
    Tied pairs are discarded (Wilcoxon's zero method), so the number that differ
    (``nonzero``) is what the test's power rests on and is returned. Without ties among the
    differences the p-value is scipy's exact one (up to 50 pairs); with ties it is a
    sign-flip permutation test (exact up to 2**17 sign patterns, else seeded Monte Carlo),
    since the exact null distribution assumes distinct ranks. Degenerate cases get no
    p-value (nan, so Holm leaves them out) and a note saying why, rather than a p = 1
    that reads like evidence of equality.
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    n = int(a.size)
    d = a - b
    nz = d[d != 0]
    m = int(nz.size)
    if n < 2:
        return TestResult("wilcoxon", math.nan, math.nan, n, "n/a: too few pairs", m)
    if m == 0:
        return TestResult("wilcoxon", math.nan, math.nan, n, "n/a: all pairs tied", m)
    if m < 2:
        return TestResult("wilcoxon", math.nan, math.nan, n,
                          "n/a: too few pairs (only one pair differs)", m)
    ties = np.unique(np.abs(nz)).size < m
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not ties and m <= 50:
            res = sps.wilcoxon(nz, method="exact")
            method = "exact"
        elif ties and 2 ** m <= EXACT_PERMUTATIONS:
            res = sps.wilcoxon(nz, method=sps.PermutationMethod(n_resamples=np.inf))
            method = "exact permutation"
        elif ties:
            res = sps.wilcoxon(nz, method=sps.PermutationMethod(
                n_resamples=PERMUTATION_RESAMPLES, rng=np.random.default_rng(seed)))
            method = f"permutation ({PERMUTATION_RESAMPLES:,} resamples)"
        else:
            res = sps.wilcoxon(nz, method="approx")
            method = "normal approximation"
    return TestResult("wilcoxon", float(res.statistic), float(res.pvalue), n, nonzero=m,
                      method=method)


def _u_statistic(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    return sps.mannwhitneyu(x, y, axis=axis, method="asymptotic").statistic


def mann_whitney(x: Floats, y: Floats, seed: int = 0) -> TestResult:
    """Mann-Whitney U test (two-sided) on independent samples.

    Used over seeds within one puzzle, where runs are independent draws of the same
    randomised algorithm. The normal approximation is only used with at least 20 runs a
    side and no ties: with fewer runs it is scipy's exact distribution, and with ties
    (PAR-2 gives every unsolved run the same value, so ties are the rule) a permutation
    test of U over all rearrangements of the pooled runs (enumerated when there are at
    most :data:`EXACT_PERMUTATIONS`, else seeded Monte Carlo), because scipy's exact
    method assumes no ties and the approximation is anti-conservative there (6 seeds
    against 6, native solving 4 and the library none: 0.028 approximated, 0.061 exact).
    A sample of fewer than two runs, or every value tied, gets no p-value and a note.
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    n = int(a.size + b.size)
    if a.size < 2 or b.size < 2:
        return TestResult("mann-whitney", math.nan, math.nan, n, "n/a: too few runs")
    pooled = np.concatenate([a, b])
    if np.all(pooled == pooled[0]):
        return TestResult("mann-whitney", math.nan, math.nan, n, "n/a: all values tied")
    ties = np.unique(pooled).size < n
    small = min(a.size, b.size) < 20
    if not ties:
        method = "exact" if small else "asymptotic"
        res = sps.mannwhitneyu(a, b, alternative="two-sided", method=method)
        return TestResult("mann-whitney", float(res.statistic), float(res.pvalue), n,
                          method="exact" if small else "normal approximation")
    centre = a.size * b.size / 2.0

    def spread(p: np.ndarray, q: np.ndarray, axis: int = -1) -> np.ndarray:
        # |U - n1 n2 / 2|: two-sided as "at least as far from no effect as observed"
        return np.abs(_u_statistic(p, q, axis=axis) - centre)

    exact = comb(n, int(a.size)) <= EXACT_PERMUTATIONS
    res = sps.permutation_test((a, b), spread, permutation_type="independent",
                               vectorized=True, alternative="greater",
                               n_resamples=np.inf if exact else PERMUTATION_RESAMPLES,
                               rng=np.random.default_rng(seed))
    u = float(_u_statistic(a, b))
    return TestResult("mann-whitney", u, float(res.pvalue), n,
                      method="exact permutation" if exact
                      else f"permutation ({PERMUTATION_RESAMPLES:,} resamples)")


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order.

    Controls the family-wise error rate over all comparisons of a report without
    Bonferroni's loss of power and without assuming independence. nan entries (tests
    that could not be run) are left nan and do not count in the family size.
    scipy.stats has Benjamini-Hochberg but not Holm, hence this function.
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, math.nan)
    idx = np.flatnonzero(~np.isnan(p))
    m = idx.size
    if m == 0:
        return out.tolist()
    order = idx[np.argsort(p[idx], kind="stable")]
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out.tolist()


def holm_order(p_values: Sequence[float]) -> list[int]:
    """Indices of the tests in the order Holm's procedure examines them (smallest p first)."""
    p = np.asarray(p_values, dtype=float)
    idx = [i for i in range(p.size) if not math.isnan(p[i])]
    return sorted(idx, key=lambda i: (p[i], i))


def _median_ratio(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.median(a, axis=axis) / np.median(b, axis=axis)


def median_ratio(x: Floats, y: Floats) -> float:
    """median(x) / median(y); nan when undefined (empty sample, 0/0)."""
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.size == 0 or b.size == 0:
        return math.nan
    return float(_median_ratio(a, b))


#: fewer observations than this and a percentile bootstrap of a median is mostly the sample
#: itself (with 3 values the interval often ends at the estimate): no interval is given
BOOTSTRAP_MIN_N = 5


def bootstrap_median_ratio(x: Floats, y: Floats, *, paired: bool, seed: int = 0,
                           n_resamples: int = 2000, confidence: float = 0.95,
                           min_n: int = BOOTSTRAP_MIN_N) -> tuple[float, float, float]:
    """(ratio, low, high): median(x) / median(y) with a seeded percentile bootstrap interval.

    ``paired`` resamples matched observations together (puzzles), otherwise each sample
    on its own (seeds). The percentile method is used because BCa needs a jackknife that
    breaks on the ties and constant samples budgets produce. Seeded, so a report is
    reproducible. nan bounds when the ratio is undefined or a sample has fewer than
    ``min_n`` values.
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    ratio = median_ratio(a, b)
    if a.size < min_n or b.size < min_n or not math.isfinite(ratio):
        return ratio, math.nan, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sps.bootstrap((a, b), _median_ratio, paired=paired, vectorized=True,
                            n_resamples=n_resamples, confidence_level=confidence,
                            method="percentile", rng=np.random.default_rng(seed))
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return ratio, lo, hi


# -- effect sizes with intervals -------------------------------------------------------
def _share_better(d: np.ndarray, axis: int = -1) -> np.ndarray:
    """Share of pairs with d > 0 (the first side better), ties counting half."""
    return np.mean((d > 0) + 0.5 * (d == 0), axis=axis)


def _rank_biserial(d: np.ndarray, axis: int = -1) -> np.ndarray:
    """Matched-pairs rank-biserial correlation (W+ - W-) / (W+ + W-) over non-zero d.

    Zero differences are dropped as in the Wilcoxon test: mapping them below every
    absolute difference gives them the lowest ranks, and subtracting their count per row
    leaves the ranks among the non-zero differences. 0 when every difference is zero.
    """
    d = np.asarray(d, dtype=float)
    zero = d == 0
    ranks = sps.rankdata(np.where(zero, -1.0, np.abs(d)), axis=axis)
    ranks = ranks - np.sum(zero, axis=axis, keepdims=True)
    ranks = np.where(zero, 0.0, ranks)
    total = np.sum(ranks, axis=axis)
    signed = np.sum(np.sign(d) * ranks, axis=axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, signed / np.where(total > 0, total, 1.0), 0.0)


@dataclass(frozen=True)
class PairedEffect:
    """How often, and how consistently, native beats the library over matched puzzles.

    ``share``: the share of puzzles where native is better, ties counting half (0.5: no
    effect); ``rank_biserial``: (W+ - W-) / (W+ + W-) of the signed-rank test, in [-1, 1]
    (positive: native better). Both come with seeded percentile bootstrap intervals over
    puzzles, nan below :data:`BOOTSTRAP_MIN_N` pairs (too few to resample).
    """

    share: float
    share_low: float
    share_high: float
    rank_biserial: float
    rb_low: float
    rb_high: float
    n: int


def paired_effect(native: Floats, library: Floats, *, seed: int = 0, n_resamples: int = 2000,
                  confidence: float = 0.95, min_n: int = BOOTSTRAP_MIN_N) -> PairedEffect:
    """The paired effect size that goes with the Wilcoxon test, lower values being better.

    An unpaired A12 across per-puzzle medians ranks a slow puzzle of one side against a
    fast puzzle of the other, so a native 20 % faster on every puzzle reads as
    "negligible" when puzzles span three orders of magnitude; pairing compares each
    puzzle with itself (that case gives share 1 and rank-biserial 1). When every pair
    agrees the percentile interval collapses onto the estimate: the bootstrap cannot see
    beyond the sample, so read the test's p-value (and the number of pairs) with it.
    """
    a = np.asarray(native, dtype=float)
    b = np.asarray(library, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    n = int(a.size)
    if n == 0:
        return PairedEffect(*(math.nan,) * 6, 0)
    d = b - a  # > 0 where native is better (lower)
    share = float(_share_better(d))
    rb = float(_rank_biserial(d))
    if n < min_n:
        return PairedEffect(share, math.nan, math.nan, rb, math.nan, math.nan, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bounds = []
        for stat in (_share_better, _rank_biserial):
            res = sps.bootstrap((d,), stat, vectorized=True, n_resamples=n_resamples,
                                confidence_level=confidence, method="percentile",
                                rng=np.random.default_rng(seed))
            bounds.append((float(res.confidence_interval.low),
                           float(res.confidence_interval.high)))
    return PairedEffect(share, *bounds[0], rb, *bounds[1], n)


def _a12_axis(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    y = np.moveaxis(np.asarray(y, dtype=float), axis, -1)
    gt = (x[..., :, None] > y[..., None, :]).sum(axis=(-2, -1))
    eq = (x[..., :, None] == y[..., None, :]).sum(axis=(-2, -1))
    return (gt + 0.5 * eq) / (x.shape[-1] * y.shape[-1])


def a12_interval(x: Floats, y: Floats, *, seed: int = 0, n_resamples: int = 2000,
                 confidence: float = 0.95,
                 min_n: int = BOOTSTRAP_MIN_N) -> tuple[float, float, float]:
    """(A12, low, high): A12(x, y) with a seeded percentile bootstrap interval, each sample
    resampled on its own (independent runs); nan bounds below ``min_n`` values a side."""
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    value = a12(a, b)
    if a.size < min_n or b.size < min_n:
        return value, math.nan, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sps.bootstrap((a, b), _a12_axis, vectorized=True, n_resamples=n_resamples,
                            confidence_level=confidence, method="percentile",
                            rng=np.random.default_rng(seed))
    return value, float(res.confidence_interval.low), float(res.confidence_interval.high)
