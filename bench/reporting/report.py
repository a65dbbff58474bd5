"""The report API: a campaign database in, markdown + SVG figures (+ JSON, CSV) out.

``sudoku-compare report`` is a thin wrapper over :func:`write_report`; a notebook can call
:func:`build_summary` to get the same numbers as data.
"""

from __future__ import annotations

import csv
import json
from dataclasses import asdict
from pathlib import Path

from sudoku_compare.bench.store import JSON_COLUMNS, RUN_COLUMNS, Store

from . import markdown
from .comparisons import compare_all
from .figures import write_figures
from .parameter_effect import parameter_effects
from .seed_view import seed_view
from .summary import (
    ReportSummary,
    Run,
    family_tables,
    known_spec,
    load_campaigns,
    load_db,
    metadata,
    uniqueness,
)
from .verdicts import Verdict, assess, pairs_for

#: the level of a plain report's verdicts: one look at the data, Holm over every line
ONE_LOOK = "one look at the stored runs: Holm over every line at 0.05"


def verdicts_of(runs: list[Run]) -> list[Verdict]:
    """Every counterpart pair (and native improvement) among the stored solvers that are
    registered here, in both views, Holm-corrected together at 0.05 (one look)."""
    known = sorted({r["solver"] for r in runs if known_spec(r["solver"]) is not None})
    return assess(pairs_for(known, alternatives=False), runs)


def figure_dir_for(out: Path) -> Path:
    """Figures go beside the markdown, in ``<stem>_figures/`` (relative links)."""
    return out.parent / f"{out.stem}_figures"


def build_summary(db: str | Path, out: str | Path | None = None, *,
                  report_command: str = "", figures: bool = True,
                  runs: list[Run] | None = None, db_label: str | None = None,
                  verdicts: list[Verdict] | None = None,
                  verdict_level: str = ONE_LOOK) -> ReportSummary:
    """Everything a report says, as data; writes the figures when ``out`` is given.

    ``db_label`` replaces the database path in the metadata (e.g. for a temporary file).
    ``verdicts`` are those of a caller that tested the runs itself (``compare`` tests after
    every round at a per-look level); by default they are computed here, one look.
    """
    if runs is None:
        runs, campaigns = load_db(db)
    else:  # the caller's rows: read only the campaigns, not every run a second time
        campaigns = load_campaigns(db)
    return summarize(runs, campaigns, out, db_label=db_label or str(db),
                     report_command=report_command or f"sudoku-compare report --db {db}",
                     figures=figures, verdicts=verdicts, verdict_level=verdict_level)


def summarize(runs: list[Run], campaigns: list[dict] | None = None,
              out: str | Path | None = None, *, db_label: str = "(rows)",
              report_command: str = "", figures: bool = True,
              verdicts: list[Verdict] | None = None,
              verdict_level: str = ONE_LOOK) -> ReportSummary:
    """The summary of stored rows (dicts as :meth:`Store.runs` returns them), no database
    needed: what a notebook holding rows, or a test with a hand-made list, calls."""
    meta = metadata(runs, list(campaigns or []), db_label, report_command)
    verdicts = verdicts_of(runs) if verdicts is None else list(verdicts)
    refs = []
    if out is not None and figures:
        out = Path(out)
        fdir = figure_dir_for(out)
        refs = write_figures(runs, fdir, fdir.name, verdicts)
    return ReportSummary(metadata=meta, tables=family_tables(runs), comparisons=compare_all(runs),
                         seed_view=seed_view(runs), figures=refs,
                         markdown_path=str(out) if out is not None else None,
                         uniqueness=uniqueness(runs), verdicts=verdicts,
                         verdict_level=verdict_level,
                         parameter_effects=parameter_effects(runs))


def write_csv(db: str | Path, summary: ReportSummary, csv_dir: str | Path) -> list[Path]:
    """``runs.csv`` (every stored column, JSON columns as JSON, streamed from the store one
    row at a time) and ``summary.csv``."""
    d = Path(csv_dir)
    d.mkdir(parents=True, exist_ok=True)
    runs_path = d / "runs.csv"
    with Store(db, readonly=True) as store, runs_path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(RUN_COLUMNS)
        for r in store.iter_runs():
            w.writerow([json.dumps(r.get(c), sort_keys=True) if c in JSON_COLUMNS
                        and r.get(c) is not None else r.get(c) for c in RUN_COLUMNS])
    summary_path = d / "summary.csv"
    rows = [asdict(row) | {"group": t.family, "view": t.view} for t in summary.tables
            for row in t.rows]
    with summary_path.open("w", newline="") as fh:
        if rows:
            cols = ["group", "view"] + [k for k in rows[0] if k not in ("group", "view")]
            w = csv.DictWriter(fh, fieldnames=cols)
            w.writeheader()
            for row in rows:
                w.writerow({k: json.dumps(v, sort_keys=True) if isinstance(v, dict | list) else v
                            for k, v in row.items()})
    return [runs_path, summary_path]


def write_report(db: str | Path, out: str | Path, *, report_command: str = "",
                 title: str = "sudoku-compare report", preamble: list[str] | None = None,
                 json_path: str | Path | None = None, csv_dir: str | Path | None = None,
                 db_label: str | None = None, verdicts: list[Verdict] | None = None,
                 verdict_level: str = ONE_LOOK) -> ReportSummary:
    """Write ``out`` (markdown) and its figures; optionally the JSON summary and the CSVs."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    summary = build_summary(db, out, report_command=report_command, db_label=db_label,
                            verdicts=verdicts, verdict_level=verdict_level)
    out.write_text(markdown.render(summary, title=title, preamble=preamble), encoding="utf-8")
    if json_path is not None:
        Path(json_path).write_text(to_json(summary), encoding="utf-8")
    if csv_dir is not None:
        write_csv(db, summary, csv_dir)
    return summary


def to_json(summary: ReportSummary) -> str:
    return json.dumps(summary.to_dict(), indent=2, sort_keys=True, allow_nan=False) + "\n"
