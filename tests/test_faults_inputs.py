"""Issue 17's bad inputs, one test per case, end to end through the CLI where practical.

Points 1 (parsing hangs on bad lines), 4 (puzzle references, fetch's base URL, a binary
file in the cache), 8 (16 rows of 16 characters) and 9 (public copies trusted unchecked,
downloads without a size limit). Every refusal is exit code 2 and one line on stderr
naming the input and the reason, never a traceback; nothing here may take long.
"""

from __future__ import annotations

import http.server
import os
import random
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_compare.bench.cli import build_parser, main
from sudoku_compare.problems import catalog
from sudoku_compare.problems import fetch as fetch_module
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.formatting import format_line
from sudoku_compare.problems.parsing import parse_file, parse_text
from sudoku_compare.problems.sets import load_set

from .conftest import SHARED, needs_public

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SOL0 = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


@pytest.fixture(scope="module", autouse=True)
def _commands_imported():
    """Time limits below are for the work, not the CLI's one-off imports of every command
    module (scipy.stats alone takes 0.7 s), which happen once per process."""
    build_parser()


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, err: str, *needles: str) -> None:
    """Exit 2, exactly one line on stderr, no traceback, and the line says what and why."""
    assert code == 2, err
    assert "Traceback" not in err
    assert err.strip() and "\n" not in err.strip(), err
    for needle in needles:
        assert needle in err, (needle, err)


def eighty_char_lines(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return "".join("".join(rng.choice("123456789.") for _ in range(80)) + "\n" for _ in range(n))


# -- point 1: parsing in linear time and bounded memory --------------------------------------

def test_4000_lines_of_80_characters_refused_in_under_a_second(tmp_path, capsys):
    f = tmp_path / "bad.txt"
    f.write_text(eighty_char_lines(4000))
    t = time.perf_counter()
    code, _, err = run_cli(capsys, "puzzles", "show", str(f))
    elapsed = time.perf_counter() - t
    assert_refused(code, err, f"{f}:1:1:", "80 cells")
    assert elapsed < 1.0, elapsed  # was more than 60 s


def test_80_character_line_at_line_700_of_top1465_located_fast(tmp_path, capsys):
    lines = [EASY0.replace("0", ".")] * 1465
    lines[699] = lines[699][:80]
    f = tmp_path / "top1465-damaged.txt"
    f.write_text("\n".join(lines) + "\n")
    t = time.perf_counter()
    code, _, err = run_cli(capsys, "puzzles", "show", str(f))
    assert time.perf_counter() - t < 1.0  # was 5.5 s
    assert_refused(code, err, f"{f}:700:1:", "80 cells")
    code, _, err = run_cli(capsys, "solve", "native.bitmask", f"{f}:699")
    assert_refused(code, err, f"{f}:700:1:", "80 cells")
    # a reference reads the file only as far as the puzzles it names (issue 16)
    code, out, _ = run_cli(capsys, "puzzles", "show", f"{f}:0")
    assert code == 0


@pytest.mark.parametrize("header", ["quizzes,solutions\n", "puzzle,solution\n", ""])
def test_kaggle_csv_of_1000_records_read(tmp_path, capsys, header):
    f = tmp_path / "sudoku.csv"
    f.write_text(header + f"{EASY0},{SOL0}\n" * 1000)
    t = time.perf_counter()
    code, out, err = run_cli(capsys, "puzzles", "show", "--line", str(f))
    assert code == 0, err
    assert out.splitlines() == [EASY0.replace("0", ".")] * 1000
    assert time.perf_counter() - t < 2.0  # was 10.7 s, and then refused


def test_a_10_mb_line_is_refused_after_reading_a_little_of_it(tmp_path, capsys):
    f = tmp_path / "long.txt"
    f.write_bytes(b"1" * 10_000_000 + b"\n")
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=r":1:2049: line longer than 2048"):
            parse_file(f)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, peak  # was 2 GB
    code, _, err = run_cli(capsys, "puzzles", "show", str(f))
    assert_refused(code, err, f"{f}:1:2049:")


