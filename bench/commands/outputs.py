"""Output paths a command writes (``--out``, ``--json FILE``, ``--csv DIR``), checked before
any work and guarded while writing.

A report or a perf run can take minutes; a path that cannot be written must say so in one
line (naming the option, the path and the reason, exit 2) before that work starts, not end
it in a traceback. :func:`checked_file` and :func:`checked_dir` test what can be tested up
front (an existing directory in the way, a parent that is a file, a read-only place);
:func:`writing` turns what only the write itself can reveal into the same one line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sudoku_compare.problems.errors import InputError


def _nearest_existing(path: Path) -> Path:
    for parent in (path, *path.parents):
        if parent.exists():
            return parent
    return Path(".")


def _check_parent(path: Path, option: str) -> None:
    place = _nearest_existing(path.parent)
    if not place.is_dir():
        raise InputError(f"{option} {path}: {place} is not a directory")
    if not os.access(place, os.W_OK | os.X_OK):
        raise InputError(f"{option} {path}: {place} is not writable")


def checked_file(path: str | Path | None, option: str) -> Path | None:
    """``path`` as a file this command may write (its folders are created on writing)."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{option} {p}: is a directory, not a file")
    if p.exists() and not os.access(p, os.W_OK):
        raise InputError(f"{option} {p}: the file is not writable")
    _check_parent(p, option)
    return p


def checked_dir(path: str | Path | None, option: str) -> Path | None:
    """``path`` as a directory this command may create and write files into."""
    if path is None:
        return None
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"{option} {p}: exists and is not a directory")
    if p.is_dir():
        if not os.access(p, os.W_OK | os.X_OK):
            raise InputError(f"{option} {p}: the directory is not writable")
    else:
        _check_parent(p, option)
    return p


@contextmanager
def writing(option: str) -> Iterator[None]:
    """Inside: an output that cannot be written is an :class:`InputError` naming ``option``
    (a full disk included: it is this command's output, not a stored result)."""
    try:
        yield
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        raise InputError(f"{option}{where}: cannot write ({exc.strerror or exc})") from None
