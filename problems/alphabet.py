"""The symbols of a grid: how digits 1..N and empty cells are written.

Digits 1..9 are written as themselves; 10..35 as letters A..Z (so a 16x16 grid uses
1-9 and A-G, a 25x25 grid 1-9 and A-P). An empty cell is one of ``0 . - X _``
(``X`` and ``_`` only where they cannot be digits, i.e. always for N <= 25).
Letters are case-insensitive on input and written upper-case.
"""

from __future__ import annotations

EMPTY_SYMBOLS = frozenset("0.-X_x")
DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def symbol(value: int, empty: str = ".") -> str:
    """The character for ``value`` (0 is ``empty``)."""
    return empty if value == 0 else DIGITS[value - 1]


def value_of(ch: str, side: int) -> int | None:
    """The digit a character stands for in a grid of side ``side``; None if unknown."""
    if ch in EMPTY_SYMBOLS:
        return 0
    i = DIGITS.find(ch.upper())
    if i < 0 or i >= side:
        return None
    return i + 1
