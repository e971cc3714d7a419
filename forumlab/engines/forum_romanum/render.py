"""Forum Romanum as text: the board with one symbol per colour (A-F) and the section
of each cell beside it, scores, pieces in hand, settled and deadlocked regions; what a
ply settled; the legend of the regions."""
from __future__ import annotations

import numpy as np

from .layout import BOARD, COLUMNS, HAND, N_COLOURS, REGION_NAMES, REGION_VALUES, SCORE, SIZE
from .scoring import deadlocked_regions, settled_regions

COLOUR_SYMBOLS = "ABCDEF"
# Section (S1-S7) of each cell, reading order: drawn beside the board.
_SECTION_ROWS = ("1112222", "1112222", "3344455", "3344455", "3344455", "6666777", "6666777")

LEGEND = """\
How Forum Romanum scores (the numbers right of the board are the sections):
  23 regions: rows R1-R7, columns Ca-Cg, diagonals D1 (a1-g7) and D2 (g1-a7),
  each worth 7, and sections S1-S7, worth their cells: 6 8 6 9 6 8 6.
  When the last empty cell of a region is filled:
  - one colour has the most pieces in it: it scores the region's value, the
    colour with the fewest loses 4 (2 each if tied). The region is SETTLED:
    it never scores again, whatever moves in or out later.
  - the most is tied: the region is DEADLOCKED: no points now; it is checked
    again if it empties and fills up again. At the end, every colour tied
    for most in a deadlocked region gets +4 and the fewest loses 4 (2 if tied).
  The game ends when every region is settled or deadlocked."""


def _board_lines(array: np.ndarray, n_colours: int) -> list[str]:
    """The column header and one line per row, the sections beside it."""
    lines = ["    " + " ".join(COLUMNS) + "     sections S1-S7"]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            i = row * SIZE + col
            symbol = "."
            for c in range(n_colours):
                if (int(array[BOARD + c]) >> i) & 1:
                    symbol = COLOUR_SYMBOLS[c]
            cells.append(symbol)
        lines.append(f"{row + 1:>2}  " + " ".join(cells) + "     " + " ".join(_SECTION_ROWS[row]))
    return lines


def render(array: np.ndarray, players: int) -> str:
    """The board with one symbol per colour, scores, pieces in hand and the settled and
    deadlocked regions, as multi-line text."""
    n_colours = int(array[N_COLOURS])
    lines = _board_lines(array, n_colours)
    owners = (
        [f"{COLOUR_SYMBOLS[c]}=colour {c} (player {c // 2})" for c in range(n_colours)]
        if players == 2
        else [f"{COLOUR_SYMBOLS[c]}=player {c}" for c in range(n_colours)]
    )
    lines.append("    " + ", ".join(owners))
    lines.append(
        "    scores: "
        + " ".join(f"{COLOUR_SYMBOLS[c]}{int(array[SCORE + c]):+d}" for c in range(n_colours))
        + "   in hand: "
        + " ".join(f"{COLOUR_SYMBOLS[c]}{int(array[HAND + c])}" for c in range(n_colours))
    )
    settled = [REGION_NAMES[r] for r in settled_regions(array)]
    dead = [REGION_NAMES[r] for r in deadlocked_regions(array)]
    lines.append(f"    settled: {' '.join(settled) or '-'}"
                 + ("   (filled with a sole leader, scored once: never scores again)" if settled else ""))
    lines.append(f"    deadlocked: {' '.join(dead) or '-'}"
                 + ("   (full, tie for most: scores at the end, or when refilled)" if dead else ""))
    return "\n".join(lines)


def seat_line(seat: int, players: int) -> str:
    """The line under the board that names a person's colour(s)."""
    if players == 2:
        mine = (f"{COLOUR_SYMBOLS[2 * seat]} and {COLOUR_SYMBOLS[2 * seat + 1]} "
                f"(colours {2 * seat} and {2 * seat + 1})")
    else:
        mine = COLOUR_SYMBOLS[seat]
    return f"    you are {mine}; 'legend' explains the sections and regions"


def ply_news(before: np.ndarray, after: np.ndarray) -> list[str]:
    """The regions a ply settled or deadlocked, with the points they moved: lines such
    as ``"settled: S1 (worth 6): A +6, B -2, C -2"``; none when no region filled."""
    n_colours = int(after[N_COLOURS])
    changes = [(c, int(after[SCORE + c]) - int(before[SCORE + c])) for c in range(n_colours)]
    points = ", ".join(f"{COLOUR_SYMBOLS[c]} {d:+d}" for c, d in changes if d)
    lines = []
    new = [r for r in settled_regions(after) if r not in settled_regions(before)]
    if new:
        names = " ".join(f"{REGION_NAMES[r]} (worth {int(REGION_VALUES[r])})" for r in new)
        lines.append(f"settled: {names}: {points or 'no points'}")
    elif points:  # the final settlement of deadlocked regions at the end
        lines.append(f"deadlocked regions scored at the end: {points}")
    dead = [r for r in deadlocked_regions(after) if r not in deadlocked_regions(before)]
    if dead:
        lines.append("deadlocked (full, tie for most): " + " ".join(REGION_NAMES[r] for r in dead))
    return lines
