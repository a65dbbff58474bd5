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
