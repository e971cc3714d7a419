"""The N x N city: lot names, neighbours, edge lots and every footprint of every shape.

Columns ``a``.. left to right, rows ``1``.. top to bottom; index = (row-1)*N + col (a=0).
"""

from __future__ import annotations

import re
from functools import cache

from .catalogue import SHAPES

_LOT_NAME = re.compile(r"([a-z])([1-9][0-9]?)")


def shape_cells(shape: str) -> list[tuple[int, int]]:
    """``(row, col)`` of the ``#`` cells of a shape drawing."""
    return [(r, c) for r, row in enumerate(SHAPES[shape]) for c, ch in enumerate(row) if ch == "#"]


def orientations(shape: str) -> list[tuple[tuple[int, int], ...]]:
    """Every distinct rotation and reflection of a shape, each shifted to (0, 0), sorted."""
    seen = set()
    cells = shape_cells(shape)
    for reflect in (False, True):
        current = [(r, -c) if reflect else (r, c) for r, c in cells]
        for _ in range(4):
            current = [(c, -r) for r, c in current]  # a quarter turn
            r0 = min(r for r, _ in current)
            c0 = min(c for _, c in current)
            seen.add(tuple(sorted((r - r0, c - c0) for r, c in current)))
    return sorted(seen)


class Grid:
    """Geometry of an N x N city (N = 7..10)."""

    def __init__(self, n: int):
        self.n = n
        self.cells = n * n
        self.names = [f"{'abcdefghij'[i % n]}{i // n + 1}" for i in range(self.cells)]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.neighbours: list[tuple[int, ...]] = []
        for i in range(self.cells):
            row, col = divmod(i, n)
            around = []  # order up, left, right, down (the spec's BFS order for the Consul)
            if row > 0:
                around.append(i - n)
            if col > 0:
                around.append(i - 1)
            if col < n - 1:
                around.append(i + 1)
            if row < n - 1:
                around.append(i + n)
            self.neighbours.append(tuple(around))
        self.edge = frozenset(
            i for i in range(self.cells) if i // n in (0, n - 1) or i % n in (0, n - 1))

    def parse_lot(self, text: str) -> int:
        """Index of a lot name like ``c4``; ValueError if it is not a lot of this grid."""
        if not isinstance(text, str) or text not in self.index:
            raise ValueError(f"{text!r} is not a lot of the {self.n}x{self.n} city")
        return self.index[text]

    def footprints(self, shape: str) -> list[tuple[tuple[int, ...], int]]:
        """Every placement of ``shape`` on this grid: ``(cells ascending, bitmask)``,
        sorted by cells; placements covering the same cells are one."""
        return _footprints(self.n, shape)


@cache
def _footprints(n: int, shape: str) -> list[tuple[tuple[int, ...], int]]:
    found = set()
    for orient in orientations(shape):
        height = 1 + max(r for r, _ in orient)
        width = 1 + max(c for _, c in orient)
        for top in range(n - height + 1):
            for left in range(n - width + 1):
                found.add(tuple(sorted((top + r) * n + left + c for r, c in orient)))
    return [(cells, sum(1 << c for c in cells)) for cells in sorted(found)]


@cache
def grid(n: int) -> Grid:
    """The shared Grid of side ``n``."""
    return Grid(n)
