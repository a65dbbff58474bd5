"""``sudoku-compare list [--json]``: every registered solver and whether it can run here."""

from __future__ import annotations

import argparse
import json

from sudoku_compare import registry
from sudoku_compare.solver import parameter_table


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the registered solvers")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows = []
    for spec in registry.all_specs():
        ok, reason = spec.availability()
        rows.append({
            "name": spec.name, "family": spec.family, "origin": spec.origin,
            "encoding": spec.encoding, "available": ok, "reason": reason,
            "extra": spec.cls.extra, "version": spec.cls.library_version(),
            "deterministic": spec.cls.deterministic, "description": spec.description,
            "params": {n: d for n, _, d in parameter_table(spec.cls.Params)} | spec.defaults,
        })
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            state = "available" if r["available"] else f"unavailable: {r['reason']}"
            print(f"{r['name']:28} {r['family']:13} {r['origin']:18} {r['encoding']:16} {state}")
    return 0
