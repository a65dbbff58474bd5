"""The "parameter effect" view of a sweep (``run --grid``): what each swept setting did.

A sweep stores one configured variant per point, named ``SOLVER[k=v,...]``
(:func:`sudoku_compare.registry.variant_name`). For each solver with at least two variants
this view gives, per budget (runs stopped by different rules are never mixed) and per
swept parameter, the success rate (Wilson 95 %) and ERT (percentile bootstrap over runs,
95 %) at each value, one table row per setting of the other swept parameters.

Then, per puzzle set (a difficulty), the best setting is picked on half of the puzzles
and tested against the solver's default setting on the other half: picking the best of
many settings on the same runs that test it would report the winner's luck as its merit
(the selection bias irace and benchopt users are warned about). The test is a paired
Wilcoxon over the held-out puzzles on each puzzle's median PAR-2 (in the budget's unit),
Holm-corrected over the section's tests.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from statistics import median
from typing import Any

import numpy as np

from sudoku_compare import registry

from .stats import ert, holm, wilcoxon_paired, wilson_interval
from .summary import (
    Run,
    evaluations,
    penalised_evaluations,
    penalised_seconds,
    puzzle_key,
    seconds_spent,
    set_key,
    solved,
    sort_sets,
)

BOOTSTRAP_RESAMPLES = 1000


@dataclass
class Cell:
    """One variant's runs under one budget: success and ERT with intervals."""

    runs: int
    solved: int
    low: float
    high: float
    ert: float
    ert_low: float
    ert_high: float


@dataclass
class ParameterTable:
    """Success and ERT against one swept parameter, a row per setting of the others."""

    parameter: str
    values: list[str]
    #: (the other parameters' setting as text, the cells in ``values`` order; None: not run)
    rows: list[tuple[str, list[Cell | None]]]


@dataclass
class BestPick:
    """The setting picked on half of a set's puzzles, tested on the other half."""

    puzzle_set: str
    pick: str
    default: str | None
    pick_puzzles: int
    test_puzzles: int
    pick_solved: str
    default_solved: str
    p_value: float = math.nan
    holm_p: float = math.nan
    note: str = ""
    better: str = ""


@dataclass
class ParameterEffect:
    """The view for one swept solver under one budget."""

    solver: str
    unit: str  # "evaluations" or "s"
    budget: str
    variants: int
    tables: list[ParameterTable] = field(default_factory=list)
    picks: list[BestPick] = field(default_factory=list)


def _settings(name: str) -> dict[str, str]:
    return dict(item.partition("=")[::2] for item in registry.split_variant(name)[1])


def _order_key(text: str) -> tuple[int, float, str]:
    """Numbers in numeric order, then words in the order of the text."""
    value = text.rpartition("=")[2]
    try:
        return (0, float(value), text)
    except ValueError:
        return (1, 0.0, text)


def _ordered(values: Any) -> list[str]:
    return sorted(dict.fromkeys(values), key=_order_key)


def _equal_work(runs: list[Run]) -> bool:
    return all(r.get("max_evaluations") is not None for r in runs)


def _cell(runs: list[Run], work: bool, seed: int) -> Cell:
    ok = np.array([solved(r) for r in runs], dtype=bool)
    spent = np.array([evaluations(r) if work else seconds_spent(r) for r in runs])
    lo, hi = wilson_interval(int(ok.sum()), len(runs))
    rng = np.random.default_rng(seed)
    boot = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        idx = rng.integers(0, len(runs), len(runs))
        boot.append(ert(spent[idx], ok[idx]))
    # an order statistic, not an interpolation: a resample with no success has ERT inf
    q = np.quantile(np.array(boot), [0.025, 0.975], method="inverted_cdf")
    return Cell(len(runs), int(ok.sum()), lo, hi, ert(spent, ok), float(q[0]), float(q[1]))


def _rank(runs: list[Run], work: bool) -> tuple[float, float]:
    ok = [solved(r) for r in runs]
    spent = [evaluations(r) if work else seconds_spent(r) for r in runs]
    return (-sum(ok) / max(1, len(ok)), ert(spent, ok))


def _par2_by_puzzle(runs: list[Run], work: bool) -> dict[str, float]:
    per: dict[str, list[float]] = defaultdict(list)
    for r in runs:
        per[puzzle_key(r)].append(penalised_evaluations(r) if work else penalised_seconds(r))
    return {k: median(v) for k, v in per.items()}


def _default_variant(base: str, names: list[str]) -> str | None:
    """The variant whose full settings equal the solver's defaults, if the sweep has one."""
    default = registry.get(base).create().params
    for n in names:
        if registry.get(n).create().params == default:
            return n
    return None


def parameter_effects(runs: list[Run]) -> list[ParameterEffect]:
    """Every swept solver's view, per budget (empty when the runs hold no sweep)."""
    groups: dict[tuple[str, float, Any], dict[str, list[Run]]] = defaultdict(
        lambda: defaultdict(list))
    for r in runs:
        base, items = registry.split_variant(r["solver"])
        if items:
            groups[(base, float(r["max_seconds"]), r.get("max_evaluations"))][
                r["solver"]].append(r)
    out: list[ParameterEffect] = []
    for (base, seconds, evals), by_variant in sorted(groups.items(), key=lambda kv: (
            kv[0][0], kv[0][1], kv[0][2] or 0)):
        if len(by_variant) < 2:
            continue
        every = [r for rs in by_variant.values() for r in rs]
        work = _equal_work(every)
        budget = (f"equal work, {int(evals):,} evaluations a run ({seconds:g} s clock cap)"
                  if work else f"equal time, {seconds:g} s a run")
        effect = ParameterEffect(base, "evaluations" if work else "s", budget, len(by_variant))
        settings = {n: _settings(n) for n in by_variant}
        keys: list[str] = []
        for s in settings.values():
            keys += [k for k in s if k not in keys]
        for i, key in enumerate(keys):
            values = _ordered(s[key] for s in settings.values() if key in s)
            rows: dict[str, list[Cell | None]] = {}
            for name, s in settings.items():
                if key not in s:
                    continue
                other = ", ".join(f"{k}={v}" for k, v in s.items() if k != key) or "–"
                row = rows.setdefault(other, [None] * len(values))
                row[values.index(s[key])] = _cell(by_variant[name], work, seed=i)
            effect.tables.append(ParameterTable(key, values, sorted(rows.items(), key=lambda kv:
                                                [_order_key(x) for x in kv[0].split(", ")])))
        effect.picks = _picks(base, by_variant, work)
        out.append(effect)
    _holm(out)
    return out


