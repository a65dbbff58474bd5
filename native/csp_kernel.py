"""The compiled twin of :mod:`sudoku_compare.native.csp_search` for not-equal CSPs.

Same search, same strategies, same counts, as an explicit-stack numba loop; strategies
are integer codes (see ``SELECT_*``, ``ORDER_*``, ``INFER_*``), which the Python search
maps its strategy functions to. The state is a few int arrays:

- ``dom[v, :size[v]]``: the ordered current domain (order matters, see csp_search);
- ``assign[v]``: value index or -1;
- ``conflicts[v, a]``: how many assigned neighbours of ``v`` hold ``a``, so the seed's
  ``is_consistent(v, a)`` is ``conflicts[v, a] == 0`` (valid because the constraint is
  "different values" and neighbour lists are symmetric);
- ``free_nbrs[v]``: unassigned neighbours (the degree tie-break).

Forward checking keeps a trail of pruned (var, value) pairs per depth and restores by
appending (as the seed); MAC saves the domains at each depth and restores the copy. The
AC-3 queue is FIFO with duplicates allowed, exactly as the seed's ``deque``.
"""

from __future__ import annotations

import numba
import numpy as np

from sudoku_compare.native._jit_clock import now

SELECT_FIRST, SELECT_MRV, SELECT_MRV_DEGREE = 0, 1, 2
ORDER_DOMAIN, ORDER_LCV = 0, 1
INFER_NONE, INFER_FC, INFER_MAC = 0, 1, 2

#: status codes returned by the kernels
FAILED, SOLVED, STOPPED = 0, 1, 2

#: how many assignments between two clock reads
_CLOCK_EVERY = 2048


@numba.njit(cache=True, inline="always")
def _assign(v, a, assign, conflicts, free_nbrs, nbr_start, nbrs):
    assign[v] = a
    for k in range(nbr_start[v], nbr_start[v + 1]):
        n = nbrs[k]
        conflicts[n, a] += 1
        free_nbrs[n] -= 1


@numba.njit(cache=True, inline="always")
def _unassign(v, assign, conflicts, free_nbrs, nbr_start, nbrs):
    a = assign[v]
    assign[v] = -1
    for k in range(nbr_start[v], nbr_start[v + 1]):
        n = nbrs[k]
        conflicts[n, a] -= 1
        free_nbrs[n] += 1


@numba.njit(cache=True, inline="always")
def _remove_value(dom, size, v, a):
    """``dom[v].remove(a)`` keeping the order; True when it was there."""
    s = size[v]
    for i in range(s):
        if dom[v, i] == a:
            for j in range(i, s - 1):
                dom[v, j] = dom[v, j + 1]
            size[v] = s - 1
            return True
    return False


@numba.njit(cache=True)
def _select(code, n_vars, dom, size, assign, conflicts, free_nbrs, start):
    """The variable to branch on; the scan begins at ``start`` (all before it assigned)."""
    best = -1
    best_rv = 1 << 30
    best_deg = -1
    for v in range(start, n_vars):
        if assign[v] >= 0:
            continue
        if code == SELECT_FIRST:
            return v
        rv = 0
        for i in range(size[v]):
            if conflicts[v, dom[v, i]] == 0:
                rv += 1
        if code == SELECT_MRV:
            if rv < best_rv:
                best, best_rv = v, rv
        else:
            deg = free_nbrs[v]
            if rv < best_rv or (rv == best_rv and deg > best_deg):
                best, best_rv, best_deg = v, rv, deg
    return best


@numba.njit(cache=True)
def _order(code, v, dom, size, assign, nbr_start, nbrs, out, row, cnt):
    """Fill ``out[row, :size[v]]`` with the values to try; LCV is a stable insertion sort."""
    s = size[v]
    for i in range(s):
        out[row, i] = dom[v, i]
    if code == ORDER_LCV and s > 1:
        cnt[:] = 0
        for k in range(nbr_start[v], nbr_start[v + 1]):
            n = nbrs[k]
            if assign[n] < 0:
                for i in range(size[n]):
                    cnt[dom[n, i]] += 1
        for i in range(1, s):
            x = out[row, i]
            j = i - 1
            while j >= 0 and cnt[out[row, j]] > cnt[x]:
                out[row, j + 1] = out[row, j]
                j -= 1
            out[row, j + 1] = x
    return s


