"""Figures of the exercises report: matplotlib's object API (no pyplot, no global backend),
reproducible SVG (fixed hash salt, no date), as the main report's figures."""

from __future__ import annotations

from pathlib import Path

SVG_SALT = "sudoku-compare-exercises"


def new_figure(ncols: int = 1, width_each: float = 4.6, height: float = 3.6):
    """A figure with ``ncols`` axes side by side: ``(fig, axes)`` (one axis when 1)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width_each * ncols, height), dpi=100)
    axes = fig.subplots(1, ncols)
    return fig, axes


def save(fig, path: Path) -> None:
    import matplotlib

    path.parent.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT, "svg.fonttype": "path"}):
        fig.tight_layout()
        fig.savefig(path, format="svg", metadata={"Date": None})