def _picks(base: str, by_variant: dict[str, list[Run]], work: bool) -> list[BestPick]:
    default = _default_variant(base, list(by_variant))
    picks = []
    sets = sort_sets({set_key(r) for rs in by_variant.values() for r in rs})
    for pset in sets:
        in_set = {n: [r for r in rs if set_key(r) == pset] for n, rs in by_variant.items()}
        puzzles = sorted({puzzle_key(r) for rs in in_set.values() for r in rs})
        pick_half, test_half = set(puzzles[0::2]), set(puzzles[1::2])
        on = {n: [r for r in rs if puzzle_key(r) in pick_half] for n, rs in in_set.items()}
        best = min((n for n in on if on[n]), key=lambda n: (_rank(on[n], work), n))
        held = {n: [r for r in rs if puzzle_key(r) in test_half] for n, rs in in_set.items()}

        def rate(rs: list[Run]) -> str:
            return f"{sum(map(solved, rs))}/{len(rs)}" if rs else "–"

        pick = BestPick(pset, best, default, len(pick_half), len(test_half),
                        rate(held[best]), rate(held[default]) if default else "–")
        if default is None:
            pick.note = "n/a: the solver's default setting is not in the sweep"
        elif best == default:
            pick.note = "n/a: the pick is the default"
        else:
            a, b = _par2_by_puzzle(held[best], work), _par2_by_puzzle(held[default], work)
            common = sorted(set(a) & set(b))
            res = wilcoxon_paired([a[k] for k in common], [b[k] for k in common])
            pick.p_value, pick.note = res.p_value, res.note
            if common:
                diff = sum(a[k] - b[k] for k in common)
                pick.better = "pick" if diff < 0 else "default" if diff > 0 else ""
        picks.append(pick)
    return picks


def _holm(effects: list[ParameterEffect]) -> None:
    tested = [p for e in effects for p in e.picks if not math.isnan(p.p_value)]
    for p, h in zip(tested, holm([p.p_value for p in tested]), strict=True):
        p.holm_p = h


def _fmt(x: float, unit: str) -> str:
    if math.isinf(x):
        return "∞"
    if unit == "s":
        return f"{x:.3g} s"
    return f"{x:,.0f}"


def _cell_text(c: Cell | None, unit: str) -> str:
    if c is None:
        return "not run"
    return (f"{c.solved}/{c.runs} ({100 * c.solved / c.runs:.0f} % [{100 * c.low:.0f}–"
            f"{100 * c.high:.0f}]); ERT {_fmt(c.ert, unit)} [{_fmt(c.ert_low, unit)}–"
            f"{_fmt(c.ert_high, unit)}]")


def parameter_effect_section(effects: list[ParameterEffect]) -> list[str]:
    """The report's markdown for the view (nothing when no sweep is stored)."""
    if not effects:
        return []
    out = ["## Parameter effect (sweeps)", "",
           "Each cell: solved / runs (rate, Wilson 95 %); ERT (everything spent over the "
           f"successes) with a percentile bootstrap 95 % interval over runs "
           f"({BOOTSTRAP_RESAMPLES:,} resamples). Variants of one solver share their run seeds, "
           "so the comparison is paired.", ""]
    for e in effects:
        out += [f"### {e.solver}: {e.variants} variants, {e.budget}", ""]
        for t in e.tables:
            out += [f"Against **{t.parameter}** (a row per setting of the other swept "
                    "parameters):", "",
                    "| other settings | " + " | ".join(f"{t.parameter}={v}" for v in t.values)
                    + " |", "|---|" + "---|" * len(t.values)]
            out += [f"| {other} | " + " | ".join(_cell_text(c, e.unit) for c in cells) + " |"
                    for other, cells in t.rows]
            out.append("")
        out += ["Best setting per puzzle set, picked on half of its puzzles (by success, then "
                "ERT) and tested on the other half against the default setting (paired "
                f"Wilcoxon over the held-out puzzles on median PAR-2 in {e.unit}, Holm over "
                "the section); the pick's own half is not tested, since it was chosen on it:",
                "", "| set | pick | default | puzzles pick / test | held-out solved: pick "
                "| default | p | Holm p | result |", "|---|---|---|---|---|---|---|---|---|"]
        for p in e.picks:
            if p.note:
                result = p.note
            elif p.holm_p < 0.05:
                result = f"significant: the {p.better} is better"
            else:
                result = "no significant difference"
            out.append(f"| {p.puzzle_set} | `{p.pick}` | "
                       f"{'`' + p.default + '`' if p.default else '–'} | {p.pick_puzzles} / "
                       f"{p.test_puzzles} | {p.pick_solved} | {p.default_solved} | "
                       f"{'–' if math.isnan(p.p_value) else f'{p.p_value:.3g}'} | "
                       f"{'–' if math.isnan(p.holm_p) else f'{p.holm_p:.3g}'} | {result} |")
        out.append("")
    return out
