"""The report's figures, as reproducible SVG files written beside the markdown.

matplotlib is used through its object API (``Figure`` + the SVG canvas), never pyplot, so
a report can be written from a notebook or a worker without touching global backend
state. SVGs are made byte-reproducible: a fixed ``svg.hashsalt`` (element ids) and no
``Date`` metadata. Every caption names its solvers, puzzle set, seeds and budget, so a
figure copied out of the report still says what it measured.

Figures:

- runtime ECDF per puzzle set: fraction of (puzzle, seed) runs solved within x seconds
  (equal time) and, for runs with an evaluation budget, within x evaluations (equal work;
  a solver whose runs the clock cut off is left out of it and named in the caption, since
  its curve would compare different stopping rules), the standard way to compare solvers
  across a whole budget instead of at one cut-off;
- convergence per stochastic family and set: best energy against evaluations, median and
  interquartile band over runs (each run's best-so-far trace, held after it stops);
- success per difficulty: a bar per solver and difficulty with the Wilson 95 % interval.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import stats
from .seed_view import DIFFICULTY_ORDER, difficulty
from .summary import (
    EQUAL_TIME,
    EQUAL_WORK,
    STOCHASTIC_FAMILIES,
    FigureRef,
    Run,
    evaluations,
    puzzle_key,
    seconds_spent,
    seed_key,
    set_key,
    solved,
    solver_sort_key,
    sort_families,
    sort_sets,
    view_budget,
    views_of,
    withheld_reason,
)

SVG_SALT = "sudoku-compare"


@dataclass(frozen=True)
class _Series:
    solver: str
    origin: str
    runs: list[Run]


def describe_budget(runs: list[Run]) -> str:
    """'10 s per run' / '2 s and 20000 evaluations per run' (every distinct budget listed)."""
    parts = []
    for secs, evals in sorted({(float(r["max_seconds"]), r.get("max_evaluations")) for r in runs},
                              key=lambda b: (b[0], b[1] is None, b[1] or 0)):
        s = f"{secs:g} s"
        if evals is not None:
            s += f" and {int(evals)} evaluations"
        parts.append(s)
    return (" / ".join(parts) or "unknown") + " per run"


def describe(runs: list[Run], what: str) -> str:
    """A caption: what, solvers, set(s), puzzles, seeds, budget."""
    solvers = sorted({(r["origin"] != "native", r["solver"]) for r in runs})
    sets = sort_sets(set_key(r) for r in runs)
    puzzles = len({puzzle_key(r) for r in runs})
    seeds = len({seed_key(r) for r in runs})
    return (f"{what}. Solvers: {', '.join(n for _, n in solvers)}. "
            f"Set: {', '.join(sets)} ({puzzles} puzzle{'s' if puzzles != 1 else ''}). "
            f"Seeds: {seeds} per puzzle. "
            f"Budget: {describe_budget(runs)}. Runs: {len(runs)}.")


def _series(runs: list[Run]) -> list[_Series]:
    by: dict[str, list[Run]] = defaultdict(list)
    for r in runs:
        by[r["solver"]].append(r)
    out = [_Series(n, rs[0]["origin"], rs) for n, rs in by.items()]
    return sorted(out, key=lambda s: solver_sort_key(s.solver, s.origin))


COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39")


def palette(runs: list[Run]) -> dict[str, str]:
    """One colour per solver for the whole report, so a solver looks the same in every figure."""
    return {s.solver: COLOURS[i % len(COLOURS)] for i, s in enumerate(_series(runs))}


def _style(i: int, origin: str, solver: str = "", colours: dict[str, str] | None = None) -> dict:
    colour = (colours or {}).get(solver) or COLOURS[i % len(COLOURS)]
    return {"color": colour,
            "linestyle": "-" if origin == "native" else "--",
            "linewidth": 1.6 if origin == "native" else 1.4}


def _new_figure(width: float = 6.4, height: float = 4.0):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    return fig, fig.add_subplot(1, 1, 1)


def _save(fig, path: Path) -> None:
    import matplotlib

    path.parent.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT, "svg.fonttype": "path"}):
        fig.tight_layout()
        fig.savefig(path, format="svg", metadata={"Date": None})


_SUPERSCRIPT = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def _power_of_ten(value: float, _pos: int | None = None) -> str:
    """``10⁻³`` in plain Unicode: matplotlib's default log labels are mathtext, whose
    parser took a third of a report's drawing time."""
    if value <= 0:
        return ""
    exponent = math.log10(value)
    if abs(exponent - round(exponent)) > 1e-9:
        return ""
    return "10" + str(int(round(exponent))).translate(_SUPERSCRIPT)


