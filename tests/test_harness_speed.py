"""The fast paths of the harness (issue 16): they must give exactly what the slow ones gave.

Compact lines decoded in blocks against the general reader, the vectorised checker
against the detailed one, chunks of short runs that keep a hard deadline per run, a
store written in small transactions, and rows read back from SQLite on demand.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.bench.campaign import run_campaign
from sudoku_compare.bench.executor import LocalProcessExecutor, _Pace
from sudoku_compare.bench.runner import Task, TaskState
from sudoku_compare.bench.seeding import RunKeys, derive_seed, run_id
from sudoku_compare.bench.store import Store
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems import compact
from sudoku_compare.problems.checker import is_solution, violations
from sudoku_compare.problems.errors import InputError, PuzzleFormatError
from sudoku_compare.problems.formatting import format_line
from sudoku_compare.problems.parsing import parse_compact_lines, parse_file, parse_line, parse_text
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import PuzzleRef

from .fixtures_solvers import MODULE

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
EASY = "000260701680070090190004500820100040004602900050003028009300074040050036703018000"
HARD = "100007090030020008009600500005300900010080002600004000300000010040000007007000300"


def _mask(solution: str, keep: list[bool], empty: str) -> str:
    return "".join(ch if k else empty for ch, k in zip(solution, keep, strict=True))


@settings(max_examples=200, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=81, max_size=81),
       empty=st.sampled_from(["0", ".", "-", "_"]))
def test_a_compact_line_reads_as_the_general_reader_reads_it(keep, empty):
    line = _mask(SOLUTION, keep, empty)
    fast = parse_line(line)
    slow = Puzzle.from_string(line)
    assert fast == slow and fast.cells == slow.cells and fast.box == 3


@settings(max_examples=200, deadline=None)
@given(line=st.text(alphabet="0123456789.ABx|+ ", min_size=75, max_size=85))
def test_any_line_gets_the_same_puzzle_or_the_same_error_either_way(line):
    def read(f):
        try:
            return f(line).cells
        except PuzzleFormatError as exc:
            return str(exc)
    assert read(parse_line) == read(lambda t: Puzzle.from_string(t))


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(st.one_of(st.lists(st.booleans(), min_size=81, max_size=81).map(
    lambda keep: _mask(SOLUTION, keep, ".")), st.text(alphabet="0123456789.x ", min_size=79,
                                                     max_size=82)), max_size=8))
def test_lines_decoded_together_are_the_puzzles_parse_line_reads(lines):
    # a chunk's lines decoded at once: each the puzzle parse_line reads, or None where
    # the block of its box size holds a line parse_line refuses
    together = parse_compact_lines(lines)
    assert len(together) == len(lines)
    for line, puzzle in zip(lines, together, strict=True):
        if puzzle is not None:
            assert puzzle.cells == parse_line(line).cells and puzzle.box == 3
    if all(len(line) == 81 for line in lines):
        try:
            expected = [parse_line(line).cells for line in lines]
        except PuzzleFormatError:
            assert all(p is None for p in together)
        else:
            assert [p.cells for p in together] == expected  # type: ignore[union-attr]


def test_a_file_keeps_each_puzzle_line_as_to_line_writes_it(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("\n".join([EASY, HARD.replace("0", "."), "." * 16]) + "\n")
    for puzzle in parse_file(f):
        assert puzzle.to_line() == format_line(puzzle.cells, puzzle.box)
        assert puzzle.renamed("x").to_line() == puzzle.to_line()


@settings(max_examples=200, deadline=None)
@given(puzzle=st.text(max_size=90), seed_index=st.integers(0, 10**6),
       params=st.dictionaries(st.text(max_size=5), st.integers() | st.floats(allow_nan=False)))
def test_run_keys_give_the_ids_and_seeds_of_the_plain_digest(puzzle, seed_index, params):
    keys = RunKeys("native.sa", params, {"max_seconds": 5.0}, 7)
    assert keys.run_id(puzzle, seed_index) == run_id("native.sa", params, puzzle, seed_index,
                                                     {"max_seconds": 5.0}, 7)
    assert keys.seed(puzzle, seed_index) == derive_seed(7, puzzle, seed_index)


def test_a_block_with_a_duplicate_is_refused_at_its_line_as_before():
    bad = "11" + EASY[2:]
    text = "\n".join([EASY] * 5 + [bad] + [EASY] * 3)
    with pytest.raises(PuzzleFormatError) as err:
        parse_text(text, "f.txt")
    assert err.value.line == 6 and "given twice" in err.value.reason


def test_decode_matches_the_cells_of_many_lines_and_names_them_in_order(tmp_path):
    lines = [EASY, HARD, EASY.replace("0", ".")] * 50
    f = tmp_path / "p.txt"
    f.write_text("# a comment\n" + "\n".join(lines) + "\n")
    puzzles = parse_file(f)
    assert [p.cells for p in puzzles] == [Puzzle.from_string(x).cells for x in lines]
    assert puzzles[7].name == f"{f}:7"


def test_mixed_box_sizes_in_one_block_are_each_read():
    four = "1234341221434321"  # 16 symbols: read by the general reader
    sixteen_by_16 = "1" + "." * 255
    puzzles = parse_text("\n".join([EASY, sixteen_by_16, HARD]))
    assert [p.box for p in puzzles] == [3, 4, 3]
    assert parse_text(four)[0].box == 2


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.integers(0, 9), min_size=81, max_size=81))
def test_encode_writes_what_decode_reads(values):
    line = format_line(values, 3, empty="0")
    assert line == "".join(str(v) for v in values)
    assert compact.decode_grid(line).tolist() == values


def test_a_value_that_is_no_digit_keeps_the_line_length():
    assert compact.encode(np.array([1, -1, 99, 0]), empty=".") == "1??."


@settings(max_examples=300, deadline=None)
@given(changes=st.lists(st.tuples(st.integers(0, 80), st.integers(-1, 10)), max_size=3),
       keep=st.lists(st.booleans(), min_size=81, max_size=81))
def test_the_fast_checker_agrees_with_the_detailed_one(changes, keep):
    puzzle = Puzzle.from_string(_mask(SOLUTION, keep, "0"))
    grid = np.array([int(c) for c in SOLUTION])
    for cell, value in changes:
        grid[cell] = value
    assert is_solution(puzzle, grid) == (not violations(puzzle, grid))


def test_a_slice_reads_only_as_far_as_it_needs(tmp_path):
    f = tmp_path / "damaged.txt"
    f.write_text("\n".join([EASY] * 10 + ["not a puzzle line"]) + "\n")
    assert len(PuzzleRef.parse(f"{f}:0:10").puzzles()) == 10
    with pytest.raises(PuzzleFormatError):
        PuzzleRef.parse(f"{f}:0:11").puzzles()


def test_outcome_to_dict_has_every_field_and_round_trips():
    out = Outcome(grid=np.array([int(c) for c in SOLUTION]).reshape(9, 9), evaluations=5,
                  counters={"a": 1}, trace=[(1, 0.1, 2.0)], extra={"x": "y"})
    d = out.to_dict()
    assert set(d) == set(Outcome.__dataclass_fields__)
    back = Outcome.from_dict(d)
    assert back.grid.tolist() == out.grid.tolist() and back.trace == out.trace


# -- chunks of short runs ------------------------------------------------------------------
def test_a_hang_inside_a_chunk_is_killed_and_the_rest_of_the_chunk_runs_again():
    tasks = [Task("test.quick-or-hang", EASY, Budget(0.3), k, {}, (MODULE,), f"r{k}")
             for k in range(300)]
    tasks.insert(250, Task("test.quick-or-hang", HARD, Budget(0.3), 0, {}, (MODULE,), "hang"))
    with LocalProcessExecutor(workers=1, memory_mb=1024) as ex:
        got = list(ex.map_unordered(tasks))
    keys = [t.key for t, _ in got]
    assert sorted(keys) == sorted(t.key for t in tasks)          # each once, none lost
    status = {t.key: o.status for t, o in got}
    assert status["hang"] == "timeout"
    assert {s for k, s in status.items() if k != "hang"} == {"unsolved"}


def test_the_shared_task_state_reads_what_the_other_side_wrote_last():
    driver = TaskState()
    worker = TaskState(driver.fd)       # the same file, as the worker maps it
    try:
        assert driver.read()[:3] == (0, 0, TaskState.WARMING)   # nothing written yet
        worker.write(3, 7, TaskState.WARMING)
        worker.write(3, 7, TaskState.SOLVING)
        chunk, index, phase, since = driver.read()
        assert (chunk, index, phase) == (3, 7, TaskState.SOLVING) and since > 0
    finally:
        worker.close()
        driver.close()


def test_results_of_a_chunk_come_back_batched_and_each_once():
    tasks = [Task("test.quick-or-hang", EASY, Budget(5.0), k, {}, (MODULE,), f"r{k}")
             for k in range(600)]
    with LocalProcessExecutor(workers=2, memory_mb=1024) as ex:
        got = list(ex.map_unordered(tasks))
    assert sorted(t.key for t, _ in got) == sorted(t.key for t in tasks)


def test_the_pace_sends_short_runs_in_chunks_and_long_ones_alone():
    pace = _Pace()
    task = Task("x", EASY, Budget(1.0), 0)
    assert pace.size(task, 1000, 2) == 1                  # nothing measured yet
    for _ in range(20):
        pace.record(task, Outcome(elapsed_s=1e-4))
    assert pace.size(task, 1000, 2) > 100
    assert pace.size(task, 10, 2) <= 3                    # the last runs spread out
    for _ in range(40):
        pace.record(task, Outcome(elapsed_s=0.5))
    assert pace.size(task, 1000, 2) == 1


def test_a_campaign_of_chunks_stores_every_run_once_and_reads_rows_on_demand(tmp_path):
    db = tmp_path / "c.db"
    res = run_campaign(["native.bitmask"], [EASY] * 400, 1, Budget(5.0), db, workers=2,
                       progress=False)
    assert res.executed == 400
    assert {r["status"] for r in res.rows} == {"solved"} and len(res.rows) == 400
    assert res.summary()[0][:3] == ("native.bitmask", 400, 400)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(DISTINCT run_id), COUNT(*) FROM runs").fetchone() \
            == (400, 400)
    again = run_campaign(["native.bitmask"], [EASY] * 400, 1, Budget(5.0), db, progress=False)
    assert (again.executed, again.skipped) == (0, 400)


def test_add_runs_is_one_transaction(tmp_path):
    with Store(tmp_path / "s.db") as store:
        store.add_campaign("c", "now", "cmd", {}, {}, 2, ["a", "b"])
        base = {"campaign_id": "c", "solver": "s", "family": "exact", "origin": "native",
                "encoding": "grid", "puzzle": EASY, "seed": 0, "seed_index": 0,
                "max_seconds": 1.0, "status": "solved", "params": {}, "finished_at": "now"}
        rows = [({**base, "run_id": k}, False) for k in ("a", "b")]
        assert store.add_runs(rows) == [1, 1]
        assert store.add_runs([rows[0]]) == [1]                      # stored once
        assert store.add_runs([(rows[0][0], True)]) == [2]           # a retry
        # a batch of first attempts, one already stored: that one says its attempt
        more = [({**base, "run_id": k}, False) for k in ("c", "a", "d")]
        assert store.add_runs(more) == [1, 2, 1]
        assert store.outcome_counts("c") == [("s", "solved", 2)]


def test_a_worker_imports_only_its_solvers_module_and_gets_the_same_spec():
    # registry.get_from: what a campaign worker uses, so its start skips every other module
    code = (
        "import sys\n"
        "from sudoku_compare import registry\n"
        "spec = registry.get_from('native.bitmask[max_guesses=5]', "
        "'sudoku_compare.native.bitmask')\n"
        "print(spec.name, spec.defaults, registry._LOADED, "
        "'sudoku_compare.native.annealing' in sys.modules)\n"
        "print(registry.get('native.bitmask[max_guesses=5]') is spec)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=tempfile.gettempdir())
    first, second = done.stdout.strip().splitlines()
    assert first == "native.bitmask[max_guesses=5] {'max_guesses': 5} False False"
    assert second == "True"  # the full registry, loaded later, gives the same spec


def test_get_from_falls_back_to_the_whole_registry():
    from sudoku_compare import registry

    assert registry.get_from("native.sa", "no.such.module") is registry.get("native.sa")
    with pytest.raises(InputError, match="unknown solver"):
        registry.get_from("native.nope", "sudoku_compare.native.bitmask")
