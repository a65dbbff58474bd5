"""The one interface every solver, native or adapter, implements.

A solver class declares ``name``, ``family``, ``origin``, ``encoding``, a ``Params``
dataclass whose defaults are the seed material's settings, and
``solve(puzzle, budget, seed) -> Outcome``. Configured variants (``native.sa-reheat``)
are registered as the same class with other parameter defaults, not as subclasses.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.puzzle import Puzzle

from .budget import Budget
from .outcome import Outcome


@dataclass(frozen=True)
class NoParams:
    """For solvers without parameters."""


class Solver:
    """Base class. Subclasses set the class attributes and implement :meth:`solve`."""

    name: ClassVar[str] = ""
    family: ClassVar[str] = ""
    origin: ClassVar[str] = "native"
    encoding: ClassVar[str] = ""
    Params: ClassVar[type] = NoParams
    #: same seed gives the same outcome (grid, counters, evaluations)
    deterministic: ClassVar[bool] = True
    #: stochastic solvers stop at budget.target and use the seed
    stochastic: ClassVar[bool] = False
    #: import names that must be importable for the solver to be available
    requires: ClassVar[tuple[str, ...]] = ()
    #: pip extra that installs what ``requires`` names
    extra: ClassVar[str | None] = None
    #: distribution whose version is recorded (defaults to ``origin`` for adapters)
    distribution: ClassVar[str | None] = None
    #: box sizes the solver accepts
    boxes: ClassVar[tuple[int, ...]] = (2, 3, 4, 5)
    description: ClassVar[str] = ""
    #: for an adapter: the registered native solver that runs the same algorithm on the
    #: same encoding with the same parameters as far as the library allows
    counterpart: ClassVar[str | None] = None

    def __init__(self, params: Any = None, **overrides: Any) -> None:
        base = params if params is not None else self.Params()
        self.params = dataclasses.replace(base, **overrides) if overrides else base

    # -- to implement -------------------------------------------------------------
    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        raise NotImplementedError

    def warmup(self) -> None:
        """Compile kernels / import the library, so the first measured run is not the slowest."""

    def warmup_for(self, puzzle: Puzzle) -> None:
        """Compile what this puzzle's size needs beyond :meth:`warmup` (default: nothing).

        The runner calls it once per (solver, box size) before the timed solve, so a kernel
        specialised per size is compiled outside the measured time without compiling every
        size up front.
        """

    # -- availability ---------------------------------------------------------------
    @classmethod
    def availability(cls) -> tuple[bool, str]:
        """(available, reason). Checks the import names without importing them."""
        for mod in cls.requires:
            if importlib.util.find_spec(mod) is None:
                hint = f'pip install "sudoku-compare[{cls.extra}]"' if cls.extra else f"install {mod}"
                return False, f"{mod} is not installed ({hint})"
        return True, ""

    @classmethod
    def library_version(cls) -> str | None:
        dist = cls.distribution or (cls.origin if cls.origin != "native" else None)
        if not dist:
            return None
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return None


def parameter_table(params_cls: type) -> list[tuple[str, str, Any]]:
    """(name, type name, default) of each parameter."""
    out = []
    for f in fields(params_cls):
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else None)
        tname = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        out.append((f.name, str(tname), default))
    return out


def _convert(name: str, tname: str, text: str, default: Any) -> Any:
    t = tname.replace(" ", "")
    optional = "None" in t
    if optional and text.lower() in ("none", "null", ""):
        return None
    base = t.replace("|None", "").replace("None|", "").replace("Optional[", "").rstrip("]")
    if base == "bool":
        low = text.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError("expected true or false")
    if base == "int":
        return int(text)
    if base == "float":
        return float(text)
    if base == "str":
        return text
    if base.startswith("Literal["):
        choices = [c.strip().strip("'\"") for c in base[len("Literal["):].split(",")]
        if text not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}")
        return text
    if isinstance(default, bool):
        return _convert(name, "bool", text, default)
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    return text


def parse_params(params_cls: type, assignments: list[str], solver_name: str = "") -> dict[str, Any]:
    """Turn ``["K=V", ...]`` into typed overrides, refusing unknown keys and bad values."""
    table = {name: (tname, default) for name, tname, default in parameter_table(params_cls)}
    valid = ", ".join(f"{n} ({t}, default {d!r})" for n, (t, d) in table.items()) or "none"
    who = f" for {solver_name}" if solver_name else ""
    out: dict[str, Any] = {}
    for item in assignments:
        if "=" not in item:
            raise InputError(f"--param {item!r}: expected KEY=VALUE; valid keys{who}: {valid}")
        key, _, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if key not in table:
            raise InputError(f"--param {key!r}: unknown parameter{who}; valid keys: {valid}")
        tname, default = table[key]
        try:
            out[key] = _convert(key, tname, text.strip(), default)
        except ValueError as exc:
            raise InputError(f"--param {key}={text!r}: bad value ({exc}); {key} is {tname}") from None
    return out
