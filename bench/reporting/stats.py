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
- tests are rank tests (Wilcoxon, Mann-Whitney) reported with an effect size (Vargha-Delaney
  A12), because with many runs a tiny difference is "significant" and with few runs a large
  one is not; Holm's step-down controls the family-wise error over all tests of a report;
- a bootstrap interval for the ratio of medians says "how many times faster", with an
  uncertainty, without assuming a distribution.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

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


def wilcoxon_paired(x: Floats, y: Floats) -> TestResult:
    """Paired Wilcoxon signed-rank test (two-sided) on matched observations.

    Used over puzzles, each puzzle's median over seeds being one observation: runs on
    the same puzzle are not independent, so 120 timings on 8 puzzles are 8 observations.
    Degenerate cases get no p-value (nan, so Holm leaves them out) and a note saying why,
    rather than a p = 1 that reads like evidence of equality: fewer than two pairs, or
    fewer than two pairs that differ (the test discards tied pairs).
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    n = int(a.size)
    if n < 2:
        return TestResult("wilcoxon", math.nan, math.nan, n, "n/a: too few pairs")
    differing = int(np.count_nonzero(a != b))
    if differing == 0:
        return TestResult("wilcoxon", math.nan, math.nan, n, "n/a: all pairs tied")
    if differing < 2:
        return TestResult("wilcoxon", math.nan, math.nan, n,
                          "n/a: too few pairs (only one pair differs)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sps.wilcoxon(a, b, zero_method="wilcox", alternative="two-sided")
    return TestResult("wilcoxon", float(res.statistic), float(res.pvalue), n)


def mann_whitney(x: Floats, y: Floats) -> TestResult:
    """Mann-Whitney U test (two-sided) on independent samples.

    Used over seeds within one puzzle, where runs are independent draws of the same
    randomised algorithm. A sample of fewer than two runs, or every value tied (a
    deterministic solver always hitting the same budget), gets no p-value and a note.
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    n = int(a.size + b.size)
    if a.size < 2 or b.size < 2:
        return TestResult("mann-whitney", math.nan, math.nan, n, "n/a: too few runs")
    if np.all(a == a[0]) and np.all(b == a[0]):
        return TestResult("mann-whitney", math.nan, math.nan, n, "n/a: all values tied")
    res = sps.mannwhitneyu(a, b, alternative="two-sided")
    return TestResult("mann-whitney", float(res.statistic), float(res.pvalue), n)


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
