"""The spec's tables as numpy arrays, built once: the Colonia, the Forum layout and
its colour areas, prestige numbers, track rewards and the Trajan cards."""
import numpy as np

from .layout import CORNERS, FCELLS, FCOLS

# ---- Colonia ----------------------------------------------------------------------
TEMPLES = (7, 10, 25, 28)  # b2 e2 b5 e5
BUILDABLE = np.array([c for c in range(36) if c not in CORNERS and c not in TEMPLES], dtype=np.int64)
IS_BUILDABLE = np.zeros(37, dtype=np.bool_)
IS_BUILDABLE[BUILDABLE] = True
# a street card (0-5 rows R1-R6, 6-11 columns Ca-Cf) as a bitboard of its spaces
STREET_BB = np.zeros(12, dtype=np.int64)
for _c in range(36):
    STREET_BB[_c // 6] |= 1 << _c
    STREET_BB[6 + _c % 6] |= 1 << _c
GRID_BB = (1 << 36) - 1
# orthogonally adjacent buildable pairs (a < b, reading order)
ADJ_PAIRS = np.array([(a, b) for a in BUILDABLE for b in BUILDABLE
                      if a < b and ((b == a + 1 and a // 6 == b // 6) or b == a + 6)], dtype=np.int64)
# citizen rows: class of each row (0 P, 1 M, 2 C)
ROW_CLASS = np.array([0, 0, 1, 1, 2, 2], dtype=np.int64)

# ---- Forum ------------------------------------------------------------------------
FORUM_ROWS = ("RRRYYRBBBBRYBBRRGRRR", "YERGGRERBGRYYBEYGRYB", "YBBGGGYRGGERYGGYYEYB", "YGGBBBYYGYYRGGRRYGGB")
FCOLOUR = np.full(FCELLS, -1, dtype=np.int64)  # 0-3 r b g y, -1 eagle
for _r, _line in enumerate(FORUM_ROWS):
    for _c, _ch in enumerate(_line):
        FCOLOUR[_r * FCOLS + _c] = "RBGY".find(_ch)
EAGLE = FCOLOUR < 0


def _areas(ncols: int):
    """Colour areas by flood fill over the first ncols columns: (area id per cell, -1
    for eagles and unused cells; sizes; colours)."""
    area = np.full(FCELLS, -1, dtype=np.int64)
    sizes, colours = [], []
    for start in range(FCELLS):
        if start % FCOLS >= ncols or EAGLE[start] or area[start] >= 0:
            continue
        k = len(sizes)
        area[start] = k
        todo, n = [start], 0
        while todo:
            f = todo.pop()
            n += 1
            for g in _neighbours(f, ncols):
                if area[g] < 0 and not EAGLE[g] and FCOLOUR[g] == FCOLOUR[start]:
                    area[g] = k
                    todo.append(g)
        sizes.append(n)
        colours.append(int(FCOLOUR[start]))
    return area, sizes, colours


def _neighbours(f: int, ncols: int):
    r, c = divmod(f, FCOLS)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < 4 and 0 <= c + dc < ncols:
            yield (r + dr) * FCOLS + c + dc


# indexed by players - 2
AREA_ID = np.full((3, FCELLS), -1, dtype=np.int64)
AREA_SIZE = np.zeros((3, 32), dtype=np.int64)
AREA_COLOUR = np.full((3, 32), -1, dtype=np.int64)
N_AREAS = np.zeros(3, dtype=np.int64)
for _i in range(3):
    _a, _s, _col = _areas(4 * (_i + 3))
    AREA_ID[_i] = _a
    AREA_SIZE[_i, :len(_s)] = _s
    AREA_COLOUR[_i, :len(_col)] = _col
    N_AREAS[_i] = len(_s)
# eagle neighbourhood (over all 20 columns; unused columns hold no envoy)
ORTHO_EAGLE = np.zeros(FCELLS, dtype=np.bool_)
DIAG_EAGLE = np.zeros(FCELLS, dtype=np.bool_)
for _f in range(FCELLS):
    _r, _c = divmod(_f, FCOLS)
    for _dr in (-1, 0, 1):
        for _dc in (-1, 0, 1):
            _rr, _cc = _r + _dr, _c + _dc
            if (_dr or _dc) and 0 <= _rr < 4 and 0 <= _cc < FCOLS and EAGLE[_rr * FCOLS + _cc]:
                if _dr and _dc:
                    DIAG_EAGLE[_f] = True
                else:
                    ORTHO_EAGLE[_f] = True

# ---- values -----------------------------------------------------------------------
AREA_POINTS = np.array([0, 1, 2, 4, 6, 8, 10, 12, 15, 18, 21], dtype=np.int64)
CRANE_VALUE = np.array([0, 3, 2, 1], dtype=np.int64)  # by cycle
COLUMN_VALUE = np.array([0, 3, 2, 1], dtype=np.int64)

# Trajan tasks: (symbol, threshold) per card [pile 0-2][card 0-3][task 0-1]
(S_COLS, S_TYPES, S_ROWTYPES, S_COLOURS, S_MAXCOL, S_ACT, S_FULL, S_ENV, S_GRP, S_EAGLE, S_RES, S_LVL2,
 S_LVL4) = range(13)
TRAJAN_TASKS = np.array([
    [[S_COLS, 1, S_ACT, 2], [S_COLOURS, 2, S_ENV, 3], [S_TYPES, 2, S_RES, 3], [S_EAGLE, 1, S_MAXCOL, 2]],
    [[S_TYPES, 4, S_ACT, 4], [S_COLOURS, 4, S_GRP, 4], [S_COLS, 2, S_LVL2, 2], [S_ENV, 6, S_FULL, 1]],
    [[S_ROWTYPES, 4, S_ACT, 6], [S_MAXCOL, 4, S_ENV, 9], [S_COLS, 3, S_LVL4, 1], [S_FULL, 2, S_GRP, 6]],
], dtype=np.int64).reshape(3, 4, 2, 2)