def _log_x(ax) -> None:
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10))
    ax.xaxis.set_major_formatter(FuncFormatter(_power_of_ten))
    ax.xaxis.set_minor_formatter(NullFormatter())


#: more curves than this and the legend goes beside the axes instead of over the curves
LEGEND_INSIDE_MAX = 8


def _legend(ax, loc: str) -> None:
    """A legend at ``loc`` over the axes, or beside them (the figure widened to make room,
    taller when a column holds more entries than fit) once it has many curves."""
    n = len(ax.get_legend_handles_labels()[0])
    if n <= LEGEND_INSIDE_MAX:
        ax.legend(fontsize=7, loc=loc)
        return
    ax.legend(fontsize=6.5, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              ncol=math.ceil(n / 24), borderaxespad=0.0)
    fig = ax.figure
    fig.set_size_inches(fig.get_figwidth() + 2.4 * math.ceil(n / 24), max(fig.get_figheight(),
                                                                          1.0 + 0.19 * min(n, 24)))


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in text).strip("-") or "set"


def ecdf(runs: list[Run], measure: Callable[[Run], float], path: Path, xlabel: str,
         title: str, floor: float, colours: dict[str, str] | None = None) -> bool:
    """Write one runtime ECDF; False (nothing written) when no run has the measure.

    Values below ``floor`` (a 0-evaluation solve, a sub-microsecond time) are drawn at the
    floor, since a log axis has no zero.
    """
    fig, ax = _new_figure()
    drawn = False
    for i, s in enumerate(_series(runs)):
        values = np.maximum(np.sort([measure(r) for r in s.runs if solved(r)]), floor)
        if measure is evaluations and not any(evaluations(r) > 0 for r in s.runs):
            continue  # a solver that counts no evaluations has no curve here
        n = len(s.runs)
        if values.size:
            xs = np.concatenate([values, values[-1:]])
            ys = np.arange(1, values.size + 2).clip(max=values.size) / n
            ax.step(xs, ys, where="post", label=f"{s.solver} ({values.size}/{n})",
                    **_style(i, s.origin, s.solver, colours))
        else:
            ax.plot([], [], label=f"{s.solver} (0/{n})", **_style(i, s.origin, s.solver, colours))
        drawn = True
    if not drawn:
        return False
    _log_x(ax)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("fraction of (puzzle, seed) runs solved")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    _legend(ax, "lower right")
    _save(fig, path)
    return True


def trace_matrix(runs: list[Run], grid: np.ndarray) -> np.ndarray:
    """Best energy of each run at each evaluation count of ``grid`` (nan before its first
    sample; held at its last value after the run stopped, as a best-so-far curve is)."""
    out = np.full((len(runs), grid.size), np.nan)
    for i, r in enumerate(runs):
        tr = r.get("trace") or []
        if not tr:
            continue
        arr = np.array([(float(t[0]), float(t[2])) for t in tr if t[2] is not None])
        if arr.size == 0:
            continue
        arr = arr[np.argsort(arr[:, 0], kind="stable")]
        best = np.minimum.accumulate(arr[:, 1])
        idx = np.searchsorted(arr[:, 0], grid, side="right") - 1
        ok = idx >= 0
        out[i, ok] = best[idx[ok]]
    return out


