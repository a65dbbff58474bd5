"""The command line of a report kept apart from ``sudoku-compare report`` (human, probabilistic).

Such a report reads one campaign database and renders its own markdown; what they share is
here, once: ``--db`` and ``--out``, the database read by :func:`summary.load_db`, and bad input
(a missing or foreign database) as one line and exit 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from sudoku_compare.problems.errors import InputError

from .summary import Run, load_db


def write_from_db(db: str | Path, out: str | Path, render: Callable[[list[Run]], str]) -> Path:
    """Render the runs of ``db`` and write the markdown to ``out``."""
    runs, _ = load_db(db)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(runs))
    return path


def report_main(prog: str, description: str, render: Callable[[list[Run]], str],
                argv: Sequence[str] | None = None) -> int:
    """``python -m PROG --db DB --out FILE.md``: 0 when written, 2 on bad input."""
    p = argparse.ArgumentParser(prog=f"python -m {prog}", description=description)
    p.add_argument("--db", required=True, help="campaign database to read")
    p.add_argument("--out", required=True, help="markdown file to write")
    args = p.parse_args(argv)
    try:
        print(write_from_db(args.db, args.out, render))
    except InputError as exc:
        print(f"{prog.rpartition('.')[2]}: {exc}", file=sys.stderr)
        return 2
    return 0
