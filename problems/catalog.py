"""Known puzzle sets: the project's shipped sets and the public ones (by checksum).

Public sets are third-party data and never shipped: they are found in the directory
``$SUDOKU_COMPARE_PUZZLES`` names, else in the user cache, else fetched. A copy found on
this machine is trusted only once its normalised content matches the catalogued SHA-256
(:func:`verify_public_file`), checked the first time a process uses it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .errors import ChecksumError

#: The largest file accepted as a copy of a public set, on disk or downloaded. The
#: largest set, top1465, is 120 kB; a copy 70 times larger is not that set, and the cap
#: keeps a wrong file or a hostile server from filling memory.
MAX_SET_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class PublicSet:
    name: str
    filename: str
    count: int
    url: str
    sha256: str  # of the normalised content (see normalise())
    description: str


PUBLIC_SETS: dict[str, PublicSet] = {
    s.name: s
    for s in (
        PublicSet("easy51", "Sudoku_Easy51.txt", 51,
                  "https://raw.githubusercontent.com/jsboige/CoursIA/main/MyIA.AI.Notebooks/Sudoku/Puzzles/Sudoku_Easy51.txt",
                  "054595e69e38f59385cb16be1e95a29985ce62d7ff1130ae89aac3fe82693dfb",
                  "the seed material's Easy set (Project Euler 96 plus one)"),
        PublicSet("hardest", "Sudoku_hardest.txt", 11, "https://norvig.com/hardest.txt",
                  "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
                  "the seed material's Medium set: Norvig's hardest.txt"),
        PublicSet("top95", "Sudoku_top95.txt", 95, "https://norvig.com/top95.txt",
                  "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
                  "the seed material's Hard set: Norvig's top95.txt"),
        PublicSet("top1465", "magictour_top1465.txt", 1465, "http://magictour.free.fr/top1465",
                  "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b",
                  "magictour's top 1465 hard puzzles"),
    )
}


def normalise(text: str) -> str:
    """The content the checksums cover (../shared/puzzles/README.md).

    Copies of a public set differ in line endings, byte-order marks, comments and the
    empty-cell symbol: keep every non-empty line not starting with ``#``, stripped, its
    first 81 characters, ``0`` written as ``.``, joined by newlines with a final one.
    """
    text = text.lstrip("\ufeff")
    lines = []
    for raw in text.splitlines():
        s = raw.strip()
        if s and not s.startswith("#"):
            lines.append(s[:81].replace("0", "."))
    return "\n".join(lines) + "\n"


def content_sha256(text: str) -> str:
    """SHA-256 of :func:`normalise` (UTF-8), the checksum :data:`PUBLIC_SETS` records."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()


def public_file_problem(path: Path, pub: PublicSet) -> str | None:
    """Why the file at ``path`` is not a good copy of ``pub`` (None when it is one)."""
    try:
        size = path.stat().st_size
        if size > MAX_SET_BYTES:
            return f"{size} bytes, more than any copy of {pub.name} ({MAX_SET_BYTES} at most)"
        data = path.read_bytes()
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if b"\0" in data:
        return "binary data (NUL bytes), not a puzzle text"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
    got = content_sha256(text)
    if got != pub.sha256:
        return f"content sha256 {got[:16]}…, expected {pub.sha256[:16]}… (a changed or damaged copy)"
    return None


#: Verdicts of :func:`verify_public_file`, by (path, size, mtime): a copy is hashed once
#: per process, and again only when it changes.
_VERDICTS: dict[tuple[str, int, int], str | None] = {}


def verify_public_file(path: Path, pub: PublicSet) -> None:
    """Refuse a copy of a public set whose content is not the catalogued one.

    Raises :class:`ChecksumError` naming the file and what is wrong with it. The verdict
    is cached by the file's size and modification time, so a process pays for the
    hash once per copy (about 1 ms for top1465), and an edited file is checked again.
    """
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    except OSError as exc:
        raise ChecksumError(f"{path}: cannot read the {pub.name} set: {exc.strerror or exc}") from None
    if key not in _VERDICTS:
        _VERDICTS[key] = public_file_problem(path, pub)
    problem = _VERDICTS[key]
    if problem is not None:
        raise ChecksumError(f"{path}: not the public set {pub.name}: {problem}; restore it, or "
                            f"delete it and run sudoku-compare puzzles fetch {pub.name}")


def env_dir() -> Path | None:
    d = os.environ.get("SUDOKU_COMPARE_PUZZLES")
    return Path(d) if d else None


def cache_dir() -> Path:
    """Where fetched public sets are kept: ``$SUDOKU_COMPARE_CACHE``, else the user cache."""
    override = os.environ.get("SUDOKU_COMPARE_CACHE")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sudoku-compare" / "puzzles"


def shipped_dir() -> Path:
    return Path(str(resources.files("sudoku_compare.puzzles")))


def shipped_sets() -> dict[str, Path]:
    """Generated sets shipped with the package: ``puzzles/<name>.txt``."""
    d = shipped_dir()
    return {p.stem: p for p in sorted(d.glob("*.txt"))}


def find_set_file(name: str) -> Path | None:
    """Where a named set lives on this machine, or None."""
    shipped = shipped_sets()
    if name in shipped:
        return shipped[name]
    pub = PUBLIC_SETS.get(name)
    if pub is None:
        return None
    for d in (env_dir(), cache_dir()):
        if d is not None and (d / pub.filename).is_file():
            return d / pub.filename
    return None


def where_found(name: str) -> str | None:
    """``shipped``, ``$SUDOKU_COMPARE_PUZZLES`` or ``cache`` for a set on this machine."""
    if name in shipped_sets():
        return "shipped"
    pub = PUBLIC_SETS.get(name)
    if pub is None:
        return None
    d = env_dir()
    if d is not None and (d / pub.filename).is_file():
        return "$SUDOKU_COMPARE_PUZZLES"
    if (cache_dir() / pub.filename).is_file():
        return "cache"
    return None


def known_names() -> list[str]:
    return sorted(set(PUBLIC_SETS) | set(shipped_sets()))
