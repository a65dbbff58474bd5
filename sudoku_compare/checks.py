"""The public solver contract: every point of the adapter guide, as checks anyone can run.

Like scikit-learn's ``check_estimator``, the contract is part of the package, not of its
test suite, so a third-party adapter tests itself with the same checks the built-in
solvers pass::

    from sudoku_compare.checks import parametrize_with_checks

    @parametrize_with_checks(["mylib.ga"])
    def test_contract(solver, check):
        check(solver)

or, outside pytest, ``check_solver("mylib.ga")`` prints one line per check.

The checks run in this process (they are the core's, and the core knows nothing of the
harness's isolated workers), so each solve is guarded by an interval timer where the
platform allows; a solver that ignores its deadline inside compiled code can still hang
a check, which is itself the failure the time check reports once it returns.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.parsing import parse_line

from . import registry
from .budget import Budget
from .outcome import Outcome, Status
from .registry import SolverSpec, check_declaration
from .solver import Solver, parameter_table, parse_params
from .verify import verify
from .vocabulary import StopReason

#: a 9x9 puzzle with one solution
SOLVABLE = "000260701680070090190004500820100040004602900050003028009300074040050036703018000"
#: the same with its first three rows emptied: several solutions
SEVERAL = "0" * 27 + SOLVABLE[27:]
#: no conflicting givens and no solution (cell 0 has no candidate left)
NO_SOLUTION = "012345678" + "0" * 18 + "9" + "0" * 53
#: a 4x4 with one solution
SMALL = "1.3....2.1...32."
SEED = 11
#: the clock of the no-solution case: nothing may end that run earlier but a proof
TIME_LIMIT = 1.0
#: the evaluation budget of the stochastic checks
EVALUATIONS = 2_000


def grace_seconds(max_seconds: float) -> float:
    """How far past ``max_seconds`` a run may finish: 2 s or 20 % (the harness kills later)."""
    return max(2.0, 0.2 * max_seconds)


class ContractError(AssertionError):
    """A solver failed one or more checks (the message lists them)."""


@dataclass(frozen=True)
class CheckResult:
    check: str
    status: str          # pass | fail | skip | xfail
    message: str = ""

    def __str__(self) -> str:
        return f"{self.status.upper():5} {self.check}" + (f": {self.message}" if self.message else "")


class CheckSkipped(Exception):  # noqa: N818 - a control-flow signal, not an error
    """The check does not apply to this solver (the message says why)."""


# -- running solves in-process, guarded ---------------------------------------------------
class _CheckTimeout(Exception):  # noqa: N818
    pass


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Interrupt Python code after ``seconds`` (main thread on POSIX only; else no guard)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def fire(signum: int, frame: Any) -> None:
        raise _CheckTimeout(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def captured_fds() -> Iterator[list[bytes]]:
    """Send fds 1 and 2 to a temporary file; the yielded list receives what was written.

    File descriptors, not only ``sys.stdout``: libraries print from C/C++ (OR-Tools,
    numba warnings), and the harness promises ``solve --json`` output that is only JSON.
    ``sys.stdout``/``sys.stderr`` are swapped too, because a host such as pytest may have
    replaced them with objects that do not write to fds 1 and 2.
    """
    sink: list[bytes] = []
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as tmp:
        saved = [os.dup(1), os.dup(2)]
        streams = sys.stdout, sys.stderr
        text = open(tmp.fileno(), "w", closefd=False)  # noqa: SIM115 - closed below
        try:
            os.dup2(tmp.fileno(), 1)
            os.dup2(tmp.fileno(), 2)
            sys.stdout = sys.stderr = text
            yield sink
        finally:
            text.flush()
            sys.stdout, sys.stderr = streams
            text.close()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            tmp.seek(0)
            sink.append(tmp.read())


def _numba_signatures() -> dict[int, int]:
    """How many compiled signatures each loaded numba dispatcher of this package has."""
    if "numba" not in sys.modules:
        return {}
    from numba.core.registry import CPUDispatcher  # numba is loaded already: no cost

    out: dict[int, int] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("sudoku_compare.") or module is None:
            continue
        for obj in list(vars(module).values()):
            if isinstance(obj, CPUDispatcher):
                out[id(obj)] = len(obj.signatures)
    return out


@dataclass
class _Run:
    outcome: Outcome
    output: bytes
    new_compilations: int


def _solve(solver: Solver, line: str, budget: Budget, seed: int = SEED, warm: bool = True) -> _Run:
    puzzle = parse_line(line, source="<contract>")
    limit = budget.max_seconds + grace_seconds(budget.max_seconds) + 10.0
    with captured_fds() as output:
        if warm:
            solver.warmup()
            solver.warmup_for(puzzle)
        before = _numba_signatures()
        start = time.perf_counter()
        try:
            with _alarm(limit):
                out = solver.solve(puzzle, budget, seed)
        except _CheckTimeout as exc:
            out = Outcome(status=Status.TIMEOUT, error=str(exc))
        out.elapsed_s = time.perf_counter() - start
        after = _numba_signatures()
    new = sum(n - before.get(k, 0) for k, n in after.items())
    return _Run(verify(puzzle, out), output[0], new)


# -- the checks ---------------------------------------------------------------------------
def check_declaration_complete(spec: SolverSpec) -> None:
    """name, family and encoding from the vocabulary, origin, a frozen typed Params."""
    check_declaration(spec.cls, spec.name)
    params = spec.cls.Params
    if not params.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise AssertionError(f"{params.__name__} is not frozen (@dataclass(frozen=True))")
    spec.create()


def check_parameters_typed(spec: SolverSpec) -> None:
    """Every parameter is settable with ``--param K=V``: its default written back parses to itself."""
    for name, _tname, default in parameter_table(spec.cls.Params):
        value = spec.defaults.get(name, default)
        text = "none" if value is None else str(value)
        parsed = parse_params(spec.cls.Params, [f"{name}={text}"], spec.name)[name]
        if parsed != value:
            raise AssertionError(f"--param {name}={text} parses to {parsed!r}, not {value!r}")


def check_importable_without_library(spec: SolverSpec) -> None:
    """The solver's module imports in a fresh interpreter where its ``requires`` are missing,
    and ``availability()`` then says so (the registry imports every adapter to list it)."""
    blocked = list(spec.cls.requires)
    code = (
        "import sys, importlib, importlib.abc\n"
        f"BLOCKED = {blocked!r}\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Block())\n"
        "import importlib.util\n"
        "_find = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n.split('.')[0] in BLOCKED else _find(n, *a)\n"
        f"mod = importlib.import_module({spec.cls.__module__!r})\n"
        f"cls = getattr(mod, {spec.cls.__qualname__!r})\n"
        "ok, reason = cls.availability()\n"
        "assert ok == (not BLOCKED), (ok, reason)\n"
        "assert ok or reason, 'unavailable without a reason'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                              p for p in sys.path if p)})
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise AssertionError(f"importing {spec.cls.__module__} without {blocked or 'nothing'}: {last}")


def _available(spec: SolverSpec) -> None:
    ok, reason = spec.availability()
    if not ok:
        raise CheckSkipped(reason)


def _cases(spec: SolverSpec) -> dict[str, str]:
    cases = {"solvable": SOLVABLE, "several": SEVERAL, "no-solution": NO_SOLUTION}
    if 2 in spec.cls.boxes:
        cases["small"] = SMALL
    return cases


def _budget(spec: SolverSpec, case: str) -> Budget:
    if case == "no-solution":
        return Budget(max_seconds=TIME_LIMIT)
    if spec.cls.stochastic:
        return Budget(max_seconds=20.0, max_evaluations=EVALUATIONS)
    return Budget(max_seconds=5.0)


def check_verified_grids(spec: SolverSpec) -> None:
    """An Outcome for every case, a grid that passes the checker whenever it claims one;
    complete methods solve the solvable cases and report the unsolvable one unsolved."""
    _available(spec)
    solver = spec.create()
    for case, line in _cases(spec).items():
        out = _solve(solver, line, _budget(spec, case)).outcome
        if out.status not in (Status.SOLVED, Status.UNSOLVED):
            raise AssertionError(f"{case}: {out.status} {out.error or ''} {out.violations}")
        if out.status == Status.SOLVED and not is_solution(parse_line(line), out.grid):
            raise AssertionError(f"{case}: a grid counted solved is not a solution")
        if case == "no-solution" and out.status != Status.UNSOLVED:
            raise AssertionError("no-solution: not reported unsolved")
        if not spec.cls.stochastic and case in ("solvable", "small") and out.status != Status.SOLVED:
            raise AssertionError(f"{case}: a complete method returned {out.status}")


def check_silent(spec: SolverSpec) -> None:
    """Nothing written to fd 1 or 2 by warm-up or solve."""
    _available(spec)
    run = _solve(spec.create(), SOLVABLE, _budget(spec, "solvable"))
    if run.output:
        raise AssertionError(f"wrote {len(run.output)} bytes: {run.output[:120]!r}")


def check_time_budget(spec: SolverSpec) -> None:
    """On an unsolvable puzzle the run ends within ``max_seconds`` plus the grace."""
    _available(spec)
    out = _solve(spec.create(), NO_SOLUTION, Budget(max_seconds=TIME_LIMIT)).outcome
    limit = TIME_LIMIT + grace_seconds(TIME_LIMIT)
    if out.status == Status.TIMEOUT or (out.elapsed_s or 0) > limit:
        raise AssertionError(f"ran {out.elapsed_s:.2f} s under max_seconds={TIME_LIMIT:g} "
                             f"(limit with grace {limit:g} s)")


def check_evaluation_budget(spec: SolverSpec) -> None:
    """A stochastic solver spends at most ``max_evaluations``; one stopped by that budget
    spent exactly it and says so (``stop_reason == "evaluations"``)."""
    _available(spec)
    if not spec.cls.stochastic:
        raise CheckSkipped("not stochastic: no evaluation budget to honour")
    budget = Budget(max_seconds=60.0, max_evaluations=500)
    out = _solve(spec.create(), SOLVABLE, budget).outcome
    if out.evaluations > budget.max_evaluations:
        raise AssertionError(f"{out.evaluations} evaluations under max_evaluations=500")
    if out.stop_reason == StopReason.EVALUATIONS and out.evaluations != budget.max_evaluations:
        raise AssertionError(f"stopped by the evaluation budget after {out.evaluations}, not 500")
    if out.status != Status.SOLVED and out.stop_reason != StopReason.EVALUATIONS:
        raise AssertionError(f"unsolved after {out.evaluations} evaluations with stop_reason "
                             f"{out.stop_reason!r}, not 'evaluations'")


def check_target(spec: SolverSpec) -> None:
    """A stochastic solver stops as soon as its best energy reaches ``budget.target``."""
    _available(spec)
    if not spec.cls.stochastic:
        raise CheckSkipped("not stochastic: it stops at a solution")
    budget = Budget(max_seconds=60.0, max_evaluations=50_000, target=10**9)
    out = _solve(spec.create(), SOLVABLE, budget).outcome
    if out.stop_reason != StopReason.TARGET:
        raise AssertionError(f"every state meets target 1e9, yet stop_reason is {out.stop_reason!r}")
    if out.evaluations >= budget.max_evaluations:
        raise AssertionError("spent the whole evaluation budget although the target was met")


def check_stop_reason(spec: SolverSpec) -> None:
    """Every Outcome says why the run ended, in the vocabulary's words."""
    _available(spec)
    known = {str(r) for r in StopReason}
    for case, line in _cases(spec).items():
        out = _solve(spec.create(), line, _budget(spec, case)).outcome
        if out.stop_reason not in known:
            raise AssertionError(f"{case}: stop_reason {out.stop_reason!r} is not one of "
                                 f"{', '.join(sorted(known))}")
        if out.status == Status.SOLVED and out.stop_reason != StopReason.TARGET:
            raise AssertionError(f"{case}: solved, yet stop_reason {out.stop_reason!r}")


