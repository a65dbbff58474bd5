"""sudoku-compare: native Sudoku solvers and library adapters behind one interface.

The top-level folders of the repository (``problems/``, ``native/``, ``adapters/``,
``bench/``) are mapped into this namespace by setuptools, so nothing generic lands at
the top of site-packages.
"""

__version__ = "0.1.0"
