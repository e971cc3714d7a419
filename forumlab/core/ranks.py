"""Shared (competition-style) ranks from final scores."""


def shared_ranks(scores) -> list[int]:
    """Rank 1 = best; tied scores share a rank and the next rank is skipped.

    >>> shared_ranks([10, 12, 10, 3])
    [2, 1, 2, 4]
    """
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def winners(scores) -> list[int]:
    """Seats holding rank 1 (several when the highest score is tied)."""
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]


def fault_ranks(scores, faulty) -> list[int]:
    """Shared ranks under the fault policy: every seat in ``faulty`` ranks below every
    seat without a fault; within each class, ranks follow the scores.

    >>> fault_ranks([10, 30, 20], {1})
    [2, 3, 1]
    """
    return shared_ranks([(seat not in faulty, score) for seat, score in enumerate(scores)])
