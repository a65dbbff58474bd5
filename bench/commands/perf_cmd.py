"""``sudoku-compare perf [--quick] [--section S ...] [--puzzles FILE_OR_SET] [--json] [--out FILE.md]``."""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import sys
import time
from pathlib import Path

from sudoku_compare.bench import perf
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.sets import resolve_puzzles

from .outputs import checked_file, writing


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perf", help="the project's own benchmark (ratios within one run)")
    p.add_argument("--quick", action="store_true", help="smaller samples, for a smoke run")
    p.add_argument("--section", action="append", default=None,
                   help="run only these sections (repeatable); default: all")
    p.add_argument("--puzzles", default=None, metavar="FILE_OR_SET",
                   help="run the sections that take puzzles (batch) on this set or file "
                        "(SET:START:STOP too) instead of their own; no report is written "
                        "unless --out")
    p.add_argument("--json", action="store_true",
                   help="print the tables as one JSON object instead of markdown")
    p.add_argument("--out", type=Path, default=None,
                   help="write the markdown here (default: reports/perf.md, but nothing for "
                        "--quick or --puzzles, so a smoke run never replaces the measured report)")
    p.set_defaults(func=run)


def _machine() -> str:
    """CPU model and core count (platform.processor() is often empty on Linux)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):  # a shared machine slows every solver; say how busy it was
        load = ", load average {:.2f} {:.2f} {:.2f} at start".format(*os.getloadavg())
    return (f"{model}, {os.cpu_count()} logical cores, {platform.system()} "
            f"{platform.release()}{load}")


def _split_sections(text: str) -> dict[str, str]:
    """The ``## TITLE`` blocks of an earlier perf report, by title."""
    blocks: dict[str, str] = {}
    title = None
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            title = line[3:].strip()
            blocks[title] = ""
        if title is not None:
            blocks[title] += line
    return blocks


def _takes_puzzles(mod) -> bool:
    return "puzzles" in inspect.signature(mod.run).parameters


def _table_json(table: perf.PerfTable) -> dict:
    return {"title": table.title, "columns": table.columns,
            "rows": [dict(zip(table.columns, row, strict=False)) for row in table.rows],
            "notes": table.notes}


def run(args: argparse.Namespace) -> int:
    found = perf.sections()
    puzzles = getattr(args, "puzzles", None)
    as_json = getattr(args, "json", False)
    chosen = args.section or [n for n, m in found.items() if puzzles is None or _takes_puzzles(m)]
    unknown = [s for s in chosen if s not in found]
    if unknown:
        raise InputError(f"unknown perf section(s) {', '.join(unknown)}; known: {', '.join(found)}")
    if puzzles is not None:
        fixed = [s for s in chosen if not _takes_puzzles(found[s])]
        if fixed:
            raise InputError(f"perf section(s) {', '.join(fixed)} run their own puzzles; "
                             "--puzzles goes with: "
                             + ", ".join(n for n, m in found.items() if _takes_puzzles(m)))
    checked_file(args.out, "--out")
    if puzzles is not None:
        resolve_puzzles(puzzles)  # a bad file is its one line on stderr, before any output
    stamp = (f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n"
             f"- machine: {_machine()}, python {platform.python_version()}\n"
             f"- command: `sudoku-compare {' '.join(sys.argv[1:])}`\n")
    say = (lambda text: None) if as_json else (lambda text: print(text, flush=True))
    say(f"# sudoku-compare perf{' (quick)' if args.quick else ''}\n\n{stamp}")
    fresh: dict[str, str] = {}
    data: dict[str, list[dict]] = {}
    for name in chosen:
        mod = found[name]
        title = getattr(mod, "TITLE", name)
        say(f"## {title}\n")
        parts = [f"## {title}\n", stamp]
        tables = mod.run(args.quick, puzzles=puzzles) if puzzles is not None else mod.run(args.quick)
        for table in tables:
            md = table.to_markdown()
            say(md)
            parts.append(md)
        data[name] = [_table_json(t) for t in tables]
        fresh[title] = "\n".join(parts) + "\n"
    if as_json:
        print(json.dumps({"quick": args.quick, "puzzles": puzzles, "machine": _machine(),
                          "python": platform.python_version(), "sections": data},
                         ensure_ascii=False, indent=1, default=str))
    # a smoke run or a run on somebody's own file never replaces the measured report
    default_out = None if (args.quick or puzzles is not None) else Path("reports/perf.md")
    out_path = args.out or default_out
    if out_path:
        # a run of some sections replaces those and keeps the others of the earlier report
        old = _split_sections(out_path.read_text()) if out_path.is_file() else {}
        titles = [getattr(m, "TITLE", n) for n, m in found.items()]
        blocks = [fresh.get(t) or old.get(t) for t in titles]
        blocks += [b for t, b in old.items() if t not in titles and t not in fresh]
        head = ("# sudoku-compare perf\n\nMade by `sudoku-compare perf` (each section says when, "
                "where and with which command it ran; rerunning one section with `--section` "
                "replaces only that section).\n\n")
        with writing("--out"):
            out_path.parent.mkdir(parents=True, exist_ok=True)
            out_path.write_text(head + "\n".join(b.rstrip("\n") + "\n" for b in blocks if b))
    return 0
