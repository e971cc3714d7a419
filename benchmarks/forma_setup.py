"""Is Forma's random obstacle setup uniform over the spec's valid layouts?

Usage: python -m benchmarks.forma_setup [--seeds 30000] [--reference 1000000]

Prints one JSON object comparing the engine's layouts for game seeds 0..seeds-1 with
an independent exact sampler written from the rules spec alone
(``shared/rules/forma.md``, Setup): the tower uniform on the 324 squares off the
edge, 25 stones uniform among the other 399 squares, and the whole layout thrown
away while two obstacles touch along an edge. Two statistics: corner ("diagonal")
contacts between obstacles per layout, and the share of layouts that enclose a free
square by themselves. ``z`` is (engine - reference) / standard error; the reference
figures feed the constants of ``tests/engines/forma/test_forma_setup.py``.
"""
from __future__ import annotations

import json
import math
import time

import click
import numpy as np

from forumlab.engines.forma.setup import random_layout

SIZE = 20


def diagonal_contacts(occ: np.ndarray) -> np.ndarray:
    """Pairs of occupied squares touching at a corner, per board of occ (n, 20, 20)."""
    down_right = occ[:, 1:, 1:] & occ[:, :-1, :-1]
    down_left = occ[:, 1:, :-1] & occ[:, :-1, 1:]
    return down_right.sum((1, 2)) + down_left.sum((1, 2))


def edge_contact(occ: np.ndarray) -> np.ndarray:
    """Whether two occupied squares touch along an edge, per board."""
    vertical = (occ[:, 1:, :] & occ[:, :-1, :]).any((1, 2))
    horizontal = (occ[:, :, 1:] & occ[:, :, :-1]).any((1, 2))
    return vertical | horizontal


def encloses_free_square(occ: np.ndarray) -> np.ndarray:
    """Whether some free square has the edge or an obstacle on all four sides, per board."""
    p = np.pad(occ, ((0, 0), (1, 1), (1, 1)), constant_values=True)
    closed = p[:, :-2, 1:-1] & p[:, 2:, 1:-1] & p[:, 1:-1, :-2] & p[:, 1:-1, 2:]
    return (closed & ~occ).any((1, 2))


def spec_layouts(n: int, seed: int, stones: int = 25, batch: int = 20_000):
    """Yield boolean boards (obstacles True), n layouts in all, drawn exactly
    uniformly from the spec's valid layouts by rejection of whole layouts (numpy's
    generator, not the engine's)."""
    gen = np.random.default_rng(seed)
    left = n
    while left > 0:
        rows = 1 + gen.integers(0, SIZE - 2, batch)
        cols = 1 + gen.integers(0, SIZE - 2, batch)
        tower = rows * SIZE + cols
        keys = gen.random((batch, SIZE * SIZE))
        keys[np.arange(batch), tower] = 2.0  # never among the smallest: not a stone
        chosen = np.argpartition(keys, stones, axis=1)[:, :stones]  # a uniform subset
        occ = np.zeros((batch, SIZE * SIZE), dtype=bool)
        np.put_along_axis(occ, chosen, True, axis=1)
        occ[np.arange(batch), tower] = True
        occ = occ.reshape(batch, SIZE, SIZE)
        good = occ[~edge_contact(occ)][:left]
        left -= len(good)
        yield good


def engine_layouts(seeds: int) -> np.ndarray:
    """The engine's layouts for game seeds 0..seeds-1 as boolean boards."""
    occ = np.zeros((seeds, SIZE * SIZE), dtype=bool)
    for seed in range(seeds):
        stones, tower = random_layout(seed)
        occ[seed, stones] = True
        occ[seed, tower] = True
    return occ.reshape(seeds, SIZE, SIZE)


def _summary(values: np.ndarray) -> dict:
    return {"mean": float(values.mean()), "sd": float(values.std(ddof=1)),
            "se": float(values.std(ddof=1) / math.sqrt(len(values)))}


@click.command()
@click.option("--seeds", default=30_000, show_default=True, help="engine layouts (game seeds 0..N-1)")
@click.option("--reference", default=1_000_000, show_default=True, help="exact reference layouts")
@click.option("--seed", default=2026, show_default=True, help="seed of the reference sampler")
def main(seeds: int, reference: int, seed: int) -> None:
    t0 = time.perf_counter()
    eng = engine_layouts(seeds)
    stats = (("diagonal_contacts", diagonal_contacts), ("encloses_free_square", encloses_free_square))
    ref: dict[str, list[np.ndarray]] = {name: [] for name, _ in stats}
    for boards in spec_layouts(reference, seed):
        for name, stat in stats:
            ref[name].append(stat(boards))
    out = {"seeds": seeds, "reference_layouts": reference}
    for name, stat in stats:
        e = _summary(stat(eng).astype(float))
        r = _summary(np.concatenate(ref[name]).astype(float))
        z = (e["mean"] - r["mean"]) / math.sqrt(e["se"] ** 2 + r["se"] ** 2)
        out[name] = {"engine": e, "reference": r, "z": round(z, 2)}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
