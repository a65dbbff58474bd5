import json

from sudoku_compare.bench.cli import main

from .conftest import needs_public


def test_list_json(capsys):
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    bt = next(r for r in rows if r["name"] == "native.backtracking")
    assert bt["family"] == "backtracking" and bt["origin"] == "native" and bt["available"]


@needs_public
def test_solve_json(capsys):
    assert main(["solve", "native.backtracking", "easy51:0", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "solved" and len(d["grid"]) == 81
    for key in ("solver", "puzzle", "seed", "elapsed_s", "evaluations", "counters", "versions"):
        assert key in d


def test_unknown_set_exits_2(capsys):
    assert main(["solve", "native.backtracking", "nosuchset:0"]) == 2
    assert "nosuchset" in capsys.readouterr().err


def test_bad_param_exits_2(capsys):
    ez = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
    assert main(["solve", "native.backtracking", ez, "--param", "nope=1"]) == 2
    assert "valid keys" in capsys.readouterr().err


def test_malformed_file_exits_2(tmp_path, capsys):
    f = tmp_path / "bad.txt"
    f.write_text("# header\n" + "1" * 80 + "\n")
    assert main(["solve", "native.backtracking", str(f)]) == 2
    assert "bad.txt:2:1:" in capsys.readouterr().err


def test_solve_isolated_json(capsys):
    ez = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
    assert main(["solve", "native.backtracking", ez, "--json", "--isolated"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "solved" and len(d["grid"]) == 81 and d["counters"]["search_calls"] > 0
    assert {"python", "numpy"} <= set(d["versions"])


def test_run_unknown_solver_and_bad_param_exit_2_before_any_db_write(tmp_path, capsys):
    ez = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
    db = tmp_path / "r.db"
    assert main(["run", "--solvers", "native.nope", "--puzzles", ez, "--db", str(db)]) == 2
    assert main(["run", "--solvers", "native.backtracking", "--puzzles", ez, "--db", str(db),
                 "--param", "native.backtracking:max_calls=x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "unknown solver" in err[0] and "max_calls" in err[1]
    assert not db.exists()
