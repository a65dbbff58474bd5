"""``compare`` end to end on a tiny budget: one family, two puzzles, one seed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudoku_compare.bench.cli import main
from sudoku_compare.bench import compare as cmp
from sudoku_compare.bench.store import Store
from sudoku_compare.problems.errors import InputError


def pattern_solution() -> list[int]:
    """A valid 9x9 solution by the classic shifted pattern (no data file needed)."""
    return [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]


@pytest.fixture()
def tiny_set(tmp_path: Path) -> Path:
    sol = pattern_solution()
    lines = []
    for k in (2, 5):  # blank every k-th cell: two easy puzzles with a unique-enough solution
        cells = [0 if (i * 7 + k) % k == 0 else v for i, v in enumerate(sol)]
        lines.append("".join(map(str, cells)))
    path = tmp_path / "tiny.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_plan_discovers_solvers_and_names_its_defaults(tiny_set):
    p = cmp.plan(["backtracking"], puzzles=str(tiny_set), seeds=1, max_seconds=2.0, workers=1)
    assert [g.group for g in p.groups] == ["exact"]
    g = p.groups[0]
    assert "native.backtracking" in g.solvers
    assert all(s.startswith("native.backtracking") or not s.startswith("native.")
               for s in g.solvers)  # natives of the family, libraries of its group
    assert g.n_puzzles == 2 and g.runs == 2 * len(g.solvers)
    assert p.worst_case_seconds == pytest.approx(g.runs * 2.0)
    text = "\n".join(cmp.describe_plan(p))
    assert "worst case" in text and "native.backtracking" in text
    with pytest.raises(InputError):
        cmp.plan(["no-such-family"], puzzles=str(tiny_set))


def test_default_plan_fits_two_minutes():
    try:
        p = cmp.plan(workers=2)
    except InputError:
        pytest.skip("no default puzzle set here")
    groups = {g.group for g in p.groups}
    assert groups, "compare with no arguments plans nothing"
    # every run at its full budget, spread on 2 workers, leaves room for start-up
    assert p.worst_case_seconds <= 90


def test_compare_end_to_end(tiny_set, tmp_path):
    out = tmp_path / "reports" / "cmp.md"
    db = tmp_path / "cmp.db"
    rc = main(["compare", "backtracking", "--puzzles", str(tiny_set), "--seeds", "1",
               "--max-seconds", "2", "--workers", "1", "--out", str(out), "--db", str(db),
               "--quiet"])
    assert rc == 0
    text = out.read_text()
    assert text.startswith("# ")
    assert "Regenerate: `sudoku-compare compare backtracking" in text
    assert "native.backtracking" in text
    with Store(db, readonly=True) as store:
        runs = store.runs()
    assert runs and all(r["seed_index"] == 0 for r in runs)
    assert {r["puzzle"].replace(".", "0") for r in runs} == set(tiny_set.read_text().split())
    for r in runs:
        if r["solver"] == "native.backtracking":
            assert r["status"] == "solved"
    figs = out.parent / "cmp_figures"
    svgs = list(figs.glob("*.svg"))
    assert svgs
    for f in svgs:
        assert ET.parse(f).getroot().tag.endswith("svg")
        assert f"cmp_figures/{f.name}" in text
