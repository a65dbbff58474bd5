"""Reading puzzles from texts and files: one a line, multi-line grids, CSV.

The layouts read:

- one puzzle a line, n**4 symbols (16, 81, 256 or 625), anything after a first field of
  that length ignored (files such as top1465 append ratings);
- a grid written one row a line, 4x4 to 25x25: compact (``003020600``), spaced, with ``|``
  between boxes and rules (``------``, ``+---+---+``) between bands, the C# notebooks'
  framed display where a blank cell is empty, or numbers separated by spaces or commas
  (``10 0 3 16``); grids may follow one another with or without a blank line between;
- CSV records (``puzzle,solution`` as in the Kaggle sets, or more columns), with or
  without a header: the puzzle is the field the header names (``puzzle``, ``quizzes``…),
  else the first field of n**4 symbols.

Blank lines, ``#`` comments and titles (``Grid 01``, Project Euler's file) end a block.

The reader makes one pass and looks at each line a bounded number of times, so its time
is linear in the input; a line longer than :data:`MAX_LINE_CHARS` is refused as soon as it
is read, before the rest of the file, so memory stays bounded too. A layout is decided
by looking at the block, not line by line: the one ambiguous line, 16 symbols (a 4x4
puzzle, or a row of a 16x16 grid), is decided by the up to 16 lines that follow it.

Every failure is a :class:`PuzzleFormatError` naming the source, line, column and
reason of the first bad line, because a user with a 1465-line file needs to know
exactly which character is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from .alphabet import EMPTY_SYMBOLS
from .compact import BOX_OF_CELLS, decode, encode
from .errors import PuzzleFormatError
from .puzzle import LAYOUT, Puzzle, cell_value, line_symbols

__all__ = ["LAYOUT", "MAX_LINE_CHARS", "parse_file", "parse_line", "parse_lines", "parse_text"]

#: The longest line read. The widest layout of the largest grid fits with room to spare: a
#: 25x25 puzzle on one line with a space after every cell and bars between boxes is about
#: 1,500 characters, a ``puzzle,solution`` record 1,251. A longer line is not a puzzle.
MAX_LINE_CHARS = 2048

#: Cell counts that can only be one puzzle on one line (16 may also be a 16x16 row).
PUZZLE_LINE_CELLS = frozenset({81, 256, 625})
#: Compact lines decoded together at most (bounds the memory of a large file's read).
COMPACT_BLOCK = 4096
#: Cell counts of a grid row: the sides of the grids, 4x4 to 25x25.
ROW_CELLS = frozenset({4, 9, 16, 25})

#: The symbols a 4x4 puzzle may use: a 16-symbol line with any other is a 16x16 row.
_FOUR = frozenset("1234") | EMPTY_SYMBOLS
#: A title line such as Project Euler's ``Grid 01``; no grid row can hold these words'
#: letters (R, U, Z, S are beyond the 25x25 alphabet), so a title is never a row. A
#: line that also holds 16 symbols in a row is not a title: skipping it could drop a puzzle.
_TITLE = re.compile(r"(grid|puzzle|sudoku)\b(?!.*\S{16})[^,]{0,40}$", re.IGNORECASE)
#: Header names of the puzzle column in CSV files.
_CSV_PUZZLE_NAMES = frozenset({"puzzle", "puzzles", "quiz", "quizzes", "grid", "sudoku", "problem"})
_NUMBER_TOKEN = re.compile(r"[^\s|+]+")
_EOL_TEXT = re.compile(r"\r\n?|\n")
_EOL_BYTES = re.compile(rb"\r\n?|\n")

#: Cell tokens of one line with their 1-based columns.
Cells = list[tuple[str, int]]


def parse_compact_lines(texts: Sequence[str]) -> list[Puzzle | None]:
    """Many compact one-line puzzles decoded together: one array pass per box size, about
    a tenth of the time of :func:`parse_line` one by one (4 against 42 us a 9x9 line in a
    chunk of 256; a worker decodes its chunk of runs this way). None stands where a text
    is not exactly a valid compact puzzle, or shares a box size with one that is not:
    :func:`parse_line` reads those and says why."""
    out: list[Puzzle | None] = [None] * len(texts)
    by_length: dict[int, list[int]] = {}
    for i, text in enumerate(texts):
        by_length.setdefault(len(text), []).append(i)
    for length, where in by_length.items():
        box = BOX_OF_CELLS.get(length)
        grids = None if box is None else decode([texts[i] for i in where], box)
        if grids is None:
            continue
        for i, values in zip(where, grids.tolist(), strict=True):
            out[i] = Puzzle.trusted(box, tuple(values))
    return out


def parse_line(text: str, source: str = "<string>", line: int = 1) -> Puzzle:
    """One puzzle written on one line (:meth:`Puzzle.from_string`): n**4 symbols."""
    field = _compact_field(text.strip())
    if field is not None:
        box = BOX_OF_CELLS[len(field)]
        grids = decode([field], box)
        if grids is not None:
            return Puzzle.trusted(box, tuple(grids[0].tolist()))
    return Puzzle.from_string(text, source=source, line=line)


def _compact_field(stripped: str) -> str | None:
    """The puzzle of a line whose first field is n**4 symbols with no layout characters
    (``003020600...``, maybe followed by a rating): the fast path of :mod:`.compact`."""
    field = stripped.split(None, 1)[0] if stripped else ""
    if len(field) in BOX_OF_CELLS and "|" not in field and "+" not in field \
            and "," not in field:
        return field
    return None


def _is_rule(s: str) -> bool:
    # a rule has dashes; a framed row of blank cells ("|       |       |") is not one
    return ("-" in s or "=" in s) and set(s) <= set("-=+| ")


def _framed_cells(text: str) -> Cells | None:
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
    cells: Cells = []
    col = lead + 1  # the first bar
    for seg in parts:
        for j in range(n):
            token = seg[j * width:(j + 1) * width]
            stripped = token.strip()
            offset = token.find(stripped) if stripped else width // 2
            cells.append((stripped or "0", col + 1 + j * width + offset))
        col += len(seg) + 1
    return cells


def _number_cells(text: str) -> Cells | None:
    """A row written as numbers separated by spaces (``10 0 3 16 …``), None if it is not
    one: only a two-digit number tells such a row from spaced single symbols."""
    tokens = [(m.group(), m.start() + 1) for m in _NUMBER_TOKEN.finditer(text)]
    if len(tokens) < 4:
        return None
    numbers = [t for t, _ in tokens if len(t) == 2 and t.isascii() and t.isdigit()]
    if not numbers or any(len(t) > 2 or (len(t) == 2 and not (t.isascii() and t.isdigit()))
                          for t, _ in tokens):
        return None
    return tokens


def _fields(text: str) -> Cells:
    """The comma-separated fields of a line, stripped of spaces and quotes, with the
    column where each field's text starts."""
    out: Cells = []
    pos = 0
    for part in text.split(","):
        lead = len(part) - len(part.lstrip(' \t"'))
        out.append((part.strip(' \t"'), pos + lead + 1))
        pos += len(part) + 1
    return out


