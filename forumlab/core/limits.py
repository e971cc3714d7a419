"""Limits that generic code sets for every game, checked when a game registers.

The generic kernels are written once for all games, and a few of their buffers and
tricks hold only for games within some bounds. A game that exceeds one would not
fail at once but give wrong searches later, so :func:`check_game_class` refuses it
when the registry loads it (:mod:`forumlab.core.registry`):

- **move bound** (``MAX_MOVES``, the longest legal-move list): below the smallest
  of MCTS's stride primes (:mod:`forumlab.search.mcts`), which must exceed every
  move count so that ``k -> (a + k * stride) mod n`` visits each untried move once.
- **players**: at most ``MAX_PLAYERS`` of :mod:`forumlab.search.minimax`, the width
  of the max^n value vectors.
- **state size** (the kernel module's ``STATE_SIZE``, slots of the state array): at
  least the core's header (``HEADER_SIZE`` of :mod:`forumlab.core.layout`: the player
  count, which generic code reads), and small enough that the minimax workspace's stack of state copies
  (``MAX_STACK + 1`` of them) stays within ``STATE_STACK_BYTES``.

The class's constructor must also take exactly the options it declares
(:func:`forumlab.core.options.declaration_problem`), so no option escapes the one path
that checks and lists them.

The numbers live with the code that needs them; this module only reads them, so
changing a buffer changes the check.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import GameRegistrationError
from .layout import HEADER_SIZE

# Memory the minimax workspace may spend on its stack of state copies (one per ply).
STATE_STACK_BYTES = 128 << 20
MIN_STATE_SIZE = HEADER_SIZE  # the header generic code reads (the number of players)


@dataclass(frozen=True)
class Limits:
    """The generic limits a game must keep (inclusive upper bounds)."""

    max_moves: int
    max_players: int
    max_state_size: int


def generic_limits() -> Limits:
    """The limits that the generic search code sets today.

    Returns:
        The inclusive bounds on ``MAX_MOVES``, ``max_players`` and ``STATE_SIZE``.
    """
    # Imported here: the search modules import the core, not the other way round.
    from ..search.mcts import _STRIDE_PRIMES
    from ..search.minimax import MAX_PLAYERS, MAX_STACK

    return Limits(
        max_moves=int(_STRIDE_PRIMES.min()) - 1,
        max_players=int(MAX_PLAYERS),
        max_state_size=STATE_STACK_BYTES // (8 * (MAX_STACK + 1)),
    )


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_game_class(name: str, cls) -> None:
    """Refuse a game class that breaks the protocol's shape or a generic limit.

    A class whose ``kernels`` is a :class:`~forumlab.core.game.LazyKernels` not read yet
    is checked here without its kernels (so listing games imports no numba); its
    kernels are checked by :func:`check_kernels` when they are first read, before any
    search can use them.

    Args:
        name: the name the game registers under (for the message).
        cls: the class to check.

    Raises:
        GameRegistrationError: one line naming the game, the rule and both numbers.
    """
    import inspect

    from .game import Game, Kernels, LazyKernels
    from .options import declaration_problem

    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise _refuse(name, f"{cls!r} is not a forumlab.core.game.Game subclass")
    declared = inspect.getattr_static(cls, "kernels", None)  # reading a LazyKernels loads it
    if not isinstance(declared, Kernels | LazyKernels):
        raise _refuse(name, "its class has no kernels (set kernels = Kernels.from_module(...))")
    if not (_is_int(cls.min_players) and _is_int(cls.max_players)
            and 1 <= cls.min_players <= cls.max_players):
        raise _refuse(name, f"players {cls.min_players!r}-{cls.max_players!r} is not a range of seats")
    problem = declaration_problem(cls)  # the options it takes are the ones it declares
    if problem:
        raise _refuse(name, problem)
    if isinstance(declared, Kernels) or declared.loaded:
        check_kernels(name, cls, cls.kernels)


def _refuse(name: str, problem: str) -> GameRegistrationError:
    return GameRegistrationError(f"game {name!r} cannot register: {problem}")


def check_kernel_module(name: str, module) -> None:
    """Refuse a kernel module that lacks a protocol kernel, ``MAX_MOVES`` or ``STATE_SIZE``.

    Raises:
        GameRegistrationError: one line naming the game and what is missing.
    """
    from .dispatch import PROTOCOL

    missing = [f for f in (*PROTOCOL, "MAX_MOVES", "STATE_SIZE") if not hasattr(module, f)]
    if missing:
        raise _refuse(name, f"its kernel module {module.__name__} lacks {', '.join(missing)}")


def check_kernels(name: str, cls, kernels) -> None:
    """Refuse a game whose kernels break the protocol or a limit of generic code.

    Args:
        name: the game's name (for the message).
        cls: its class (for the player count).
        kernels: its :class:`~forumlab.core.game.Kernels`.

    Raises:
        GameRegistrationError: one line naming the game, the rule and both numbers.
    """
    module = kernels.tag.module()
    check_kernel_module(name, module)
    limits = generic_limits()
    max_moves = kernels.max_moves
    if not (_is_int(max_moves) and 1 <= max_moves <= limits.max_moves):
        raise _refuse(name, f"MAX_MOVES = {max_moves!r}, but generic search needs "
                      f"1..{limits.max_moves} (MCTS's stride primes must exceed every move count: "
                      "forumlab/search/mcts/tree.py)")
    if cls.max_players > limits.max_players:
        raise _refuse(name, f"up to {cls.max_players} players, but generic search handles at most "
                      f"{limits.max_players} (MAX_PLAYERS, forumlab/search/minimax/settings.py)")
    size = module.STATE_SIZE
    if not (_is_int(size) and MIN_STATE_SIZE <= size <= limits.max_state_size):
        raise _refuse(name, f"STATE_SIZE = {size!r}, but states need "
                      f"{MIN_STATE_SIZE}..{limits.max_state_size} slots (the minimax workspace keeps a "
                      "state per ply: MAX_STACK, forumlab/search/minimax/settings.py)")
