"""The main job: each native against its library, raced until a verdict or the time box.

``sudoku-compare compare`` answers one question per *pair* (an adapter and its native
counterpart, or a native variant against the library; see
:mod:`~sudoku_compare.bench.reporting.verdicts`) and per *view* (equal work: a shared
evaluation budget; equal time: a shared clock). It spends its time where the answer is
still open, in rounds, as racing procedures (F-race, irace) do:

1. **Lanes.** One lane per comparison group and view: the exact group races at equal time
   with one seed (its solvers are deterministic) on many puzzles; each stochastic group
   races at equal time and, from round 2, at equal work.
2. **Rounds.** Each round gives every open lane its next slice of puzzles (the exact lane
   up to 10, 40, then 100; stochastic lanes up to 8, 16, then 24), sized down to what the
   remaining time box allows: by the worst case (every run at its whole clock) before
   anything ran, then by the run times measured so far; a lane still racing a counterpart
   pair gets a larger share. All lanes of a round run through one warm pool of workers.
3. **Looks.** After each round every pair is re-tested (paired Wilcoxon over puzzles, Holm
   over all pairs and views) at level 0.05 / rounds, so the repeated looks keep the
   family-wise error at 0.05 (a Bonferroni split over looks). A decided pair leaves the race;
   a lane with no open pair stops.
4. **Early stops.** A deterministic solver that solves none of its first puzzles within the
   budget (``native.csp-bt`` at 1 s) is stopped and reported as such instead of eating the
   box; a pair in which neither side solved anything of its first slice is stopped too (no
   difference to measure at that budget).
5. **Equal time uses the clock.** In an equal-time lane every solver with a
   ``max_restarts`` parameter runs with ``max_restarts=-1`` (restart until the clock), so an
   implementation that ends its schedule early uses the rest of its second as one that
   cannot finish its first schedule does; the plan says so. Equal-work lanes keep the
   seed's settings.
6. **Equal-work budget.** Sized from the equal-time runs of round 1: a library's schedule
   length is its evaluations divided by the share of its schedule it completed
   (``schedule_fraction``), measured by one pilot run per library in round 1 (one puzzle,
   20,000 evaluations, the seed's settings; pilot runs are never compared). The budget is one whole schedule when a library run of that
   length fits the per-run cap (the time box / 45), otherwise what the slowest library does
   in the cap, rounded down to the 1-2-5 ladder (:func:`ladder_step`) so that the usual
   spread of measured rates gives the same budget run after run; the report then says what
   share of its schedule the library completed.

The plan, the rounds, and why each pair stopped are recorded in the report; the verdicts
open it and end the terminal output.
"""

from __future__ import annotations

import math
import shlex
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import load_set, resolve_puzzles

from .campaign import CampaignSpec, run_campaigns
from .executor import LocalProcessExecutor
from .reporting.report import write_report
from .reporting.summary import FAMILY_ORDER, REPORT_COLUMNS, comparison_group
from .reporting.verdicts import (
    EQUAL_TIME,
    EQUAL_WORK,
    Pair,
    Run,
    Verdict,
    assess,
    pairs_for,
    view_of,
)
from .run_table import StoredValueError
from .store import Store

#: the shipped sets the default exact lane draws from (round-robin, so each round mixes them)
EXACT_SETS = ("generated-easy", "generated-medium", "generated-hard")
#: the shipped set of the stochastic lanes (their solvers need easy puzzles at 1 s)
STOCHASTIC_SETS = ("generated-easy",)
FALLBACK_SETS = ("easy51",)
#: puzzles per round for deterministic and stochastic lanes
EXACT_ROUNDS = (10, 40, 100)
STOCHASTIC_ROUNDS = (8, 16, 24)
#: the evaluation budget of the round-1 pilot runs that measure each library's schedule
PILOT_EVALUATIONS = 20_000
DEFAULT_TIME_BOX = 90.0
DEFAULT_MAX_SECONDS = 1.0
ALPHA = 0.05