def check_seed_reproducible(spec: SolverSpec) -> None:
    """A solver declared deterministic gives the same grid, evaluations and counters for
    the same seed and evaluation budget."""
    _available(spec)
    if not spec.cls.deterministic:
        raise CheckSkipped("declared non-deterministic")
    budget = _budget(spec, "solvable")
    a = _solve(spec.create(), SOLVABLE, budget).outcome
    b = _solve(spec.create(), SOLVABLE, budget).outcome
    for what in ("grid_line", "evaluations", "counters"):
        x, y = getattr(a, what), getattr(b, what)
        x, y = (x(), y()) if callable(x) else (x, y)
        if x != y:
            raise AssertionError(f"same seed, different {what.replace('_line', '')}: {x!r} vs {y!r}")


def check_warmup_complete(spec: SolverSpec) -> None:
    """After ``warmup`` and ``warmup_for``, the timed solve compiles nothing more (numba)."""
    _available(spec)
    run = _solve(spec.create(), SOLVABLE, _budget(spec, "solvable"))
    if run.new_compilations:
        raise AssertionError(f"the first timed solve compiled {run.new_compilations} new "
                             "numba signature(s): warmup_for leaves work for the clock")


CHECKS: tuple[Callable[[SolverSpec], None], ...] = (
    check_declaration_complete,
    check_parameters_typed,
    check_importable_without_library,
    check_verified_grids,
    check_silent,
    check_time_budget,
    check_evaluation_budget,
    check_target,
    check_stop_reason,
    check_seed_reproducible,
    check_warmup_complete,
)


