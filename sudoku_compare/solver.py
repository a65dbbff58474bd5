"""The one interface every solver, native or adapter, implements.

A solver class declares ``name``, ``family``, ``origin``, ``encoding``, a ``Params``
dataclass whose defaults are the seed material's settings, and
``solve(puzzle, budget, seed) -> Outcome``. Configured variants (``native.sa-reheat``)
are registered as the same class with other parameter defaults, not as subclasses.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.metadata
import importlib.util
import math
import numbers
import types
import typing
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np

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
    #: a library that keeps memory it never frees (pychoco 0.4.0: about 170 KB a solve)
    #: declares after how many runs a campaign worker is replaced by a fresh process, so a
    #: long campaign stays under the memory cap instead of ending in ``memout``
    runs_per_worker: ClassVar[int | None] = None

    def __init__(self, params: Any = None, **overrides: Any) -> None:
        if params is not None:
            check_values(type(params), {f.name: getattr(params, f.name) for f in fields(params)})
        check_values(self.Params, overrides)
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


#: the value types a parameter may have: what ``--param K=V`` can be converted to
SCALAR_TYPES: tuple[type, ...] = (bool, int, float, str)


@dataclass(frozen=True)
class ParamType:
    """A parameter's type as the CLI converts it: a scalar or a set of literal choices."""

    base: type
    optional: bool = False
    choices: tuple[Any, ...] = ()

    def __str__(self) -> str:
        text = ("Literal[" + ", ".join(repr(c) for c in self.choices) + "]" if self.choices
                else self.base.__name__)
        return f"{text} | None" if self.optional else text

    def convert(self, text: str) -> Any:
        """The value ``text`` stands for; ValueError names what was expected."""
        if self.optional and text.lower() in ("none", "null", ""):
            return None
        if self.choices:
            for choice in self.choices:
                if text == str(choice):
                    return choice
            raise ValueError("expected one of " + ", ".join(str(c) for c in self.choices))
        if self.base is bool:
            low = text.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError("expected true or false")
        return self.base(text)


def param_type(hint: Any) -> ParamType | None:
    """The :class:`ParamType` of a resolved annotation, or None when the CLI cannot set it."""
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and (inner := param_type(rest[0])) is not None:
            return dataclasses.replace(inner, optional=True)
        return None
    if origin is typing.Literal:
        return ParamType(type(args[0]), choices=tuple(args))
    if hint in SCALAR_TYPES:
        return ParamType(hint)
    return None


@functools.cache
def parameter_types(params_cls: type) -> dict[str, ParamType | None]:
    """Each field's :class:`ParamType`, from ``typing.get_type_hints`` (strings resolved);
    computed once per class (a solver is built per run). Treat the dict as read-only."""
    hints = typing.get_type_hints(params_cls)
    return {f.name: param_type(hints[f.name]) for f in fields(params_cls)}


def check_values(params_cls: type, values: dict[str, Any]) -> None:
    """Refuse a value its field's type rules out, before the Params is built: a choice not
    among a ``Literal``'s, a float that is not a finite number (``inf`` and ``nan`` reached
    the kernels and ended runs in errors), an int that is not an integer. Unknown names are
    left to the dataclass (its TypeError names them). ValueError names the field and value."""
    if not values or not dataclasses.is_dataclass(params_cls):
        return
    table = parameter_types(params_cls)
    for name, value in values.items():
        ptype = table.get(name)
        if ptype is None:
            continue
        if value is None:
            if not ptype.optional:
                raise ValueError(f"{name}=None: a value is required ({ptype})")
        elif ptype.choices:
            if value not in ptype.choices:
                raise ValueError(f"{name}={value!r}: expected one of "
                                 + ", ".join(repr(c) for c in ptype.choices))
        elif ptype.base is float:
            if (isinstance(value, bool) or not isinstance(value, numbers.Real)
                    or not math.isfinite(value)):
                raise ValueError(f"{name}={value!r}: expected a finite number")
        elif ptype.base is int:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise ValueError(f"{name}={value!r}: expected an integer")
        elif ptype.base is bool:
            if not isinstance(value, bool | np.bool_):
                raise ValueError(f"{name}={value!r}: expected true or false")
        elif ptype.base is str and not isinstance(value, str):
            raise ValueError(f"{name}={value!r}: expected a string")


def validate_params(params_cls: type, solver_name: str = "") -> None:
    """Refuse a Params class the harness could not build, store or set from the CLI."""
    if not dataclasses.is_dataclass(params_cls):
        raise ValueError(f"{solver_name}: Params {params_cls!r} is not a dataclass")
    try:
        table = parameter_types(params_cls)
    except Exception as exc:  # noqa: BLE001 - an unresolvable annotation, said in one line
        raise ValueError(f"{solver_name}: cannot resolve the Params annotations: {exc}") from None
    untyped = [n for n, t in table.items() if t is None]
    if untyped:
        raise ValueError(f"{solver_name}: parameters {untyped} are not bool, int, float, str, "
                         "a Literal of those, or Optional of one")
    try:
        params_cls()
    except Exception as exc:  # noqa: BLE001
        raise ValueError(f"{solver_name}: Params() has no valid defaults: {exc}") from None


def _default(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def parameter_table(params_cls: type) -> list[tuple[str, str, Any]]:
    """(name, type name, default) of each parameter."""
    types_ = parameter_types(params_cls)
    return [(f.name, str(types_[f.name]), _default(f)) for f in fields(params_cls)]


def parse_params(params_cls: type, assignments: list[str], solver_name: str = "") -> dict[str, Any]:
    """Turn ``["K=V", ...]`` into typed overrides, refusing unknown keys and bad values.

    The values are also checked together, by building the Params (its ``__post_init__``
    holds the ranges), so ``--param alpha=2`` is refused here with the reason.
    """
    types_ = parameter_types(params_cls)
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
        ptype = types_[key]
        assert ptype is not None  # validated at registration
        try:
            out[key] = ptype.convert(text.strip())
        except ValueError as exc:
            raise InputError(f"--param {key}={text!r}: bad value ({exc}); {key} is {ptype}") from None
    try:
        params_cls(**out)
    except (TypeError, ValueError) as exc:
        shown = " ".join(assignments)
        raise InputError(f"--param {shown}: {exc}{who}") from None
    return out
