"""ANSI colours for board pictures in a terminal."""
from __future__ import annotations

import re

# Seat letters A-F (lowercase: that seat's marker) in red, blue, green, yellow, magenta, cyan.
_SEAT_COLOURS = {letter: code for letter, code in zip("ABCDEF", (31, 34, 32, 33, 35, 36))}
_GRID_ROW = re.compile(r"^(\s*\d+  )(.*)$")


def _paint(token: str) -> str:
    upper = token.upper()
    if len(token) == 1 and upper in _SEAT_COLOURS:
        style = "1;" if token.isupper() else "2;4;"  # pieces bold, markers dim + underlined
        return f"\x1b[{style}{_SEAT_COLOURS[upper]}m{token}\x1b[0m"
    if token == "#":
        return "\x1b[90m#\x1b[0m"
    if token == "T":
        return "\x1b[1;97mT\x1b[0m"
    return token


def colourize(picture: str) -> str:
    """Colour the grid rows of a game's ``render()`` picture (rows start with a row number)."""
    lines = []
    for line in picture.split("\n"):
        match = _GRID_ROW.match(line)
        if match:
            line = match.group(1) + " ".join(_paint(t) for t in match.group(2).split(" "))
        lines.append(line)
    return "\n".join(lines)
