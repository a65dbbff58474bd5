"""The report's statistics against values worked out by hand (or published tables)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sudoku_compare.bench.reporting import stats


def test_wilson_matches_the_formula_and_published_values():
    z = 1.959963984540054
    for k, n in [(0, 5), (3, 10), (5, 5), (1, 1), (17, 20)]:
        p = k / n
        c = (p + z * z / (2 * n)) / (1 + z * z / n)
        h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        lo, hi = stats.wilson_interval(k, n)
        assert lo == pytest.approx(max(0.0, c - h), abs=1e-12)
        assert hi == pytest.approx(min(1.0, c + h), abs=1e-12)
    lo, hi = stats.wilson_interval(3, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.1078, 0.6032)
    assert all(math.isnan(v) for v in stats.wilson_interval(0, 0))
    with pytest.raises(ValueError):
        stats.wilson_interval(4, 3)


def test_median_iqr_linear_quartiles():
    assert stats.median_iqr([4, 1, 3, 2]) == (2.5, 1.75, 3.25)
    assert all(math.isnan(v) for v in stats.median_iqr([]))


def test_ert_charges_failures_to_successes():
    assert stats.ert([1, 2, 10], [True, True, False]) == pytest.approx(13 / 2)
    assert math.isinf(stats.ert([5, 5], [False, False]))
    with pytest.raises(ValueError):
        stats.ert([1, 2], [True])


def test_par2():
    assert stats.par2([1, 3, 7], [True, True, False], 5.0) == pytest.approx((1 + 3 + 10) / 3)
    assert stats.par2([1, 9], [True, False], [2.0, 4.0]) == pytest.approx((1 + 8) / 2)
    assert math.isnan(stats.par2([], [], 1.0))


def test_evaluations_per_second_is_a_ratio_of_sums():
    assert stats.evaluations_per_second([100, 900], [1, 9]) == pytest.approx(100)
    assert math.isnan(stats.evaluations_per_second([0], [1]))


def test_a12_by_hand():
    # pairs (x > y): 3>1, 3>2, 2>1 -> 3 wins, one tie (2 = 2), of 2 * 3 = 6 -> (3 + 0.5) / 6
    assert stats.a12([2, 3], [1, 2, 5]) == pytest.approx((3 + 0.5) / 6)
    assert stats.a12([1, 1], [1, 1]) == 0.5
    assert stats.a12([5, 6], [1, 2]) == 1.0
    assert math.isnan(stats.a12([], [1]))
    assert [stats.a12_magnitude(v) for v in (0.5, 0.6, 0.7, 0.9, 0.2)] == [
        "negligible", "small", "medium", "large", "large"]


def test_holm_step_down_by_hand():
    p = [0.04, 0.01, 0.03, math.nan, 0.5]
    # sorted: 0.01 x4 = 0.04; 0.03 x3 = 0.09; 0.04 x2 = 0.08 -> max 0.09; 0.5 x1 = 0.5
    adj = stats.holm(p)
    assert adj[1] == pytest.approx(0.04)
    assert adj[2] == pytest.approx(0.09)
    assert adj[0] == pytest.approx(0.09)
    assert adj[4] == pytest.approx(0.5)
    assert math.isnan(adj[3])
    assert stats.holm_order(p) == [1, 2, 0, 4]
    assert stats.holm([0.9, 0.8]) == [1.0, 1.0]


def test_wilcoxon_exact_and_degenerate_cases():
    r = stats.wilcoxon_paired([1, 2, 3, 4, 5, 6], [2, 4, 6, 8, 10, 12])
    assert r.p_value == pytest.approx(2 / 64) and r.n == 6 and r.note == ""
    one = stats.wilcoxon_paired([1], [2])
    assert math.isnan(one.p_value) and one.note == "n/a: too few pairs"
    tied = stats.wilcoxon_paired([1, 2, 3], [1, 2, 3])
    assert math.isnan(tied.p_value) and tied.note == "n/a: all pairs tied"
    single = stats.wilcoxon_paired([1, 2, 3], [1, 2, 4])
    assert math.isnan(single.p_value) and single.note.startswith("n/a: too few pairs")
    with pytest.raises(ValueError):
        stats.wilcoxon_paired([1, 2], [1])


def test_mann_whitney_exact_and_degenerate_cases():
    r = stats.mann_whitney([1, 2, 3], [4, 5, 6])
    assert r.statistic == 0 and r.p_value == pytest.approx(0.1)
    assert stats.mann_whitney([1], [2, 3]).note == "n/a: too few runs"
    assert stats.mann_whitney([7, 7], [7, 7, 7]).note == "n/a: all values tied"


def test_bootstrap_median_ratio_is_seeded_and_brackets_the_ratio():
    rng = np.random.default_rng(1)
    x, y = rng.lognormal(0, 0.3, 20), rng.lognormal(1, 0.3, 20)
    a = stats.bootstrap_median_ratio(x, y, paired=False, seed=3)
    b = stats.bootstrap_median_ratio(x, y, paired=False, seed=3)
    assert a == b
    ratio, lo, hi = a
    assert ratio == pytest.approx(np.median(x) / np.median(y))
    assert lo < ratio < hi < 1
    paired = stats.bootstrap_median_ratio(x, y, paired=True, seed=3)
    assert paired[1] <= paired[0] <= paired[2]
    r, lo, hi = stats.bootstrap_median_ratio([1.0], [2.0], paired=False)
    assert r == 0.5 and math.isnan(lo) and math.isnan(hi)


def test_mann_whitney_is_exact_under_ties():
    # 6 seeds a side, native solves 4 (1..4 s), the library none: PAR-2 failures tie at 20.
    # U = 0 * 4 + 2 * 6 * 0.5 = 6; of C(12, 6) = 924 equally likely splits, 56 put U at
    # least as far from 18 as 6 is; the normal approximation says 0.028
    r = stats.mann_whitney([1, 2, 3, 4, 20, 20], [20] * 6)
    assert r.statistic == 6 and r.method == "exact permutation"
    assert r.p_value == pytest.approx(56 / 924) and round(r.p_value, 3) == 0.061
    # no ties and fewer than 20 a side: scipy's exact distribution (U = 0 of C(6, 3) = 20)
    assert stats.mann_whitney([1, 2, 3], [4, 5, 6]).method == "exact"
    # no ties and 20 a side: the approximation is good enough there
    big = stats.mann_whitney(list(range(20)), [x + 0.5 for x in range(20)])
    assert big.method == "normal approximation"


def test_wilcoxon_counts_the_pairs_that_differ():
    # 7 pairs, the last tied: 6 differ, all one sign -> 2 / 2**6 (exact sign-flip test,
    # since the six |d| = 1 tie among themselves)
    r = stats.wilcoxon_paired([1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 7])
    assert r.nonzero == 6 and r.p_value == pytest.approx(2 / 64)
    assert r.method == "exact permutation"
    assert stats.wilcoxon_paired([1, 2, 3], [1, 2, 3]).nonzero == 0
    assert [stats.wilcoxon_min_p(m) for m in (5, 6)] == [0.0625, 0.03125]
    assert stats.WILCOXON_MIN_NONZERO == 6


def test_paired_effect_by_hand():
    # library - native = +1, 0, +1, -1, +4, 0: native better on 3, tied on 2 -> (3 + 1) / 6;
    # non-zero |d| 1, 1, 1, 4 -> ranks 2, 2, 2, 4; W+ = 8, W- = 2 -> r = 6 / 10
    e = stats.paired_effect([1, 2, 3, 4, 5, 6], [2, 2, 4, 3, 9, 6], seed=1)
    assert e.share == pytest.approx(4 / 6) and e.rank_biserial == pytest.approx(0.6)
    assert e.share_low <= e.share <= e.share_high and e.rb_low <= e.rank_biserial <= e.rb_high
    assert e == stats.paired_effect([1, 2, 3, 4, 5, 6], [2, 2, 4, 3, 9, 6], seed=1)
    # the case: native 20 % faster on every one of 10 puzzles from 1 ms to 1 s
    # is one effect, not "negligible" (the unpaired A12 of the same numbers is 0.555)
    times = np.array([1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0])
    consistent = stats.paired_effect(0.8 * times, times)
    assert consistent.share == 1.0 and consistent.rank_biserial == 1.0
    assert stats.a12(times, 0.8 * times) == pytest.approx(0.555)  # 55.5 of 100 pairs
    small = stats.paired_effect([1, 2], [2, 3])
    assert small.share == 1.0 and math.isnan(small.share_low)  # too few to resample


def test_a12_interval_is_seeded():
    x, y = [1, 2, 3, 4, 5], [3, 4, 5, 6, 7]
    value, lo, hi = stats.a12_interval(x, y, seed=4)
    # x > y: 4>3, 5>3, 5>4 = 3; ties: 3, 4, 5 = 3 -> (3 + 1.5) / 25
    assert value == pytest.approx(4.5 / 25) and lo <= value <= hi
    assert stats.a12_interval(x, y, seed=4) == (value, lo, hi)
    assert math.isnan(stats.a12_interval([1, 2], [3, 4])[1])
