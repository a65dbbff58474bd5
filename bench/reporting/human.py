"""The human-strategies report: native.human against hodoku.human, per puzzle set.

It reads a campaign database (as every report does; it never runs anything) and writes,
per puzzle set: how many puzzles each solver solves by logic alone, the steps per
technique in the common names of :mod:`sudoku_compare.problems.techniques`, and how often
the two ratings (both on HoDoKu's scale) agree. Regenerate ``reports/human.md`` with::

    python -m sudoku_compare.bench.reporting.human --db FILE --out reports/human.md

after the ``sudoku-compare run`` commands written at the top of the report (its
``COMMANDS``). Kept apart from ``sudoku-compare report``: that report compares run time
and success with statistics over seeds; this one compares the *paths*, which are
deterministic, so one seed per puzzle is the whole story.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import median
from typing import Any

from sudoku_compare.problems.techniques import INCOMPLETE, LEVELS, NATIVE_TECHNIQUES

from .standalone import report_main, write_from_db

NATIVE, NATIVE_SEARCH, HODOKU = "native.human", "native.human-search", "hodoku.human"
SETS = ("easy51", "generated-hard", "top95")
MAX_SECONDS = 30
#: the commands that fill the database this report reads
COMMANDS = tuple(
    f"sudoku-compare run --solvers {NATIVE},{NATIVE_SEARCH},{HODOKU} --puzzles {s} --seeds 1 "
    f"--max-seconds {MAX_SECONDS} --workers 1 --db human.db" for s in SETS
) + ("python -m sudoku_compare.bench.reporting.human --db human.db --out reports/human.md",)

Run = Mapping[str, Any]


def _techniques(run: Run) -> list[str]:
    return [s["technique"] for s in (run.get("extra") or {}).get("step_log") or []]


def by_logic(run: Run) -> bool:
    """Solved (verified) without a search step (HoDoKu's brute force counts as search)."""
    return run["status"] == "solved" and "search" not in _techniques(run)


def _level(run: Run) -> str:
    if run["status"] != "solved":
        return INCOMPLETE
    return (run.get("extra") or {}).get("rating_level", INCOMPLETE)


def _pct(k: int, n: int) -> str:
    return f"{k}/{n} ({100 * k / n:.0f} %)" if n else "0/0"


def set_section(name: str, runs: Sequence[Run]) -> list[str]:
    """The markdown of one puzzle set."""
    per: dict[str, dict[int, Run]] = defaultdict(dict)
    for r in runs:
        per[r["solver"]][r["puzzle_index"]] = r
    solvers = [s for s in (NATIVE, NATIVE_SEARCH, HODOKU) if s in per]
    n = max(len(v) for v in per.values())
    out = [f"## {name} ({n} puzzles)", "",
           "| solver | solved | by logic alone | stuck (no technique applies) | clock/timeout "
           "| median steps | median s |", "|---|---|---|---|---|---|---|"]
    for s in solvers:
        rs = list(per[s].values())
        solved = sum(r["status"] == "solved" for r in rs)
        stuck = sum((r.get("extra") or {}).get("end") == "stuck" for r in rs)
        late = sum(r["status"] in ("timeout", "solved-late")
                   or r.get("stop_reason") in ("clock", "killed") for r in rs)
        steps = [len(_techniques(r)) for r in rs]
        secs = [r["elapsed_s"] for r in rs if r.get("elapsed_s") is not None]
        med_s = f"{median(secs):.3f}" if secs else "-"
        out.append(f"| {s} | {_pct(solved, len(rs))} | {_pct(sum(map(by_logic, rs)), len(rs))} "
                   f"| {stuck} | {late} | {f'{median(steps):g}' if steps else '-'} | {med_s} |")
    out += ["", "Steps per technique, summed over the set (in brackets: puzzles using it). "
            "native.human-search repeats native.human's steps and adds one `search` step "
            "where native.human is stuck, so only native.human and hodoku.human are shown.", "",
            f"| technique | {NATIVE} | {HODOKU} |", "|---|---|---|"]
    totals = {s: Counter() for s in (NATIVE, HODOKU)}
    users = {s: Counter() for s in (NATIVE, HODOKU)}
    for s in totals:
        for r in per.get(s, {}).values():
            ts = _techniques(r)
            totals[s].update(ts)
            users[s].update(set(ts))
    known = [t.name for t in NATIVE_TECHNIQUES]
    rest = sorted(set(totals[HODOKU]) - set(known), key=lambda t: -totals[HODOKU][t])
    for t in known + rest:
        if not (totals[NATIVE][t] or totals[HODOKU][t]):
            continue
        cells = [f"{totals[s][t]} ({users[s][t]})" if totals[s][t] else "-" for s in totals]
        out.append(f"| {t} | " + " | ".join(cells) + " |")
    out += ["", *_agreement(per.get(NATIVE, {}), per.get(HODOKU, {})), ""]
    return out


def _agreement(native: dict[int, Run], hodoku: dict[int, Run]) -> list[str]:
    common = sorted(set(native) & set(hodoku))
    if not common:
        return ["(no puzzle rated by both)"]
    both = [i for i in common if by_logic(native[i]) and by_logic(hodoku[i])]
    same_level = sum(_level(native[i]) == _level(hodoku[i]) for i in both)
    same_hardest = sum(native[i]["extra"].get("rating_hardest")
                       == hodoku[i]["extra"].get("rating_hardest") for i in both)
    out = [f"Ratings (HoDoKu's scale for both). On the {len(both)} puzzles both solve by logic "
           f"alone, the levels agree on {_pct(same_level, len(both))} and the hardest technique "
           f"on {_pct(same_hardest, len(both))}. Rows: native.human's level (incomplete: "
           "stuck); columns: hodoku.human's.", ""]
    cols = [lv for lv in (*LEVELS, INCOMPLETE)
            if any(_level(hodoku[i]) == lv for i in common)]
    rows = [lv for lv in (*LEVELS, INCOMPLETE)
            if any(_level(native[i]) == lv for i in common)]
    table = Counter((_level(native[i]), _level(hodoku[i])) for i in common)
    out += ["| native \\ hodoku | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for r in rows:
        out.append(f"| {r} | " + " | ".join(str(table[r, c] or "") for c in cols) + " |")
    return out


def human_report(runs: Sequence[Run], commands: Sequence[str] = COMMANDS) -> str:
    """The whole report's markdown."""
    versions = {}
    for r in runs:
        versions.update(r.get("versions") or {})
    by_set: dict[str, list[Run]] = defaultdict(list)
    for r in runs:
        if r["solver"] in (NATIVE, NATIVE_SEARCH, HODOKU):
            by_set[r["puzzle_set"]].append(r)
    lines = ["# Human strategies: native.human against HoDoKu", "",
             "Regenerate (a few minutes; HoDoKu needs seconds on some top95 puzzles):", "",
             "```", *commands, "```", "",
             "native.human applies full house, naked and hidden singles, locked candidates, "
             "naked and hidden pairs, triples and quads, X-wing, swordfish, jellyfish, "
             "skyscraper, 2-string kite, W-, XY- and XYZ-wing in HoDoKu's order and stops "
             "where none applies (native.human-search then finishes by backtracking). hodoku.human runs HoDoKu's full technique set "
             "(chains, ALS, uniqueness, forcing nets, ...) and never stops: its last resort "
             "is brute force, counted here as `search`, so \"by logic alone\" means a path "
             "without a search step for both. Both paths are deterministic (one seed). "
             "Ratings: level and score on HoDoKu's scale; native.human's is computed from "
             "its own path with HoDoKu's base scores and thresholds "
             "(`sudoku_compare/problems/techniques.py`). Where both use only the same "
             "techniques the paths can still differ: HoDoKu takes singles from queues in the "
             "order they appear, native.human scans cells and units in index order, and a "
             "hidden single scores 14 against a naked single's 4, so the scores differ and, "
             "past a level's maximum score, so can the level.", "",
             "Seconds depend on the machine and its load (these runs shared a 2-core box "
             "with other work); the paths, step counts and ratings do not, except where a "
             "run was stopped by the clock (HoDoKu's forcing nets on the hardest puzzles).", "",
             f"Budget: {MAX_SECONDS} s per run; versions: "
             + ", ".join(f"{k} {v}" for k, v in sorted(versions.items())), ""]
    for name in sorted(by_set, key=lambda s: (SETS.index(s) if s in SETS else len(SETS), s)):
        lines += set_section(name, by_set[name])
    return "\n".join(lines).rstrip() + "\n"


def write_human_report(db: str | Path, out: str | Path) -> Path:
    return write_from_db(db, out, human_report)


def main(argv: Sequence[str] | None = None) -> int:
    return report_main("sudoku_compare.bench.reporting.human", __doc__.splitlines()[0],
                       human_report, argv)


if __name__ == "__main__":
    raise SystemExit(main())
