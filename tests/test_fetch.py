"""Download of public sets against a local HTTP server on 127.0.0.1 (no internet)."""

import functools
import http.server
import shutil
import threading

import pytest

from sudoku_compare.bench.cli import main
from sudoku_compare.problems import catalog
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.fetch import ChecksumError, FetchError, fetch
from sudoku_compare.problems.sets import load_set

from .conftest import SHARED, needs_public

pytestmark = needs_public


@pytest.fixture
def served(tmp_path):
    """A server on 127.0.0.1 with good copies under /good and a corrupted easy51 under /bad."""
    root = tmp_path / "www"
    (root / "good").mkdir(parents=True)
    (root / "bad").mkdir()
    for pub in catalog.PUBLIC_SETS.values():
        shutil.copy(SHARED / pub.filename, root / "good" / pub.filename)
    text = (SHARED / "Sudoku_Easy51.txt").read_text(encoding="utf-8-sig")
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.strip() and not ln.startswith("#"))
    lines[i] = ("1" if lines[i][0] != "1" else "2") + lines[i][1:]  # one changed digit
    (root / "bad" / "Sudoku_Easy51.txt").write_text("\n".join(lines) + "\n")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def no_local_sets(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.delenv("SUDOKU_COMPARE_PUZZLES", raising=False)
    monkeypatch.setenv("SUDOKU_COMPARE_CACHE", str(cache))
    return cache


def test_checksums_match_the_shared_copies():
    for pub in catalog.PUBLIC_SETS.values():
        text = (SHARED / pub.filename).read_text(encoding="utf-8-sig")
        assert catalog.content_sha256(text) == pub.sha256, pub.name


def test_normalise_ignores_line_endings_comments_and_empty_symbol():
    text = (SHARED / "Sudoku_top95.txt").read_text()
    variant = "\ufeff# a comment\r\n\r\n" + text.replace(".", "0").replace("\n", "\r\n")
    assert catalog.content_sha256(variant) == catalog.PUBLIC_SETS["top95"].sha256


def test_not_found_until_fetched_then_cached(served, no_local_sets):
    assert catalog.find_set_file("top95") is None
    with pytest.raises(Exception, match="top95"):
        load_set("top95")
    path = fetch("top95", base_url=f"{served}/good")
    assert path == no_local_sets / "Sudoku_top95.txt"
    assert catalog.where_found("top95") == "cache"
    assert len(load_set("top95")) == 95


def test_cli_fetch_with_env_base_url(served, no_local_sets, monkeypatch, capsys):
    monkeypatch.setenv("SUDOKU_COMPARE_PUZZLES_URL", f"{served}/good")
    assert main(["puzzles", "fetch", "hardest"]) == 0
    assert (no_local_sets / "Sudoku_hardest.txt").is_file()
    assert main(["puzzles", "list"]) == 0
    out = capsys.readouterr().out
    assert "hardest" in out and "cache" in out
    assert "not found: run sudoku-compare puzzles fetch top1465" in out


def test_corrupted_download_is_refused_and_not_cached(served, no_local_sets, capsys):
    with pytest.raises(ChecksumError, match="checksum mismatch for easy51"):
        fetch("easy51", base_url=f"{served}/bad")
    assert not no_local_sets.exists() or not any(no_local_sets.iterdir())
    assert main(["puzzles", "fetch", "easy51", "--base-url", f"{served}/bad"]) == 2
    err = capsys.readouterr().err
    assert "checksum mismatch" in err and "nothing cached" in err and "Traceback" not in err
    assert catalog.find_set_file("easy51") is None


def test_missing_file_is_a_fetch_error(served, no_local_sets, capsys):
    with pytest.raises(FetchError):
        fetch("top1465", base_url=f"{served}/bad")
    assert main(["puzzles", "fetch", "top1465", "--base-url", f"{served}/bad"]) == 1
    assert "cannot download top1465" in capsys.readouterr().err


def test_damaged_cached_copy_is_downloaded_again(served, no_local_sets):
    no_local_sets.mkdir(parents=True)
    cached = no_local_sets / "Sudoku_top95.txt"
    cached.write_bytes(b"\x00\xff binary")
    with pytest.raises(InputError, match="Sudoku_top95.txt: not the public set top95: binary data"):
        load_set("top95")
    assert fetch("top95", base_url=f"{served}/good") == cached
    assert len(load_set("top95")) == 95


@pytest.mark.parametrize("base", ["::::", "http://[::1", "mailto:x@example.org", "//host/path"])
def test_a_base_url_that_is_not_one_is_an_input_error(no_local_sets, monkeypatch, base):
    with pytest.raises(InputError, match="--base-url"):
        fetch("easy51", base_url=base)
    monkeypatch.setenv("SUDOKU_COMPARE_PUZZLES_URL", base)
    with pytest.raises(InputError, match=r"\$SUDOKU_COMPARE_PUZZLES_URL"):
        fetch("easy51")


def test_oversized_response_is_refused_and_not_cached(served, no_local_sets, monkeypatch):
    from sudoku_compare.problems import fetch as fetch_module

    monkeypatch.setattr(fetch_module, "MAX_SET_BYTES", 50_000)  # top1465 is 120 kB
    with pytest.raises(ChecksumError, match="more than any copy of top1465"):
        fetch("top1465", base_url=f"{served}/good")
    assert catalog.find_set_file("top1465") is None


def test_unwritable_cache_is_a_fetch_error(served, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("SUDOKU_COMPARE_CACHE", str(blocker / "cache"))
    with pytest.raises(FetchError, match="cannot write"):
        fetch("hardest", base_url=f"{served}/good")
