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

from sudoku_compare.vocabulary import STOCHASTIC_FAMILIES

from . import stats
from .seed_view import DIFFICULTY_ORDER, difficulty
from .summary import (
    EQUAL_TIME,
    EQUAL_WORK,
    FigureRef,
    Run,
    comparison_group,
    evaluations,
    puzzle_key,
    roles,
    seconds_spent,
    seed_key,
    set_key,
    solved,
    sort_families,
    sort_sets,
    table_order,
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
    """One series per solver, pairs first (each library after its counterpart), as the
    tables order them."""
    by: dict[str, list[Run]] = defaultdict(list)
    for r in runs:
        by[r["solver"]].append(r)
    order = table_order({n: rs[0]["origin"] for n, rs in by.items()})
    return [_Series(n, by[n][0]["origin"], by[n]) for n in order]


#: a figure never shows more curves than this; the caption names any left out
MAX_CURVES = 8
#: base hues (matplotlib's tab10): a counterpart pair shares one
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
#: how far a native improvement's tint moves its counterpart's hue towards white
TINTS = (0.4, 0.6, 0.75)
#: a library's dashes (a second library of the same counterpart: dotted)
LIBRARY_DASHES = ("--", ":", "-.")


def _tint(colour: str, amount: float) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def palette(runs: list[Run]) -> dict[str, dict]:
    """Line and bar style of every solver, fixed for the whole report.

    Per family: a counterpart native takes the next base hue, drawn solid; each library of
    its pair the same hue, dashed (a second library dotted); a native improvement of the
    pair (reheat, restarts, memetic, hybrid) a lighter tint of that hue, solid; any other
    solver the next hue. Hues restart per family, so the at most
    :data:`MAX_CURVES` curves of one figure never share a colour outside a pair.
    """
    styles: dict[str, dict] = {}
    by_family: dict[str, dict[str, str]] = defaultdict(dict)
    for r in runs:
        by_family[r["family"]][r["solver"]] = r["origin"]
    for fam in sort_families(by_family):
        solvers = by_family[fam]
        rs = roles(solvers)
        hue = 0
        dashes: dict[str, int] = defaultdict(int)
        tints: dict[str, int] = defaultdict(int)
        for name in table_order(solvers):
            role, partner = rs[name]
            native = solvers[name] == "native"
            if role == "library" and partner in styles:
                colour = styles[partner]["color"]
                dash = LIBRARY_DASHES[dashes[partner] % len(LIBRARY_DASHES)]
                dashes[partner] += 1
            elif role == "native improvement" and partner in styles:
                base = styles[partner]["color"]
                colour = _tint(base, TINTS[min(tints[partner], len(TINTS) - 1)])
                tints[partner] += 1
                dash = "-"
            else:
                colour = COLOURS[hue % len(COLOURS)]
                hue += 1
                dash = "-" if native else "--"
            styles[name] = {"color": colour, "linestyle": dash,
                            "linewidth": 1.8 if native else 1.6}
    return styles


def _style(solver: str, origin: str, styles: dict[str, dict] | None) -> dict:
    default = {"color": COLOURS[0], "linestyle": "-" if origin == "native" else "--",
               "linewidth": 1.6}
    return dict((styles or {}).get(solver, default))


def _capped(series: list[_Series]) -> tuple[list[_Series], list[str]]:
    """The first :data:`MAX_CURVES` series (pairs come first) and the names left out."""
    return series[:MAX_CURVES], [s.solver for s in series[MAX_CURVES:]]


def _left_out_note(names: list[str]) -> str:
    return (f" Not drawn (at most {MAX_CURVES} curves a figure; see the tables): "
            f"{', '.join(names)}." if names else "")


def legend_entries(fig) -> int:
    """The most entries of any legend of ``fig`` (what the 8-curve rule counts)."""
    counts = [len(leg.get_texts()) for ax in fig.axes for leg in [ax.get_legend()] if leg]
    counts += [len(leg.get_texts()) for leg in fig.legends]
    return max(counts, default=0)


def _new_figure(width: float = 7.0, height: float = 4.2):
    """7 × 4.2 in at 100 dpi: 700 px wide, drawn at about its own size in GitHub's
    880 px column, so 8-point text stays readable."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    return fig, fig.add_subplot(1, 1, 1)


def _save(fig, path: Path) -> int:
    """Write ``fig`` in the format of ``path``'s suffix (SVG for reports, PNG to look at);
    returns its legend entry count."""
    import matplotlib

    path.parent.mkdir(parents=True, exist_ok=True)
    fmt = path.suffix.lstrip(".") or "svg"
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT, "svg.fonttype": "path"}):
        fig.tight_layout()
        fig.savefig(path, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
    return legend_entries(fig)


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


#: an ECDF curve is drawn through at most this many of its steps (a figure is 700 pixels
#: wide: more points change nothing drawn, but a 100,000-run curve held them all in memory)
ECDF_STEPS = 2_000


def ecdf_steps(values: np.ndarray, n: int, cap: int = ECDF_STEPS) -> tuple[np.ndarray,
                                                                           np.ndarray]:
    """(x, y) of the step curve of sorted ``values`` over ``n`` runs, through at most
    ``cap`` + 1 of its steps: the ranks kept are evenly spaced and include the first and
    the last, so the curve is off by at most 1/(``cap`` - 1) of the runs between two of them."""
    ranks = np.arange(values.size)
    if values.size > cap:
        ranks = np.unique(np.linspace(0, values.size - 1, cap).round().astype(np.int64))
    xs = np.concatenate([values[ranks], values[-1:]])
    ys = np.concatenate([ranks + 1, [values.size]]) / n
    return xs, ys


def ecdf(runs: list[Run], measure: Callable[[Run], float], path: Path, xlabel: str,
         title: str, floor: float, styles: dict[str, dict] | None = None) -> int | None:
    """Write one runtime ECDF; its legend entry count, or None (nothing written) when no
    run has the measure.

    Values below ``floor`` (a 0-evaluation solve, a sub-microsecond time) are drawn at the
    floor, since a log axis has no zero.
    """
    fig, ax = _new_figure()
    drawn = False
    for s in _capped(_series(runs))[0]:
        values = np.maximum(np.sort([measure(r) for r in s.runs if solved(r)]), floor)
        if measure is evaluations and not any(evaluations(r) > 0 for r in s.runs):
            continue  # a solver that counts no evaluations has no curve here
        n = len(s.runs)
        st = _style(s.solver, s.origin, styles)
        if values.size:
            xs, ys = ecdf_steps(values, n)
            ax.step(xs, ys, where="post", label=f"{s.solver} ({values.size}/{n})", **st)
        else:
            ax.plot([], [], label=f"{s.solver} (0/{n})", **st)
        drawn = True
    if not drawn:
        return None
    _log_x(ax)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel("fraction of runs solved", fontsize=9)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    _legend(ax, "lower right")
    return _save(fig, path)


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
                styles: dict[str, dict] | None = None) -> int | None:
    """Median and IQR of best energy vs evaluations per solver; None when no traces."""
    import warnings

    traced = [r for r in runs if r.get("trace")]
    if not traced:
        return None
    # the axis runs to the longest run, not to its last improvement: a flat tail is data
    top = max(max(max(float(t[0]) for t in r["trace"]), evaluations(r)) for r in traced)
    grid = np.unique(np.round(np.logspace(0, math.log10(max(top, 10.0)), 200)))
    fig, ax = _new_figure()
    for s in _capped(_series(traced))[0]:
        m = trace_matrix(s.runs, grid)
        keep = np.sum(~np.isnan(m), axis=0) > 0
        if not keep.any():
            continue
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            q1, med, q3 = np.nanpercentile(m[:, keep], [25, 50, 75], axis=0)
        st = _style(s.solver, s.origin, styles)
        ax.plot(grid[keep], med, label=f"{s.solver} (median of {len(s.runs)} runs)", **st)
        ax.fill_between(grid[keep], q1, q3, color=st["color"], alpha=0.15, linewidth=0)
    _log_x(ax)
    ax.set_xlabel("objective evaluations", fontsize=9)
    ax.set_ylabel("best energy (conflicts)", fontsize=9)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    _legend(ax, "upper right")
    return _save(fig, path)


def _difficulty_order(sets: list[str]) -> list[str]:
    rank = {d: i for i, d in enumerate(DIFFICULTY_ORDER)}
    return sorted(sets, key=lambda s: (rank.get(difficulty(s), 9), difficulty(s), s))


def success_by_difficulty(runs: list[Run], path: Path, title: str,
                          styles: dict[str, dict] | None = None) -> int | None:
    """Success rate (Wilson 95 % bars) per solver and difficulty, one panel per family
    (each with its own legend of at most :data:`MAX_CURVES` solvers); libraries hatched."""
    families = sort_families(r["family"] for r in runs)
    if not families:
        return None
    from matplotlib.figure import Figure

    cols = 1 if len(families) == 1 else 2
    rows = math.ceil(len(families) / cols)
    fig = Figure(figsize=(7.0 if cols == 1 else 11.0, 3.4 * rows), dpi=100)
    for k, fam in enumerate(families):
        ax = fig.add_subplot(rows, cols, k + 1)
        fam_runs = [r for r in runs if r["family"] == fam]
        sets = _difficulty_order(sorted({set_key(r) for r in fam_runs}))
        series = _capped(_series(fam_runs))[0]
        width = 0.8 / len(series)
        for i, s in enumerate(series):
            rates, lows, highs, xs = [], [], [], []
            for j, pset in enumerate(sets):
                rs = [r for r in s.runs if set_key(r) == pset]
                if not rs:
                    continue
                n_ok = sum(solved(r) for r in rs)
                lo, hi = stats.wilson_interval(n_ok, len(rs))
                rate = n_ok / len(rs)
                rates.append(rate)
                lows.append(rate - lo)
                highs.append(hi - rate)
                xs.append(j - 0.4 + width * (i + 0.5))
            st = _style(s.solver, s.origin, styles)
            ax.bar(xs, rates, width=width * 0.95, color=st["color"],
                   hatch="" if s.origin == "native" else "//", edgecolor="white",
                   label=s.solver, yerr=[lows, highs], error_kw={"elinewidth": 0.8, "capsize": 2})
        labels = [d if (d := difficulty(p)) == p else f"{d}\n({p})" for p in sets]
        ax.set_xticks(range(len(sets)))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("success (Wilson 95 %)", fontsize=8)
        ax.set_title(fam, fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)


#: the forest plot's marker per verdict
DECISION_STYLE = {
    "significant": ("#d62728", "o", "significant after Holm"),
    "equivalent": ("#2ca02c", "D", "equivalent (ratio within the margin)"),
    "inconclusive": ("#7f7f7f", "s", "inconclusive"),
}


def forest(verdicts: list, path: Path, title: str) -> int | None:
    """Each pair's PAR-2 ratio native / library with its paired 95 % interval, log axis:
    left of 1 the native is better, right of 1 the library. None when no ratio is finite."""
    rows = [v for v in verdicts if math.isfinite(v.ratio) and v.ratio > 0]
    if not rows:
        return None
    fig, ax = _new_figure(7.0, max(2.6, 1.4 + 0.34 * len(rows)))
    seen: set[str] = set()
    for y, v in enumerate(reversed(rows)):
        colour, marker, label = DECISION_STYLE.get(v.decision, DECISION_STYLE["inconclusive"])
        lo, hi = v.ratio_ci
        if math.isfinite(lo) and math.isfinite(hi) and lo > 0:
            ax.plot([lo, hi], [y, y], color=colour, linewidth=1.6)
        ax.plot([v.ratio], [y], marker=marker, color=colour, linestyle="none",
                label=None if label in seen else label)
        seen.add(label)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{v.pair.native} vs {v.pair.library}, {v.view}" for v in reversed(rows)],
                       fontsize=8)
    _log_x(ax)
    ax.set_xlabel("PAR-2 ratio native / library (log; < 1: native better)", fontsize=9)
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return _save(fig, path)


def _clock_note(runs: list[Run]) -> str:
    """Names the solvers the clock stopped: an evaluations axis shows how far they got in
    their time, not what they would do with the same work."""
    cut = sorted({r["solver"] for r in runs if r.get("stop_reason") in ("clock", "killed")})
    if not cut:
        return ""
    return (" Stopped by the clock in some runs (their curves show the work done in the "
            f"time, not at equal work): {', '.join(cut)}.")


def _timed(runs: list[Run]) -> list[Run]:
    """The runs whose budget makes time the question (see :func:`views_of`)."""
    partitions: dict[tuple[float, int | None], list[Run]] = defaultdict(list)
    for r in runs:
        partitions[view_budget(r)].append(r)
    return [r for part in partitions.values() if EQUAL_TIME in views_of(part) for r in part]


def _main_work_budget(runs: list[Run]) -> int | None:
    """The evaluation budget most runs of ``runs`` share (``compare``'s pilot runs under
    a smaller one are not what its verdicts test)."""
    counts: dict[int, int] = defaultdict(int)
    for r in runs:
        if r.get("max_evaluations") is not None:
            counts[int(r["max_evaluations"])] += 1
    return max(counts, key=lambda b: (counts[b], b)) if counts else None


def write_figures(runs: list[Run], figure_dir: Path, link_prefix: str,
                  verdicts: list | None = None, fmt: str = "svg") -> list[FigureRef]:
    """Every figure of a report into ``figure_dir``; links are ``link_prefix/<file>``.

    The forest plot of the pairs' ratios (the headline), then per family and view one
    runtime ECDF, per counterpart pair and view one convergence figure, and per view one
    success-by-difficulty figure with a panel per family. Stale figures from an earlier
    report of the same name are removed first, so the folder holds exactly the figures
    the markdown references.
    """
    figure_dir.mkdir(parents=True, exist_ok=True)
    for old in [*figure_dir.glob("*.svg"), *figure_dir.glob("*.png")]:
        old.unlink()
    refs: list[FigureRef] = []
    styles = palette(runs)

    def add(kind: str, stem: str, caption: str, alt: str,
            writer: Callable[[Path], int | None]) -> None:
        name = f"{stem}.{fmt}"
        entries = writer(figure_dir / name)
        if entries is not None:
            refs.append(FigureRef(kind, f"{link_prefix}/{name}", caption, alt, entries))

    paired = {n for v in verdicts or [] for n in (v.pair.native, v.pair.library)}
    if verdicts and (pair_runs := [r for r in runs if r["solver"] in paired]):
        add("forest", "forest-ratios",
            describe(pair_runs, "Every pair and view: the median over puzzles of the PAR-2 "
                     "ratio native / library with its paired bootstrap 95 % interval (log "
                     "axis; left of 1 the native is better). Equal-work lines compare "
                     "evaluations, equal-time lines seconds; colour and marker give the "
                     "verdict after Holm"),
            "Forest plot of the PAR-2 ratios native / library per pair and view",
            lambda p: forest(verdicts, p, "Native / library PAR-2 ratio per pair"))
    families = sort_families(r["family"] for r in runs)
    for fam in families:
        fam_runs = [r for r in runs if r["family"] == fam]
        sets = ", ".join(sort_sets(set_key(r) for r in fam_runs))
        timed = _timed(fam_runs)
        if timed:
            left = _capped(_series(timed))[1]
            add("ecdf-time", f"ecdf-time-{_slug(fam)}",
                describe(timed, f"Equal time, {fam}: runtime ECDF over {sets}, fraction of "
                         "runs solved within the time") + _left_out_note(left),
                f"Runtime ECDF of the {fam} solvers at equal time",
                lambda p, timed=timed, fam=fam: ecdf(
                    timed, seconds_spent, p, "solve time (s, log)",
                    f"Runs solved vs time — {fam}", 1e-6, styles))
        budget = _main_work_budget(fam_runs)
        if budget is not None:
            work = [r for r in fam_runs if r.get("max_evaluations") == budget]
            by_solver: dict[str, list[Run]] = defaultdict(list)
            for r in work:
                by_solver[r["solver"]].append(r)
            out_of_view = sorted(n for n, rs in by_solver.items()
                                 if withheld_reason(rs, EQUAL_WORK))
            drawn = [r for r in work if r["solver"] not in out_of_view]
            if drawn:
                note = (f" Left out (runs stopped by the clock, stop reason unknown, or no "
                        f"evaluations counted): {', '.join(out_of_view)}." if out_of_view else "")
                left = _capped(_series(drawn))[1]
                add("ecdf-evaluations", f"ecdf-evals-{_slug(fam)}-{budget}",
                    describe(drawn, f"Equal work, {fam}: runtime ECDF over {sets}, fraction of "
                             f"runs solved within the evaluations ({budget:,} per run)")
                    + note + _left_out_note(left),
                    f"Runtime ECDF of the {fam} solvers at equal work",
                    lambda p, drawn=drawn, fam=fam: ecdf(
                        drawn, evaluations, p, "objective evaluations (log)",
                        f"Runs solved vs evaluations — {fam}", 1.0, styles))
    for fam in families:
        if comparison_group(fam) not in STOCHASTIC_FAMILIES:
            continue
        fam_runs = [r for r in runs if r["family"] == fam]
        solvers = {r["solver"]: r["origin"] for r in fam_runs}
        rs = roles(solvers)
        for native in sorted(n for n, (role, _) in rs.items() if role == "counterpart"):
            members = [native, *sorted(n for n, (role, partner) in rs.items()
                                       if role == "library" and partner == native)]
            pair_runs = [r for r in fam_runs if r["solver"] in members and r.get("trace")]
            budget = _main_work_budget(pair_runs)
            views = [("equal-work", [r for r in pair_runs
                                     if r.get("max_evaluations") == budget] if budget else []),
                     ("equal-time", _timed(pair_runs))]
            for view, vr in views:
                if len({r["solver"] for r in vr}) < 2:
                    continue
                label = " vs ".join(members)
                add("convergence", f"convergence-{_slug(native)}-{view}",
                    describe(vr, f"Convergence, {label}, {view.replace('-', ' ')}: best energy "
                             "vs evaluations, median line and interquartile band over all "
                             "(puzzle, seed) runs, each run held at its last value after it "
                             "stops") + _clock_note(vr),
                    f"Convergence of {label} at {view.replace('-', ' ')}",
                    lambda p, vr=vr, label=label, view=view: convergence(
                        vr, p, f"Best energy vs evaluations — {label}, {view.replace('-', ' ')}",
                        styles))
    timed = _timed(runs)
    timed_ids = {id(r) for r in timed}  # identity: equal rows of two runs are still two runs
    for view, vr in (("equal-time", timed),
                     ("equal-work", [r for r in runs if r.get("max_evaluations") is not None
                                     and id(r) not in timed_ids])):
        if not vr:
            continue
        add("success", f"success-by-difficulty-{view}",
            describe(vr, f"Success rate per difficulty and family, {view.replace('-', ' ')} "
                     "(easy51 = Easy, hardest = Medium, top95 = Hard), bars with Wilson 95 % "
                     "intervals; hatched bars are libraries"),
            f"Success per difficulty and family at {view.replace('-', ' ')}",
            lambda p, vr=vr, view=view: success_by_difficulty(
                vr, p, f"Success per difficulty — {view.replace('-', ' ')}", styles))
    return refs
