"""What a bot's seat is shown of a position: the ``view`` of a ``move`` message.

A game may define ``Game.bot_view(array, seat) -> dict`` (its documented per-game JSON,
``docs/games/<game>.md``); it is handed the array of the seat's view, never the true
state. A game without one gets the generic view: ``to_move``, ``ply``, ``render`` (the
game's picture of the seat's view, the one a person at that seat is shown) and, in
perfect-information games only, ``scores``.

Nothing here ever reads the true state of a hidden-information game: every view is made
from ``state.view_for(seat)`` (a determinization from the seat's own view), and the
generic one only from what the game's picture of that view shows the seat.
"""
from __future__ import annotations

from typing import Any

from ..core.game import State


def bot_view(state: State, seat: int) -> dict[str, Any]:
    """The JSON view of ``state`` that ``seat`` is sent.

    Args:
        state: the seat's view (``true_state.view_for(seat)``); the true state is
            accepted in perfect-information games only.
        seat: the seat the view is for.

    Returns:
        A JSON-ready dict: the game's ``bot_view`` if it defines one, else the generic view.

    Raises:
        ValueError: handed the true state of a hidden-information game, or the view of
            another seat.
    """
    game = state.game
    if not game.perfect_information and state.viewer != seat:
        raise ValueError(f"a bot view of {game.name} must be built from state.view_for({seat}), "
                         "never from the true state or another seat's view")
    hook = getattr(game, "bot_view", None)
    if callable(hook):
        return hook(state.array, seat)
    return generic_view(state, seat)


def generic_view(state: State, seat: int) -> dict[str, Any]:
    """The view of a game without a ``bot_view`` hook (module docstring)."""
    game = state.game
    render_seat = getattr(game, "render_seat", None)
    # The picture a person at the seat gets: in hidden-information games it shows only
    # what the seat sees (the determinized parts are left out of it).
    picture = render_seat(state.array, seat, True) if callable(render_seat) else game.render(state.array)
    view: dict[str, Any] = {"to_move": state.current_player, "ply": state._ply(), "render": picture}
    if game.perfect_information:
        view["scores"] = state.scores()
    return view
