"""The learned-evaluation file: JSON holding one weight per heuristic term of a game.

Its ``kind`` says what the model is: ``term-weights`` (a file without ``kind`` is one)
is a weight per term, evaluated by the game's weighted heuristic; ``region-table`` adds
a learned table of region patterns (``table``: the game's pattern ``shape`` and the
flattened ``values``), evaluated by the same heuristic in the games that have such a
table (their ``patterns`` module; docs/learning.md, "Region tables (Forum Romanum)");
``stage-weights`` adds a multiplier per (stage, term) (``stages``: its ``shape``, stages
x terms, and the flattened ``values``), evaluated in the games that have stages (their
``stages`` module; docs/learning.md, "Stage weights (Foundations of Rome)").
``training`` says how the weights were fitted (``outcome``: who won;
``move-choice``: a teacher's moves), which changes nothing in how they are used.

Plain Python (json only), so agents can resolve ``eval=`` without compiling anything.
``eval=learned`` names the file shipped for the game and player count
(``forumlab/learning/evals/<game>-<N>p.json``); any other value is a path.
"""
from __future__ import annotations

import glob
import json
import math
import os
from collections.abc import Callable
from typing import Any, NamedTuple

FORMAT = "forumlab-eval/1"
KIND_TERM_WEIGHTS = "term-weights"
KIND_REGION_TABLE = "region-table"
KIND_STAGE_WEIGHTS = "stage-weights"
KINDS = (KIND_TERM_WEIGHTS, KIND_REGION_TABLE, KIND_STAGE_WEIGHTS)
LEARNED = "learned"
EVALS_DIR = os.path.join(os.path.dirname(__file__), "evals")


class EvalFileError(ValueError):
    """A model file that cannot be used (missing, malformed, or for another game)."""


def shipped_path(game_name: str, players: int | str) -> str:
    """The path of the shipped model for a game and player count (may not exist)."""
    return os.path.join(EVALS_DIR, f"{game_name}-{players}p.json")


def save_model(path: str, model: dict[str, Any]) -> None:
    """Write a model dict as JSON (sorted keys, so equal models give equal bytes)."""
    from ..core.files import write_file_atomically

    # Complete or not at all, and never renamed over a device or a pipe.
    write_file_atomically(path, "model file",
                          lambda f: f.write(json.dumps(model, indent=1, sort_keys=True) + "\n"))


def read_model(path: str) -> dict[str, Any]:
    """A model file's contents, checked for its format and its weights.

    Raises:
        EvalFileError: unreadable, not JSON, another format, or weights not finite numbers.
    """
    from ..core.files import MAX_MODEL_BYTES, read_text_file

    # A regular file of bounded size only: a named pipe would block, /dev/zero fill memory.
    text = read_text_file(path, "evaluation file", MAX_MODEL_BYTES, error=EvalFileError)
    try:
        model = json.loads(text)
    except ValueError:
        raise EvalFileError(f"evaluation file {path!r} is not JSON") from None
    if not isinstance(model, dict) or model.get("format") != FORMAT:
        raise EvalFileError(f"evaluation file {path!r} is not a {FORMAT} model")
    kind = model.get("kind", KIND_TERM_WEIGHTS)
    if kind not in KINDS:
        raise EvalFileError(f"evaluation file {path!r} is a model of kind {kind!r}, which this version "
                            f"cannot evaluate (kinds: {', '.join(KINDS)})")
    weights = model.get("weights")
    if not isinstance(weights, dict) or not all(map(_finite_number, weights.values())):
        raise EvalFileError(f"evaluation file {path!r}: 'weights' must map term names to finite numbers")
    if kind in _PARTS:
        _check_part(path, kind, model.get(_PARTS[kind].key))
    return model


def _finite_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _check_part(path: str, kind: str, part: Any) -> None:
    """Refuse a region table or stage table whose shape is not positive integers (of the
    kind's dimension count) or whose values do not fill it with finite numbers."""
    spec = _PARTS[kind]
    shape = part.get("shape") if isinstance(part, dict) else None
    values = part.get("values") if isinstance(part, dict) else None
    if not (isinstance(shape, list) and shape and (spec.dims is None or len(shape) == spec.dims)
            and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape)):
        raise EvalFileError(f"evaluation file {path!r}: a {kind} model needs '{spec.key}' with a 'shape' "
                            f"of {spec.shape_words}")
    size = math.prod(shape)
    if not (isinstance(values, list) and len(values) == size and all(map(_finite_number, values))):
        raise EvalFileError(f"evaluation file {path!r}: the {spec.whose} 'values' must be {size} "
                            "finite numbers (its shape's size)")


