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
        "    encoding = 'grid'\n"
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


def test_the_fixture_package_tests_itself_with_the_public_contract():
    """What the adapter guide shows: a third-party package runs ``parametrize_with_checks``
    on its own solver in three lines (``tests/fixtures/toy_adapter/tests/test_contract.py``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(FIXTURE), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
         str(FIXTURE), "-c", str(FIXTURE / "pyproject.toml"), str(FIXTURE / "tests")],
        env=env, capture_output=True, text=True, timeout=300, cwd=FIXTURE)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "toy.backtracking-silent" in done.stdout or " passed" in done.stdout
    summary = done.stdout.strip().splitlines()[-1]
    assert "failed" not in summary and "passed" in summary, summary


def _broken_plugin(tmp_path: Path) -> Path:
    """An installed-looking distribution whose entry point names a module that does not exist."""
    info = tmp_path / "broken_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[sudoku_compare.solvers]\nbroken = no_such_module_anywhere:Solver\n")
    return tmp_path


def test_a_broken_entry_point_is_listed_as_broken_and_does_not_stop_other_commands(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(_broken_plugin(tmp_path)), os.environ.get("PYTHONPATH")])))
    code = "import sys; from sudoku_compare.bench.cli import main; sys.exit(main(sys.argv[1:]))"

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                              text=True, timeout=120)

    listed = cli("list")
    assert listed.returncode == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if x.startswith("broken "))
    assert "broken: ModuleNotFoundError" in line and "broken-plugin 1.0" in line
    rows = {r["name"]: r for r in json.loads(cli("list", "--json").stdout)}
    assert rows["broken"]["status"] == "broken" and rows["native.bitmask"]["status"] == "available"
    solved = cli("solve", "native.bitmask", EASY, "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["status"] == "solved"
    refused = cli("solve", "broken", EASY)
    assert refused.returncode == 2 and "broken" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_the_source_of_each_solver_is_recorded():
    rows = {r["name"]: r for r in json.loads(_cli("list", "--json").stdout)}
    assert rows["native.sa-reheat"]["source"] == "built-in"
    assert rows["toy.backtracking"]["source"] == "entry point toy (sudoku-compare-toy 0.1.0)"


def test_solve_json_is_only_json_whatever_the_solver_prints(tmp_path):
    pkg = tmp_path / "loud"
    (pkg / "loud_adapter").mkdir(parents=True)
    (pkg / "loud_adapter" / "__init__.py").write_text(
        "import os\n"
        "from sudoku_compare.native.norvig import NorvigSolver\n"
        "class Loud(NorvigSolver):\n"
        "    name = 'loud.norvig'\n    origin = 'loud'\n"
        "    def solve(self, puzzle, budget, seed):\n"
        "        print('python-level noise'); os.write(1, b'fd-level noise\\n')\n"
        "        return super().solve(puzzle, budget, seed)\n")
    info = pkg / "loud-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: loud\nVersion: 0.0.1\n")
    (info / "entry_points.txt").write_text("[sudoku_compare.solvers]\nloud = loud_adapter:Loud\n")
    env = dict(os.environ, PYTHONPATH=str(pkg))
    code = "import sys; from sudoku_compare.bench.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "solve", "loud.norvig", EASY, "--json"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "solved"  # stdout is one JSON document
    assert "fd-level noise" in done.stderr and "python-level noise" in done.stderr
