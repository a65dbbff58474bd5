"""Errors that mean "your input is wrong" (the CLI maps them to exit code 2)."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from the user: a file, a puzzle reference, a parameter.

    The message is one line a person can act on; the CLI prints it and exits 2.
    """


class PuzzleFormatError(InputError):
    """A puzzle text that cannot be parsed, located as ``SOURCE:LINE:COL: reason``."""

    def __init__(self, reason: str, source: str = "<string>", line: int = 1, column: int = 1):
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        super().__init__(f"{source}:{line}:{column}: {reason}")


class ChecksumError(InputError):
    """A copy of a public set (downloaded, cached or in ``$SUDOKU_COMPARE_PUZZLES``) whose
    content is not the set the catalog knows: a bad input (exit code 2), since running on
    it would publish figures for puzzles nobody else has."""
