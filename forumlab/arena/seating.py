"""Seating designs: the seat orders in which a rotation group plays one game seed.

A design for ``n`` seats is a tuple of seatings; a seating is a permutation ``s`` of
``range(n)`` that puts lineup position ``s[i]`` in seat ``i``.  Seats play clockwise,
circularly: seat ``i - 1 (mod n)`` moves directly before seat ``i``, so in a seating the
agent at ``s[i - 1]`` is the *predecessor* of the agent at ``s[i]``.

Three designs:

- ``balanced`` (the default): every position sits in every seat equally often **and**
  directly after every other position equally often, in the fewest games that allow both.
  Seat balance needs a multiple of ``n`` games; each game has ``n`` predecessor pairs and
  there are ``n(n-1)`` ordered pairs, so predecessor balance needs ``n * g`` divisible by
  ``n(n-1)``, i.e. ``g`` a multiple of ``n - 1``.  As ``n`` and ``n - 1`` are coprime,
  ``g >= n(n-1)``.  Every table below reaches that bound, so each is as small as an exactly
  balanced design can be.  They even balance every circular distance (two seats after,
  three, ...): the affine group over the field of ``n`` elements for 2-5 seats, a
  1-rotational design over Z_5 plus a fixed point for 6.
- ``cyclic``: the ``n`` rotations of the lineup.  Seats are balanced, predecessors are
  not: each agent always follows the same opponent, which in a multi-player game moves
  ratings by hundreds of Elo depending on the order in which agents were listed.
- ``all``: every permutation (``n!`` games), balanced but large from 4 seats on.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations
from typing import TypeVar

BALANCED, CYCLIC, ALL = "balanced", "cyclic", "all"
DESIGNS = (BALANCED, CYCLIC, ALL)

Seating = tuple[int, ...]
T = TypeVar("T")


def minimum_balanced_games(n: int) -> int:
    """The fewest games in which ``n`` agents can be seat- and predecessor-balanced."""
    return n * (n - 1) if n > 1 else 1


def affine_design(n: int) -> tuple[Seating, ...]:
    """For ``n`` a prime power: seat ``i`` holds position ``a*i + b`` in the field of ``n``
    elements (numbered 0..n-1 as below), for every ``a != 0`` and every ``b``.

    These ``n(n-1)`` maps are the affine group AGL(1, n), which takes any two distinct seats
    to any two distinct positions in exactly one way: so at every seat distance every
    ordered pair of positions occurs ``n`` times, and each seat holds each position
    ``n - 1`` times.  For a prime ``n`` the seatings with multiplier ``a`` are the ``n``
    rotations of the directed Hamilton cycle ``p -> p + a``, and these ``n - 1`` cycles
    split the complete directed graph K_n* (for 5 players, the decomposition of K5* into 4
    directed Hamilton cycles; for 3, all 6 orders; for 2, both).  For 4 they are the 12
    even permutations: K4* has no such decomposition (Tillson 1980), yet the group needs
    none.  Relabelling the positions by a map of the group permutes the design, which is
    why two copies of one agent can meet mirrored games (see schedule.plan).
    """
    add, mul = _field(n)
    return tuple(tuple(add[mul[a][i]][b] for i in range(n)) for a in range(1, n) for b in range(n))


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q), ``q = p**k``: element ``x`` stands for
    the polynomial whose coefficients are the base-``p`` digits of ``x``, multiplied modulo
    the first monic irreducible polynomial of degree ``k`` (so for a prime ``q``, plain
    arithmetic mod ``q``)."""
    if _prime_power(q) is None:
        raise ValueError(f"the affine design needs a prime power number of seats, not {q}")
    p, k = _prime_power(q)

    def digits(x, size):
        return [(x // p ** j) % p for j in range(size)]

    def number(coefficients):
        return sum(c * p ** j for j, c in enumerate(coefficients))

    def times(x, y, modulus):
        product = [0] * (2 * k)
        for i, u in enumerate(digits(x, k)):
            for j, v in enumerate(digits(y, k)):
                product[i + j] = (product[i + j] + u * v) % p
        for top in range(2 * k - 1, k - 1, -1):  # reduce by the monic modulus
            factor = product[top]
            for j, c in enumerate(modulus):
                product[top - k + j] = (product[top - k + j] - factor * c) % p
        return number(product[:k])

    for low in range(p ** k):  # monic modulus x^k + (digits of low)
        modulus = digits(low, k) + [1]
        mul = [[times(x, y, modulus) for y in range(q)] for x in range(q)]
        if all(any(row[y] == 1 for y in range(q)) for row in mul[1:]):  # a field: no zero divisors
            add = [[number([(u + v) % p for u, v in zip(digits(x, k), digits(y, k))]) for y in range(q)]
                   for x in range(q)]
            return add, mul
    raise AssertionError(f"no irreducible polynomial of degree {k} mod {p}")  # one always exists


def one_rotational_design(n: int) -> tuple[Seating, ...]:
    """For ``n = p + 1`` seats with ``p`` prime: positions are Z_p plus a fixed point
    ``inf`` (written ``p``); ``n`` base cycles, base ``k`` turned so that ``inf`` sits in
    seat ``k``, each played under the ``p`` translations ``x -> x + t``.

    Used for 6 seats, where neither shortcut exists: no 30 seatings take every pair of
    seats to every pair of positions exactly once (such a sharply 2-transitive set would
    give an affine plane of order 6, and none exists: Tarry 1900), and K6* has no
    decomposition into 5 directed Hamilton cycles (Tillson 1980) whose rotations would do.
    This design uses ``n`` cycles of ``p`` translations, also ``n(n-1)`` games.
    Why it balances: ``inf`` sits in seat ``k`` in the ``p`` games of base ``k``; seat ``i``
    sees every finite position once under the translations of each of the ``n - 1`` other
    bases.  At every seat distance ``d``, each base has one pair ``(inf, x)`` and one
    ``(x, inf)``, which the translations spread over all ``x``; its ``n - 2`` finite pairs
    have differences ``b - a`` that the translations spread over all pairs with that
    difference.  So it suffices that over the ``n`` bases every nonzero difference occurs
    ``n`` times at every distance, and the bases are found by a depth-first search over
    cyclic orders (lexicographic, repetition allowed) for exactly that.  The result
    balances every circular distance, not just the predecessor (distance 1).
    """
    p = n - 1
    if n < 3 or not _is_prime(p):
        raise ValueError(f"the one-rotational design needs n - 1 prime, not n = {n}")
    bases = _difference_balanced_bases(n)
    # Renaming inf -> 0 and x -> x + 1 (which keeps every balance) makes the first game
    # seat the lineup in its own order.
    return tuple(tuple((_translate(base[(i - k) % n], t, p) + 1) % n for i in range(n))
                 for k, base in enumerate(bases) for t in range(p))


def _translate(x: int, t: int, p: int) -> int:
    return x if x == p else (x + t) % p  # inf (= p) is fixed


def _difference_balanced_bases(n: int) -> list[Seating]:
    """``n`` cyclic orders of Z_p + {inf} (from inf) whose finite pairs at every seat
    distance have every nonzero difference mod p exactly ``n`` times in total."""
    p = n - 1
    candidates = [(p, *rest) for rest in permutations(range(p))]
    differences = [Counter((d, (c[i] - c[i - d]) % p) for d in range(1, n) for i in range(n)
                           if p not in (c[i], c[i - d])) for c in candidates]
    room = Counter({(d, delta): n for d in range(1, n) for delta in range(1, p)})
    chosen: list[Seating] = []

    def extend(start: int) -> bool:
        if len(chosen) == n:
            return True  # n bases of n - 2 finite pairs per distance fill all places exactly
        for j in range(start, len(candidates)):
            if all(room[key] >= count for key, count in differences[j].items()):
                room.subtract(differences[j])
                chosen.append(candidates[j])
                if extend(j):
                    return True
                chosen.pop()
                room.update(differences[j])
        return False

    if not extend(0):
        raise AssertionError(f"no difference-balanced bases for n={n}")  # found for n = 4, 6
    return chosen


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p**k`` for a prime ``p``, or None."""
    p = next((d for d in range(2, q + 1) if q % d == 0), 0)
    k, rest = 0, q
    while p and rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if p and rest == 1 else None


# The balanced designs for the player counts the games support, frozen here because a
# results file's plan (and so `resume`) depends on them.  tests/arena/test_schedule.py checks
# that they are exactly balanced, have n(n-1) games (the lower bound above), and equal the
# constructions they came from: affine_design for 2-5; one_rotational_design for 6.
BALANCED_DESIGNS: dict[int, tuple[Seating, ...]] = {
    1: ((0,),),
    2: ((0, 1), (1, 0)),
    3: ((0, 1, 2), (1, 2, 0), (2, 0, 1),
        (0, 2, 1), (1, 0, 2), (2, 1, 0)),
    4: ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0),
        (0, 2, 3, 1), (1, 3, 2, 0), (2, 0, 1, 3), (3, 1, 0, 2),
        (0, 3, 1, 2), (1, 2, 0, 3), (2, 1, 3, 0), (3, 0, 2, 1)),
    5: ((0, 1, 2, 3, 4), (1, 2, 3, 4, 0), (2, 3, 4, 0, 1), (3, 4, 0, 1, 2), (4, 0, 1, 2, 3),
        (0, 2, 4, 1, 3), (1, 3, 0, 2, 4), (2, 4, 1, 3, 0), (3, 0, 2, 4, 1), (4, 1, 3, 0, 2),
        (0, 3, 1, 4, 2), (1, 4, 2, 0, 3), (2, 0, 3, 1, 4), (3, 1, 4, 2, 0), (4, 2, 0, 3, 1),
        (0, 4, 3, 2, 1), (1, 0, 4, 3, 2), (2, 1, 0, 4, 3), (3, 2, 1, 0, 4), (4, 3, 2, 1, 0)),
    6: ((0, 1, 2, 3, 4, 5), (0, 2, 3, 4, 5, 1), (0, 3, 4, 5, 1, 2), (0, 4, 5, 1, 2, 3), (0, 5, 1, 2, 3, 4),
        (3, 0, 1, 2, 5, 4), (4, 0, 2, 3, 1, 5), (5, 0, 3, 4, 2, 1), (1, 0, 4, 5, 3, 2), (2, 0, 5, 1, 4, 3),
        (4, 3, 0, 1, 2, 5), (5, 4, 0, 2, 3, 1), (1, 5, 0, 3, 4, 2), (2, 1, 0, 4, 5, 3), (3, 2, 0, 5, 1, 4),
        (5, 2, 4, 0, 1, 3), (1, 3, 5, 0, 2, 4), (2, 4, 1, 0, 3, 5), (3, 5, 2, 0, 4, 1), (4, 1, 3, 0, 5, 2),
        (4, 2, 5, 3, 0, 1), (5, 3, 1, 4, 0, 2), (1, 4, 2, 5, 0, 3), (2, 5, 3, 1, 0, 4), (3, 1, 4, 2, 0, 5),
        (1, 5, 2, 4, 3, 0), (2, 1, 3, 5, 4, 0), (3, 2, 4, 1, 5, 0), (4, 3, 5, 2, 1, 0), (5, 4, 1, 3, 2, 0)),
}


def design(name: str, n: int) -> tuple[Seating, ...]:
    """The seatings of design ``name`` ("balanced", "cyclic" or "all") for ``n`` seats.

    Args:
        name: one of DESIGNS.
        n: seats per game.
    Returns:
        Permutations of ``range(n)``; seating ``s`` puts lineup position ``s[i]`` in seat ``i``.
    """
    if name == CYCLIC:
        return tuple(tuple((r + i) % n for i in range(n)) for r in range(n))
    if name == ALL:
        return tuple(permutations(range(n)))
    if name == BALANCED:
        return balanced_design(n)
    raise ValueError(f"unknown seating design {name!r} (designs: {', '.join(DESIGNS)})")


def balanced_design(n: int) -> tuple[Seating, ...]:
    """The smallest seat- and predecessor-balanced design for ``n`` seats.

    Tabulated for 1-6 seats (every player count the games support); beyond that the
    affine design for a prime power ``n`` (also minimal), otherwise every permutation,
    which is balanced but not minimal.
    """
    if n in BALANCED_DESIGNS:
        return BALANCED_DESIGNS[n]
    if _prime_power(n) is not None:
        return affine_design(n)
    return tuple(permutations(range(n)))


def seat_lineup(lineup: Sequence[T], name: str, label=lambda entry: entry) -> list[tuple[T, ...]]:
    """The seat orders of one rotation group: ``lineup`` seated by design ``name``.

    A lineup may hold one agent several times (fewer agents than seats).  Balance then
    holds by agent label: an agent with ``m`` copies sits in each seat ``m/n`` of the time,
    and agent ``a`` directly precedes agent ``b`` in proportion to ``m_a * m_b`` (``m_a *
    (m_a - 1)`` for ``a`` after itself), i.e. each copy follows each other copy equally
    often.  Seatings that look the same by label are merged only when every distinct
    label order occurs equally often, which keeps those proportions exact (in self-play
    one game per seed remains).  ``cyclic`` never merges, as it always has, so the plans
    of existing results files do not change.

    Args:
        lineup: the agents, in lineup order.
        name: the design ("balanced", "cyclic" or "all").
        label: what identifies an agent for merging (e.g. ``lambda entry: entry.label``).
    Returns:
        One tuple of agents per game, seat 0 first.
    """
    orders = [tuple(lineup[p] for p in seating) for seating in design(name, len(lineup))]
    if name == CYCLIC:
        return orders
    keys = [tuple(label(agent) for agent in order) for order in orders]
    if len(set(Counter(keys).values())) != 1:
        return orders  # merging would change the proportions
    seen: set = set()
    merged = []
    for key, order in zip(keys, orders):
        if key not in seen:
            seen.add(key)
            merged.append(order)
    return merged
