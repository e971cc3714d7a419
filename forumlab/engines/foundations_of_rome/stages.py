"""The stages of Foundations of Rome's stage-weights evaluation (pure Python: model files
are checked against these without compiling anything; the heuristic reads them in
:func:`.heuristic.weighted_heuristic`; docs/learning.md, "Stage weights (Foundations of
Rome)").

A stage is the era being played (the state's ``ERA`` slot, 1-3; the draft belongs to era
1 and each era's final turns to that era). A stage-weights model holds one multiplier per
(stage, term): at a position of era ``e`` the heuristic's term weights are the model's
term weights times row ``e - 1`` of the table. A finished game has no stage: it is valued
with the term weights alone.
"""
from .layout import ERA

STAGE_NAMES = ("era 1", "era 2", "era 3")
N_STAGES = len(STAGE_NAMES)
STAGE_SLOT = ERA  # the state slot whose value minus 1 is the stage


def stage_of(s) -> int:
    """The stage (0-based row of the table) of an unfinished position ``s``."""
    return int(s[STAGE_SLOT]) - 1
