"""The hand-written solvers, one module per algorithm family, hot loops compiled with numba.

Two conventions every kernel here follows, because together they cut the cold compile time
of all the native solvers from about 96 s to about 64 s of CPU (measured one solver after
the other in one process, this project's 2-core machine), which is what a fresh install
pays on its first ``sudoku-compare compare``:

- A variable that starts from a constant and is later passed to another compiled function
  is created typed (``top = np.int64(0)``, not ``top = 0``). Numba types a bare constant as
  a literal (``Literal[int](0)``) on its first pass, so the callee is compiled once for the
  literal and again for ``int64`` once the variable unifies: the swap PSO compiled five of
  its functions twice.
- Arrays are copied with :mod:`sudoku_compare.problems.encodings.array_copy`
  (``copy2d(best, state)``), never by slice assignment (``best[:, :] = state``), whose
  broadcasting ``setitem`` costs seconds of compilation per kernel.

Both change no result: the same seeds give the same evaluations and energies.
"""
