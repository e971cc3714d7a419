"""Strategy archetypes: named weight vectors per game that agents play through
``archetype=NAME`` or the spec :func:`archetype_spec` writes, each playing differently
from the default heuristic (move agreement below the declared threshold, on a small
fixed sample: benchmarks/archetype_agreement.py measures the full one)."""
import pytest

from benchmarks.archetype_agreement import CONFIGS, THRESHOLD, agreement_table, sample_positions
from forumlab.agents.archetypes import BALANCED, archetype_spec, archetypes
from forumlab.agents.registry import create_agent
from forumlab.agents.spec import AgentSpecError
from forumlab.agents.weights import term_names, weight_vector
from forumlab.core.registry import create_game, get_game_class

GAMES = sorted(CONFIGS)
# Archetypes whose one-ply play is not below the threshold on the small sample below:
# Forma's tower term counts only while the tower has one open side (0.91 in the full
# measurement, docs/strategies.md); Forum Trajanum's area is below it in the full
# measurement (0.70 on 240 positions) but at 0.82 on these 40.
AT_THRESHOLD_OR_ABOVE = {"forma": {"tower"}, "forum-trajanum": {"area"}}


@pytest.mark.parametrize("game_name", GAMES)
def test_every_game_has_balanced_and_at_least_three_archetypes(game_name):
    table = archetypes(game_name)
    assert list(table)[0] == BALANCED and table[BALANCED] == {}
    assert len(table) >= 4
    cls = get_game_class(game_name)
    for name, weights in table.items():
        assert set(weights) <= set(term_names(cls)), name
        if weights:
            assert weight_vector("greedy", cls, name, {}) is not None


def test_archetype_spec_spells_the_weights_out():
    assert archetype_spec("forum-romanum", "cautious") == "greedy(w.last_places=4)"
    assert archetype_spec("forum-romanum", "balanced", "brs", depth=2) == "brs(depth=2)"
    assert archetype_spec("forum-romanum", "balanced") == "greedy"
    spec = archetype_spec("foundations-of-rome", "civic", "mcts", cpu_time=0.2)
    assert spec.startswith("mcts(cpu_time=0.2,w.civic=3,")
    with pytest.raises(AgentSpecError, match="archetypes: balanced, "):
        archetype_spec("forma", "nope")


def test_archetype_parameter_plays_as_its_spelled_out_weights():
    game = create_game("forum-romanum", {"players": 3})
    state = game.new_state(0)
    by_name = create_agent("greedy(archetype=sections)", seed=4)
    spelled = create_agent(archetype_spec("forum-romanum", "sections"), seed=4)
    for _ in range(20):
        move = by_name.act(state.copy())
        assert spelled.act(state.copy()) == move
        state.play(move)


def test_w_values_override_the_archetype():
    cls = get_game_class("forum-romanum")
    w = weight_vector("greedy", cls, "cautious", {"last_places": 0.5, "rows": 2.0})
    names = term_names(cls)
    assert w[names.index("last_places")] == 0.5 and w[names.index("rows")] == 2.0


@pytest.mark.parametrize("game_name", GAMES)
def test_archetypes_play_differently_from_the_default(game_name):
    """Two self-play games (seeds 1 and 2), 20 positions each: every archetype's greedy
    move differs from the default's in more than a fifth of them (those named above: in
    some of them), and balanced agrees everywhere."""
    game = create_game(game_name, CONFIGS[game_name])
    table = agreement_table(game, sample_positions(game, 2, 20, 1))
    assert table[BALANCED]["agreement"] == 1.0
    for name, row in table.items():
        if name == BALANCED:
            continue
        if name in AT_THRESHOLD_OR_ABOVE.get(game_name, ()):
            assert row["agreement"] < 1.0, name
        else:
            assert row["agreement"] < THRESHOLD, name