@dataclass
class Lane:
    """One comparison group in one view: who races, on what, with which budget."""

    group: str
    view: str
    solvers: list[str]
    puzzles: list[Puzzle]
    seeds: int
    budget: Budget | None           # None until sized (equal work, after round 1)
    round_sizes: tuple[int, ...]
    deterministic: bool
    done: int = 0                   # puzzles already run
    rounds: list[str] = field(default_factory=list)
    dropped: dict[str, str] = field(default_factory=dict)
    note: str = ""
    stopped: str = ""
    #: parameter overrides per solver for this lane (equal time: restart until the clock)
    params: dict[str, dict] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.group} / {self.view}"

    def active(self) -> list[str]:
        return [s for s in self.solvers if s not in self.dropped]


@dataclass
class RacePlan:
    """Everything ``compare`` decided before and while it ran (recorded in the report)."""

    pairs: list[Pair]
    lanes: list[Lane]
    time_box: float
    workers: int
    rounds: int
    unavailable: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    stopped: dict[tuple[str, str], str] = field(default_factory=dict)   # (pair label, view)


# -- planning ---------------------------------------------------------------------------
def _set_puzzles(names: Sequence[str]) -> list[Puzzle]:
    """The puzzles of ``names`` interleaved (one of each set in turn)."""
    sets = [load_set(n) for n in names]
    out: list[Puzzle] = []
    for i in range(max((len(s) for s in sets), default=0)):
        out += [s[i] for s in sets if i < len(s)]
    return out


def _default_puzzles(names: Sequence[str], notes: list[str]) -> list[Puzzle]:
    try:
        return _set_puzzles(names)
    except InputError:
        pass
    for fallback in FALLBACK_SETS:
        try:
            puzzles = _set_puzzles([fallback])
        except InputError:
            continue
        notes.append(f"the shipped sets {', '.join(names)} were not found; {fallback} was used")
        return puzzles
    raise InputError(f"no default puzzle set: neither {', '.join(names)} (shipped) nor "
                     f"{', '.join(FALLBACK_SETS)} (set SUDOKU_COMPARE_PUZZLES) was found; "
                     "give --puzzles")


def _given_puzzles(ref: str) -> list[Puzzle]:
    out: list[Puzzle] = []
    for part in (r.strip() for r in ref.split(",")):
        if part:
            out += resolve_puzzles(part)
    if not out:
        raise InputError(f"--puzzles {ref!r}: no puzzles selected")
    return out


def select_solvers(families: Sequence[str] | None) -> tuple[list[str], list[tuple[str, str]]]:
    """Available solvers of the requested families or groups, and the unavailable ones."""
    specs = registry.all_specs()
    known_families = {s.family for s in specs}
    known_groups = {comparison_group(f) for f in known_families}
    wanted = set(families or [])
    for f in wanted:
        if f not in known_families and f not in known_groups:
            raise InputError(f"unknown family {f!r}; known: "
                             f"{', '.join(sorted(known_families | known_groups))}")
    chosen, missing = [], []
    for s in specs:
        group = comparison_group(s.family)
        if wanted and s.family not in wanted and group not in wanted:
            if not (s.origin != "native" and group in {comparison_group(f) for f in wanted}):
                continue
        ok, reason = s.availability()
        (chosen.append(s.name) if ok else missing.append((s.name, reason)))
    return chosen, missing


