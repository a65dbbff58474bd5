"""Reading puzzles: one a line, multi-line grids (including the boxed display), files.

Every failure is a :class:`PuzzleFormatError` naming the source, line, column and reason,
because a user with a 1465-line file needs to know exactly which character is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .alphabet import value_of
from .errors import PuzzleFormatError
from .puzzle import Puzzle
from .topology import box_for_cells, topology

#: Characters that only lay a grid out and carry no cell.
LAYOUT = frozenset(" \t|+-\r")


def _check_units(values: list[int], box: int, source: str, where: list[tuple[int, int]]) -> None:
    """Refuse a digit given twice in one unit, located at the second occurrence."""
    topo = topology(box)
    for u, unit in enumerate(topo.units):
        seen: dict[int, int] = {}
        for cell in unit:
            v = values[cell]
            if not v:
                continue
            if v in seen:
                kind = ("row", "column", "box")[u // topo.side]
                ln, col = where[int(cell)]
                raise PuzzleFormatError(
                    f"digit {v} given twice in {kind} {u % topo.side + 1} "
                    f"(cells {seen[v] + 1} and {int(cell) + 1})", source, ln, col)
            seen[v] = int(cell)


def parse_line(text: str, source: str = "<string>", line: int = 1) -> Puzzle:
    """One puzzle written on one line: n**4 symbols, row-major.

    Trailing text after the first whitespace-separated field is ignored when that field
    already has a valid length (files such as top1465 append ratings).
    """
    stripped = text.strip()
    offset = len(text) - len(text.lstrip())
    field = stripped.split()[0] if stripped else ""
    if box_for_cells(len(field)) is None:
        field = stripped  # maybe a spaced-out grid on one line
    chars: list[tuple[str, int]] = [
        (ch, offset + i + 1) for i, ch in enumerate(field) if ch not in LAYOUT or ch == "-"
    ]
    n = len(chars)
    box = box_for_cells(n)
    if box is None:
        raise PuzzleFormatError(
            f"a puzzle has 16, 81, 256 or 625 cells (n**4), this line has {n}", source, line, 1)
    side = box * box
    values = []
    for ch, col in chars:
        v = value_of(ch, side)
        if v is None:
            raise PuzzleFormatError(f"unknown character {ch!r} for a {side}x{side} grid", source, line, col)
        values.append(v)
    _check_units(values, box, source, [(line, col) for _, col in chars])
    return Puzzle(box, tuple(values))


def _framed_cells(text: str) -> list[tuple[str, int]] | None:
    """The cells of a framed row (``| 9     2 |       5 | 4     3 |``, the C# notebooks'
    display), where a blank cell is an empty one, so spaces carry meaning; None if the
    line is not framed that way.

    Between the outer bars there are ``n`` segments of ``n`` cells of equal width.
    """
    s = text.rstrip()
    lead = len(text) - len(text.lstrip())
    if not (s.lstrip().startswith("|") and s.endswith("|")):
        return None
    parts = s[lead:].split("|")[1:-1]
    n = len(parts)
    if n < 2 or any(len(seg) != len(parts[0]) or len(seg) % n for seg in parts):
        return None
    width = len(parts[0]) // n
    if width < 2:
        return None  # "|1 2|3 4|" style: no room for a blank cell, read it as characters
    cells: list[tuple[str, int]] = []
    col = lead + 1  # the first bar
    for seg in parts:
        for j in range(n):
            token = seg[j * width:(j + 1) * width]
            stripped = token.strip()
            offset = token.find(stripped) if stripped else width // 2
            cells.append((stripped or "0", col + 1 + j * width + offset))
        col += len(seg) + 1
    return cells


def _row_cells(text: str) -> list[tuple[str, int]]:
    """The cell symbols of one grid row with their 1-based columns."""
    framed = _framed_cells(text)
    if framed is not None:
        return framed
    return [(ch, i + 1) for i, ch in enumerate(text) if ch not in LAYOUT]


def parse_grid(lines: list[tuple[int, str]], source: str) -> Puzzle:
    """A multi-line grid: every line one row, layout characters (``| - +`` and spaces)
    ignored, except in the framed display where a blank cell is empty."""
    cells: list[str] = []
    where: list[tuple[int, int]] = []
    for lineno, text in lines:
        for token, col in _row_cells(text):
            cells.append(token)
            where.append((lineno, col))
    box = box_for_cells(len(cells))
    first = lines[0][0] if lines else 1
    if box is None:
        raise PuzzleFormatError(
            f"a grid has 16, 81, 256 or 625 cells (n**4), this one has {len(cells)}", source, first, 1)
    side = box * box
    values = []
    for token, (ln, col) in zip(cells, where, strict=True):
        v = value_of(token, side) if len(token) == 1 else (
            int(token) if token.isdigit() and 1 <= int(token) <= side else None)
        if v is None:
            raise PuzzleFormatError(f"unknown character {token!r} for a {side}x{side} grid", source, ln, col)
        values.append(v)
    _check_units(values, box, source, where)
    return Puzzle(box, tuple(values))


def _is_rule(text: str) -> bool:
    s = text.strip()
    # a rule has dashes; a framed row of blank cells ("|       |       |") is not one
    return "-" in s and set(s) <= set("-+| ")


def parse_text(text: str, source: str = "<string>") -> list[Puzzle]:
    """All puzzles in a text: one a line, or multi-line grids separated by blank lines.

    ``#`` starts a comment line; blank lines are skipped. A line that alone holds n**4 cell
    symbols is a puzzle; otherwise consecutive non-blank lines form one grid.
    """
    puzzles: list[Puzzle] = []
    block: list[tuple[int, str]] = []

    def flush() -> None:
        if block:
            puzzles.append(parse_grid(block, source).renamed(f"{source}:{len(puzzles)}"))
            block.clear()

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.lstrip("\ufeff") if lineno == 1 else raw
        s = line.strip()
        if not s or s.startswith("#"):
            flush()
            continue
        if _is_rule(s):
            if block:
                block.append((lineno, ""))
            continue
        first = s.split()[0]
        if not block and box_for_cells(len(first)) is not None and len(first) > 16:
            puzzles.append(parse_line(line, source, lineno).renamed(f"{source}:{len(puzzles)}"))
            continue
        if not block and len(first) == 16 and len(s.split()) == 1 and not any(c in s for c in "|"):
            # a 4x4 puzzle on one line
            puzzles.append(parse_line(line, source, lineno).renamed(f"{source}:{len(puzzles)}"))
            continue
        block.append((lineno, line))
        cells = sum(len(_row_cells(t)) for _, t in block)
        if box_for_cells(cells) is not None and cells >= 16:
            side = box_for_cells(cells) ** 2
            rows = sum(1 for _, t in block if t.strip())
            if rows >= side:
                flush()
    if block:
        flush()
    return puzzles


def parse_file(path: str | Path) -> list[Puzzle]:
    """Every puzzle in a file, named ``FILE:INDEX``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(f"not UTF-8 text ({exc.reason})", str(p), 1, 1) from None
    except OSError as exc:
        raise PuzzleFormatError(f"cannot read: {exc.strerror}", str(p), 1, 1) from None
    puzzles = parse_text(text, str(p))
    if not puzzles:
        raise PuzzleFormatError("no puzzle in this file", str(p), 1, 1)
    return puzzles


def parse_lines(lines: Iterable[str], source: str = "<string>") -> list[Puzzle]:
    return parse_text("\n".join(lines), source)