@numba.njit(cache=True)
def _forward_check(v, a, dom, size, assign, nbr_start, nbrs, trail_var, trail_val, top):
    """Prune ``a`` from unassigned neighbours; returns (ok, new trail top)."""
    for k in range(nbr_start[v], nbr_start[v + 1]):
        n = nbrs[k]
        if assign[n] < 0:
            if _remove_value(dom, size, n, a):
                trail_var[top] = n
                trail_val[top] = a
                top += 1
            if size[n] == 0:
                return False, top
    return True, top


@numba.njit(cache=True)
def ac3_kernel(dom, size, n_vars, nbr_start, nbrs, init_x, init_y, n_init, qx, qy,
               removed_var, removed_val, record):
    """AC-3 from the ``n_init`` initial arcs (all arcs when ``n_init == 0``, as the seed's
    ``arcs if arcs else csp.get_arcs()``), FIFO with duplicates.

    For "different values" a value ``a`` of ``xi`` lacks support in ``xj`` only when
    ``xj``'s domain is ``{a}`` (or empty). Returns (consistent, number of removed values);
    with ``record`` the removed pairs are written to ``removed_var/removed_val``.
    """
    head = 0
    tail = 0
    cap = qx.shape[0]
    if n_init == 0:
        for x in range(n_vars):
            for k in range(nbr_start[x], nbr_start[x + 1]):
                qx[tail] = x
                qy[tail] = nbrs[k]
                tail += 1
    else:
        for i in range(n_init):
            qx[tail] = init_x[i]
            qy[tail] = init_y[i]
            tail += 1
    n_removed = 0
    while head != tail:
        xi = qx[head]
        xj = qy[head]
        head += 1
        if head == cap:
            head = 0
        sj = size[xj]
        if sj >= 2 or size[xi] == 0:
            continue
        revised = False
        if sj == 1:
            b = dom[xj, 0]
            if _remove_value(dom, size, xi, b):
                revised = True
                if record:
                    removed_var[n_removed] = xi
                    removed_val[n_removed] = b
                n_removed += 1
        else:
            for i in range(size[xi]):
                if record:
                    removed_var[n_removed] = xi
                    removed_val[n_removed] = dom[xi, i]
                n_removed += 1
            size[xi] = 0
            revised = True
        if revised:
            if size[xi] == 0:
                return False, n_removed
            for k in range(nbr_start[xi], nbr_start[xi + 1]):
                xk = nbrs[k]
                if xk != xj:
                    qx[tail] = xk
                    qy[tail] = xi
                    tail += 1
                    if tail == cap:
                        tail = 0
    return True, n_removed


@numba.njit(cache=True)
def _search_tables(n_vars, width, nbr_start):
    """What both searches start from: the empty assignment (-1 per variable), a copy of it
    for the best partial one, the per-value conflict counts, each variable's unassigned
    neighbour count."""
    assign = np.full(n_vars, -1, np.int64)
    best = assign.copy()
    conflicts = np.zeros((n_vars, width), np.int64)
    free_nbrs = np.empty(n_vars, np.int64)
    for v in range(n_vars):
        free_nbrs[v] = nbr_start[v + 1] - nbr_start[v]
    return assign, best, conflicts, free_nbrs


