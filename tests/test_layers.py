"""The three layers import only downward, checked over the source tree (not at run time).

    problems/  ->  core (sudoku_compare/*.py)  ->  native/, adapters/  ->  bench/ (harness)

``problems`` imports nothing else of the package; the core imports ``problems`` only;
solvers import the core and ``problems`` (a native module may use another native module,
an adapter may share a native's operators); the harness reaches solvers only through the
registry, so it never imports ``native`` or ``adapters``; reporting reads stores and never
runs campaigns; and no module imports itself back through a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: folder -> the import name it is mapped to (pyproject's [tool.setuptools.package-dir])
FOLDERS = {
    "problems": "sudoku_compare.problems",
    "sudoku_compare": "sudoku_compare",
    "native": "sudoku_compare.native",
    "adapters": "sudoku_compare.adapters",
    "bench": "sudoku_compare.bench",
}
CORE = "core"


def _layer(module: str) -> str:
    for prefix in ("sudoku_compare.problems", "sudoku_compare.native", "sudoku_compare.adapters",
                   "sudoku_compare.bench"):
        if module == prefix or module.startswith(prefix + "."):
            return prefix.rsplit(".", 1)[1]
    return CORE


#: layer -> the layers it may import
ALLOWED = {
    "problems": {"problems"},
    CORE: {"problems", CORE},
    "native": {"problems", CORE, "native"},
    "adapters": {"problems", CORE, "native", "adapters"},
    "bench": {"problems", CORE, "bench"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for folder, name in FOLDERS.items():
        base = ROOT / folder
        for path in base.rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            rel = path.relative_to(base).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            if folder == "sudoku_compare" and parts and len(rel.parts) > 1:
                continue  # sub-folders of sudoku_compare/ are not part of the core
            out[".".join([name, *parts])] = path
    return out


def _imports(module: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every sudoku_compare import."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    top_level = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        for n in names:
            if n.startswith("sudoku_compare"):
                found.append((n, node.lineno, id(node) in top_level))
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module an imported name lives in (``from x import y`` may name a function)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_downward(module):
    layer = _layer(module)
    bad = sorted({f"line {line}: {layer} imports {target} ({_layer(target)})"
                  for name, line, _ in _imports(module, MODULES[module])
                  if (target := _resolve(name)) is not None
                  and _layer(target) not in ALLOWED[layer]})
    assert not bad, "\n".join(bad)


def test_reporting_never_runs_campaigns():
    forbidden = {"sudoku_compare.bench.campaign", "sudoku_compare.bench.runner",
                 "sudoku_compare.bench.executor", "sudoku_compare.bench.api"}
    bad = sorted({f"{m} line {line} imports {_resolve(n)}"
                  for m, p in MODULES.items() if m.startswith("sudoku_compare.bench.reporting")
                  for n, line, _ in _imports(m, p) if _resolve(n) in forbidden})
    assert not bad, "\n".join(bad)


def test_no_import_cycles():
    graph = {m: {t for n, _, _top in _imports(m, p) if (t := _resolve(n)) and t != m}
             for m, p in MODULES.items()}
    # a package's __init__ importing its own submodules is how packages re-export: not a cycle
    for m in graph:
        graph[m] = {t for t in graph[m] if not t.startswith(m + ".")}
    seen: dict[str, int] = {}
    cycles = []

    def visit(m: str, stack: list[str]) -> None:
        seen[m] = 1
        for t in sorted(graph.get(m, ())):
            if seen.get(t) == 1:
                cycles.append(" -> ".join(stack[stack.index(t):] + [t]))
            elif t not in seen:
                visit(t, stack + [t])
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m, [m])
    assert not cycles, "\n".join(cycles)