def plan(families: Sequence[str] | None = None, puzzles: str | None = None,
         seeds: int | None = None, max_seconds: float | None = None,
         max_evaluations: int | None = None, time_box: float = DEFAULT_TIME_BOX,
         workers: int = 2, alternatives: bool = False, rounds: int = 3) -> RacePlan:
    """The pairs and lanes ``compare`` will race (nothing runs)."""
    if not time_box > 0 or not math.isfinite(time_box):
        raise InputError("--time-box must be a positive number of seconds")
    solvers, missing = select_solvers(families)
    pairs = pairs_for(solvers, alternatives=alternatives)
    notes: list[str] = []
    if not pairs:
        raise InputError("nothing to compare: no library with an available native in the "
                         "requested families (see `sudoku-compare list`)")
    racing = {n for p in pairs for n in (p.native, p.library)}
    by_group: dict[str, list[str]] = defaultdict(list)
    for n in sorted(racing):
        by_group[comparison_group(registry.get(n).family)].append(n)
    order = {g: i for i, g in enumerate(FAMILY_ORDER)}
    exact_pz = _given_puzzles(puzzles) if puzzles else None
    lanes = []
    for group in sorted(by_group, key=lambda g: (order.get(g, 99), g)):
        names = by_group[group]
        # complete searches race at equal time with one seed: they have no evaluation
        # budget, even where a library's counters depend on its history (z3.smt: learnt
        # clauses kept across puzzles, so not ``deterministic``)
        deterministic = not any(registry.get(n).cls.stochastic for n in names)
        pz = exact_pz or _default_puzzles(EXACT_SETS if deterministic else STOCHASTIC_SETS, notes)
        clock = Budget(max_seconds=max_seconds or DEFAULT_MAX_SECONDS)
        if deterministic:
            lanes.append(Lane(group, EQUAL_TIME, names, pz, seeds or 1, clock, EXACT_ROUNDS, True))
            continue
        until_clock = {n: {"max_restarts": -1} for n in names
                       if "max_restarts" in registry.get(n).cls.Params.__dataclass_fields__}
        timed = Lane(group, EQUAL_TIME, names, pz, seeds or 1, clock, STOCHASTIC_ROUNDS, False,
                     params=until_clock)
        _drop_duplicates(timed)
        lanes.append(timed)
        work = None if max_evaluations is None else Budget(
            max_seconds=max(10.0, time_box / 3), max_evaluations=max_evaluations)
        lanes.append(Lane(group, EQUAL_WORK, names, pz, seeds or 1, work, STOCHASTIC_ROUNDS[1:],
                          False))
    return RacePlan(pairs, lanes, time_box, workers, rounds, missing, notes)


def _drop_duplicates(lane: Lane) -> None:
    """A variant that, with this lane's overrides, runs exactly another solver's settings
    (native.sa-restarts is native.sa with ``max_restarts=-1``) is not run twice."""
    seen: dict[tuple, str] = {}
    for name in lane.solvers:
        spec = registry.get(name)
        settings = spec.create(**lane.params.get(name, {})).params
        key = (spec.cls, settings)
        if key in seen:
            lane.dropped[name] = (f"{name} runs the same settings as {seen[key]} in this lane "
                                  f"(its pairs take {seen[key]}'s runs' place: not run twice)")
        else:
            seen[key] = name


def describe_plan(p: RacePlan) -> list[str]:
    lines = [f"{len(p.pairs)} pairs, {len(p.lanes)} lanes, time box {p.time_box:g} s on "
             f"{p.workers} worker(s), at most {p.rounds} rounds (looks at level "
             f"{ALPHA / p.rounds:.3g} each, Holm over all pairs and views)"]
    for lane in p.lanes:
        budget = ("sized after round 1 from the libraries' schedules" if lane.budget is None
                  else _budget_text(lane.budget, lane.view))
        lines.append(f"{lane.name}: {', '.join(lane.solvers)}; {len(lane.puzzles)} puzzles "
                     f"available, {lane.seeds} seed(s), {budget}; rounds of "
                     f"{', '.join(map(str, lane.round_sizes))} puzzles")
        if lane.params:
            lines.append(f"  with max_restarts=-1 (restart until the clock) for "
                         f"{', '.join(sorted(lane.params))}")
    for pair in p.pairs:
        lines.append(f"pair ({pair.kind}): {pair.label}")
    if p.unavailable:
        lines.append("unavailable: " + "; ".join(f"{n} ({r})" for n, r in p.unavailable))
    lines += [f"note: {n}" for n in p.notes]
    return lines


