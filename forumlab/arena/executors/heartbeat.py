"""A local worker's progress reports in memory shared with the parent process.

The worker's :class:`SharedProgress` sink writes every report of the game it plays
into three shared arrays (plain stores: no lock, no system call); the parent reads
the time stamp and ply while the worker lives (the watchdog) and, after the worker
died or was killed, the whole last report with :func:`read_snapshot`.
"""
from __future__ import annotations

import ctypes
import json
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from ..jobs import Fault
from .continuation import Snapshot

# Heartbeat slots in a local worker's shared float64 array. A float64 holds every
# integer below 2**53 exactly, so one array serves for counts too.
(STAMP, SEAT, PLY, REPORTS, NBYTES, NMOVES, SERIAL, OVERFLOW, NFAULTS,
 FBYTES) = range(10)
MAX_SEATS = 32  # per-seat tallies kept for at most this many seats
SECONDS = 10  # first slot of the per-seat move seconds
COUNTS = SECONDS + MAX_SEATS  # first slot of the per-seat agent move counts
BEAT_SLOTS = COUNTS + MAX_SEATS
MOVES_BYTES = 1 << 18  # 256 KiB of move notation per worker: tens of thousands of moves
FAULTS_BYTES = 1 << 16  # faults as JSON; a game has at most about one per seat
_SEP = "\n"


class SharedProgress:
    """Progress sink of a local worker: writes into memory the parent can read.

    Writes are plain stores into shared memory (no lock, no system call): the
    parent only reads the timestamp and ply while the worker lives, and reads the
    rest after the worker has died or been killed, when nothing can change any
    more. Moves and faults are written before the counts that publish them.
    """

    __slots__ = ("beat", "buf", "fbuf", "sent", "used", "full", "nfaults")

    def __init__(self, beat: Any, buf: Any, fbuf: Any) -> None:
        self.beat = beat
        self.buf = buf
        self.fbuf = fbuf
        self.sent = 0  # moves already in the buffer
        self.used = 0  # bytes already in the buffer
        self.full = False
        self.nfaults = 0  # faults already in the fault buffer

    def begin(self, serial: int) -> None:
        beat = self.beat
        ctypes.memset(beat, 0, ctypes.sizeof(beat))  # every slot 0.0 (a batch begins many games)
        beat[SEAT] = -1
        beat[STAMP] = time.monotonic()
        beat[SERIAL] = serial
        self.sent = self.used = self.nfaults = 0
        self.full = False

    def __call__(self, seat: int, ply: int, moves: Sequence[str], faults: Sequence[Fault] = (),
                 seconds: Sequence[float] = (), counts: Sequence[int] = ()) -> None:
        beat = self.beat
        n = len(moves)
        if n < self.sent:  # a different (shorter) list: start the record again
            self.sent = self.used = 0
            self.full = False
            beat[NMOVES] = 0
            beat[NBYTES] = 0
            beat[OVERFLOW] = 0
        if n > self.sent and not self.full:
            if n == self.sent + 1:  # the usual case: one new move
                text = str(moves[n - 1])
            else:
                text = _SEP.join(str(m) for m in moves[self.sent:n])
            data = ((_SEP if self.used else "") + text).encode("utf-8")
            end = self.used + len(data)
            if end <= len(self.buf):
                self.buf[self.used:end] = data
                self.used = end
                self.sent = n
                beat[NBYTES] = end
                beat[NMOVES] = n
            else:  # keep the replayable prefix, flag the rest as lost
                self.full = True
                beat[OVERFLOW] = 1
        if len(faults) != self.nfaults:  # rare: rewrite the whole list
            data = json.dumps([asdict(f) for f in faults]).encode("utf-8")
            if len(data) <= len(self.fbuf):
                self.fbuf[:len(data)] = data
                beat[FBYTES] = len(data)
            else:
                beat[FBYTES] = -1  # unknown: the parent will not continue this game
            self.nfaults = len(faults)
            beat[NFAULTS] = self.nfaults
        for i, value in enumerate(seconds[:MAX_SEATS]):
            beat[SECONDS + i] = value
        for i, value in enumerate(counts[:MAX_SEATS]):
            beat[COUNTS + i] = value
        beat[SEAT] = seat
        beat[PLY] = ply
        beat[REPORTS] = beat[REPORTS] + 1
        beat[STAMP] = time.monotonic()


def read_snapshot(beat: Any, buf: Any, fbuf: Any, serial: int, players: int) -> Snapshot:
    """What a dead (or killed) local worker last reported about job ``serial``."""
    if int(beat[SERIAL]) != serial or beat[REPORTS] <= 0:
        return Snapshot()
    nbytes = int(beat[NBYTES])
    nmoves = int(beat[NMOVES])
    moves: list[str] = []
    if nbytes > 0 and nmoves > 0:
        moves = bytes(buf[:nbytes]).decode("utf-8", "replace").split(_SEP)[:nmoves]
    complete = not beat[OVERFLOW]
    faults: list[Fault] = []
    fbytes = int(beat[FBYTES])
    if fbytes > 0:
        faults = [Fault(**f) for f in json.loads(bytes(fbuf[:fbytes]).decode("utf-8"))]
    elif fbytes < 0 or beat[NFAULTS] > 0:
        complete = False
    seats = min(players, MAX_SEATS)
    seconds = [float(beat[SECONDS + i]) for i in range(seats)]
    counts = [int(beat[COUNTS + i]) for i in range(seats)]
    seat, ply = int(beat[SEAT]), int(beat[PLY])
    # The report is written moves first: if the worker died half-way through one,
    # the seat and ply may belong to the previous move.
    if ply != 0 and ply != len(moves) + 1:
        complete = False
    return Snapshot(seat, ply, moves, faults, seconds, counts, complete)