def test_first_bad_line_reported_with_line_and_column(tmp_path, capsys):
    rows = [EASY0[i:i + 9] for i in range(0, 81, 9)]
    rows[6] = rows[6][:4] + "?" + rows[6][5:]
    f = tmp_path / "grid.txt"
    f.write_text("# a grid\n" + "\n".join(rows) + "\n" + eighty_char_lines(3))
    code, _, err = run_cli(capsys, "puzzles", "show", str(f))
    assert_refused(code, err, f"{f}:8:5: unknown character '?'")


def test_random_bytes_file_refused(tmp_path, capsys):
    f = tmp_path / "noise.bin"
    f.write_bytes(bytes(random.Random(3).randrange(256) for _ in range(50_000)))
    code, _, err = run_cli(capsys, "puzzles", "show", str(f))
    assert_refused(code, err, str(f))


def test_subprocess_bad_file_is_one_line_exit_2(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text(eighty_char_lines(4000))
    r = subprocess.run([sys.executable, "-m", "sudoku_compare.bench.cli", "puzzles", "show", str(f)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and f"{f}:1:1:" in r.stderr
    assert "Traceback" not in r.stderr


# -- point 1 (deliver): fuzzing and a time bound that scales linearly ------------------------

VALID_LINES = [EASY0, EASY0.replace("0", "."), "1.3....2.1...32.", "# comment", "",
               "Grid 07", "9 . 2 | . . 5 | 4 . 3", "---------------------", f"{EASY0},{SOL0}"]
INVALID_LINES = ["x" * 80, EASY0[:-1], "99" + EASY0[2:], "1234", "a,b,c", "|  |", "\x00",
                 "²" * 81, "1" * 3000, "+---+", ",,,,", "10 11 12 13"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=4000))
def test_fuzz_random_bytes_refused_or_read(tmp_path, data):
    f = tmp_path / "fuzz.bin"
    f.write_bytes(data)
    try:
        parse_file(f)
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(f))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(VALID_LINES + INVALID_LINES) | st.text(max_size=100),
                      max_size=60),
       eol=st.sampled_from(["\n", "\r\n", "\r"]))
def test_fuzz_mixed_lines_through_the_cli(tmp_path, capsys, lines, eol):
    f = tmp_path / "mixed.txt"
    f.write_bytes(eol.join(lines).encode("utf-8", errors="surrogatepass"))
    code = main(["puzzles", "show", "--line", str(f)])  # anything but InputError escapes
    _, err = capsys.readouterr()
    assert code in (0, 2), err
    if code == 2:
        assert err.count("\n") == 1 and "Traceback" not in err and str(f) in err


def test_fuzz_examples_as_subprocess(tmp_path):
    """The same inputs in a real process: exit 0 or 2 and no traceback on stderr."""
    rng = random.Random(17)
    for k in range(2):
        f = tmp_path / f"mix{k}.txt"
        f.write_text("\n".join(rng.choice(VALID_LINES + INVALID_LINES) for _ in range(40)))
        r = subprocess.run([sys.executable, "-m", "sudoku_compare.bench.cli", "solve",
                            "native.bitmask", f"{f}:0"], capture_output=True, text=True, timeout=120)
        assert r.returncode in (0, 1, 2) and "Traceback" not in r.stderr, r.stderr