def _budget_text(b: Budget, view: str) -> str:
    if view == EQUAL_WORK:
        return f"{b.max_evaluations:,} evaluations (clock guard {b.max_seconds:g} s)"
    return f"{b.max_seconds:g} s per run"


# -- measuring what ran -----------------------------------------------------------------
def _seconds(run: Run) -> float:
    return float(run["elapsed_s"]) if run.get("elapsed_s") is not None else float(run["max_seconds"])


def _cost_per_puzzle(lane: Lane, runs: Sequence[Run], workers: int) -> float | None:
    """Wall seconds one more puzzle of ``lane`` costs on ``workers``, from its runs so far."""
    mine = [r for r in runs if r["solver"] in lane.active() and view_of(r) == lane.view
            and _in_budget(r, lane)]
    per_solver: dict[str, list[float]] = defaultdict(list)
    for r in mine:
        per_solver[r["solver"]].append(_seconds(r))
    if not mine and lane.view == EQUAL_WORK and lane.budget is not None:
        # not run yet: each solver's evaluation rate at equal time prices its budget
        for r in runs:
            if r["solver"] not in lane.active() or view_of(r) != EQUAL_TIME:
                continue
            if (r.get("evaluations") or 0) >= 1_000 and _seconds(r) > 0.01:
                rate = r["evaluations"] / _seconds(r)
                cost = lane.budget.max_evaluations / rate
            else:  # solved before it counted much (presolve): as long as at equal time
                cost = _seconds(r)
            per_solver[r["solver"]].append(min(lane.budget.max_seconds, cost))
    if not per_solver:
        return None
    # a worker process adds its own start and dispatch time to every run: 20 ms
    return sum(statistics.fmean(v) + 0.02 for v in per_solver.values()) * lane.seeds / workers


def _in_budget(run: Run, lane: Lane) -> bool:
    b = lane.budget
    return b is not None and float(run["max_seconds"]) == b.max_seconds and (
        run.get("max_evaluations") == b.max_evaluations)


def ladder_step(evaluations: float) -> int:
    """The largest of 1,000, 2,000, 5,000, 10,000, 20,000, ... not above ``evaluations``
    (1,000 at least). An equal-work budget sized from a measured rate lands on this ladder,
    so two runs of ``compare`` whose rates differ by the usual tens of percent race the same
    budget unless the rate crosses a step (rounded to two significant digits instead, it
    changed at almost every run)."""
    ladder = [m * 10 ** e for e in range(3, 16) for m in (1, 2, 5)]
    return max([v for v in ladder if v <= evaluations], default=ladder[0])


def size_equal_work(lane: Lane, runs: Sequence[Run], cap_seconds: float) -> None:
    """Set ``lane.budget`` from the libraries' equal-time runs (see the module docstring)."""
    schedules, rates = [], []
    for r in runs:
        if r["solver"] not in lane.solvers or r.get("max_evaluations") != PILOT_EVALUATIONS:
            continue
        spec = registry.get(r["solver"])
        ev, t = r.get("evaluations") or 0, _seconds(r)
        if spec.origin != "native" and ev > 0 and t > 0:
            rates.append(ev / t)
            frac = r.get("schedule_fraction")
            if frac and frac > 0 and r.get("stop_reason") != "target":
                schedules.append(ev / frac)
    if not rates:
        lane.stopped = "no library evaluation rate measured at equal time: equal work not run"
        return
    rate = min(rates)
    affordable = int(rate * cap_seconds)
    schedule = int(max(schedules)) if schedules else None
    if schedule is not None and schedule <= affordable:
        evals = schedule
        lane.note = f"one whole library schedule ({schedule:,} evaluations)"
    else:
        evals = ladder_step(affordable)
        lane.note = (f"{evals:,} evaluations: what the slowest library does in {cap_seconds:g} s "
                     f"here ({rate:,.0f} evaluations/s), rounded down to the 1-2-5 ladder" + (
                         f"; a whole library schedule is {schedule:,} evaluations, about "
                         f"{schedule / rate:,.0f} s a run: give a larger --time-box to race it"
                         if schedule else "; no library reported the length of its schedule"))
    guard = max(5.0, 4.0 * evals / rate + 1.0)
    lane.budget = Budget(max_seconds=round(guard, 1), max_evaluations=evals)


