"""Observation tensors: a seat's observation array as one float32 vector.

:meth:`forumlab.core.game.Game.observation` already gives, per seat, an int64 array that
two positions share exactly when the seat cannot tell them apart. An
:class:`ObservationEncoder` turns that array into a vector a network can read, and
reads nothing else, so the tensor inherits the guarantee:

1. a one-hot of the observing seat (``players`` entries);
2. every slot of the observation array in slot order, as a float, except
3. the slots a game's tensor module declares as bitboards (:func:`bits`), each word
   unpacked into its low bits as 0/1 entries, as packed counters (:func:`packed`), each
   field its own entry, or as bookkeeping to leave out (:func:`drop`: seeds, RNG
   words, engine caches).

Slots a game does not declare are kept as plain numbers, so a slot added to an engine
later still reaches the tensor (a bitboard is better declared: as a float it loses its
low bits).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Field:
    """A run of observation slots that is not copied as plain numbers.

    ``kind`` is ``"bits"`` (each slot a word: its low ``width`` bits, bit 0 first;
    ``total`` caps the bits kept over the whole run), ``"packed"`` (each slot
    ``count`` fields of ``width`` bits) or ``"drop"``.
    """

    kind: str
    start: int
    length: int
    width: int = 64
    count: int = 1
    total: int | None = None


def bits(start: int, length: int = 1, width: int = 64, total: int | None = None) -> Field:
    """Bitboard slots: ``length`` words from ``start``, each unpacked into its low
    ``width`` bits, keeping the first ``total`` bits of the run (all when None)."""
    return Field("bits", start, length, width=width, total=total)


def packed(start: int, length: int, width: int, count: int) -> Field:
    """Slots that each hold ``count`` unsigned fields of ``width`` bits (field 0 lowest)."""
    return Field("packed", start, length, width=width, count=count)


def drop(start: int, length: int = 1) -> Field:
    """Slots left out of the tensor (seeds, RNG words, caches of the engine)."""
    return Field("drop", start, length)


class ObservationEncoder:
    """Encodes one game's observation arrays (see the module docstring).

    Args:
        players: seats of the game (the length of the seat one-hot).
        size: the length of the game's observation arrays.
        fields: the declared slot runs; they must not overlap or leave the array.
    """

    def __init__(self, players: int, size: int, fields: list[Field]):
        taken = np.zeros(size, dtype=bool)
        for f in fields:
            if f.kind not in ("bits", "packed", "drop") or f.start < 0 or f.start + f.length > size:
                raise ValueError(f"bad observation field {f}")
            if taken[f.start:f.start + f.length].any():
                raise ValueError(f"observation field {f} overlaps another")
            taken[f.start:f.start + f.length] = True
        self.players = players
        self.size = size
        self.fields = sorted(fields, key=lambda f: f.start)
        self._plain = np.flatnonzero(~taken)
        length = players + self._plain.size
        for f in self.fields:
            if f.kind == "bits":
                length += min(f.length * f.width, f.total if f.total is not None else f.length * f.width)
            elif f.kind == "packed":
                length += f.length * f.count
        self.shape = (int(length),)

    def encode(self, observation: np.ndarray, seat: int) -> np.ndarray:
        """The tensor of one observation array.

        Args:
            observation: ``Game.observation(array, seat)``.
            seat: the observing seat.

        Returns:
            A new float32 vector of :attr:`shape`: the seat one-hot, the plain slots in
            slot order, then each declared field in slot order.
        """
        observation = np.ascontiguousarray(observation, dtype=np.int64)
        if observation.shape != (self.size,):
            raise ValueError(f"observation of shape {observation.shape}, expected ({self.size},)")
        parts = [np.eye(self.players, dtype=np.float32)[seat], observation[self._plain].astype(np.float32)]
        words = observation.view(np.uint64)
        for f in self.fields:
            run = words[f.start:f.start + f.length]
            if f.kind == "bits":
                shifts = np.arange(f.width, dtype=np.uint64)
                unpacked = ((run[:, None] >> shifts) & np.uint64(1)).reshape(-1)
                parts.append(unpacked[:f.total].astype(np.float32))
            elif f.kind == "packed":
                shifts = np.arange(f.count, dtype=np.uint64) * np.uint64(f.width)
                mask = np.uint64((1 << f.width) - 1)
                parts.append(((run[:, None] >> shifts) & mask).reshape(-1).astype(np.float32))
        return np.concatenate(parts)
