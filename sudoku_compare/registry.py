"""The solver registry: built-in solvers plus third-party ones by entry point.

Every module in ``sudoku_compare.native`` and ``sudoku_compare.adapters`` registers its
solvers at import with :func:`register` (adapters import their library lazily, inside
``solve``, so importing the module is cheap and works without the library). Third-party
packages expose a callable or a Solver class in the entry-point group
``sudoku_compare.solvers``. A duplicate name is refused, never silently replaced.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
from dataclasses import dataclass, field
from typing import Any

from sudoku_compare.problems.errors import InputError

from .solver import Solver

ENTRY_POINT_GROUP = "sudoku_compare.solvers"


@dataclass(frozen=True)
class SolverSpec:
    """A registered solver: its class plus the parameter defaults of this variant."""

    name: str
    cls: type[Solver]
    defaults: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    source: str = "built-in"

    def create(self, **overrides: Any) -> Solver:
        solver = self.cls(**{**self.defaults, **overrides})
        solver.name = self.name  # type: ignore[misc]  # a variant carries its own name
        return solver

    @property
    def family(self) -> str:
        return self.cls.family

    @property
    def origin(self) -> str:
        return self.cls.origin

    @property
    def encoding(self) -> str:
        return self.cls.encoding

    def availability(self) -> tuple[bool, str]:
        return self.cls.availability()


class DuplicateSolverError(ValueError):
    pass


_REGISTRY: dict[str, SolverSpec] = {}
_LOADED = False


def register(cls: type[Solver] | None = None, *, name: str | None = None,
             description: str = "", source: str = "built-in", **defaults: Any):
    """Register a solver class (usable as a decorator) or a configured variant of one."""

    def do(c: type[Solver]) -> type[Solver]:
        n = name or c.name
        if not n:
            raise ValueError(f"{c.__name__} has no name")
        if n in _REGISTRY:
            raise DuplicateSolverError(f"a solver named {n!r} is already registered "
                                       f"({_REGISTRY[n].cls.__module__}.{_REGISTRY[n].cls.__name__})")
        _REGISTRY[n] = SolverSpec(n, c, dict(defaults), description or c.description, source)
        return c

    return do(cls) if cls is not None else do


def _import_package_modules(package: str) -> None:
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")


def load(entry_points: bool = True) -> dict[str, SolverSpec]:
    """Import the built-in solver modules and the entry points once; return the registry."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        _import_package_modules("sudoku_compare.native")
        _import_package_modules("sudoku_compare.adapters")
        if entry_points:
            for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
                obj = ep.load()
                if isinstance(obj, type) and issubclass(obj, Solver):
                    if obj.name not in _REGISTRY or _REGISTRY[obj.name].cls is not obj:
                        register(obj, source=f"entry point {ep.value}")
                elif callable(obj):
                    obj()  # a function that calls register() itself
    return _REGISTRY


def all_specs() -> list[SolverSpec]:
    return sorted(load().values(), key=lambda s: (s.family, s.name))


def get(name: str) -> SolverSpec:
    reg = load()
    if name not in reg:
        known = ", ".join(sorted(reg))
        raise InputError(f"unknown solver {name!r}; known solvers: {known}")
    return reg[name]


def create(name: str, **overrides: Any) -> Solver:
    return get(name).create(**overrides)
