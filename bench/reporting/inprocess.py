"""A sequential, in-process stand-in for ``bench.campaign.run_campaign``.

``compare`` uses the bench's isolated campaign runner (child processes, hard deadline,
memory cap) whenever :mod:`sudoku_compare.bench.campaign` is importable. This module is
the fallback for when it is not: same signature, same store rows, but every run happens
in this process, so a solver that ignores its deadline is not killed and a crash is
caught as an exception only. The report says which runner made its runs
(``config["runner"]``).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import time
import zlib
from collections.abc import Sequence
from typing import Any

from sudoku_compare.bench.budget import Budget
from sudoku_compare.bench.store import Store

RUNNER = "in-process fallback (no isolation, no hard deadline)"


def _machine() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu or "unknown", "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform()}


def _puzzles(puzzles: str | Sequence[str]) -> list[tuple[str, int, Any]]:
    """(set name, index in set, Puzzle) for a comma-separated ref or a list of refs."""
    from sudoku_compare.problems.sets import resolve_puzzles

    refs = [r for r in (puzzles.split(",") if isinstance(puzzles, str) else puzzles) if r]
    out = []
    for ref in refs:
        parts = ref.rsplit(":", 2)
        start = 0
        name = ref
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            name, start = parts[0], int(parts[1])
        elif len(parts) >= 2 and parts[-1].isdigit():
            name, start = ref.rsplit(":", 1)[0], int(parts[-1])
        for k, pz in enumerate(resolve_puzzles(ref)):
            out.append((name, start + k, pz))
    return out


def derive_seed(campaign_seed: int, solver: str, puzzle: str, seed_index: int) -> int:
    """One seed per run from its identity (independent of order and workers)."""
    return zlib.crc32(f"{campaign_seed}|{solver}|{puzzle}|{seed_index}".encode()) & 0x7FFFFFFF


def run_campaign(solvers: Sequence[str], puzzles: str | Sequence[str], seeds: int, budget: Budget,
                 db: str, workers: int = 1, campaign_seed: int = 0, progress: bool = True,
                 command: str | None = None, params: dict | None = None) -> dict[str, Any]:
    """Run solvers x puzzles x seeds in this process into ``db``; skips finished runs."""
    from sudoku_compare.bench import registry
    from sudoku_compare.bench.api import solve

    chosen = _puzzles(puzzles)
    config = {"solvers": list(solvers), "puzzles": puzzles, "seeds": seeds,
              "budget": budget.to_dict(), "campaign_seed": campaign_seed, "runner": RUNNER,
              "params": params or {}}
    cid = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:12]
    planned = len(solvers) * len(chosen) * seeds
    done = 0
    with Store(db) as store:
        store.add_campaign(cid, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                           command or " ".join(sys.argv), config, _machine(), planned)
        finished = store.finished_run_ids()
        for name in solvers:
            spec = registry.get(name)
            for pset, index, pz in chosen:
                line = pz.to_line()
                for k in range(seeds):
                    run_id = hashlib.sha256(json.dumps(
                        [name, params or {}, line, k, budget.to_dict(), campaign_seed],
                        sort_keys=True).encode()).hexdigest()[:20]
                    done += 1
                    if run_id in finished:
                        continue
                    seed = derive_seed(campaign_seed, name, line, k)
                    out, _ = solve(name, pz, budget, seed=seed,
                                   params=(params or {}).get(name))
                    d = out.to_dict()
                    store.add_run({
                        "run_id": run_id, "campaign_id": cid, "solver": name,
                        "family": spec.family, "origin": spec.origin,
                        "encoding": spec.encoding, "params": (params or {}).get(name) or {},
                        "puzzle_set": pset, "puzzle_index": index, "puzzle": line, "seed": seed,
                        "seed_index": k, "max_seconds": budget.max_seconds,
                        "max_evaluations": budget.max_evaluations, **{c: d.get(c) for c in (
                            "status", "elapsed_s", "evaluations", "iterations", "restarts",
                            "best_energy", "counters", "trace", "extra", "versions", "grid",
                            "violations", "error")},
                        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
                    if progress:
                        print(f"  [{done}/{planned}] {name} {pset}:{index} seed {k}: "
                              f"{d['status']} {d['elapsed_s']:.3f} s", file=sys.stderr,
                              flush=True)
    return {"campaign_id": cid, "planned": planned}