def convergence(runs: list[Run], path: Path, title: str,
                colours: dict[str, str] | None = None) -> bool:
    """Median and IQR of best energy vs evaluations per solver; False when no traces."""
    traced = [r for r in runs if r.get("trace")]
    if not traced:
        return False
    # the axis runs to the longest run, not to its last improvement: a flat tail is data
    top = max(max(max(float(t[0]) for t in r["trace"]), evaluations(r)) for r in traced)
    grid = np.unique(np.round(np.logspace(0, math.log10(max(top, 10.0)), 200)))
    fig, ax = _new_figure()
    for i, s in enumerate(_series(traced)):
        m = trace_matrix(s.runs, grid)
        keep = np.sum(~np.isnan(m), axis=0) > 0
        if not keep.any():
            continue
        with np.errstate(all="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                q1, med, q3 = np.nanpercentile(m[:, keep], [25, 50, 75], axis=0)
        st = _style(i, s.origin, s.solver, colours)
        ax.plot(grid[keep], med, label=f"{s.solver} (median of {len(s.runs)} runs)", **st)
        ax.fill_between(grid[keep], q1, q3, color=st["color"], alpha=0.18, linewidth=0)
    _log_x(ax)
    ax.set_xlabel("objective evaluations")
    ax.set_ylabel("best energy (conflicts)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    _legend(ax, "upper right")
    _save(fig, path)
    return True


def success_bars(runs: list[Run], path: Path, title: str,
                 colours: dict[str, str] | None = None) -> bool:
    """Success rate (Wilson 95 % bars) per solver, grouped by difficulty."""
    sets = sort_sets(set_key(r) for r in runs)
    labels = []
    for s in sets:
        d = difficulty(s)
        labels.append(d if d == s else f"{d}\n({s})")
    rank = {d: i for i, d in enumerate(DIFFICULTY_ORDER)}
    order = sorted(range(len(sets)), key=lambda i: (rank.get(difficulty(sets[i]), 9), i))
    sets = [sets[i] for i in order]
    labels = [labels[i] for i in order]
    series = _series(runs)
    if not series:
        return False
    fig, ax = _new_figure(max(6.4, 1.2 + 0.35 * len(series) * len(sets)), 4.2)
    width = 0.8 / len(series)
    for i, s in enumerate(series):
        rates, lows, highs, xs = [], [], [], []
        for j, pset in enumerate(sets):
            rs = [r for r in s.runs if set_key(r) == pset]
            if not rs:
                continue
            k = sum(solved(r) for r in rs)
            lo, hi = stats.wilson_interval(k, len(rs))
            rate = k / len(rs)
            rates.append(rate)
            lows.append(rate - lo)
            highs.append(hi - rate)
            xs.append(j - 0.4 + width * (i + 0.5))
        st = _style(i, s.origin, s.solver, colours)
        ax.bar(xs, rates, width=width * 0.95, color=st["color"],
               hatch="" if s.origin == "native" else "//", edgecolor="white", label=s.solver,
               yerr=[lows, highs], error_kw={"elinewidth": 0.8, "capsize": 2})
    ax.set_xticks(range(len(sets)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("success rate (Wilson 95 %)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(True, axis="y", alpha=0.3)
    _save(fig, path)
    return True


def _clock_note(runs: list[Run]) -> str:
    """Names the solvers the clock stopped: an evaluations axis shows how far they got in
    their time, not what they would do with the same work."""
    cut = sorted({r["solver"] for r in runs if r.get("stop_reason") in ("clock", "killed")})
    if not cut:
        return ""
    return (" Stopped by the clock in some runs (their curves show the work done in the "
            f"time, not at equal work): {', '.join(cut)}.")


def write_figures(runs: list[Run], figure_dir: Path, link_prefix: str) -> list[FigureRef]:
    """Every figure of a report into ``figure_dir``; links are ``link_prefix/<file>``.

    Stale SVGs from an earlier report of the same name are removed first, so the folder
    holds exactly the figures the markdown references.
    """
    figure_dir.mkdir(parents=True, exist_ok=True)
    for old in figure_dir.glob("*.svg"):
        old.unlink()
    refs: list[FigureRef] = []
    colours = palette(runs)

    def add(kind: str, name: str, caption: str, writer: Callable[[Path], bool]) -> None:
        path = figure_dir / name
        if writer(path):
            refs.append(FigureRef(kind, f"{link_prefix}/{name}", caption))

    by_set: dict[str, list[Run]] = defaultdict(list)
    for r in runs:
        by_set[set_key(r)].append(r)
    for pset in sort_sets(by_set):
        rs = by_set[pset]
        slug = _slug(pset)
        # a seconds figure only for runs whose budget makes time the question (see
        # views_of): under --max-evals alone, with no run reaching the clock, there is none
        partitions: dict[tuple[float, int | None], list[Run]] = defaultdict(list)
        for r in rs:
            partitions[view_budget(r)].append(r)
        timed = [r for part in partitions.values() if EQUAL_TIME in views_of(part) for r in part]
        if timed:
            add("ecdf-time", f"ecdf-time-{slug}.svg",
                describe(timed, f"Equal time: runtime ECDF on {pset}, fraction of runs solved "
                         "within the time"),
                lambda p, timed=timed, pset=pset: ecdf(
                    timed, seconds_spent, p, "solve time (s, log)",
                    f"Runs solved vs time — {pset}", 1e-6, colours))
        for max_evals in sorted({r["max_evaluations"] for r in rs
                                 if r.get("max_evaluations") is not None}):
            work = [r for r in rs if r.get("max_evaluations") == max_evals]
            left_out = sorted({r["solver"] for r in work if withheld_reason(
                [x for x in work if x["solver"] == r["solver"]], EQUAL_WORK)})
            drawn = [r for r in work if r["solver"] not in left_out]
            if not drawn:
                continue
            note = (f" Left out (runs stopped by the clock, stop reason unknown, or no "
                    f"evaluations counted): {', '.join(left_out)}." if left_out else "")
            add("ecdf-evaluations", f"ecdf-evals-{slug}-{int(max_evals)}.svg",
                describe(drawn, f"Equal work: runtime ECDF on {pset}, fraction of runs solved "
                         f"within the evaluations ({int(max_evals):,} per run)") + note,
                lambda p, drawn=drawn, pset=pset: ecdf(
                    drawn, evaluations, p, "objective evaluations (log)",
                    f"Runs solved vs evaluations — {pset}", 1.0, colours))
    for fam in sort_families(r["family"] for r in runs):
        if fam not in STOCHASTIC_FAMILIES:
            continue
        for pset in sort_sets(set_key(r) for r in runs if r["family"] == fam):
            rs = [r for r in runs if r["family"] == fam and set_key(r) == pset]
            if not any(r.get("trace") for r in rs):
                continue
            add("convergence", f"convergence-{fam}-{_slug(pset)}.svg",
                describe(rs, f"Convergence of the {fam} solvers on {pset}: best energy vs "
                         "evaluations, median line and interquartile band over all "
                         "(puzzle, seed) runs, each run held at its last value after it stops")
                + _clock_note(rs),
                lambda p, rs=rs, fam=fam, pset=pset: convergence(
                    rs, p, f"Best energy vs evaluations — {fam}, {pset}", colours))
    add("success", "success-by-difficulty.svg",
        describe(runs, "Success rate per difficulty (easy51 = Easy, hardest = Medium, "
                 "top95 = Hard), bars with Wilson 95 % intervals; hatched bars are libraries"),
        lambda p: success_bars(runs, p, "Success per difficulty", colours))
    return refs
