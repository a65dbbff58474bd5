"""``sudoku-compare list [--json]``: every registered solver, where it came from, whether it runs here.

Entry points that failed to load are listed with status ``broken`` and the reason, so
a bad plug-in is visible without taking the other commands down.
"""

from __future__ import annotations

import argparse
import json

from sudoku_compare import registry
from sudoku_compare.solver import parameter_table


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the registered solvers")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(func=run)


def rows() -> list[dict]:
    """One dict per registered solver, then one per broken entry point."""
    out = []
    for spec in registry.all_specs():
        ok, reason = spec.availability()
        out.append({
            "name": spec.name, "family": spec.family, "origin": spec.origin,
            "encoding": spec.encoding, "status": "available" if ok else "unavailable",
            "available": ok, "reason": reason, "source": spec.source,
            "counterpart": spec.counterpart, "extra": spec.cls.extra,
            "version": spec.cls.library_version(), "deterministic": spec.cls.deterministic,
            "stochastic": spec.cls.stochastic, "description": spec.description,
            "params": {n: d for n, _, d in parameter_table(spec.cls.Params)} | spec.defaults,
        })
    for b in registry.broken():
        out.append({"name": b.name, "family": None, "origin": None, "encoding": None,
                    "status": "broken", "available": False, "reason": b.reason,
                    "source": b.source, "counterpart": None})
    return out


def run(args: argparse.Namespace) -> int:
    table = rows()
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    for r in table:
        if r["status"] == "broken":
            print(f"{r['name']:28} broken: {r['reason']} [{r['source']}]")
            continue
        state = "available" if r["available"] else f"unavailable: {r['reason']}"
        pair = f" ~ {r['counterpart']}" if r["counterpart"] else ""
        src = "" if r["source"] == registry.BUILT_IN else f" [{r['source']}]"
        print(f"{r['name']:28} {r['family']:13} {r['origin']:18} {r['encoding']:16} "
              f"{state}{pair}{src}")
    return 0
