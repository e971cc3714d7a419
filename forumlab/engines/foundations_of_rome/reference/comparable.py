"""The reference's summary in comparable form: the parts whose order is the engine's own
bookkeeping (buildings' cells, hands, dealt cards, held invocations, turn effects)
sorted, and the slots and end-of-game fields in one fixed shape, so that two engines
holding the same position give equal summaries."""
from __future__ import annotations


def comparable(summary: dict) -> dict:
    """``summary`` (a ``ReferenceState`` summary) with order-free parts sorted and the
    fixed shapes (six slots, -1 for an empty one; no seat to move once over; no final
    turns left outside the final turns)."""
    s = dict(summary)
    s["buildings"] = sorted([sorted(cells), owner, code] for cells, owner, code in s["buildings"])
    s["hands"] = [sorted(h) for h in s["hands"]]
    s["slots"] = [(-1 if x is None else x) for x in s["slots"]] + [-1] * (6 - len(s["slots"]))
    if s["phase"] == "over":
        s["player"] = None
    if s["phase"] != "final":
        s["final_turns_left"] = 0
    for key in ("obj_dealt", "role_dealt"):
        if key in s:
            s[key] = [sorted(x) for x in s[key]]
    if "turn_effects" in s:
        s["turn_effects"] = sorted(s["turn_effects"])
    if "trade" in s and s["trade"] is not None:
        s["trade"] = list(s["trade"])
    if "held" in s:
        s["held"] = [sorted([list(x) for x in h]) for h in s["held"]]
    return s
