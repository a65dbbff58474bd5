"""End to end: ``sudoku-compare puzzles ...`` in-process, and once as a subprocess."""

import re
import subprocess
import sys

import pytest

from sudoku_compare.bench.cli import main
from sudoku_compare.problems.parsing import parse_text
from sudoku_compare.problems.solutions import count_solutions

from .conftest import needs_public

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


@needs_public
def test_show_easy51_0_boxed(capsys):
    assert main(["puzzles", "show", "easy51:0"]) == 0
    out = capsys.readouterr().out
    assert "36 empty" in out
    grid = "\n".join(out.splitlines()[1:])
    assert grid.splitlines()[0] == "9 . 2 | . . 5 | 4 . 3"
    assert grid.splitlines()[3] == "-" * 21
    assert parse_text(grid)[0].to_line().replace(".", "0") == EASY0


@needs_public
def test_show_top95_0(capsys):
    assert main(["puzzles", "show", "top95:0"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "4 . . | . . . | 8 . 5"
    assert len(out.splitlines()) == 12


@needs_public
def test_list_shows_every_set_with_count_and_place(capsys):
    assert main(["puzzles", "list"]) == 0
    out = capsys.readouterr().out
    for name, count in [("generated-easy", 50), ("generated-medium", 50), ("generated-hard", 50),
                        ("generated-16x16", 15), ("easy51", 51), ("hardest", 11), ("top95", 95),
                        ("top1465", 1465)]:
        assert re.search(rf"^{name}\s+{count}\s", out, re.M), name


def test_generate_to_stdout_and_file(tmp_path, capsys):
    assert main(["puzzles", "generate", "--box", "2", "--count", "3", "--seed", "5"]) == 0
    text = capsys.readouterr().out
    assert "--seed 5" in text.splitlines()[1]
    puzzles = parse_text(text)
    assert len(puzzles) == 3 and all(count_solutions(p) == 1 for p in puzzles)
    out = tmp_path / "g.txt"
    assert main(["puzzles", "generate", "--box", "2", "--count", "3", "--seed", "5",
                 "--out", str(out)]) == 0
    assert out.read_text().splitlines()[2:] == text.splitlines()[2:]


@pytest.mark.parametrize("body,where,reason", [
    (EASY0[:-1], ":2:1:", "n\\*\\*4"),                        # wrong length / size not n**4
    (EASY0[:10] + "z" + EASY0[11:], ":2:11:", "unknown character 'z'"),
    ("99" + EASY0[2:], ":2:2:", "given twice in row 1"),
    ("1234\n" * 3, ":2:1:", "n\\*\\*4"),                        # a 12-cell grid
])
def test_malformed_file_exits_2_with_location(tmp_path, capsys, body, where, reason):
    f = tmp_path / "bad.txt"
    f.write_text("# header\n" + body + "\n")
    assert main(["puzzles", "show", str(f)]) == 2
    err = capsys.readouterr().err
    assert re.search(re.escape(str(f)) + re.escape(where) + " .*" + reason, err), err
    assert "Traceback" not in err


def test_subprocess_bad_input_no_traceback(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text(EASY0[:40] + "#" + EASY0[41:] + "\n")
    r = subprocess.run([sys.executable, "-m", "sudoku_compare.bench.cli", "puzzles", "show", str(f)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert f"{f}:1:41: unknown character '#'" in r.stderr
    assert "Traceback" not in r.stderr


def test_unknown_set_exits_2(capsys):
    assert main(["puzzles", "show", "no-such-set"]) == 2
    assert "unknown puzzle set" in capsys.readouterr().err
