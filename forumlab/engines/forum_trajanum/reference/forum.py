"""The Forum: colour areas by flood fill, neighbours, envoy groups and eagle points."""

from __future__ import annotations

from .catalogue import forum_layout


class Forum:
    """The boards in use: ``colour[(col,row)]``, ``areas`` (lists of cells), ``area_of``."""

    def __init__(self, players: int):
        grid = forum_layout(players)
        self.width = len(grid)
        self.cells = [(c, r) for r in range(4) for c in range(self.width)]
        self.colour = {(c, r): grid[c][r] for c in range(self.width) for r in range(4)}
        self.eagles = [cell for cell in self.cells if self.colour[cell] == "E"]
        self.areas: list[list[tuple[int, int]]] = []
        self.area_of: dict[tuple[int, int], int] = {}
        for cell in sorted(self.cells):
            if cell in self.area_of or self.colour[cell] == "E":
                continue
            index = len(self.areas)
            todo, members = [cell], []
            self.area_of[cell] = index
            while todo:
                cur = todo.pop()
                members.append(cur)
                for nb in self.orth(cur):
                    if nb not in self.area_of and self.colour[nb] == self.colour[cell]:
                        self.area_of[nb] = index
                        todo.append(nb)
            self.areas.append(sorted(members))

    def inside(self, cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < 4

    def orth(self, cell) -> list:
        c, r = cell
        return [n for n in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)) if self.inside(n)]

    def diag(self, cell) -> list:
        c, r = cell
        return [n for n in ((c - 1, r - 1), (c + 1, r - 1), (c - 1, r + 1), (c + 1, r + 1))
                if self.inside(n)]

    def largest_group(self, cells) -> int:
        """Size of the largest orthogonally joined group among ``cells``."""
        cells, best, seen = set(cells), 0, set()
        for start in cells:
            if start in seen:
                continue
            seen.add(start)
            todo, size = [start], 0
            while todo:
                cur = todo.pop()
                size += 1
                for nb in self.orth(cur):
                    if nb in cells and nb not in seen:
                        seen.add(nb)
                        todo.append(nb)
            best = max(best, size)
        return best

    def eagle_points(self, cells, patrician_one: bool) -> int:
        """2 on an eagle, else 1 orthogonally next to one; +1 if diagonally next to one
        with PI active (Decision 5)."""
        eagles, total = set(self.eagles), 0
        for cell in cells:
            if cell in eagles:
                total += 2
            elif any(n in eagles for n in self.orth(cell)):
                total += 1
            if patrician_one and any(n in eagles for n in self.diag(cell)):
                total += 1
        return total
