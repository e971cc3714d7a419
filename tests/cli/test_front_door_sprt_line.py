"""The sequential test's line under the rating table says what its "elo" measures: the
candidate's share of opponents finished behind it, against the whole field at once. With
``random`` in a gauntlet's field that is far above 0 while the table puts the candidate
level with ``greedy``, and a bare "accepted H1: elo >= 150" read as the table's Elo
difference misleads."""
from forumlab.arena.sequential import format_sprt

DEFINITION = {"candidate": "m", "sprt": {"elo0": 0, "elo1": 150}}


def test_the_line_says_the_test_is_against_the_whole_field():
    text = format_sprt(None, DEFINITION)
    assert text.startswith("SPRT for m against the whole field (elo: the Elo equivalent of the share of "
                           "opponents m finished ahead of, not a difference of the table's Elo): H0 elo <= 0, "
                           "H1 elo >= 150"), text
