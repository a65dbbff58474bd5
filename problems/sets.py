"""Puzzle references: named sets, slices, files and literal puzzle strings.

A reference is one of: a literal puzzle (``"9020054..."``), ``SET`` / ``SET:I`` /
``SET:START:STOP`` where SET is a known set name or a file path. Public sets are looked
up in ``$SUDOKU_COMPARE_PUZZLES``, then the user cache (see :mod:`.catalog`).
"""

from __future__ import annotations

from pathlib import Path

from .errors import InputError
from .parsing import parse_file, parse_line
from .puzzle import Puzzle
from .topology import box_for_cells


def _split_ref(ref: str) -> tuple[str, list[str]]:
    # a Windows drive letter is not a concern here; split from the right on ':' parts
    # that look like integers (or are empty, for open slices)
    parts = ref.split(":")
    tail: list[str] = []
    while len(parts) > 1 and len(tail) < 2 and (parts[-1].lstrip("-").isdigit() or parts[-1] == ""):
        tail.insert(0, parts.pop())
    return ":".join(parts), tail


def load_set(name_or_path: str) -> list[Puzzle]:
    """Every puzzle of a named set or a file, each named ``SET:I``."""
    from .catalog import find_set_file

    path = find_set_file(name_or_path)
    label = name_or_path
    if path is None:
        p = Path(name_or_path)
        if p.exists():
            path = p
        else:
            from .catalog import known_names

            raise InputError(f"unknown puzzle set {name_or_path!r}: not a set name "
                             f"({', '.join(known_names())}) nor an existing file")
    return [pz.renamed(f"{label}:{i}") for i, pz in enumerate(parse_file(path))]


def _index(text: str, ref: str, n: int) -> int:
    i = int(text)
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise InputError(f"{ref}: index {text} out of range (the set has {n} puzzles)")
    return i


def resolve_puzzles(ref: str) -> list[Puzzle]:
    """The puzzles a reference names (a literal, a set, one index, or a slice)."""
    ref = ref.strip()
    if box_for_cells(len(ref)) is not None and not Path(ref).exists() and ":" not in ref:
        return [parse_line(ref, source="<argument>").renamed(ref)]
    base, tail = _split_ref(ref)
    puzzles = load_set(base)
    n = len(puzzles)
    if not tail:
        return puzzles
    if len(tail) == 1:
        return [puzzles[_index(tail[0], ref, n)]]
    start = int(tail[0]) if tail[0] else 0
    stop = int(tail[1]) if tail[1] else n
    chosen = puzzles[start:stop]
    if not chosen:
        raise InputError(f"{ref}: empty slice (the set has {n} puzzles)")
    return chosen


def resolve_puzzle(ref: str) -> Puzzle:
    """Exactly one puzzle: a literal, ``SET:I``, or a file holding one puzzle."""
    puzzles = resolve_puzzles(ref)
    if len(puzzles) != 1:
        raise InputError(f"{ref!r} names {len(puzzles)} puzzles; give one, e.g. {ref}:0")
    return puzzles[0]
