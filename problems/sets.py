"""Puzzle references: named sets, slices, files and literal puzzle strings.

A reference is one of: a literal puzzle (``"9020054..."``), ``SET`` / ``SET:I`` /
``SET:START:STOP`` where SET is a known set name or a file path. It is parsed once, by
:meth:`PuzzleRef.parse`, into a typed value; every command resolves references through
it, so ``easy51:--1`` or ``easy51:²`` is one clear :class:`InputError` everywhere.
Public sets are looked up in ``$SUDOKU_COMPARE_PUZZLES``, then the user cache (see
:mod:`.catalog`), and checked against their catalogued checksum before first use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from . import catalog
from .errors import InputError
from .parsing import parse_file
from .puzzle import Puzzle, cell_value
from .topology import box_for_cells

#: An index as written in a reference: ASCII digits with an optional minus sign (not
#: ``str.isdigit``, which accepts ``²`` that ``int`` then refuses).
_INDEX = re.compile(r"-?[0-9]{1,18}")


@dataclass(frozen=True)
class PuzzleRef:
    """A parsed puzzle reference: what to load (``base``) and which of its puzzles.

    ``index`` selects one puzzle; ``start``/``stop`` a slice (None = open end, negative
    counts from the end, as in Python); neither means every puzzle. A literal puzzle has
    ``literal`` set and no selection. ``text`` is the reference as the user wrote it,
    for messages.
    """

    text: str
    base: str
    literal: bool = False
    index: int | None = None
    start: int | None = None
    stop: int | None = None
    sliced: bool = False

    @classmethod
    def parse(cls, ref: str) -> PuzzleRef:
        """Parse a reference; refuses bad syntax (an index that is not an integer, too
        many ``:`` parts) with an :class:`InputError` naming the reference."""
        text = ref.strip()
        if not text:
            raise InputError("empty puzzle reference: give a set name, a file, SET:I or a puzzle")
        if ":" not in text and _looks_like_a_puzzle(text) and not _exists(text):
            return cls(text, text, literal=True)
        if ":" not in text or _names_something(text):
            return cls(text, text)
        parts = text.split(":")
        # the base is the longest prefix naming a set or a file ("dir:x/f.txt:3" works);
        # when none does, the first part, so that the message names the unknown set
        for n_sel in (1, 2):
            if len(parts) > n_sel and _names_something(":".join(parts[:-n_sel])):
                break
        else:
            n_sel = len(parts) - 1
        base, selectors = ":".join(parts[:-n_sel]), [p.strip() for p in parts[-n_sel:]]
        if not _names_something(base) and not all(_INDEX.fullmatch(s) or s == "" for s in selectors):
            raise InputError(f"unknown puzzle set {text[:200]!r}: not a set name "
                             f"({', '.join(catalog.known_names())}) nor an existing file "
                             "(with :I or :START:STOP)")
        if len(selectors) > 2:
            raise InputError(f"puzzle reference {text!r}: too many ':' parts; "
                             "write SET, SET:I or SET:START:STOP")
        if len(selectors) == 1:
            return cls(text, base, index=_parse_index(selectors[0], text, open_ok=False))
        start, stop = (_parse_index(s, text, open_ok=True) for s in selectors)
        first = 0 if start is None else start
        if stop is not None and first >= 0 and 0 <= stop <= first:
            raise InputError(f"{text}: empty slice (start {first} is not before stop {stop})")
        return cls(text, base, start=start, stop=stop, sliced=True)

    def puzzles(self) -> list[Puzzle]:
        """The puzzles this reference names (a set or file is loaded, and checked)."""
        if self.literal:
            return [Puzzle.from_string(self.base, name=self.base, source="<argument>")]
        puzzles = load_set(self.base, stop=self._needed())
        n = len(puzzles)  # exact whenever it is reported: a short read read the whole file
        if self.index is not None:
            i = self.index + n if self.index < 0 else self.index
            if not 0 <= i < n:
                raise InputError(f"{self.text}: index {self.index} out of range "
                                 f"(the set has {n} puzzles)")
            return [puzzles[i]]
        if self.sliced:
            chosen = puzzles[self.start:self.stop]
            if not chosen:
                raise InputError(f"{self.text}: empty slice (the set has {n} puzzles)")
            return chosen
        return puzzles

    def _needed(self) -> int | None:
        """How many puzzles from the start the reference needs (None: all of them), so a
        slice of a large file reads only its beginning."""
        if self.index is not None:
            return self.index + 1 if self.index >= 0 else None
        if self.sliced and self.stop is not None and self.stop >= 0 \
                and (self.start is None or self.start >= 0):
            return self.stop
        return None

    def __str__(self) -> str:
        return self.text


def _looks_like_a_puzzle(text: str) -> bool:
    """n**4 characters, mostly symbols of that grid: a literal puzzle, with maybe a typo
    for :meth:`Puzzle.from_string` to locate, rather than a 16-character file name."""
    box = box_for_cells(len(text))
    if box is None:
        return False
    side = box * box
    return sum(cell_value(ch, side) is not None for ch in text) >= 0.75 * len(text)


def _names_something(base: str) -> bool:
    """Whether ``base`` is a set name this package knows or an existing path."""
    return base in catalog.PUBLIC_SETS or base in catalog.shipped_sets() or _exists(base)


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def _parse_index(text: str, ref: str, open_ok: bool) -> int | None:
    if text == "" and open_ok:
        return None
    if re.fullmatch(r"-?[0-9]{19,}", text):
        raise InputError(f"puzzle reference {ref[:200]!r}: index {text[:40]}… out of range")
    if not _INDEX.fullmatch(text):
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise InputError(f"puzzle reference {ref[:200]!r}: {shown!r} is not an index "
                         "(an integer such as 0 or -1; a slice is START:STOP)")
    return int(text)


def load_set(name_or_path: str, stop: int | None = None) -> list[Puzzle]:
    """Every puzzle of a named set or a file (its first ``stop`` with ``stop``), each
    named ``SET:I``.

    A public set is verified by its content checksum the first time it is used in this
    process (:func:`.catalog.verify_public_file`): a tampered copy never reaches a run.
    """
    path = catalog.find_set_file(name_or_path)
    label = name_or_path
    if path is not None:
        pub = catalog.PUBLIC_SETS.get(name_or_path)
        if pub is not None:
            catalog.verify_public_file(path, pub)
    else:
        pub = catalog.PUBLIC_SETS.get(name_or_path)
        if pub is not None:
            raise InputError(f"public puzzle set {name_or_path!r} not found on this machine: run "
                             f"sudoku-compare puzzles fetch {name_or_path} (or set "
                             "SUDOKU_COMPARE_PUZZLES to a directory holding "
                             f"{pub.filename})")
        p = Path(name_or_path)
        if _names_something(name_or_path):
            path = p
        else:
            raise InputError(f"unknown puzzle set {name_or_path[:200]!r}: not a set name "
                             f"({', '.join(catalog.known_names())}) nor an existing file")
    return [pz.renamed(f"{label}:{i}") for i, pz in enumerate(parse_file(path, stop))]


def resolve_puzzles(ref: str | PuzzleRef) -> list[Puzzle]:
    """The puzzles a reference names (a literal, a set, one index, or a slice)."""
    return (ref if isinstance(ref, PuzzleRef) else PuzzleRef.parse(ref)).puzzles()


def resolve_puzzle(ref: str | PuzzleRef) -> Puzzle:
    """Exactly one puzzle: a literal, ``SET:I``, or a file holding one puzzle."""
    parsed = ref if isinstance(ref, PuzzleRef) else PuzzleRef.parse(ref)
    puzzles = parsed.puzzles()
    if len(puzzles) != 1:
        raise InputError(f"{parsed.text!r} names {len(puzzles)} puzzles; give one, e.g. {parsed.text}:0")
    return puzzles[0]
