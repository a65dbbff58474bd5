"""How the native solvers warm up: each compiles its kernels by solving a small puzzle through
``solve`` itself, so what gets compiled is exactly the path a timed solve takes.

Three patterns cover every native solver:

- :func:`sudoku_compare.warming.warm_by_solving` (the adapters' way too): a stochastic kernel
  is compiled by short solves of a 4x4 puzzle, one per settings combination that selects a
  different compiled path (a numba kernel compiles once per argument types, and some settings
  are branches it must see).
- :class:`CompiledPerBox`: a kernel with the box size as a compile-time constant (``// box``
  becomes a multiply) is compiled once per box size and process, 9x9 in ``warmup``, any other
  size when a campaign first meets it.
- :class:`WarmOnEmptyGrid`: an exact search warms each size by solving that size's empty grid
  under a 50 ms deadline.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from sudoku_compare.budget import Budget
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.solver import Solver
from sudoku_compare.warming import one_given, warm_by_solving


class CompiledPerBox:
    """Mixin (before :class:`Solver`) for a solver whose kernel is compiled per box size.

    A subclass names the settings whose compiled paths differ in :meth:`compile_variants`;
    each box size is compiled once per process, whichever variant of the class asks first."""

    #: box sizes compiled in this process, one set per class (filled by ``__init_subclass__``)
    compiled_boxes: ClassVar[set[int]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "compiled_boxes" not in cls.__dict__:
            cls.compiled_boxes = set()

    @classmethod
    def compile_variants(cls) -> Iterable[Solver]:
        """One instance per compiled path (default: the defaults only)."""
        return (cls(),)

    @classmethod
    def compile_for_box(cls, box: int) -> None:
        """Compile (or load from numba's cache) the kernels of one box size, once."""
        if box in cls.compiled_boxes:
            return
        warm_by_solving(*cls.compile_variants(), puzzle=one_given(box), max_evaluations=500)
        cls.compiled_boxes.add(box)

    def warmup(self) -> None:
        self.compile_for_box(3)

    def warmup_for(self, puzzle: Puzzle) -> None:
        self.compile_for_box(puzzle.box)


class WarmOnEmptyGrid:
    """Mixin (before :class:`Solver`): ``warmup_for`` solves the empty grid of the puzzle's size
    through ``solve`` under a 50 ms deadline: the path a timed solve of that size takes."""

    def warmup_for(self, puzzle: Puzzle) -> None:
        self.solve(Puzzle(puzzle.box, (0,) * puzzle.n_cells),  # type: ignore[attr-defined]
                   Budget(max_seconds=0.05), 0)
