"""Downloading a public puzzle set into the user cache, checksum first.

``sudoku-compare puzzles fetch NAME`` calls :func:`fetch`. The file is accepted only if
the SHA-256 of its normalised content (:func:`.catalog.content_sha256`) is the one the
catalog records; otherwise nothing is written, so a corrupted or changed copy never
reaches a benchmark. ``$SUDOKU_COMPARE_PUZZLES_URL`` (or ``base_url``) replaces the
public address by ``BASE/FILENAME``: tests serve the files from 127.0.0.1, mirrors work too.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from pathlib import Path

from .catalog import PUBLIC_SETS, PublicSet, cache_dir, content_sha256
from .errors import InputError


class ChecksumError(InputError):
    """The downloaded content is not the set the catalog knows (exit code 2)."""


class FetchError(RuntimeError):
    """The download itself failed (network, HTTP status)."""


def source_url(pub: PublicSet, base_url: str | None = None) -> str:
    base = base_url or os.environ.get("SUDOKU_COMPARE_PUZZLES_URL")
    return f"{base.rstrip('/')}/{pub.filename}" if base else pub.url


def fetch(name: str, base_url: str | None = None, timeout: float = 60.0,
          force: bool = False) -> Path:
    """Download the public set ``name``, verify it, and store it in :func:`.catalog.cache_dir`."""
    pub = PUBLIC_SETS.get(name)
    if pub is None:
        raise InputError(f"unknown public set {name!r} (one of {', '.join(sorted(PUBLIC_SETS))})")
    target = cache_dir() / pub.filename
    if target.is_file() and not force:
        if content_sha256(target.read_text(encoding="utf-8-sig")) == pub.sha256:
            return target
    url = source_url(pub, base_url)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310
            data = response.read()
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"cannot download {name} from {url}: {exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ChecksumError(f"{url}: not UTF-8 text, so not the {name} set; nothing cached") from None
    got = content_sha256(text)
    if got != pub.sha256:
        raise ChecksumError(f"{url}: checksum mismatch for {name}: content sha256 {got}, "
                            f"expected {pub.sha256}; nothing cached")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(target.suffix + ".part")
    tmp.write_bytes(data)
    tmp.replace(target)
    return target