def _name(check: Callable) -> str:
    return check.__name__.removeprefix("check_")


# -- the entry points ---------------------------------------------------------------------
def _spec(solver: str | type[Solver] | SolverSpec) -> SolverSpec:
    if isinstance(solver, SolverSpec):
        return solver
    if isinstance(solver, str):
        return registry.get(solver)
    registered = {s.cls: s for s in registry.load().values() if s.name == solver.name}
    return registered.get(solver) or SolverSpec(solver.name, solver, {}, solver.description,
                                                f"module {solver.__module__}")


def run_check(check: Callable[[SolverSpec], None], solver: str | type[Solver] | SolverSpec,
              known_failures: dict[tuple[str, str], str] | None = None) -> CheckResult:
    """Run one check; a failure listed in ``known_failures`` is an ``xfail``."""
    spec = _spec(solver)
    known = (known_failures or {}).get((spec.name, _name(check)))
    try:
        check(spec)
    except CheckSkipped as exc:
        return CheckResult(_name(check), "skip", str(exc))
    except AssertionError as exc:
        return CheckResult(_name(check), "xfail" if known else "fail",
                           f"{exc}" + (f" (known: {known})" if known else ""))
    except Exception as exc:  # noqa: BLE001 - a crashing check is a failed check, with its reason
        return CheckResult(_name(check), "xfail" if known else "fail",
                           f"{type(exc).__name__}: {exc}")
    return CheckResult(_name(check), "pass")


