"""The printed components as data, straight from the spec's tables.

Buildings (``R``/``C``/``V`` codes), monuments (``M1``..``M19``), their shapes, and the
option values the spec fixes. Shapes are written as rows of ``#`` (a cell) and ``.``
(no cell), exactly as the spec draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

# Shape drawings from the spec ("Players and pieces" and "Monuments").
SHAPES: dict[str, tuple[str, ...]] = {
    "1": ("#",),
    "I2": ("##",),
    "L3": ("##", "#."),
    "I3": ("###",),
    "O4": ("##", "##"),
    "I4": ("####",),
    "T4": ("###", ".#."),
    "U5": ("#.#", "###"),
    "R6": ("###", "###"),
}

RESIDENTIAL, COMMERCIAL, CIVIC = "R", "C", "V"

# A civic rule scores factor * measure // divisor over the adjacent buildings, where the
# measure is one of: "buildings" (their number), "citizens", "silver", "civic" (civic
# buildings among them).
CIVIC_MEASURES = ("buildings", "citizens", "silver", "civic")


@dataclass(frozen=True)
class Piece:
    """One building code (or monument) with everything the rules read from it.

    kind: ``R``, ``C`` or ``V``. citizens: shown by a residential piece. silver: shown by a
    commercial piece (Income, era silver, markets). tray: VP of the tray spot a commercial
    building uncovers (0 for monuments). vp: a commercial monument's VP at every era
    scoring. rule: a civic piece's ``(measure, factor, divisor)``. copies: per player
    (1 for a monument, which is shared by the whole table).
    """

    code: str
    kind: str
    shape: str
    copies: int
    citizens: int = 0
    silver: int = 0
    tray: int = 0
    vp: int = 0
    rule: tuple[str, int, int] | None = None
    monument: int = 0  # 1..19 for a monument, 0 for a building

    @property
    def size(self) -> int:
        """Cell count of the shape."""
        return sum(row.count("#") for row in SHAPES[self.shape])


def _r(code, shape, copies, citizens):
    return Piece(code, RESIDENTIAL, shape, copies, citizens=citizens)


def _c(code, shape, copies, silver, tray):
    return Piece(code, COMMERCIAL, shape, copies, silver=silver, tray=tray)


def _v(code, shape, measure, factor, divisor=1):
    return Piece(code, CIVIC, shape, 1, rule=(measure, factor, divisor))


# The 24 buildings of each player, in the order legal moves list them.
BUILDINGS: tuple[Piece, ...] = (
    _r("R1", "1", 2, 1), _r("R2", "I2", 2, 2), _r("R3L", "L3", 1, 4),
    _r("R3I", "I3", 1, 4), _r("R4O", "O4", 1, 6), _r("R4I", "I4", 1, 6),
    _c("C1", "1", 2, 1, 0), _c("C2", "I2", 2, 1, 2), _c("C3L", "L3", 1, 2, 3),
    _c("C3I", "I3", 1, 2, 3), _c("C4O", "O4", 1, 3, 5), _c("C4I", "I4", 1, 3, 5),
    _v("V1F", "1", "buildings", 1), _v("V2F", "I2", "buildings", 1),
    _v("V1L", "1", "citizens", 1, 2), _v("V2L", "I2", "citizens", 1),
    _v("V1M", "1", "silver", 1), _v("V2M", "I2", "silver", 2),
    _v("V1G", "1", "civic", 2), _v("V2G", "I2", "civic", 3),
)


def _mv(mid, name, shape, measure, factor):
    return name, Piece(f"M{mid}", CIVIC, shape, 1, rule=(measure, factor, 1), monument=mid)


def _mc(mid, name, shape, silver, vp):
    return name, Piece(f"M{mid}", COMMERCIAL, shape, 1, silver=silver, vp=vp, monument=mid)


def _mr(mid, name, shape, citizens):
    return name, Piece(f"M{mid}", RESIDENTIAL, shape, 1, citizens=citizens, monument=mid)


_MONUMENT_TABLE = (
    _mv(1, "Pantheon", "I3", "civic", 3),
    _mv(2, "Forum Romanum", "I3", "silver", 2),
    _mv(3, "Circus Maximus", "I3", "citizens", 1),
    _mc(4, "Temple of Vulcan", "T4", 2, 3),
    _mr(5, "Temple of Minerva", "U5", 8),
    _mc(6, "Tower of Wonders", "1", 0, 3),
    _mr(7, "Temple of Mars", "L3", 5),
    _mc(8, "Temple of Neptune", "L3", 1, 5),
    _mv(9, "Lighthouse", "1", "silver", 2),
    _mv(10, "Observation Tower", "1", "citizens", 1),
    _mv(11, "Temple of Jupiter", "O4", "silver", 2),
    _mv(12, "Colosseum", "O4", "citizens", 1),
    _mc(13, "Royal Cellar", "R6", 4, 8),
    _mr(14, "Regia", "R6", 9),
    _mv(15, "Statue of Romulus", "O4", "buildings", 2),
    _mr(16, "Temple of Venus", "I2", 4),
    _mc(17, "Temple of Apollo", "I2", 2, 2),
    _mr(18, "Triumphal Arch", "I4", 7),
    _mc(19, "Imperial Port", "I4", 3, 7),
)
MONUMENT_NAMES: dict[int, str] = {i + 1: name for i, (name, _) in enumerate(_MONUMENT_TABLE)}
MONUMENTS: dict[int, Piece] = {i + 1: piece for i, (_, piece) in enumerate(_MONUMENT_TABLE)}
N_MONUMENTS = 19

# Requirements, checked before the build. Each is a list of conditions, all needed:
#   ("count", kind, k): own >= k buildings of that kind on the board (monuments included)
#   ("buildings", k):   own >= k buildings on the board
#   ("lots", k):        own >= k lots (owned cells, built or not)
#   ("size", k):        own a building (or monument) of size >= k
#   ("silver", k):      silver of own commercial buildings (monuments included) >= k
#   ("population", k):  population >= k
#   ("edge",):          the footprint contains an edge lot
MONUMENT_REQUIREMENTS: dict[int, tuple[tuple, ...]] = {
    1: (("count", CIVIC, 2),),
    2: (("population", 6),),
    3: (("lots", 14),),
    4: (("count", COMMERCIAL, 4),),
    5: (("count", RESIDENTIAL, 4),),
    6: (("size", 3),),
    7: (("size", 3), ("silver", 3)),
    8: (("count", CIVIC, 2), ("edge",)),
    9: (("size", 4), ("edge",)),
    10: (("edge",),),
    11: (),
    12: (),
    13: (),
    14: (),
    15: (("buildings", 6),),
    16: (("silver", 4),),
    17: (("count", RESIDENTIAL, 3),),
    18: (("edge",),),
    19: (("edge",),),
}

# On-build effects: each owner of a building adjacent to the new monument gains this once.
MONUMENT_ON_BUILD: dict[int, tuple[str, int]] = {11: ("vp", 2), 12: ("silver", 3)}

PIECES: dict[str, Piece] = {p.code: p for p in BUILDINGS} | {p.code: p for p in MONUMENTS.values()}

# Table figures.
GRID_SIZE = {2: 7, 3: 8, 4: 9, 5: 10}
LOT_MARKERS = 8
MONUMENT_MARKERS = 6
HAND_SIZE = 6
SLOTS = 6
START_SILVER = 5  # seat i starts with START_SILVER + i
INCOME_BASE = 5
ERA_BONUS = {1: 4, 2: 7, 3: 10}
DEFAULT_DEED_PRICES = (2, 3, 4, 6, 8, 10)
DEFAULT_MAX_TURNS = 1000

MODULES_KNOWN = ("monuments", "trading", "stealing", "objectives", "invocations", "roles")
CONSUL_LEVELS = ("standard", "hard", "challenge")

# ---------------------------------------------------------------- Trading and Stealing
FAVOR_TOKENS = 10  # in the game; each player starts with 2, 2-VP side up
FAVOR_START = 2


@dataclass(frozen=True)
class Invocation:
    """An invocation card ``G<gid>``: its shown VP (scored at the end if never used),
    whether its effect is ongoing, and the modules it needs (any one of them; () = none)."""

    gid: int
    name: str
    vp: int
    ongoing: bool = False
    needs: tuple[str, ...] = ()


INVOCATIONS: dict[int, Invocation] = {g.gid: g for g in (
    Invocation(1, "Mercurius", 1), Invocation(2, "Fortuna", 0), Invocation(3, "Ianus", 2),
    Invocation(4, "Ceres", 0, True), Invocation(5, "Vesta", 0, True),
    Invocation(6, "Minerva", 0, True), Invocation(7, "Vulcanus", 1), Invocation(8, "Pluto", 1),
    Invocation(9, "Mars", 0, True), Invocation(10, "Apollo", 0, True), Invocation(11, "Iuno", 2),
    Invocation(12, "Bacchus", 0), Invocation(13, "Saturnus", 1), Invocation(14, "Quirinus", 0, True),
    Invocation(15, "Terminus", 0), Invocation(16, "Concordia", 1, needs=("trading", "stealing")),
    Invocation(17, "Discordia", 2, needs=("stealing",)), Invocation(18, "Flamen", 2, needs=("monuments",)),
    Invocation(19, "Augur", 0, True, needs=("objectives",)), Invocation(20, "Numa", 1, needs=("roles",)),
)}
INVOCATIONS_PER_PILE = 3
# An invocation card's id among the deed-board cards (lots are 0..99): 100 + gid.
INVOCATION_CARD_BASE = 100

# ---------------------------------------------------------------- Objectives (id -> VP)
OBJECTIVE_VP: dict[int, int] = {1: 6, 2: 5, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 5, 9: 5, 10: 4,
                                11: 5, 12: 4, 13: 4, 14: 4, 15: 5, 16: 3, 17: 3, 18: 5}
N_OBJECTIVES = 18

# ---------------------------------------------------------------- Player roles
ROLE_NAMES: dict[int, str] = {
    1: "Mercator", 2: "Argentarius", 3: "Agrimensor", 4: "Architectus", 5: "Dominus",
    6: "Patronus", 7: "Aedilis", 8: "Negotiator", 9: "Censor", 10: "Praetor", 11: "Quaestor",
    12: "Pontifex", 13: "Tribunus", 14: "Legatus", 15: "Faber"}
N_ROLES = 15

# ---------------------------------------------------------------- Will of the Consul
CONSUL = -2  # the owner value of the Consul's lots and tokens (seats are 0..n-1, -1 = nobody)
CONSUL_START_VP = 5
CONSUL_START_DEEDS = {"standard": 0, "hard": 2, "challenge": 4}
CONSUL_EMPTY_PILE_VP = 7


def _consul_tokens() -> tuple[Piece, ...]:
    """The 30 Consul tokens, ids 0-29 in the spec's order (per size: R, C, V); code
    ``X<id>``. Civic tokens score 1 VP (sizes 1-2) or 2 VP (sizes 3-4) per adjacent
    building. The shape only gives the size (a token covers any connected cells)."""
    table = ((1, "1", 4, 1, 4, 1, 4), (2, "I2", 3, 2, 3, 1, 3), (3, "I3", 2, 4, 2, 2, 2),
             (4, "I4", 1, 6, 1, 3, 1))
    out = []
    for size, shape, nr, cit, nc, sil, nv in table:
        for _ in range(nr):
            out.append(Piece(f"X{len(out)}", RESIDENTIAL, shape, 1, citizens=cit))
        for _ in range(nc):
            out.append(Piece(f"X{len(out)}", COMMERCIAL, shape, 1, silver=sil))
        for _ in range(nv):
            out.append(Piece(f"X{len(out)}", CIVIC, shape, 1, rule=("buildings", 1 if size <= 2 else 2, 1)))
    return tuple(out)


CONSUL_TOKENS: tuple[Piece, ...] = _consul_tokens()
PIECES.update({p.code: p for p in CONSUL_TOKENS})