def _row_cells(text: str) -> Cells | None:
    """The cell tokens of a line read as a puzzle line or a grid row; None for a CSV
    record (commas, but not a row of single cells such as ``9,0,2,0,0,5,4,0,3``)."""
    if "," in text:
        fields = _fields(text)
        if len(fields) in ROW_CELLS and all(1 <= len(t) <= 2 for t, _ in fields):
            return fields
        return None
    return _framed_cells(text) or _number_cells(text) or line_symbols(text)


def _compact(text: str) -> bool:
    """A line of symbols only, no spaces or bars: the way a 4x4 puzzle is written on one line."""
    return len(text.split()) == 1 and not any(c in text for c in "|+,")


class _Reader:
    """The single pass over the lines of one source.

    State between lines: the rows of the grid being read (``side`` > 0), the lines of 16
    symbols not yet decided (``pending``), or the CSV column (``csv_column``). Each line
    is buffered at most once, and at most 25 lines are held, so time is linear.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.puzzles: list[Puzzle] = []
        self.side = 0
        self.grid: list[tuple[int, Cells]] = []
        self.pending: list[tuple[int, str, Cells]] = []
        self.csv = False
        self.csv_column: int | None = None
        self.csv_named: int | None = None
        self.block_start = True
        #: compact puzzle lines read but not yet decoded (decoded together: :mod:`.compact`)
        self.compact: list[tuple[int, str, str]] = []

    def error(self, reason: str, line: int, col: int = 1) -> PuzzleFormatError:
        return PuzzleFormatError(reason, self.source, line, col)

    # -- lines ---------------------------------------------------------------------------

    def feed(self, lineno: int, text: str) -> None:
        s = text.strip()
        if s and not (self.csv or self.pending or self.side) and s[0] != "#":
            # a first field of 81, 256 or 625 symbols is neither a title (those never hold
            # 16 symbols in a row) nor a rule (a rule has no digit)
            field = _compact_field(s)
            if field is not None and len(field) != 16 and not _is_rule(field):
                if self.compact and len(self.compact[0][2]) != len(field):
                    self.flush_compact()  # one box size per decoded block
                self.block_start = False
                self.compact.append((lineno, text, field))
                if len(self.compact) >= COMPACT_BLOCK:
                    self.flush_compact()
                return
        if not s or s.startswith("#") or _TITLE.match(s):
            self.end_block()
            return
        if _is_rule(s):
            return
        self.flush_compact()
        first = self.block_start
        self.block_start = False
        if self.csv:
            self._csv_record(lineno, text, first=False)
            return
        cells = _row_cells(text)
        if self.pending:
            if cells is not None and len(cells) == 16:
                self.pending.append((lineno, text, cells))
                if len(self.pending) == 16:
                    self._decide16(complete=True)
                return
            self._decide16(complete=False)
        if self.side:
            self._grid_row(lineno, cells, text)
            return
        if cells is None:
            self.csv = True
            self._csv_record(lineno, text, first=first)
            return
        n = len(cells)
        if n in PUZZLE_LINE_CELLS:
            self._emit([(lineno, cells)])
        elif n == 16:
            self.pending = [(lineno, text, cells)]
        elif n in ROW_CELLS:
            self.side = n
            self._grid_row(lineno, cells)
        else:
            raise self.error(f"this line has {n} cells: a puzzle on one line has n**4 "
                             "(16, 81, 256 or 625), a grid row 4, 9, 16 or 25", lineno)

    def flush_compact(self) -> None:
        """Decode the compact lines read so far, in one go; if any of them is not a valid
        puzzle, read them one by one the general way, which raises the located error."""
        lines, self.compact = self.compact, []
        if not lines:
            return
        box = BOX_OF_CELLS[len(lines[0][2])]
        grids = decode([field for _, _, field in lines], box)
        if grids is None:
            for lineno, text, _ in lines:
                self._emit([(lineno, _row_cells(text) or [])])
            return
        start, cells = len(self.puzzles), box ** 4
        text = encode(grids)  # every line's to_line form, in one pass
        self.puzzles.extend(
            Puzzle.trusted(box, tuple(values), f"{self.source}:{start + i}",
                           text[i * cells:(i + 1) * cells])
            for i, values in enumerate(grids.tolist()))

    def end_block(self) -> None:
        """A blank line, a comment, a title or the end: no grid may stay open across it."""
        self.flush_compact()
        if self.pending:
            self._decide16(complete=False)
        if self.side:
            self._incomplete_grid()
        self.csv = False
        self.csv_column = self.csv_named = None
        self.block_start = True

    # -- grids -----------------------------------------------------------------------------

    def _grid_row(self, lineno: int, cells: Cells | None, text: str = "") -> None:
        side = self.side
        if cells is None or len(cells) != side:
            n = len(_fields(text)) if cells is None else len(cells)
            start = self.grid[0][0] if self.grid else lineno
            raise self.error(f"a row of the {side}x{side} grid that starts at line {start} has "
                             f"{side} cells, this line has {n}", lineno)
        for token, col in cells:  # now, so that the first bad line is the one reported
            if cell_value(token, side) is None:
                raise self.error(f"unknown character {token!r} for a {side}x{side} grid", lineno, col)
        self.grid.append((lineno, cells))
        if len(self.grid) == side:
            rows, self.grid, self.side = self.grid, [], 0
            self._emit(rows)

    def _incomplete_grid(self) -> None:
        side, rows = self.side, self.grid
        first, last = rows[0][0], rows[-1][0]
        raise self.error(f"this {side}x{side} grid has {len(rows)} rows (lines {first}-{last}), "
                         f"it needs {side}: a grid has {side} rows of {side} cells "
                         f"(n**4 = {side * side} cells)", first)

    def _decide16(self, complete: bool) -> None:
        """Lines of 16 symbols: one 16x16 grid, or 4x4 puzzles one a line.

        Sixteen of them are a 16x16 grid (issue 17: 16 rows of 16 characters are one
        puzzle, not sixteen), unless that reading is invalid and the lines, compact and
        written in 1-4, are valid 4x4 puzzles: a 4x4 set read as a 16x16 grid almost
        always repeats a digit in a row (five givens of four digits on one line). Fewer
        than sixteen lines are 4x4 puzzles, unless bars say they are the rows of an
        incomplete 16x16 grid.
        """
        lines, self.pending = self.pending, []
        compact = all(_compact(text) for _, text, _ in lines)
        if complete:
            try:
                sixteen = self._build([(lineno, cells) for lineno, _, cells in lines])
            except PuzzleFormatError as grid_error:
                if not compact:
                    raise
                try:
                    fours = [self._build([(lineno, cells)], i)
                             for i, (lineno, _, cells) in enumerate(lines)]
                except PuzzleFormatError as four_error:
                    raise self.error(f"{grid_error.reason} (read as a 16x16 grid; as 4x4 puzzles "
                                     f"one a line, line {four_error.line}: {four_error.reason})",
                                     grid_error.line, grid_error.column) from None
                self.puzzles.extend(fours)
                return
            self.puzzles.append(sixteen)
            return
        if any("|" in text for _, text, _ in lines):
            first, last = lines[0][0], lines[-1][0]
            raise self.error(f"this 16x16 grid has {len(lines)} rows (lines {first}-{last}), "
                             "it needs 16: a grid has 16 rows of 16 cells (n**4 = 256 cells)", first)
        for lineno, _, cells in lines:
            try:
                self._emit([(lineno, cells)])
            except PuzzleFormatError as exc:
                if len(lines) > 1 and exc.reason.startswith("unknown character"):
                    raise self.error(f"{exc.reason} (if lines {lines[0][0]}-{lines[-1][0]} are rows "
                                     f"of a 16x16 grid, it has {len(lines)} of its 16)",
                                     exc.line, exc.column) from None
                raise

    # -- CSV -------------------------------------------------------------------------------

    def _csv_record(self, lineno: int, text: str, first: bool) -> None:
        fields = _fields(text)
        if self.csv_column is None:
            found = next((i for i, (t, _) in enumerate(fields)
                          if len(t) in PUZZLE_LINE_CELLS or len(t) == 16), None)
            if found is None and first:  # a header: remember which column it names
                self.csv_named = next((i for i, (t, _) in enumerate(fields)
                                       if t.lower() in _CSV_PUZZLE_NAMES), None)
                return
            column = self.csv_named if self.csv_named is not None else found
            if column is None:
                raise self.error("a CSV record with no puzzle: no field has 16, 81, 256 or 625 "
                                 "symbols (n**4)", lineno)
            self.csv_column = column
        column = self.csv_column
        if column >= len(fields):
            raise self.error(f"this CSV record has {len(fields)} fields, the puzzle is field "
                             f"{column + 1}", lineno)
        value, start = fields[column]
        cells = [(ch, start + i) for i, ch in enumerate(value) if ch not in LAYOUT]
        if len(cells) not in PUZZLE_LINE_CELLS and len(cells) != 16:
            raise self.error(f"field {column + 1} of this CSV record has {len(cells)} cells: a "
                             "puzzle has n**4 (16, 81, 256 or 625)", lineno, start)
        self._emit([(lineno, cells)])

    # -- puzzles ---------------------------------------------------------------------------

    def _build(self, rows: list[tuple[int, Cells]], offset: int = 0) -> Puzzle:
        tokens = [t for _, cells in rows for t, _ in cells]
        where = [(lineno, col) for lineno, cells in rows for _, col in cells]
        return Puzzle.from_symbols(tokens, where, self.source,
                                   name=f"{self.source}:{len(self.puzzles) + offset}")

    def _emit(self, rows: list[tuple[int, Cells]]) -> None:
        self.puzzles.append(self._build(rows))


def _text_lines(text: str, source: str) -> Iterator[tuple[int, str]]:
    """The lines of a text (``\\n``, ``\\r\\n`` or ``\\r``), each refused if too long."""
    start = 0
    lineno = 0
    for m in _EOL_TEXT.finditer(text):
        lineno += 1
        yield lineno, _checked(text[start:m.start()], source, lineno)
        start = m.end()
    if start < len(text):
        yield lineno + 1, _checked(text[start:], source, lineno + 1)


def _checked(line: str, source: str, lineno: int) -> str:
    if len(line) > MAX_LINE_CHARS:
        raise PuzzleFormatError(f"line longer than {MAX_LINE_CHARS} characters: not a puzzle text "
                                "(the largest puzzle, 25x25, fits with its layout)",
                                source, lineno, MAX_LINE_CHARS + 1)
    nul = line.find("\0")
    if nul >= 0:
        raise PuzzleFormatError("a NUL character: binary data, not a puzzle text", source, lineno, nul + 1)
    return line


def _file_lines(f: BinaryIO, source: str, chunk: int = 1 << 16) -> Iterator[tuple[int, str]]:
    """The lines of a file, decoded one by one, so that a long line is refused after
    reading at most :data:`MAX_LINE_CHARS` bytes plus one chunk, and a byte that is not
    UTF-8 is located at its line and column."""
    buf = b""
    lineno = 0
    eof = False
    while not eof:
        data = f.read(chunk)
        eof = not data
        buf += data
        cut = buf.rfind(b"\n") + 1
        if cut and buf.isascii() and b"\r" not in buf and b"\0" not in buf \
                and not (lineno == 0 and buf.startswith(b"\xef\xbb\xbf")):
            # the common case, plain ASCII with \n ends: the chunk's lines decoded at once
            lines = buf[:cut - 1].decode("ascii").split("\n")
            if max(map(len, lines)) <= MAX_LINE_CHARS:
                for text in lines:
                    lineno += 1
                    yield lineno, text
                buf = buf[cut:]
                continue
        start = 0
        for m in _EOL_BYTES.finditer(buf):
            if not eof and m.end() == len(buf) and buf.endswith(b"\r"):
                break  # maybe half of a \r\n: wait for the next chunk
            lineno += 1
            yield lineno, _decoded(buf[start:m.start()], source, lineno)
            start = m.end()
        buf = buf[start:]
        if len(buf) > MAX_LINE_CHARS:
            _checked("x" * (MAX_LINE_CHARS + 1), source, lineno + 1)
    if buf:
        yield lineno + 1, _decoded(buf, source, lineno + 1)


def _decoded(raw: bytes, source: str, lineno: int) -> str:
    if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # the byte-order mark some editors write
    if len(raw) > MAX_LINE_CHARS:  # every puzzle character is ASCII: one byte each
        _checked("x" * (MAX_LINE_CHARS + 1), source, lineno)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        col = len(raw[:exc.start].decode("utf-8", errors="replace")) + 1
        raise PuzzleFormatError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x}): a puzzle file is "
                                "plain text", source, lineno, col) from None
    return _checked(text, source, lineno)


def _read(lines: Iterable[tuple[int, str]], source: str, stop: int | None = None) -> list[Puzzle]:
    """The puzzles of ``lines``; with ``stop``, reading ends once that many are read (a
    slice of a large file reads only its beginning)."""
    reader = _Reader(source)
    for lineno, text in lines:
        reader.feed(lineno, text)
        if stop is not None and len(reader.puzzles) + len(reader.compact) >= stop:
            break
    reader.end_block()
    return reader.puzzles[:stop] if stop is not None else reader.puzzles


def parse_text(text: str, source: str = "<string>") -> list[Puzzle]:
    """All puzzles in a text, in any of the layouts above, each named ``SOURCE:INDEX``."""
    return _read(_text_lines(text.removeprefix("\ufeff"), source), source)


def parse_file(path: str | Path, stop: int | None = None) -> list[Puzzle]:
    """Every puzzle in a file (the first ``stop`` with ``stop``), named ``FILE:INDEX``; a
    file with none is an error."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            puzzles = _read(_file_lines(f, str(p)), str(p), stop)
    except OSError as exc:
        raise PuzzleFormatError(f"cannot read: {exc.strerror or exc}", str(p), 1, 1) from None
    if not puzzles:
        raise PuzzleFormatError("no puzzle in this file", str(p), 1, 1)
    return puzzles


def parse_lines(lines: Iterable[str], source: str = "<string>") -> list[Puzzle]:
    """All puzzles in a sequence of lines (without their line ends)."""
    return _read(((i, _checked(t, source, i)) for i, t in enumerate(lines, start=1)), source)
