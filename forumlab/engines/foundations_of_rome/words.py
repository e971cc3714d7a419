"""What a person at the terminal is told of Foundations of Rome beyond the notation: the
board picture's legend, and the main actions in words (income, a deed bought, a
building). Read from public figures only (silver is on the board for all to see)."""
from __future__ import annotations

import re

import numpy as np

from .layout import PLAYER, SILVER

LEGEND = """\
How to read the Foundations of Rome board (seats are letters: A = seat 0, B = seat 1, ...):
  a b c ..   a lot marker of that seat: a lot it owns, not built on yet
  A B C ..   a building of that seat covers the lot        .  a lot nobody owns
  buildings: B:C2@e7,e8 = seat B's C2 on the lots e7 and e8
  codes: R residential (citizens: population), C commercial (silver), V civic (scores
  its neighbours: F fountain, L library, M market, G garden); the digit is the lots it
  covers, then its shape: L an L, I a line, O a square (R3L = residential, 3 lots, an L)
  deed board: D1:c2($2) = slot 1 sells the deed of lot c2 for 2 silver (buy it: D1);
  piles: the deeds left for eras 1/2/3 (an era ends when its pile runs out)
  per seat: VP victory points, silver, population, markers = lot markers in supply /
  all it has, supply = the buildings it has left (R1x2: two R1)"""

_KINDS = {"R": "residential", "C": "commercial", "V": "civic"}
_CIVIC = {"F": "fountain", "L": "library", "M": "market", "G": "garden"}
_SHAPES = {"L": "an L of {n} lots", "I": "a line of {n} lots", "O": "a square of {n} lots"}
_BUILD = re.compile(r"^([RCV])(\d)([A-Z]?)@(.+)$")


def _building(kind: str, size: str, letter: str) -> str:
    """``R3L`` -> "a residential building, an L of 3 lots"; ``V1F`` -> "a fountain (civic, 1 lot)"."""
    lots = "1 lot" if size == "1" else f"{size} lots"
    if kind == "V":
        return f"a {_CIVIC.get(letter, 'civic building')} (civic, {lots})"
    if letter in _SHAPES:
        return f"a {_KINDS[kind]} building, {_SHAPES[letter].format(n=size)}"
    return f"a {_KINDS[kind]} building of {lots}"


def move_words(before: np.ndarray, after: np.ndarray, text: str) -> str:
    """A main action in words ("" for the modules' moves and anything else).

    Args:
        before: the position before the ply.
        after: the position after it.
        text: the move's notation.
    """
    seat = int(before[PLAYER])
    spent = int(before[SILVER + seat]) - int(after[SILVER + seat])
    if text == "I":
        return f"takes income: +{-spent} silver"
    if re.fullmatch(r"D[1-6]", text):
        return f"buys the deed in slot {text[1]} for {spent} silver and marks its lot"
    m = _BUILD.match(text)
    if m:
        kind, size, letter, cells = m.groups()
        return f"builds {_building(kind, size, letter)} on {cells}"
    return ""