@numba.njit(cache=True)
def search_kernel(dom0, size0, nbr_start, nbrs, select_code, order_code, infer_code,
                  deadline, max_assignments):
    """AIMA backtracking search with the seed's counters.

    Returns (status, assignment, assignments, backtracks, best partial assignment).
    """
    n_vars, width = dom0.shape
    dom = dom0.copy()
    size = size0.copy()
    assign, best, conflicts, free_nbrs = _search_tables(n_vars, width, nbr_start)
    best_depth = 0
    max_deg = 0
    for v in range(n_vars):
        max_deg = max(max_deg, free_nbrs[v])
    n_arcs = nbr_start[n_vars]
    # per-depth frames
    var_at = np.zeros(n_vars + 1, np.int64)
    vals = np.zeros((n_vars + 1, width), np.int64)
    n_vals = np.zeros(n_vars + 1, np.int64)
    pos = np.zeros(n_vars + 1, np.int64)
    cnt = np.zeros(width, np.int64)
    # forward checking trail (each assignment prunes at most one value per neighbour)
    trail_cap = n_arcs + 1 if infer_code == INFER_FC else 1
    trail_var = np.zeros(trail_cap, np.int64)
    trail_val = np.zeros(trail_cap, np.int64)
    trail_start = np.zeros(n_vars + 1, np.int64)
    top = np.int64(0)
    # MAC: saved domains per depth and the AC-3 queue
    mac = infer_code == INFER_MAC
    save_dom = np.zeros((n_vars + 1 if mac else 1, n_vars, width), np.int16)
    save_size = np.zeros((n_vars + 1 if mac else 1, n_vars), np.int64)
    q_cap = (n_arcs + n_vars * width * max_deg + 1) if mac else 1
    qx = np.zeros(q_cap, np.int64)
    qy = np.zeros(q_cap, np.int64)
    init_x = np.zeros(max_deg + 1, np.int64)
    init_y = np.zeros(max_deg + 1, np.int64)
    dummy = np.zeros(1, np.int64)

    assignments = 0
    backtracks = 0
    next_clock = 1  # first read at once: the warm-up then compiles the objmode clock read
    depth = np.int64(0)
    enter = True
    while True:
        if enter:
            enter = False
            if depth == n_vars:
                return SOLVED, assign, assignments, backtracks, assign
            # with "first unassigned" the assigned variables are always a prefix
            start = var_at[depth - 1] + 1 if (select_code == SELECT_FIRST and depth > 0) else np.int64(0)
            v = _select(select_code, n_vars, dom, size, assign, conflicts, free_nbrs, start)
            var_at[depth] = v
            n_vals[depth] = _order(order_code, v, dom, size, assign, nbr_start, nbrs,
                                   vals, depth, cnt)
            pos[depth] = 0
            if mac:
                for x in range(n_vars):
                    save_size[depth, x] = size[x]
                    for i in range(size[x]):
                        save_dom[depth, x, i] = dom[x, i]
        v = var_at[depth]
        advanced = False
        while pos[depth] < n_vals[depth]:
            a = vals[depth, pos[depth]]
            pos[depth] += 1
            if assignments >= max_assignments:
                return STOPPED, assign, assignments, backtracks, best
            assignments += 1
            if assignments >= next_clock:
                next_clock += _CLOCK_EVERY
                if now() >= deadline:
                    return STOPPED, assign, assignments, backtracks, best
            if conflicts[v, a] != 0:
                continue
            _assign(v, a, assign, conflicts, free_nbrs, nbr_start, nbrs)
            if depth + 1 > best_depth:
                best_depth = depth + 1
                best = assign.copy()
            ok = True
            if infer_code == INFER_FC:
                trail_start[depth] = top
                ok, top = _forward_check(v, a, dom, size, assign, nbr_start, nbrs,
                                         trail_var, trail_val, top)
            elif mac:
                size[v] = 1
                dom[v, 0] = a
                n_init = np.int64(0)
                for k in range(nbr_start[v], nbr_start[v + 1]):
                    n = nbrs[k]
                    if assign[n] < 0:
                        init_x[n_init] = n
                        init_y[n_init] = v
                        n_init += 1
                ok, _ = ac3_kernel(dom, size, n_vars, nbr_start, nbrs, init_x, init_y,
                                   n_init, qx, qy, dummy, dummy, np.bool_(False))
            if ok:
                depth += 1
                enter = True
                advanced = True
                break
            top = _retract(infer_code, depth, v, dom, size, n_vars, trail_var, trail_val,
                           trail_start, top, save_dom, save_size, assign, conflicts, free_nbrs,
                           nbr_start, nbrs)
            backtracks += 1
        if advanced:
            continue
        # values exhausted: fail back into the parent frame
        depth -= 1
        if depth < 0:
            return FAILED, assign, assignments, backtracks, best
        pv = var_at[depth]
        top = _retract(infer_code, depth, pv, dom, size, n_vars, trail_var, trail_val,
                       trail_start, top, save_dom, save_size, assign, conflicts, free_nbrs,
                       nbr_start, nbrs)
        backtracks += 1