def _early_stops(p: RacePlan, lane: Lane, runs: Sequence[Run]) -> None:
    """After a lane's first round: drop deterministic solvers that solved nothing, and stop
    pairs in which neither side solved anything."""
    mine = [r for r in runs if view_of(r) == lane.view and _in_budget(r, lane)]
    solved = defaultdict(int)
    count = defaultdict(int)
    for r in mine:
        count[r["solver"]] += 1
        solved[r["solver"]] += int(r["status"] == "solved"
                                   and (lane.view == EQUAL_WORK or _seconds(r) <= r["max_seconds"]))
    for s in lane.active():
        if lane.deterministic and count[s] and not solved[s]:
            lane.dropped[s] = (f"{s} solved none of its first {count[s]} puzzles within "
                               f"{_budget_text(lane.budget, lane.view)}: stopped early")
    for pair in p.pairs:
        key = (pair.label, lane.view)
        if pair.native in lane.solvers and key not in p.stopped:
            for s in (pair.native, pair.library):
                if s in lane.dropped:
                    p.stopped[key] = lane.dropped[s]
            if count[pair.native] and not solved[pair.native] and not solved[pair.library] \
                    and key not in p.stopped:
                p.stopped[key] = (f"neither solved any of the first {count[pair.native]} "
                                  f"puzzles at {_budget_text(lane.budget, lane.view)}: nothing "
                                  "to tell apart at this budget")


# -- racing -----------------------------------------------------------------------------
def race(p: RacePlan, db: str | Path, *, progress: bool = True, command: str | None = None,
         campaign_seed: int = 0) -> list[Verdict]:
    """Run the rounds into ``db`` and return the final verdicts (the plan records the log)."""
    start = time.perf_counter()
    alpha = ALPHA / p.rounds
    verdicts: list[Verdict] = []
    with LocalProcessExecutor(p.workers) as executor:
        for rnd in range(p.rounds):
            elapsed = time.perf_counter() - start
            left = p.time_box - elapsed
            runs = _stored(db)
            if rnd == 1:
                for lane in p.lanes:
                    if lane.view == EQUAL_WORK and lane.budget is None:
                        size_equal_work(lane, runs, cap_seconds=max(1.0, p.time_box / 45))
            specs = _round_specs(p, rnd, runs, left, campaign_seed, command)
            if not specs:
                break
            pilots = _pilot_specs(p, campaign_seed, command) if rnd == 0 else []
            if progress:
                print(f"round {rnd + 1}: " + "; ".join(p.log[-len(specs):]), file=sys.stderr)
            run_campaigns([s for _, s in specs] + pilots, str(db), p.workers, progress,
                          executor=executor, summary=False)
            runs = _stored(db)
            for lane, _ in specs:
                if len(lane.rounds) == 1:
                    _early_stops(p, lane, runs)
            verdicts = assess(p.pairs, runs, alpha=alpha)
            for v in verdicts:
                key = (v.pair.label, v.view)
                if key not in p.stopped and v.decision in ("significant", "equivalent"):
                    p.stopped[key] = f"{v.decision} after round {rnd + 1}"
            if time.perf_counter() - start >= p.time_box:
                break
    for v in verdicts:
        key = (v.pair.label, v.view)
        v.why_stopped = p.stopped.get(key, "time box or last round reached, still open")
    p.log.append(f"campaigns took {time.perf_counter() - start:.0f} s of wall time "
                 f"(time box {p.time_box:g} s)")
    return verdicts


