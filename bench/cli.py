"""The ``sudoku-compare`` command: a thin layer over the Python API.

Each subcommand lives in ``bench/commands/<name>.py`` and exposes
``add_parser(subparsers)`` and ``run(args) -> int``. Exit codes: 0 done, 2 bad input
(one line naming the file, line and reason), 1 anything else.
"""

from __future__ import annotations

import argparse
import importlib
import sys

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
        print(f"sudoku-compare: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sudoku-compare: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
