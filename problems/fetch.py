"""Downloading a public puzzle set into the user cache, checksum first.

``sudoku-compare puzzles fetch NAME`` calls :func:`fetch`. The file is accepted only if
the SHA-256 of its normalised content (:func:`.catalog.content_sha256`) is the one the
catalog records; otherwise nothing is written, so a corrupted or changed copy never
reaches a benchmark. ``$SUDOKU_COMPARE_PUZZLES_URL`` (or ``base_url``) replaces the
public address by ``BASE/FILENAME``: tests serve the files from 127.0.0.1, mirrors work too.

A response is read up to :data:`.catalog.MAX_SET_BYTES` and no further, so a wrong
address or a hostile server cannot fill memory; a base address that is not an http(s)
or file URL is a bad input (exit code 2), found before any connection is tried.
"""

from __future__ import annotations

import http.client
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from .catalog import (
    MAX_SET_BYTES,
    PUBLIC_SETS,
    PublicSet,
    cache_dir,
    content_sha256,
    public_file_problem,
)
from .errors import ChecksumError, InputError

__all__ = ["ChecksumError", "FetchError", "fetch", "source_url"]

_SCHEMES = ("http", "https", "file")


class FetchError(RuntimeError):
    """The download itself failed (network, HTTP status, cache not writable): exit code 1."""


def source_url(pub: PublicSet, base_url: str | None = None) -> str:
    """Where ``pub`` is downloaded from; refuses a base address that is not a URL."""
    from_env = base_url is None
    base = base_url if base_url is not None else os.environ.get("SUDOKU_COMPARE_PUZZLES_URL")
    if not base:
        return pub.url
    what = "$SUDOKU_COMPARE_PUZZLES_URL" if from_env else "--base-url"
    try:
        parts = urllib.parse.urlsplit(base)
    except ValueError as exc:
        raise InputError(f"{what} {base[:200]!r}: not a URL ({exc})") from None
    if parts.scheme.lower() not in _SCHEMES or (parts.scheme.lower() != "file" and not parts.netloc):
        raise InputError(f"{what} {base[:200]!r}: not an http(s) or file URL "
                         "(e.g. https://mirror.example/puzzles)")
    return f"{base.rstrip('/')}/{pub.filename}"


def _download(url: str, name: str, timeout: float) -> bytes:
    """The body at ``url``, at most :data:`MAX_SET_BYTES`: a longer one is refused unread."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310
            length = response.headers.get("Content-Length")
            if length is not None and length.isdigit() and int(length) > MAX_SET_BYTES:
                raise ChecksumError(f"{url}: {int(length)} bytes, more than any copy of {name} "
                                    f"({MAX_SET_BYTES} at most); nothing cached")
            data = response.read(MAX_SET_BYTES + 1)
    except InputError:
        raise
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        raise FetchError(f"cannot download {name} from {url}: {exc}") from None
    except ValueError as exc:  # a URL urllib cannot use (bad port, bad host name)
        raise InputError(f"cannot download {name} from {url!r}: {exc}") from None
    if len(data) > MAX_SET_BYTES:
        raise ChecksumError(f"{url}: more than {MAX_SET_BYTES} bytes, more than any copy of "
                            f"{name}; nothing cached")
    return data


def fetch(name: str, base_url: str | None = None, timeout: float = 60.0,
          force: bool = False) -> Path:
    """Download the public set ``name``, verify it, and store it in :func:`.catalog.cache_dir`."""
    pub = PUBLIC_SETS.get(name)
    if pub is None:
        raise InputError(f"unknown public set {name!r} (one of {', '.join(sorted(PUBLIC_SETS))})")
    url = source_url(pub, base_url)
    target = cache_dir() / pub.filename
    if target.is_file() and not force and public_file_problem(target, pub) is None:
        return target  # a damaged cached copy is downloaded again and replaced
    data = _download(url, name, timeout)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ChecksumError(f"{url}: not UTF-8 text, so not the {name} set; nothing cached") from None
    got = content_sha256(text)
    if got != pub.sha256:
        raise ChecksumError(f"{url}: checksum mismatch for {name}: content sha256 {got}, "
                            f"expected {pub.sha256}; nothing cached")
    tmp = target.with_suffix(target.suffix + ".part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        tmp.replace(target)  # atomic: a reader never sees half a file
    except OSError as exc:
        if tmp.parent.is_dir():
            tmp.unlink(missing_ok=True)
        raise FetchError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
