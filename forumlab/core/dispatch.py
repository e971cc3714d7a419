"""The game protocol as seen by generic numba code: kernels chosen by a per-game tag.

Every generic kernel (playouts, greedy, MCTS, minimax) takes a *game tag* as its
first argument and reaches the game only through the protocol functions below,
e.g. ``apply_move(tag, s, move)``. A tag is a :class:`GameTag`, whose numba type
(:class:`GameTagType`) names the game's kernel module. Numba compiles a separate
specialisation of each generic kernel per tag type and, inside it, binds every
protocol call to that one game's kernel (a typing template and a lowering per
protocol function, :func:`_bind`), so:

- a process that plays one game compiles only that game's kernels, however many
  games are registered (a central ``if game_id == ...`` switch inlined every game
  into every search, so each new game made everyone's first run slower);
- each specialisation is cached on disk like any other signature (the tag type
  pickles by its module name), so a second process compiles nothing. Passing the
  kernels themselves as a tuple argument would also specialise, but numba cannot
  cache functions whose arguments are other jitted functions;
- there is no branch at run time, and the game's kernel is compiled once (its own
  dispatcher) and called directly, not re-inlined into every call site by numba,
  which keeps compile time down; LLVM inlines the kernels a game marks
  ``inline="always"``.

Adding a game needs nothing here: its kernel module defines the protocol functions
(see :class:`forumlab.core.game.Kernels`) and ``MAX_MOVES``, and its facade builds
its tag with ``Kernels.from_module``. The protocol functions are also callable from
plain Python (they forward to the tag's module), which tests use as a cross-check.
"""
from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass

import numpy as np
from llvmlite import ir as llvm_ir
from numba import njit, types
from numba.core.extending import NativeValue, models, register_model, unbox
from numba.core.imputils import lower_builtin
from numba.core.typing.templates import AbstractTemplate, infer_global, signature

from .layout import PLAYERS_SLOT
from .movelist import contains

PROTOCOL = ("current_player", "legal_moves", "apply_move", "random_move", "is_terminal", "scores",
            "heuristic", "determinize")
# Optional protocol functions and what stands in for a game without them: a required
# kernel of the game's own module, or (named in _GENERIC_STANDINS) a generic kernel of
# this module that takes the game tag first.
OPTIONAL = {"proposal_move": "random_move", "is_legal": "legal_by_scan",
            "weighted_heuristic": "unweighted_heuristic"}
_GENERIC_STANDINS = ("legal_by_scan", "unweighted_heuristic")


@dataclass(frozen=True)
class GameTag:
    """Selects one game's kernels in generic numba code.

    ``kernels`` is the import path of the game's kernel module, e.g.
    ``"forumlab.engines.forma.kernels"``; it is all the tag holds, so tags pickle
    and compare by value and equal tags share compiled code.
    """

    kernels: str

    @property
    def _numba_type_(self) -> GameTagType:
        # numba's typeof() reads this attribute for objects it does not know.
        return GameTagType(self.kernels)

    def module(self):
        """The game's kernel module."""
        return importlib.import_module(self.kernels)


class GameTagType(types.Dummy):
    """Numba type of a :class:`GameTag`: one type per game, so numba specialises
    and caches every generic kernel per game. Carries no run-time data."""

    def __init__(self, kernels: str):
        self.kernels = kernels
        super().__init__(name=f"GameTag({kernels})")


register_model(GameTagType)(models.OpaqueModel)  # a placeholder pointer, never read


@unbox(GameTagType)
def _unbox_tag(typ, obj, c):
    # Nothing to read: everything the tag says is in its type.
    return NativeValue(c.context.get_dummy_value())


def _kernel(tag, name):
    """The kernel that protocol function ``name`` calls for the game that numba type
    ``tag`` selects, and whether it takes the tag as its first argument (a generic
    stand-in does); None if ``tag`` is not a game tag, so numba reports a typing error."""
    if not isinstance(tag, GameTagType):
        return None
    module = importlib.import_module(tag.kernels)
    own = getattr(module, name, None)
    if own is not None:
        return own, False
    standin = OPTIONAL.get(name, name)
    if standin in _GENERIC_STANDINS:
        return globals()[standin], True
    return getattr(module, standin), False


def module_kernel(module, name):
    """The kernel ``name`` of a game's kernel module, or the stand-in that
    :data:`OPTIONAL` names for an optional kernel the module does not define (a
    generic stand-in comes with the module's tag bound as its first argument)."""
    own = getattr(module, name, None)
    if own is not None:
        return own
    standin = OPTIONAL.get(name, name)
    if standin in _GENERIC_STANDINS:
        return functools.partial(globals()[standin], GameTag(module.__name__))
    return getattr(module, standin)


def _mark_calls_inline(builder, callee: str) -> None:
    """Ask LLVM to inline this function's calls of ``callee``: a game marks its
    cheapest kernels ``inline="always"``, which numba honours only for calls it
    sees in Python code, not for the calls lowered here."""
    for block in builder.function.blocks:
        for instr in block.instructions:
            if isinstance(instr, llvm_ir.CallInstr) and getattr(instr.callee, "name", None) == callee:
                instr.attributes.add("alwaysinline")


