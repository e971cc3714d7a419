"""Component data of the spec: the Colonia, the Forum mosaic boards, tiles, tracks,
prestige numbers and the Trajan cards (every table of ``forum-trajanum.md``)."""

from __future__ import annotations

GAME_NAME = "forum-trajanum"
COLS = "abcdef"
RIVER = 36  # the river space, off the 6x6 grid
CORNERS = (0, 5, 30, 35)  # a1, f1, a6, f6: the cranes
OPPOSITE_CORNER = {0: 35, 35: 0, 5: 30, 30: 5}
TEMPLES = (7, 10, 25, 28)  # b2, e2, b5, e5
BUILDABLE = tuple(c for c in range(36) if c not in CORNERS and c not in TEMPLES)


def cell_name(cell: int) -> str:
    """``a1``..``f6`` for 0..35 (row-major), ``rv`` for the river."""
    return "rv" if cell == RIVER else f"{COLS[cell % 6]}{cell // 6 + 1}"


CELL_INDEX = {cell_name(c): c for c in range(37)}


def street_cells(street: str) -> tuple[int, ...]:
    """Cells of street ``R1``..``R6`` (a row) or ``Ca``..``Cf`` (a column)."""
    if street[0] == "R":
        r = int(street[1]) - 1
        return tuple(r * 6 + c for c in range(6))
    c = COLS.index(street[1])
    return tuple(r * 6 + c for r in range(6))


STREETS = tuple(f"R{r}" for r in range(1, 7)) + tuple(f"C{c}" for c in COLS)

# Citizen rows: row r (1-6) belongs to class ROW_CLASS[r].
ROW_CLASS = {1: "P", 2: "P", 3: "M", 4: "M", 5: "C", 6: "C"}
CLASS_ROWS = {"P": (1, 2), "M": (3, 4), "C": (5, 6)}
CLASS_ORDER = "PMC"

# Tile types: citizens "citP"/"citM"/"citC"; resources B (builder), r b g y (workers),
# A (assistant), C (coin), T (tribune), U (upgrade).
WORKERS = "rbgy"
RESOURCES = ("B", "r", "b", "g", "y", "A", "C", "T")
POOL = (["citP", "citM", "citC"] + ["B"] * 4 + ["r"] * 2 + ["b"] * 2 + ["g"] * 2 + ["y"] * 2
        + ["A"] * 4 + ["C"] * 4 + ["T"] * 4 + ["U"] * 4)
assert len(POOL) == 31

GREYS = ("col", "lib", "bas", "mkt")
TRACKS = ("bas", "mkt", "lib")
# Track benefits per level: a list of effects; ("pick_area",), ("pick_worker",), ("env_free",)
# are sub-decisions, anything else is a resource code gained.
TRACK_BENEFITS = {
    "bas": {1: ["T"], 2: ["A"], 3: ["B"], 4: ["T", "A"]},
    "mkt": {1: ["C"], 2: ["area"], 3: ["C", "C"], 4: ["U", "C"]},
    "lib": {1: ["U"], 2: ["worker"], 3: ["envfree"], 4: ["U", "U"]},
}
AREA_BONUS_CODES = ("T", "A", "C", "U", "V")

AREA = (0, 1, 2, 4, 6, 8, 10, 12, 15, 18, 21)
CYPRESSES = (2, 4, 6, 8)
PRESTIGE_MAX = 8
COLUMN_VALUE = {1: 3, 2: 2, 3: 1}
CRANE_VALUE = {1: 3, 2: 2, 3: 1}
ROUNDS_PER_CYCLE = 4
CYCLES = 3

# The Forum: 5 mosaic boards of 4x4 in one row; boards 1..players+1 are used.
FORUM_ROWS = (
    "RRRY YRBB BBRY BBRR GRRR",
    "YERG GRER BGRY YBEY GRYB",
    "YBBG GGYR GGER YGGY YEYB",
    "YGGB BBYY GYYR GGRR YGGB",
)
FORUM_LETTERS = "abcdefghijklmnopqrst"


def forum_layout(players: int) -> list[list[str]]:
    """``grid[col][row]`` of colour letters (R B G Y, E for eagle) of the boards in use."""
    width = 4 * (players + 1)
    rows = [r.replace(" ", "") for r in FORUM_ROWS]
    return [[rows[row][col] for row in range(4)] for col in range(width)]


def forum_name(col: int, row: int) -> str:
    """``a1``..``t4``."""
    return f"{FORUM_LETTERS[col]}{row + 1}"


COLOUR_LETTER = {"r": "R", "b": "B", "g": "G", "y": "Y"}

# Trajan cards: (pile, index) -> two tasks, each (symbol, comparison, number).
TRAJAN = {
    (1, 1): (("cols", ">=", 1), ("act", ">=", 2)),
    (1, 2): (("colours", ">=", 2), ("env", ">=", 3)),
    (1, 3): (("types", ">=", 2), ("res", ">=", 3)),
    (1, 4): (("eagle", ">=", 1), ("maxcol", ">=", 2)),
    (2, 1): (("types", "=", 4), ("act", ">=", 4)),
    (2, 2): (("colours", "=", 4), ("grp", ">=", 4)),
    (2, 3): (("cols", ">=", 2), ("lvl2", ">=", 2)),
    (2, 4): (("env", ">=", 6), ("full", ">=", 1)),
    (3, 1): (("rowtypes", "=", 4), ("act", ">=", 6)),
    (3, 2): (("maxcol", ">=", 4), ("env", ">=", 9)),
    (3, 3): (("cols", ">=", 3), ("lvl4", ">=", 1)),
    (3, 4): (("full", ">=", 2), ("grp", ">=", 6)),
}

VP_SOURCES = ("column", "track_end", "bonus", "crane", "colonia", "eagles", "area", "trajan")
