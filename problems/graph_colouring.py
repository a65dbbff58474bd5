"""Graph colouring, the second CSP of the seed (Sudoku-06's unfinished exercise).

A graph is coloured with ``k`` colours so that adjacent vertices differ: variables are
the vertices, every domain is ``0..k-1``, neighbours are the adjacency lists and the
constraint is "different values", the same :class:`~sudoku_compare.problems.encodings.csp_model.CSP`
model and the same solver functions as Sudoku. Graphs are Erdős–Rényi G(n, p), drawn as
the seed's exercise says: for every pair ``i < j`` in lexicographic order one
``random.random()`` draw from ``random.Random(seed)``, edge when it is below ``p``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_compare.problems.encodings.csp_model import CSP, make_csp


@dataclass(frozen=True)
class Graph:
    """An undirected simple graph on vertices ``0..n-1``, with the seed that drew it."""

    n: int
    adjacency: tuple[tuple[int, ...], ...]
    p: float | None = None
    seed: int | None = None

    @property
    def edges(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.n) for j in self.adjacency[i] if i < j]

    @property
    def n_edges(self) -> int:
        return sum(len(a) for a in self.adjacency) // 2

    @property
    def mean_degree(self) -> float:
        return 2 * self.n_edges / self.n if self.n else 0.0

    @classmethod
    def from_edges(cls, n: int, edges: Sequence[tuple[int, int]]) -> Graph:
        adj: list[list[int]] = [[] for _ in range(n)]
        for i, j in edges:
            if i == j or j in adj[i]:
                continue
            adj[i].append(j)
            adj[j].append(i)
        return cls(n, tuple(tuple(a) for a in adj))


def random_graph(n: int, p: float, seed: int = 42) -> Graph:
    """G(n, p) drawn as the seed's ``generate_random_graph(n, edge_prob, seed=42)``."""
    if n < 0 or not 0.0 <= p <= 1.0:
        raise ValueError("need n >= 0 and 0 <= p <= 1")
    rng = random.Random(seed)
    adj: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                adj[i].append(j)
                adj[j].append(i)
    return Graph(n, tuple(tuple(a) for a in adj), p, seed)


def colouring_csp(graph: Graph, k: int) -> CSP:
    """The seed's ``build_graph_coloring_csp``: vertices, colours ``0..k-1``, adjacency."""
    if k < 1:
        raise ValueError("need at least one colour")
    return make_csp(list(range(graph.n)), [list(range(k))] * graph.n,
                    [list(a) for a in graph.adjacency], labels=list(range(k)),
                    meta={"graph": graph, "k": k})


def is_colouring(graph: Graph, colours: Sequence[int], k: int) -> bool:
    """Every vertex has a colour in ``0..k-1`` and no edge joins two equal colours."""
    if len(colours) != graph.n or any(not 0 <= c < k for c in colours):
        return False
    return all(colours[i] != colours[j] for i, j in graph.edges)
