"""The solver registry: built-in solvers plus third-party ones by entry point.

Every module in ``sudoku_compare.native`` and ``sudoku_compare.adapters`` registers its
solvers at import with :func:`register` (adapters import their library lazily, inside
``solve``, so importing the module is cheap and works without the library). Third-party
packages expose a Solver class, or a function that calls :func:`register`, in the
entry-point group ``sudoku_compare.solvers``.

A registry must never take the tool down: an entry point that fails to load (a missing
module, a class with an unknown family) is recorded as *broken* with its reason, shown
by ``sudoku-compare list`` and skipped everywhere else. A duplicate name is refused,
never silently replaced. Every solver records where it came from (``source``).
"""

from __future__ import annotations

import contextvars
import importlib
import importlib.metadata
import pkgutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from sudoku_compare.problems.errors import InputError

from .solver import Solver, parse_params, validate_params
from .vocabulary import ENCODINGS, FAMILIES

ENTRY_POINT_GROUP = "sudoku_compare.solvers"
BUILT_IN = "built-in"
#: packages whose modules are the built-in solvers
BUILT_IN_PACKAGES = ("sudoku_compare.native", "sudoku_compare.adapters")


@dataclass(frozen=True)
class SolverSpec:
    """A registered solver: its class plus the parameter defaults of this variant."""

    name: str
    cls: type[Solver]
    defaults: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    #: ``built-in``, or ``entry point NAME (DIST VERSION)``, or the registering module
    source: str = BUILT_IN

    def create(self, **overrides: Any) -> Solver:
        """An instance of this variant; a bad parameter value is an :class:`InputError`."""
        try:
            solver = self.cls(**{**self.defaults, **overrides})
        except (TypeError, ValueError) as exc:
            raise InputError(f"{self.name}: bad parameters: {exc}") from None
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

    @property
    def counterpart(self) -> str | None:
        return self.cls.counterpart

    def availability(self) -> tuple[bool, str]:
        return self.cls.availability()


@dataclass(frozen=True)
class BrokenEntry:
    """An entry point that could not be loaded, and why (one line)."""

    name: str
    source: str
    reason: str


class DuplicateSolverError(ValueError):
    pass


_REGISTRY: dict[str, SolverSpec] = {}
_BROKEN: dict[str, BrokenEntry] = {}
_LOADED = False
#: the source of solvers registered while an entry point loads (its function may
#: register several variants; each records the entry point, not "built-in")
_SOURCE: contextvars.ContextVar[str | None] = contextvars.ContextVar("source", default=None)


def _source_of(cls: type[Solver]) -> str:
    if (current := _SOURCE.get()) is not None:
        return current
    module = cls.__module__
    if any(module == p or module.startswith(p + ".") for p in BUILT_IN_PACKAGES):
        return BUILT_IN
    return f"module {module}"


def check_declaration(cls: type[Solver], name: str) -> None:
    """Refuse a solver whose declaration the harness could not use (ValueError, one line)."""
    if not isinstance(cls, type) or not issubclass(cls, Solver):
        raise ValueError(f"{name}: {cls!r} is not a sudoku_compare.Solver subclass")
    if cls.family not in FAMILIES:
        raise ValueError(f"{name}: unknown family {cls.family!r}; families: {', '.join(FAMILIES)}")
    if cls.encoding not in ENCODINGS:
        raise ValueError(f"{name}: unknown encoding {cls.encoding!r}; "
                         f"encodings: {', '.join(ENCODINGS)}")
    if not cls.origin:
        raise ValueError(f"{name}: origin is empty (native, or the library's distribution name)")
    validate_params(cls.Params, name)


def register(cls: type[Solver] | None = None, *, name: str | None = None,
             description: str = "", source: str | None = None, **defaults: Any):
    """Register a solver class (usable as a decorator) or a configured variant of one.

    The class's family, encoding and parameter types are checked here, so a typo fails
    at import instead of producing an empty report section.
    """

    def do(c: type[Solver]) -> type[Solver]:
        n = name or getattr(c, "name", "")
        if not n:
            raise ValueError(f"{getattr(c, '__name__', c)!r} has no name")
        if any(ch in n for ch in "[]=,"):
            raise ValueError(f"{n!r}: a solver name may not contain [ ] = or , "
                             f"(they spell configured variants: NAME[k=v,...])")
        check_declaration(c, n)
        unknown = set(defaults) - {f for f in c.Params.__dataclass_fields__}
        if unknown:
            raise ValueError(f"{n}: unknown parameters {sorted(unknown)} for {c.Params.__name__}")
        if n in _REGISTRY:
            raise DuplicateSolverError(f"a solver named {n!r} is already registered "
                                       f"({_REGISTRY[n].cls.__module__}.{_REGISTRY[n].cls.__name__})")
        _REGISTRY[n] = SolverSpec(n, c, dict(defaults), description or c.description,
                                  source or _source_of(c))
        return c

    return do(cls) if cls is not None else do