@numba.njit(cache=True, inline="always")
def _retract(infer_code, depth, v, dom, size, n_vars, trail_var, trail_val, trail_start, top,
             save_dom, save_size, assign, conflicts, free_nbrs, nbr_start, nbrs):
    """Take back the value of ``v`` at ``depth``: undo its inference, unassign it; returns
    the forward-checking trail's new top."""
    _undo(infer_code, depth, v, dom, size, n_vars, trail_var, trail_val, trail_start, top,
          save_dom, save_size)
    if infer_code == INFER_FC:
        top = trail_start[depth]
    _unassign(v, assign, conflicts, free_nbrs, nbr_start, nbrs)
    return top


@numba.njit(cache=True)
def _undo(infer_code, depth, v, dom, size, n_vars, trail_var, trail_val, trail_start, top,
          save_dom, save_size):
    if infer_code == INFER_FC:
        for t in range(trail_start[depth], top):
            n = trail_var[t]
            dom[n, size[n]] = trail_val[t]
            size[n] += 1
    elif infer_code == INFER_MAC:
        for x in range(n_vars):
            size[x] = save_size[depth, x]
            for i in range(size[x]):
                dom[x, i] = save_dom[depth, x, i]


@numba.njit(cache=True)
def cbj_kernel(dom0, size0, nbr_start, nbrs, select_code, deadline, max_assignments):
    """The seed's conflict-directed backjumping (see csp_search), iteratively.

    Returns (status, assignment, assignments, backtracks, best partial assignment).
    """
    n_vars, width = dom0.shape
    assign, best, conflicts, free_nbrs = _search_tables(n_vars, width, nbr_start)
    best_depth = 0
    conf = np.zeros((n_vars, n_vars), np.bool_)
    history = np.zeros(n_vars + 1, np.int64)  # history[d] = variable selected at depth d
    pos = np.zeros(n_vars + 1, np.int64)
    assignments = 0
    backtracks = 0
    next_clock = 1  # first read at once: the warm-up then compiles the objmode clock read
    depth = np.int64(0)
    enter = True
    jump = -1  # the jump target a failed child returned (-1: none)
    while True:
        if enter:
            enter = False
            if depth == n_vars:
                return SOLVED, assign, assignments, backtracks, assign
            v = _select(select_code, n_vars, dom0, size0, assign, conflicts, free_nbrs, np.int64(0))
            history[depth] = v
            conf[v, :] = False
            pos[depth] = 0
        else:
            v = history[depth]
            # back from a failed child
            _unassign(v, assign, conflicts, free_nbrs, nbr_start, nbrs)
            if jump >= 0 and jump != v:
                depth -= 1  # history.pop(); return (None, jump)
                if depth < 0:
                    return FAILED, assign, assignments, backtracks, best
                continue
        advanced = False
        while pos[depth] < size0[v]:
            a = dom0[v, pos[depth]]
            pos[depth] += 1
            if conflicts[v, a] != 0:
                for k in range(nbr_start[v], nbr_start[v + 1]):
                    n = nbrs[k]
                    if assign[n] == a:
                        conf[v, n] = True
                continue
            if assignments >= max_assignments:
                return STOPPED, assign, assignments, backtracks, best
            _assign(v, a, assign, conflicts, free_nbrs, nbr_start, nbrs)
            assignments += 1
            if depth + 1 > best_depth:
                best_depth = depth + 1
                best = assign.copy()
            if assignments >= next_clock:
                next_clock += _CLOCK_EVERY
                if now() >= deadline:
                    return STOPPED, assign, assignments, backtracks, best
            depth += 1
            enter = True
            advanced = True
            break
        if advanced:
            continue
        # exhausted
        backtracks += 1
        target = -1
        for d in range(depth - 1, -1, -1):
            if conf[v, history[d]]:
                target = history[d]
                break
        if target >= 0:
            for x in range(n_vars):
                if conf[v, x] and x != target:
                    conf[target, x] = True
        jump = target
        depth -= 1
        if depth < 0:
            return FAILED, assign, assignments, backtracks, best
