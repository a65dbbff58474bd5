"""Seeds and run ids derived from a run's identity, so they do not depend on order or workers.

Python's ``hash`` is salted per process, so a stable digest (SHA-256 of canonical JSON)
is used instead, as benchopt does.

A campaign derives two digests for every run it plans, and plans each run twice (once to
record the ids, once to run them), so :class:`RunKeys` encodes the parts one solver's runs
share once; the texts it hashes are the ones :func:`_digest` builds, character for character,
so stored run ids and seeds stay what they were.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring_ascii
from typing import Any

#: canonical JSON of one value: sorted keys, no spaces, anything else as its str
_canonical = json.JSONEncoder(sort_keys=True, default=str, separators=(",", ":")).encode


def _digest(*parts: Any) -> bytes:
    return _sha256("[" + ",".join(_canonical(p) for p in parts) + "]")


def _sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _seed_of(digest: bytes) -> int:
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def derive_seed(campaign_seed: int, puzzle: str, seed_index: int) -> int:
    """A 31-bit seed for one run from the campaign seed, the puzzle and the seed index.

    The solver and its parameters are deliberately left out: every solver of a campaign gets
    the same seed on the same puzzle and seed index, so a native solver and the library
    adapter of its family start from the same seeded initial state (DESIGN.md, fairness).
    The run id, which must tell solvers apart, does include them.
    """
    return _seed_of(_digest(campaign_seed, puzzle, seed_index))


def run_id(solver: str, params: dict | None, puzzle: str, seed_index: int, budget: dict,
           campaign_seed: int = 0) -> str:
    """The key of a run in the store: same identity, same id (a rerun skips it)."""
    return _digest(solver, params or {}, puzzle, seed_index, budget, campaign_seed).hex()[:24]


class RunKeys:
    """:func:`derive_seed` and :func:`run_id` for the runs of one solver, parameters, budget
    and campaign seed: the same values, with the shared parts encoded once."""

    def __init__(self, solver: str, params: dict | None, budget: dict, campaign_seed: int
                 ) -> None:
        self._id_head = f"[{_canonical(solver)},{_canonical(params or {})},"
        self._id_tail = f",{_canonical(budget)},{_canonical(campaign_seed)}]"
        self._seed_head = f"[{_canonical(campaign_seed)},"

    def seed(self, puzzle: str, seed_index: int) -> int:
        return _seed_of(_sha256(f"{self._seed_head}{_text(puzzle)},{_text(seed_index)}]"))

    def run_id(self, puzzle: str, seed_index: int) -> str:
        return _sha256(f"{self._id_head}{_text(puzzle)},{_text(seed_index)}"
                       f"{self._id_tail}").hex()[:24]


def _text(value: Any) -> str:
    """:data:`_canonical` of one value, without the encoder's per-call set-up for the two
    kinds a run's identity holds (a str, an int): json writes them exactly this way, and a
    campaign encodes two of each per run, twice."""
    if type(value) is str:
        return encode_basestring_ascii(value)
    if type(value) is int:
        return int.__repr__(value)
    return _canonical(value)
