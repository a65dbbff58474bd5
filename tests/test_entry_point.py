"""A third-party adapter, packaged apart, is found by entry point and run like a built-in.

The fixture package ``tests/fixtures/toy_adapter`` ships a hand-written
``*.dist-info`` (METADATA + entry_points.txt), so putting the directory on PYTHONPATH
makes ``importlib.metadata`` see it as installed: offline, fast, no pip.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "toy_adapter"
EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


def _cli(*args: str, with_fixture: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if with_fixture:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(FIXTURE), env.get("PYTHONPATH")]))
    code = "import sys; from sudoku_compare.bench.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_third_party_adapter_is_listed():
    done = _cli("list", "--json")
    assert done.returncode == 0, done.stderr
    rows = {r["name"]: r for r in json.loads(done.stdout)}
    toy = rows["toy.backtracking"]
    assert toy["available"] and toy["origin"] == "sudoku-compare-toy"
    assert toy["version"] == "0.1.0"  # read from the fixture's dist-info METADATA
    assert "native.backtracking" in rows  # built-ins still there


def test_third_party_adapter_is_absent_without_the_package():
    done = _cli("list", "--json", with_fixture=False)
    assert done.returncode == 0, done.stderr
    assert "toy.backtracking" not in {r["name"] for r in json.loads(done.stdout)}


def test_third_party_adapter_solves_and_is_verified():
    done = _cli("solve", "toy.backtracking", EASY, "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    assert d["status"] == "solved" and d["violations"] == []
    assert d["grid"].startswith("9") and len(d["grid"]) == 81
    assert d["versions"]["sudoku-compare-toy"] == "0.1.0"


def test_third_party_adapter_wrong_answer_is_caught(tmp_path):
    """Verification is the bench's, not the adapter's: a lying adapter is ``invalid``."""
    pkg = tmp_path / "liar"
    (pkg / "liar_adapter").mkdir(parents=True)
    (pkg / "liar_adapter" / "__init__.py").write_text(
        "import numpy as np\n"
        "from sudoku_compare.outcome import Outcome\n"
        "from sudoku_compare.solver import Solver\n"
        "class Liar(Solver):\n"
        "    name = 'liar.claims'\n    family = 'backtracking'\n    origin = 'liar'\n"
        "    def solve(self, puzzle, budget, seed):\n"
        "        g = puzzle.flat(); g[g == 0] = 1\n"
        "        return Outcome(grid=g.reshape(puzzle.side, -1), claims_solved=True)\n")
    info = pkg / "liar-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: liar\nVersion: 0.0.1\n")
    (info / "entry_points.txt").write_text("[sudoku_compare.solvers]\nliar = liar_adapter:Liar\n")
    env = dict(os.environ, PYTHONPATH=str(pkg))
    code = "import sys; from sudoku_compare.bench.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "solve", "liar.claims", EASY, "--json"],
                          env=env, capture_output=True, text=True, timeout=120)
    d = json.loads(done.stdout)
    assert d["status"] == "invalid" and d["violations"]