def _pilot_specs(p: RacePlan, campaign_seed: int, command: str | None) -> list[CampaignSpec]:
    """One run per library of each equal-work lane, to measure its schedule (round 1)."""
    out = []
    for lane in p.lanes:
        if lane.view != EQUAL_WORK or lane.budget is not None:
            continue
        libraries = [n for n in lane.solvers if registry.get(n).origin != "native"]
        if libraries and lane.puzzles:
            out.append(CampaignSpec(libraries, lane.puzzles[:1], 1,
                                    Budget(max_seconds=30.0, max_evaluations=PILOT_EVALUATIONS),
                                    campaign_seed, command=command))
            p.log.append(f"{lane.name}: pilot of {', '.join(libraries)} on one puzzle at "
                         f"{PILOT_EVALUATIONS:,} evaluations (measures the schedule)")
    return out


def _stored(db: str | Path) -> list[Run]:
    if not Path(db).exists():
        return []
    with Store(db, readonly=True) as store:
        try:
            return store.read_only_runs(REPORT_COLUMNS)
        except StoredValueError as exc:
            raise InputError(f"{db}: {exc}") from None


def _open_solvers(p: RacePlan, lane: Lane) -> list[str]:
    """Solvers of ``lane`` that still take part in an undecided pair of its view."""
    out = set()
    for pair in p.pairs:
        if (pair.label, lane.view) in p.stopped:
            continue
        if pair.native in lane.active() and pair.library in lane.active():
            out |= {pair.native, pair.library}
    return sorted(out)


def _open_counterpart(p: RacePlan, lane: Lane) -> bool:
    return any(pair.kind == "counterpart" and pair.native in lane.active()
               and pair.library in lane.active() and (pair.label, lane.view) not in p.stopped
               for pair in p.pairs)


def _round_specs(p: RacePlan, rnd: int, runs: Sequence[Run], left: float, campaign_seed: int,
                 command: str | None) -> list[tuple[Lane, CampaignSpec]]:
    """This round's campaign per open lane, each sized to its share of the time left."""
    lanes = [lane for lane in p.lanes if not lane.stopped and lane.budget is not None
             and len(lane.rounds) < len(lane.round_sizes) and lane.done < len(lane.puzzles)
             and _open_solvers(p, lane)]
    costs = {id(lane): _cost_per_puzzle(lane, runs, p.workers) for lane in lanes}
    # a lane that has not run yet gets its first 2 puzzles before the others share the rest,
    # so every question asked gets at least some evidence
    first = [lane for lane in lanes if not lane.rounds]
    reserved = sum(2 * (costs[id(lane)] or 0.0) for lane in first)
    # a lane still racing a counterpart pair (the question compare exists for) gets a larger
    # share: three at equal time (cheap runs, so the share buys many puzzles), two at equal work
    weight = {id(lane): (3.0 if lane.view == EQUAL_TIME else 2.0) if _open_counterpart(p, lane)
              else 1.0 for lane in lanes}
    total = sum(weight.values())
    out = []
    for lane in lanes:
        want = lane.round_sizes[len(lane.rounds)]
        cost = costs[id(lane)]
        if cost is None and lane.budget is not None:
            # nothing measured yet: size the first slice by its worst case (every run at its
            # whole clock), so one slow lane cannot take the whole box before a look
            worst = len(_open_solvers(p, lane)) * lane.budget.max_seconds * lane.seeds / p.workers
            want = min(want, max(3, int(left / len(lanes) / worst)))
        if cost is not None and cost > 0:
            mine = 2 * cost if lane in first else 0.0
            share = mine + max(0.0, left - reserved) * weight[id(lane)] / total
            want = min(want, int(share / cost))
            if want < 2:
                lane.stopped = (f"time box: {left:.0f} s left for {len(lanes)} lanes, one more "
                                f"puzzle costs about {cost:.1f} s here")
                continue
        chosen = lane.puzzles[lane.done: lane.done + want]
        if not chosen:
            continue
        solvers = _open_solvers(p, lane)
        lane.done += len(chosen)
        lane.rounds.append(f"round {rnd + 1}: {len(chosen)} puzzles × {lane.seeds} seed(s), "
                           f"{', '.join(solvers)}")
        p.log.append(f"{lane.name}: {len(chosen)} puzzles, {len(solvers)} solvers")
        out.append((lane, CampaignSpec(solvers, chosen, lane.seeds, lane.budget, campaign_seed,
                                       params={n: lane.params[n] for n in solvers
                                               if n in lane.params} or None,
                                       command=command)))
    return out