@contextmanager
def _registering_as(source: str) -> Iterator[None]:
    token = _SOURCE.set(source)
    try:
        yield
    finally:
        _SOURCE.reset(token)


def _import_package_modules(package: str) -> None:
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")


def _load_entry_point(ep: importlib.metadata.EntryPoint) -> None:
    dist = getattr(ep, "dist", None)
    where = f"{dist.name} {dist.version}" if dist is not None else ep.value
    source = f"entry point {ep.name} ({where})"
    before = dict(_REGISTRY)
    try:
        with _registering_as(source):
            obj = ep.load()
            if isinstance(obj, type) and issubclass(obj, Solver):
                register(obj)
            elif callable(obj):
                obj()  # a function that calls register() itself
            else:
                raise TypeError(f"{ep.value} is neither a Solver class nor a function")
    except Exception as exc:  # noqa: BLE001 - a broken plug-in is reported, never fatal
        for n in set(_REGISTRY) - set(before):  # a half-registered plug-in is withdrawn
            del _REGISTRY[n]
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        _BROKEN[ep.name] = BrokenEntry(ep.name, source, reason)


def load(entry_points: bool = True) -> dict[str, SolverSpec]:
    """Import the built-in solver modules and the entry points once; return the registry."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        for package in BUILT_IN_PACKAGES:
            _import_package_modules(package)
        if entry_points:
            for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
                _load_entry_point(ep)
    return _REGISTRY


def broken() -> list[BrokenEntry]:
    """Entry points that failed to load, with the reason (``list`` shows them)."""
    load()
    return sorted(_BROKEN.values(), key=lambda b: b.name)


def all_specs() -> list[SolverSpec]:
    return sorted(load().values(), key=lambda s: (s.family, s.name))


def variant_name(base: str, settings: dict[str, Any]) -> str:
    """The stable name of a configured variant, ``BASE[k=v,...]`` in the order given.

    A variant name is a solver name everywhere (``get``, ``solve``, ``run --solvers``, the
    store, the reports): the settings travel inside it, so the worker that runs it, a
    resumed campaign and a report of the store all rebuild the same solver from the name.
    """
    if not settings:
        return base
    return f"{base}[{','.join(f'{k}={spell_value(v)}' for k, v in settings.items())}]"


def spell_value(value: Any) -> str:
    """A parameter value as a variant name spells it (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(float(f"{value:.12g}"))
    return str(value)


def split_variant(name: str) -> tuple[str, list[str]]:
    """``("native.sa", ["alpha=0.99"])`` for ``native.sa[alpha=0.99]``; no brackets: no settings."""
    if not name.endswith("]") or "[" not in name:
        return name, []
    base, _, inside = name[:-1].partition("[")
    return base, [item for item in inside.split(",") if item.strip()]


@lru_cache(maxsize=4096)
def _variant(name: str) -> SolverSpec:
    base, items = split_variant(name)
    spec = _REGISTRY.get(base) or get(base)  # registered already: no need to load the rest
    try:
        settings = parse_params(spec.cls.Params, items, base)
    except InputError as exc:
        raise InputError(f"solver {name!r}: {exc}") from None
    return replace(spec, name=name, defaults={**spec.defaults, **settings})


def get(name: str) -> SolverSpec:
    """The registered solver ``name``, or the configured variant ``BASE[k=v,...]`` of one."""
    reg = load()
    if name not in reg and name.endswith("]") and "[" in name:
        return _variant(name)
    if name not in reg:
        if name in _BROKEN:
            raise InputError(f"solver {name!r} is broken: {_BROKEN[name].reason}")
        known = ", ".join(sorted(reg))
        raise InputError(f"unknown solver {name!r}; known solvers: {known}")
    return reg[name]


def get_from(name: str, module: str) -> SolverSpec:
    """:func:`get`, but when importing ``module`` (the solver's own) registers the solver,
    nothing else is imported: a campaign worker's start skips the other solver modules and
    the entry points (about 0.2 s of its start-up). Anything else goes through :func:`get`.
    """
    base, _ = split_variant(name)
    if not _LOADED and base not in _REGISTRY and module:
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 - get() below loads everything and says why
            pass
    if _LOADED or base not in _REGISTRY:
        return get(name)
    if name in _REGISTRY:
        return _REGISTRY[name]
    return _variant(name)


def create(name: str, **overrides: Any) -> Solver:
    return get(name).create(**overrides)