def _bind(stub):
    """Make the protocol function ``stub`` call the tagged game's kernel of the same
    name when compiled; from Python it runs its own body.

    The call is typed as the kernel's own call and lowered to a direct call of the
    kernel's compiled code: no wrapper function per game and protocol function,
    which numba would compile (and re-optimise with the kernel linked in) in every
    process that compiles a search.
    """
    name = stub.__name__

    class _Typer(AbstractTemplate):
        key = stub

        def generic(self, args, kws):
            if kws or not args or not isinstance(args[0], GameTagType):
                return None
            kernel, with_tag = _kernel(args[0], name)
            sig = types.Dispatcher(kernel).get_call_type(self.context, args if with_tag else args[1:], {})
            return signature(sig.return_type, args[0], *(sig.args[1:] if with_tag else sig.args))

    infer_global(stub)(_Typer)

    @lower_builtin(stub, GameTagType, types.VarArg(types.Any))
    def _lower(context, builder, sig, args):
        kernel, with_tag = _kernel(sig.args[0], name)
        first = 0 if with_tag else 1
        arg_types = tuple(sig.args[first:])
        call = context.get_function(types.Dispatcher(kernel), signature(sig.return_type, *arg_types))
        result = call(builder, args[first:])
        if kernel.targetoptions.get("inline") == "always":
            _mark_calls_inline(builder, kernel.overloads[arg_types].fndesc.mangled_name)
        return result



def current_player(tag, s):
    """Seat to move."""
    return tag.module().current_player(s)


def legal_moves(tag, s, out):
    """Write the legal move codes to out (room for max_moves(tag)); return their number."""
    return tag.module().legal_moves(s, out)


def apply_move(tag, s, move):
    """Play a legal move in place."""
    return tag.module().apply_move(s, move)


def random_move(tag, s, rng):
    """A uniformly random legal move."""
    return tag.module().random_move(s, rng)


def proposal_move(tag, s, rng):
    """A legal move from the game's rollout proposal (optional kernel; a game without
    one proposes ``random_move``): biased towards the moves that decide points, to be
    filtered by the heuristic, as in ``sampled_greedy_move``."""
    return module_kernel(tag.module(), "proposal_move")(s, rng)


def is_legal(tag, s, move):
    """Whether ``move`` is one of the legal moves (optional kernel; a game without one
    gets :func:`legal_by_scan`). Any int64 is a valid question: codes that name no
    move, negative ones included, are simply not legal."""
    return module_kernel(tag.module(), "is_legal")(s, move)


def is_terminal(tag, s):
    """True once the game is over."""
    return tag.module().is_terminal(s)


def scores(tag, s, out):
    """Score per player into out."""
    return tag.module().scores(s, out)


def heuristic(tag, s, player):
    """Evaluation of the position for player."""
    return tag.module().heuristic(s, player)


def weighted_heuristic(tag, s, player, w):
    """The heuristic with the weights ``w`` on the game's named terms (optional kernel;
    a game without terms gets :func:`unweighted_heuristic`, which ignores ``w``)."""
    return module_kernel(tag.module(), "weighted_heuristic")(s, player, w)


def determinize(tag, s, observer, rng):
    """Resample in place what observer cannot see."""
    return tag.module().determinize(s, observer, rng)


def max_moves(tag):
    """The game's bound on the length of a legal-move list."""
    return tag.module().MAX_MOVES


for _stub in (current_player, legal_moves, apply_move, random_move, proposal_move, is_legal, is_terminal,
              scores, heuristic, weighted_heuristic, determinize):
    _bind(_stub)


class _MaxMovesTyper(AbstractTemplate):
    key = max_moves

    def generic(self, args, kws):
        if not kws and len(args) == 1 and isinstance(args[0], GameTagType):
            return signature(types.int64, args[0])
        return None


infer_global(max_moves)(_MaxMovesTyper)


@lower_builtin(max_moves, GameTagType)
def _lower_max_moves(context, builder, sig, args):
    bound = int(importlib.import_module(sig.args[0].kernels).MAX_MOVES)
    return context.get_constant(types.int64, bound)


@njit(cache=True)
def legal_by_scan(tag, s, move):
    """Whether ``move`` is legal, by generating the legal moves and looking for it: the
    stand-in ``is_legal`` of a game whose kernel module has none. Exact by construction,
    and as cheap as one move generation (a few microseconds in most games; a game with
    long move lists, such as Forma, defines its own ``is_legal``)."""
    out = np.empty(max_moves(tag), dtype=np.int64)
    return contains(out, legal_moves(tag, s, out), move)


@njit(cache=True)
def unweighted_heuristic(tag, s, player, w):
    """The game's ``heuristic``, ``w`` ignored: the stand-in ``weighted_heuristic`` of a
    game whose heuristic has no named terms (agents refuse weights for such a game)."""
    return heuristic(tag, s, player)


@njit(cache=True, inline="always")
def num_players(s):
    """Number of players (``PLAYERS_SLOT`` of every game's state)."""
    return s[PLAYERS_SLOT]