# -- the report -------------------------------------------------------------------------
def plan_section(p: RacePlan) -> list[str]:
    out = ["## How it was raced", ""]
    out += [f"- {line}" for line in describe_plan(p)]
    out.append("")
    for lane in p.lanes:
        budget = "not run" if lane.budget is None else _budget_text(lane.budget, lane.view)
        out.append(f"**{lane.name}** ({budget}{'; ' + lane.note if lane.note else ''}):")
        out += [f"- {r}" for r in lane.rounds] or ["- no round ran"]
        out += [f"- {why}" for why in lane.dropped.values()]
        if lane.stopped:
            out.append(f"- lane stopped: {lane.stopped}")
        out.append("")
    out += [f"- {line}" for line in p.log[-1:]]
    return out + [""]


def compare(families: Sequence[str] | None = None, puzzles: str | None = None,
            seeds: int | None = None, max_seconds: float | None = None,
            out: str | Path = "reports/compare.md", db: str | Path | None = None,
            workers: int = 2, progress: bool = True, command: str | None = None,
            title: str | None = None, campaign_seed: int = 0,
            max_evaluations: int | None = None, time_box: float = DEFAULT_TIME_BOX,
            alternatives: bool = False):
    """Plan, race and report; returns ``(summary, verdicts)``."""
    p = plan(families, puzzles, seeds, max_seconds, max_evaluations, time_box, workers,
             alternatives)
    command = command or compare_command(families, puzzles, seeds, max_seconds, out, db,
                                         workers, title, max_evaluations, time_box)
    if progress:
        for line in describe_plan(p):
            print(line, file=sys.stderr)
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="sudoku-compare-")
        db = Path(tmp.name) / "compare.db"
    try:
        verdicts = race(p, db, progress=progress, command=command, campaign_seed=campaign_seed)
        groups = ", ".join(dict.fromkeys(lane.group for lane in p.lanes))
        summary = write_report(db, out, report_command=command,
                               title=title or f"Native against library: {groups}",
                               preamble=plan_section(p),
                               db_label=None if tmp is None else
                               "(temporary, deleted after the report)",
                               verdicts=verdicts, verdict_level=(
                                   f"Holm over every line at 0.05 / {p.rounds} looks = "
                                   f"{ALPHA / p.rounds:.3g} per look (a Bonferroni split "
                                   "over the rounds keeps the family-wise error at 0.05)"))
    finally:
        if tmp is not None:
            tmp.cleanup()
    return summary, verdicts


def compare_command(families, puzzles, seeds, max_seconds, out, db, workers,
                    title: str | None = None, max_evaluations: int | None = None,
                    time_box: float | None = None) -> str:
    parts = ["sudoku-compare", "compare", *(families or [])]
    if puzzles is not None:
        parts += ["--puzzles", puzzles]
    if seeds is not None:
        parts += ["--seeds", str(seeds)]
    if max_seconds is not None:
        parts += ["--max-seconds", f"{max_seconds:g}"]
    if max_evaluations is not None:
        parts += ["--max-evals", str(max_evaluations)]
    if time_box is not None and time_box != DEFAULT_TIME_BOX:
        parts += ["--time-box", f"{time_box:g}"]
    parts += ["--out", str(out)]
    if db is not None:
        parts += ["--db", str(db)]
    parts += ["--workers", str(workers)]
    if title:
        parts += ["--title", title]
    return shlex.join(parts)
