"""The ``sudoku-compare`` command: a thin layer over the Python API.

Each subcommand lives in ``bench/commands/<name>.py`` and exposes
``add_parser(subparsers)`` and ``run(args) -> int``. Exit codes: 0 done, 2 bad input
(one line naming the file, line and reason), 1 anything else. A store that cannot be
written (disk full, I/O error) is one line and exit 1, never a traceback: the runs
committed before it are kept and the same command finishes the campaign.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys

from sudoku_compare.bench.executor import ClusterError
from sudoku_compare.bench.store import StoreWriteError
from sudoku_compare.problems.errors import InputError

COMMANDS = ("list", "solve", "run", "report", "compare", "puzzles", "perf")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own exit code is already 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sudoku-compare",
                     description="Compare native Sudoku solvers with established libraries.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"sudoku_compare.bench.commands.{name.replace('-', '_')}_cmd")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.endswith(f"{name}_cmd"):
                continue  # command not built yet
            raise
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"sudoku-compare: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sudoku-compare: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (StoreWriteError, ClusterError) as exc:
        print(f"sudoku-compare: {_one_line(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:  # a full or failing disk outside the store: one line, not a traceback
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS):
            raise
        print(f"sudoku-compare: {_one_line(exc)}", file=sys.stderr)
        return 1


def _one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line (an embedded traceback or newline is folded)."""
    return " ".join(str(exc).split())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
