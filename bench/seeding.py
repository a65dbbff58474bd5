"""Seeds and run ids derived from a run's identity, so they do not depend on order or workers.

Python's ``hash`` is salted per process, so a stable digest (SHA-256 of canonical JSON)
is used instead, as benchopt does.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _digest(*parts: Any) -> bytes:
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).digest()


def derive_seed(campaign_seed: int, puzzle: str, seed_index: int) -> int:
    """A 31-bit seed for one run from the campaign seed, the puzzle and the seed index.

    The solver and its parameters are deliberately left out: every solver of a campaign gets
    the same seed on the same puzzle and seed index, so a native solver and the library
    adapter of its family start from the same seeded initial state (DESIGN.md, fairness).
    The run id, which must tell solvers apart, does include them.
    """
    return int.from_bytes(_digest(campaign_seed, puzzle, seed_index)[:4], "big") & 0x7FFFFFFF


def run_id(solver: str, params: dict | None, puzzle: str, seed_index: int, budget: dict,
           campaign_seed: int = 0) -> str:
    """The key of a run in the store: same identity, same id (a rerun skips it)."""
    return _digest(solver, params or {}, puzzle, seed_index, budget, campaign_seed).hex()[:24]
