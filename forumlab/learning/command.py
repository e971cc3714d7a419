"""``forumlab learn GAME -p N``: train a learned evaluation from self-play."""
from __future__ import annotations

import click


@click.command("learn")
@click.argument("game_name", metavar="GAME")
@click.option("-p", "--players", type=int, required=True, help="number of players")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True,
              help="self-play games per iteration")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--epsilon", type=click.FloatRange(0.0, 1.0), default=0.1, show_default=True,
              help="share of random moves in self-play (variety between games)")
@click.option("--stride", type=click.IntRange(min=1), default=2, show_default=True,
              help="record every STRIDE-th position")
@click.option("--iterations", type=click.IntRange(min=1), default=1, show_default=True,
              help="2 or more: play with the learned weights and refit (expert iteration)")
@click.option("--agent", "agent_spec", default="greedy", show_default=True,
              help="the self-play agent of the first iteration: greedy with any weights, e.g. "
                   "'greedy(archetype=civic)' or 'greedy(eval=FILE)'")
@click.option("--l2", type=click.FloatRange(min=0.0), default=1e-3, show_default=True,
              help="L2 penalty on the standardised weights")
@click.option("--target", type=click.Choice(["outcome", "move-choice"]), default="outcome", show_default=True,
              help="fit who won (outcome) or the teacher's move among each position's afterstates "
                   "(move-choice: what greedy decides)")
@click.option("--teacher", "teacher_spec", default="brs(nodes=20000)", show_default=True,
              help="move-choice: the agent whose moves are the targets (give it a node or iteration "
                   "budget: a time budget makes the file depend on the machine)")
@click.option("--alternatives", type=click.IntRange(min=1), default=48, show_default=True,
              help="move-choice: most other legal moves per position in the fit (a uniform sample)")
@click.option("--model", "model_kind", type=click.Choice(["term-weights", "region-table", "stage-weights"]),
              default="term-weights", show_default=True,
              help="term-weights: a weight per heuristic term; region-table: a learned table of region "
                   "patterns fitted to the final scores (Forum Romanum); stage-weights: a weight per "
                   "term and stage of the game, fitted to who won (Foundations of Rome)")
@click.option("--ridge", type=click.FloatRange(min=0.0, min_open=True), default=1.0, show_default=True,
              help="region-table: penalty on each squared table entry (in positions' worth)")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="model file to write (default: print it)")
def learn(game_name, players, games, seed, epsilon, stride, iterations, agent_spec, l2, target,
          teacher_spec, alternatives, model_kind, ridge, output):
    """Fit a linear evaluation over GAME's heuristic terms to self-play outcomes or to a
    teacher's moves, or (--model region-table) a table of region patterns to the final
    scores, or (--model stage-weights) a weight per term and era to the outcomes; the file
    plays through any search agent as eval=FILE (docs/learning.md)."""
    import json
    import sys

    from tqdm import tqdm

    from ..agents.spec import AgentSpecError
    from ..api import load_game, make_agent
    from ..cli import fail
    from ..core.errors import ForumlabError
    from .model import save_model
    from .train import learn as train
    from .train import learn_choice

    try:
        if output:
            from ..core.files import check_output_file

            check_output_file(output, "model file")  # before the self-play: never a device or a pipe
        game = load_game(game_name, players=players)
        agent = make_agent(agent_spec)
        if agent.name != "greedy":
            fail(f"--agent must be a greedy spec (self-play runs greedy in the engine), not {agent_spec!r}")
        start_weights = agent.heuristic_weights(game)
        if model_kind != "term-weights":
            _check_model_kind(model_kind, game, target, agent_spec)
        if target == "move-choice":
            from ..agents.weights import check_weights_for_game

            check_weights_for_game(make_agent(teacher_spec), game)
    except (ForumlabError, AgentSpecError) as e:
        fail(str(e))
    command = "forumlab learn " + " ".join(sys.argv[sys.argv.index("learn") + 1:]) \
        if "learn" in sys.argv else ""
    with tqdm(total=games * iterations, desc=f"self-play {game_name}", unit="game") as bar:
        if model_kind == "region-table":
            from .region_table import learn_region_table

            model = learn_region_table(game, games, seed, epsilon, stride, iterations, ridge, command,
                                       bar.update)
        elif model_kind == "stage-weights":
            from .stage_weights import learn_stage_weights

            model = learn_stage_weights(game, games, seed, epsilon, stride, iterations, l2, command,
                                        bar.update)
        elif target == "move-choice":
            model = learn_choice(game, games, seed, teacher_spec, epsilon, stride, iterations, l2,
                                 alternatives, command, bar.update, start_weights)
        else:
            model = train(game, games, seed, epsilon, stride, iterations, l2, command, bar.update,
                          start_weights)
    if output:
        try:
            save_model(output, model)
        except ForumlabError as e:
            fail(str(e))
        click.echo(f"wrote {output}: " + ", ".join(f"{k}={v}" for k, v in model["weights"].items())
                   + (f"; fit {model['fit'][-1]}" if model_kind != "term-weights" else ""))
    else:
        click.echo(json.dumps(model, indent=1, sort_keys=True))


def _check_model_kind(model_kind: str, game, target: str, agent_spec: str) -> None:
    """Refuse, with one line, a region-table or stage-weights training the game or the
    options cannot have."""
    from ..cli import fail
    from .model import stages_shape, table_shape

    shape_of, part, games, fitted = {
        "region-table": (table_shape, "region tables", "Forum Romanum", "the final scores"),
        "stage-weights": (stages_shape, "stages", "Foundations of Rome", "who won"),
    }[model_kind]
    if shape_of(game) is None:
        fail(f"{game.name} has no {part} (--model {model_kind}: {games})")
    if target != "outcome" or agent_spec != "greedy":
        fail(f"--model {model_kind} fits {fitted} in greedy self-play on the game's own heuristic: "
             "it takes neither --target move-choice nor --agent")