def _seconds_to_refuse(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        with pytest.raises(InputError):
            parse_text(text, "t")
        best = min(best, time.perf_counter() - t)
    return best


@pytest.mark.parametrize("layout", ["one a line", "grids"])
def test_parsing_time_scales_linearly(layout):
    """8x the lines costs about 8x the time (quadratic would be 64x); the bad line comes
    last so that every good line is parsed first."""
    if layout == "one a line":
        unit = EASY0 + "\n"
    else:
        unit = "\n".join(EASY0[i:i + 9] for i in range(0, 81, 9)) + "\n\n"
    per_unit = unit.count("\n")
    small = unit * (1000 // per_unit) + "x" * 80 + "\n"
    large = unit * (8000 // per_unit) + "x" * 80 + "\n"
    ratio = _seconds_to_refuse(large) / _seconds_to_refuse(small)
    assert ratio < 20, ratio


# -- point 4: references and fetch's address -------------------------------------------------

@pytest.mark.parametrize("ref,reason", [
    ("easy51:--1", "'--1' is not an index"),
    ("easy51:²", "'²' is not an index"),
    ("easy51:0:1:2", "too many ':' parts"),
    ("easy51:" + "9" * 5000, "out of range"),
    ("easy51:x:y", "is not an index"),
    ("", "empty puzzle reference"),
    ("easy51:5:2", "start 5 is not before stop 2"),
    ("easy51::0", "start 0 is not before stop 0"),
])
def test_bad_puzzle_reference_exits_2(capsys, ref, reason):
    for argv in (["puzzles", "show", ref], ["solve", "native.bitmask", ref]):
        code, _, err = run_cli(capsys, *argv)
        assert_refused(code, err, reason)


@needs_public
def test_good_puzzle_references_still_work(capsys):
    code, out, _ = run_cli(capsys, "puzzles", "show", "--line", "easy51:0:8")
    assert code == 0 and len(out.splitlines()) == 8
    code, out, _ = run_cli(capsys, "puzzles", "show", "--line", "easy51:-1")
    assert code == 0 and len(out.splitlines()) == 1


def test_file_reference_with_index(tmp_path, capsys):
    f = tmp_path / "two.txt"
    f.write_text(f"{EASY0}\n{SOL0}\n")
    code, out, _ = run_cli(capsys, "puzzles", "show", "--line", f"{f}:1")
    assert code == 0 and out.strip() == SOL0
    code, _, err = run_cli(capsys, "puzzles", "show", f"{f}:2")
    assert_refused(code, err, f"{f}:2", "out of range")


@pytest.mark.parametrize("base", ["::::", "http://[::1", "ftp://example.org/x", "not a url"])
def test_fetch_with_a_base_url_that_is_not_one_exits_2(tmp_path, monkeypatch, capsys, base):
    monkeypatch.setenv("SUDOKU_COMPARE_CACHE", str(tmp_path / "cache"))
    code, _, err = run_cli(capsys, "puzzles", "fetch", "easy51", "--base-url", base)
    assert_refused(code, err, "--base-url", "not")


def _binary_cache(tmp_path: Path, monkeypatch) -> Path:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "Sudoku_Easy51.txt").write_bytes(bytes(random.Random(5).randrange(256) for _ in range(5000)))
    monkeypatch.delenv("SUDOKU_COMPARE_PUZZLES", raising=False)
    monkeypatch.setenv("SUDOKU_COMPARE_CACHE", str(cache))
    return cache


def test_binary_file_in_the_cache_exits_2_with_a_reason(tmp_path, monkeypatch, capsys):
    cache = _binary_cache(tmp_path, monkeypatch)
    for argv in (["puzzles", "show", "easy51:0"], ["solve", "native.bitmask", "easy51:0"]):
        code, _, err = run_cli(capsys, *argv)
        assert_refused(code, err, str(cache / "Sudoku_Easy51.txt"), "not the public set easy51")
    code, out, err = run_cli(capsys, "puzzles", "list")
    assert code == 2 and "UNUSABLE" in out and "Traceback" not in err


@needs_public
def test_fetch_replaces_a_binary_file_in_the_cache(tmp_path, monkeypatch, capsys):
    cache = _binary_cache(tmp_path, monkeypatch)
    code, _, err = run_cli(capsys, "puzzles", "fetch", "easy51", "--base-url", SHARED.as_uri())
    assert code == 0, err
    assert "downloading it again" in err and "Traceback" not in err
    assert len(load_set("easy51")) == 51
    assert catalog.public_file_problem(cache / "Sudoku_Easy51.txt", catalog.PUBLIC_SETS["easy51"]) is None


# -- point 8: a 16x16 grid written as 16 rows of 16 characters --------------------------------

@pytest.mark.parametrize("sparse", [False, True])
def test_16_rows_of_16_characters_are_one_16x16_puzzle(tmp_path, capsys, sparse):
    puzzle = load_set("generated-16x16")[0]
    cells = list(puzzle.cells)
    if sparse:  # keep only givens 1-4: rows that could pass for 4x4 puzzles
        cells = [v if v <= 4 else 0 for v in cells]
    line = format_line(cells, 4)
    f = tmp_path / "sixteen.txt"
    f.write_text("\n".join(line[r * 16:(r + 1) * 16] for r in range(16)) + "\n")
    code, out, err = run_cli(capsys, "puzzles", "show", "--line", str(f))
    assert code == 0, err
    assert out.splitlines() == [line]


def test_a_4x4_set_of_16_puzzles_is_still_16_puzzles(tmp_path, capsys):
    code, text, _ = run_cli(capsys, "puzzles", "generate", "--box", "2", "--count", "16", "--seed", "3")
    assert code == 0
    f = tmp_path / "fours.txt"
    f.write_text(text)
    code, out, err = run_cli(capsys, "puzzles", "show", "--line", str(f))
    assert code == 0, err
    assert len(out.splitlines()) == 16


# -- point 9: public copies verified, downloads capped ----------------------------------------

@needs_public
def test_tampered_copy_in_sudoku_compare_puzzles_exits_2_naming_the_file(tmp_path, monkeypatch, capsys):
    d = tmp_path / "puzzles"
    d.mkdir()
    text = (SHARED / "Sudoku_top95.txt").read_text()
    (d / "Sudoku_top95.txt").write_text(text.replace("4.....8.5", "4.....8.6", 1))
    monkeypatch.setenv("SUDOKU_COMPARE_PUZZLES", str(d))
    code, _, err = run_cli(capsys, "solve", "native.bitmask", "top95:0")
    assert_refused(code, err, str(d / "Sudoku_top95.txt"), "not the public set top95", "sha256")
    code, _, err = run_cli(capsys, "run", "--solvers", "native.bitmask", "--puzzles", "top95:0:2",
                           "--db", str(tmp_path / "runs.db"))
    assert code == 2 and "not the public set top95" in err and "Traceback" not in err


@needs_public
def test_tampered_copy_in_the_cache_exits_2(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "cache"
    cache.mkdir()
    lines = (SHARED / "Sudoku_hardest.txt").read_text().splitlines()
    (cache / "Sudoku_hardest.txt").write_text("\n".join(lines[:-1]) + "\n")  # one puzzle dropped
    monkeypatch.delenv("SUDOKU_COMPARE_PUZZLES", raising=False)
    monkeypatch.setenv("SUDOKU_COMPARE_CACHE", str(cache))
    code, _, err = run_cli(capsys, "puzzles", "show", "hardest:0")
    assert_refused(code, err, str(cache / "Sudoku_hardest.txt"), "not the public set hardest")


@needs_public
def test_verdict_is_cached_by_size_and_mtime(tmp_path, monkeypatch):
    d = tmp_path / "puzzles"
    d.mkdir()
    copy = d / "Sudoku_top95.txt"
    good = (SHARED / "Sudoku_top95.txt").read_bytes()
    copy.write_bytes(good)
    monkeypatch.setenv("SUDOKU_COMPARE_PUZZLES", str(d))
    calls = []
    real = catalog.public_file_problem
    monkeypatch.setattr(catalog, "public_file_problem", lambda *a: calls.append(a) or real(*a))
    for _ in range(3):
        assert len(load_set("top95")) == 95
    assert len(calls) == 1  # hashed once per process
    copy.write_bytes(good.replace(b"4.....8.5", b"4.....8.6", 1))  # same size, new content
    os.utime(copy, ns=(time.time_ns(), time.time_ns() + 10**9))
    with pytest.raises(InputError, match="not the public set top95"):
        load_set("top95")
    assert len(calls) == 2


class _Endless(http.server.BaseHTTPRequestHandler):
    """Serves more than the cap, without a Content-Length, as a hostile server would."""

    def do_GET(self):  # noqa: N802
        self.send_response(200)
        self.end_headers()
        try:
            for _ in range(200):
                self.wfile.write(b"." * 81 + b"\n" * 1000)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


def test_fetch_caps_the_download_size(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("SUDOKU_COMPARE_PUZZLES", raising=False)
    monkeypatch.setenv("SUDOKU_COMPARE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(fetch_module, "MAX_SET_BYTES", 64 * 1024)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Endless)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        code, _, err = run_cli(capsys, "puzzles", "fetch", "top95", "--base-url", base)
    finally:
        server.shutdown()
        server.server_close()
    assert_refused(code, err, "more than 65536 bytes", "nothing cached")
    assert not (tmp_path / "cache" / "Sudoku_top95.txt").exists()


def test_fetch_refuses_a_declared_oversized_body(tmp_path, monkeypatch, capsys):
    big = tmp_path / "www" / "Sudoku_top95.txt"
    big.parent.mkdir()
    big.write_bytes(b"." * 81 * 2000)
    monkeypatch.setenv("SUDOKU_COMPARE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(fetch_module, "MAX_SET_BYTES", 100_000)
    code, _, err = run_cli(capsys, "puzzles", "fetch", "top95", "--base-url", big.parent.as_uri())
    assert_refused(code, err, "162000 bytes", "nothing cached")


# -- output paths: refused in one line before the work, or when the write itself fails -----

def _report_db(tmp_path: Path) -> Path:
    from sudoku_compare.bench.store import Store

    db = tmp_path / "one.db"
    with Store(db) as store:
        store.add_campaign("c", "2026-12-06T00:00:00", "x", {}, {}, 1)
        store.add_run({"run_id": "r", "campaign_id": "c", "solver": "native.bitmask",
                       "family": "exact", "origin": "native", "encoding": "grid",
                       "params": {}, "puzzle_set": "s", "puzzle_index": 0, "puzzle": EASY0,
                       "seed": 1, "seed_index": 0, "max_seconds": 1.0,
                       "max_evaluations": None, "status": "solved", "elapsed_s": 0.001,
                       "evaluations": 0, "iterations": 1, "restarts": 0, "best_energy": None,
                       "counters": {}, "trace": [], "extra": {}, "versions": {},
                       "grid": SOL0, "violations": [], "error": None,
                       "finished_at": "2026-12-06T00:00:01", "stop_reason": "target"})
    return db


def test_report_outputs_that_cannot_be_written_exit_2_before_writing(tmp_path, capsys):
    db = _report_db(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = tmp_path / "r.md"
    for argv, needle in (
            (["--out", str(tmp_path)], "is a directory, not a file"),
            (["--out", str(blocker / "r.md")], "is not a directory"),
            (["--json", str(blocker / "s.json")], "is not a directory"),
            (["--out", str(out), "--csv", str(blocker)], "exists and is not a directory")):
        code, _, err = run_cli(capsys, "report", "--db", str(db), *argv)
        assert_refused(code, err, argv[-2], needle)
        assert not out.exists()  # refused before the report was written


def test_a_failing_write_is_one_line_naming_the_option(tmp_path, capsys, monkeypatch):
    """What a pre-check cannot see (a place that refuses files) fails in the write itself."""
    db = _report_db(tmp_path)

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_text", refuse)
    code, _, err = run_cli(capsys, "report", "--db", str(db), "--json", str(tmp_path / "s.json"))
    assert_refused(code, err, "--json", "s.json", "cannot write (Permission denied)")


def test_generate_and_compare_refuse_an_unwritable_out_at_once(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    for argv in (["puzzles", "generate", "--out", str(blocker / "p.txt")],
                 ["compare", "--out", str(blocker / "c.md")],
                 ["perf", "--section", "batch", "--out", str(blocker / "p.md")]):
        t = time.perf_counter()
        code, _, err = run_cli(capsys, *argv)
        assert_refused(code, err, "--out", "is not a directory")
        assert time.perf_counter() - t < 5  # before any work


@pytest.mark.parametrize("argv,needle", [
    (["--seed", "-1"], "--seed -1: must be 0 or more"),
    (["--max-evals", "0"], "--max-evals 0: must be at least 1"),
    (["--max-seconds", "nan"], "--max-seconds nan"),
])
def test_solve_refuses_a_bad_seed_or_budget_naming_the_option(capsys, argv, needle):
    code, _, err = run_cli(capsys, "solve", "native.sa", EASY0, *argv)
    assert_refused(code, err, needle)


def test_api_solve_refuses_a_negative_seed():
    from sudoku_compare.bench import api

    with pytest.raises(InputError, match="seed -3: must be 0 or more"):
        api.solve("native.sa", EASY0, seed=-3)