def check_solver(solver: str | type[Solver] | SolverSpec,
                 known_failures: dict[tuple[str, str], str] | None = None,
                 checks: Sequence[Callable[[SolverSpec], None]] = CHECKS,
                 print_results: bool = True) -> list[CheckResult]:
    """Run the whole contract on one solver (a registered name or a Solver class).

    Prints one line per check and raises :class:`ContractError` if any failed (known
    failures excepted), so it works in a script, a notebook or a test.
    """
    spec = _spec(solver)
    results = []
    for check in checks:
        result = run_check(check, spec, known_failures)
        results.append(result)
        if print_results:
            print(f"{spec.name}: {result}", flush=True)
    failed = [r for r in results if r.status == "fail"]
    if failed:
        raise ContractError(f"{spec.name} fails {len(failed)} check(s): "
                            + "; ".join(f"{r.check}: {r.message}" for r in failed))
    return results


def parametrize_with_checks(solvers: Sequence[str | type[Solver]],
                            known_failures: dict[tuple[str, str], str] | None = None,
                            checks: Sequence[Callable[[SolverSpec], None]] = CHECKS):
    """A ``pytest.mark.parametrize`` over (solver, check), one test id per pair.

    The decorated test receives ``solver`` (the spec) and ``check`` (a callable taking
    the spec) and calls ``check(solver)``; skips become pytest skips, known failures
    non-strict xfails, so ``-k 'native.sa and silent'`` selects one.
    """
    import pytest  # only for this helper: the contract itself works without pytest

    params = []
    for solver in solvers:
        spec = _spec(solver)
        for check in checks:
            reason = (known_failures or {}).get((spec.name, _name(check)))
            marks = [pytest.mark.xfail(reason=reason, strict=False)] if reason else []
            params.append(pytest.param(spec, _pytest_check(check), marks=marks,
                                       id=f"{spec.name}-{_name(check)}"))
    return pytest.mark.parametrize(("solver", "check"), params)


def _pytest_check(check: Callable[[SolverSpec], None]) -> Callable[[SolverSpec], None]:
    """The check with :class:`CheckSkipped` turned into ``pytest.skip``."""
    import pytest

    def run(spec: SolverSpec) -> None:
        try:
            check(spec)
        except CheckSkipped as exc:
            pytest.skip(str(exc))

    run.__name__ = check.__name__
    run.__doc__ = check.__doc__
    return run


__all__ = [
    "CHECKS", "CheckResult", "ContractError", "captured_fds", "check_solver",
    "parametrize_with_checks", "run_check", *[c.__name__ for c in CHECKS],
]
