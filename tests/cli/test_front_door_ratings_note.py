"""The note under the rating table says what the reference at Elo 0 is without reading
as a ranking: it is the connected agent whose distances the games measure most precisely
(on the quick-start file maxn, fourth of six), not the agent they "place best"; and when
the games connect no agents at all, the note says so instead of naming a connected rest
that does not exist (no group of connected agents is the largest)."""
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.cli import main

from ..arena.test_ratings_display import quickstart_outcomes, write_store


def ratings(*args):
    result = CliRunner().invoke(main, ["ratings", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_quick_start_note_does_not_read_as_a_ranking(tmp_path):
    definition, outcomes = quickstart_outcomes()
    out = ratings(write_store(tmp_path / "qs.db", outcomes, definition))
    assert "place best" not in out
    assert ("Elo 0 = maxn(depth=2, nodes=3000), the reference: of the agents the games connect, the one "
            "whose distances to the others they measure most precisely (a point of the scale, not a rank).") \
        in out


def test_a_field_the_games_do_not_connect_is_said_so(tmp_path):
    """Six games in which A always wins and C always loses: no two agents connect."""
    labels = ("A", "B", "C")
    definition = TournamentDefinition(config={"players": 3}, seed=1,
                                      agents=tuple(PoolEntry(a, "random") for a in labels)).to_json()
    outcomes = []
    for k in range(6):
        seats = labels[k % 3:] + labels[:k % 3]
        ranks = [1 + labels.index(a) for a in seats]
        outcomes.append(GameOutcome(key=f"G{k}", group=f"G{k}", lineup=0, rotation=0, seed=k, labels=seats,
                                    specs=("random",) * 3, agent_seeds=(0, 0, 0), moves=[],
                                    scores=[3.0 - r for r in ranks], ranks=ranks, plies=10, termination=END_RULES,
                                    move_seconds=[0.1] * 3, moves_made=[5] * 3))
    out = ratings(write_store(tmp_path / "t.db", outcomes, definition))
    assert "of the agents the games connect" not in out and "place best" not in out
    assert "the reference: no one group of agents the games connect is the largest (*), so of all agents " \
           "the one whose distances to the others are narrowest (a point of the scale, not a rank)." in out
