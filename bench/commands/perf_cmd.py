"""``sudoku-compare perf [--quick] [--section S ...] [--out FILE.md]``."""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

from sudoku_compare.problems.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perf", help="the project's own benchmark (ratios within one run)")
    p.add_argument("--quick", action="store_true", help="smaller samples, for a smoke run")
    p.add_argument("--section", action="append", default=None,
                   help="run only these sections (repeatable); default: all")
    p.add_argument("--out", type=Path, default=None, help="also write the markdown here")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sudoku_compare.bench.perf import sections

    found = sections()
    chosen = args.section or list(found)
    unknown = [s for s in chosen if s not in found]
    if unknown:
        raise InputError(f"unknown perf section(s) {', '.join(unknown)}; known: {', '.join(found)}")
    out = [f"# sudoku-compare perf{' (quick)' if args.quick else ''}", "",
           f"- date: {time.strftime('%Y-%m-%d %H:%M:%S')}",
           f"- machine: {platform.processor() or platform.machine()}, python {platform.python_version()}",
           f"- command: `sudoku-compare {' '.join(sys.argv[1:])}`", ""]
    print("\n".join(out), flush=True)
    for name in chosen:
        mod = found[name]
        header = f"## {getattr(mod, 'TITLE', name)}\n"
        print(header, flush=True)
        out.append(header)
        for table in mod.run(args.quick):
            md = table.to_markdown()
            print(md, flush=True)
            out.append(md)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(out))
    return 0
