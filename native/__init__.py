"""The hand-written solvers, one module per algorithm family, hot loops compiled with numba.

A convention every kernel here follows, because it halves cold compile times: a variable that
starts from a constant and is later passed to another compiled function is created typed
(``top = np.int64(0)``, not ``top = 0``). Numba types a bare constant as a literal
(``Literal[int](0)``) on its first pass, so the callee is compiled once for the literal and
again for ``int64`` once the variable unifies; measured on a cold cache, the swap PSO alone
compiled five of its functions twice for 13 s of its 25 s.
"""