def part_values(model: dict[str, Any]) -> list[float]:
    """What a model adds after its term weights in the agents' weight array: a region
    table's or a stage table's values (flattened), or nothing for term weights."""
    kind = model.get("kind", KIND_TERM_WEIGHTS)
    return list(model[_PARTS[kind].key]["values"]) if kind in _PARTS else []


def _sibling_module(game, name: str):
    """The plain-Python module ``name`` beside a game's class's module (a Game or Game
    class), or None if there is none."""
    import importlib

    cls = game if isinstance(game, type) else type(game)
    package = cls.__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{name}") if package else None
    except ImportError:
        return None


def stages_module(game):
    """The game's ``stages`` module, or None for a game without stages."""
    return _sibling_module(game, "stages")


def stages_shape(game) -> tuple[int, int] | None:
    """The stage-table shape (stages, terms) of a game (a Game or Game class): ``N_STAGES``
    of the ``stages`` module beside its class's module by its term count, or None for a
    game without stages."""
    from ..agents.weights import term_names

    n_stages = getattr(stages_module(game), "N_STAGES", None)
    return (int(n_stages), len(term_names(game))) if n_stages else None


def table_shape(game) -> tuple[int, ...] | None:
    """The region-table shape of a game (a Game or Game class): ``TABLE_SHAPE`` of the
    ``patterns`` module beside its class's module (plain Python), or None for a game
    without region tables."""
    shape = getattr(_sibling_module(game, "patterns"), "TABLE_SHAPE", None)
    return tuple(shape) if shape is not None else None


def resolve_eval(source: str, game_name: str, players: int | None) -> dict[str, float]:
    """The term weights an ``eval=`` value names for a game (:func:`resolve_model`
    without the region-table check, which needs the game itself)."""
    model = resolve_model(source, game_name, players)
    return {str(k): float(v) for k, v in model["weights"].items()}


def resolve_model(source: str, game_name: str, players: int | None, game=None) -> dict[str, Any]:
    """The model an ``eval=`` value names for a game, checked against it.

    Args:
        source: ``learned`` (the shipped model of the game at this player count) or a path.
        game_name: the game played.
        players: its player count (None: a Game class, checked before the count is known).
        game: the Game or Game class, to check a region-table model's shape against
            (None: not checked).

    Returns:
        The model dict (:func:`read_model`).

    Raises:
        EvalFileError: no shipped model, a bad file, a model of another game, or a
            region table or stage table the game has none of (or of another shape).
    """
    if source == LEARNED and players is None:  # a check against the game's class: any player count
        shipped = sorted(glob.glob(shipped_path(game_name, "*")))
        if not shipped:
            raise EvalFileError(f"no learned evaluation ships for {game_name} "
                                f"(train one: forumlab learn {game_name} -p N -o FILE)")
        path = shipped[0]
    elif source == LEARNED:
        path = shipped_path(game_name, players)
        if not os.path.exists(path):
            raise EvalFileError(f"no learned evaluation ships for {game_name} at {players} players "
                                f"(train one: forumlab learn {game_name} -p {players} -o FILE)")
    else:
        path = source
    model = read_model(path)
    if model.get("game") != game_name:
        raise EvalFileError(f"evaluation file {path!r} is for {model.get('game')!r}, not {game_name!r}")
    if game is not None:
        _check_kind_fits_game(path, model, game, game_name)
    return model


def _check_kind_fits_game(path: str, model: dict[str, Any], game, game_name: str) -> None:
    """Refuse a region-table or stage-weights model the game cannot evaluate: it has no
    such part, or one of another shape."""
    kind = model.get("kind")
    if kind not in _PARTS:
        return
    spec = _PARTS[kind]
    shape = spec.shape_of(game)
    if shape is None:
        raise EvalFileError(f"evaluation file {path!r} is a {kind} model, which {game_name} "
                            f"cannot evaluate (no {spec.noun})")
    if tuple(model[spec.key]["shape"]) != shape:
        raise EvalFileError(f"evaluation file {path!r}: its {spec.whose} shape {model[spec.key]['shape']} is "
                            f"not {game_name}'s {list(shape)}{spec.dims_note}")


class _Part(NamedTuple):
    """What a model kind adds to the term weights, and how messages name it."""

    key: str  # its key in the file
    dims: int | None  # the dimension count its shape must have (None: any)
    shape_words: str  # what its shape must be, in a message
    whose: str  # "table's" or "stages'"
    shape_of: Callable[[Any], tuple[int, ...] | None]  # the game's shape for it (None: none)
    noun: str  # what a game without it lacks
    dims_note: str  # its dimensions, after a shape in a message


_PARTS = {
    KIND_REGION_TABLE: _Part("table", None, "positive integers", "table's", table_shape, "region tables", ""),
    KIND_STAGE_WEIGHTS: _Part("stages", 2, "two positive integers (stages, terms)", "stages'", stages_shape,
                              "stages", " (stages, terms)"),
}
