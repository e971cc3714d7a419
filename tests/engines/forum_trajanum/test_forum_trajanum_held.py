"""The worth of held tiles in Forum Trajanum's heuristic (engines/forum_trajanum/held.py),
checked on hand-set tiles of a fixed-setup 2-player game: every figure below is the
module docstring's rule applied by hand (3 scorings left in cycle I)."""
import pytest

from forumlab.core import dispatch
from forumlab.engines.forum_trajanum import layout as L
from forumlab.engines.forum_trajanum.game import ForumTrajanum
from forumlab.engines.forum_trajanum.held import held_worth, pair_worth, tile_worth

SCORINGS = 3  # cycle I: its own scoring and two more


def base(p):
    return L.SEAT + p * L.SEAT_SIZE


def word(kind, owner):
    return kind | (owner << L.TW_OWNER_SHIFT)


def fixed_game():
    """A fixed-setup 2-player game at its first draft ply (seat 0 to take), citizens
    cleared so that every row has room."""
    state = ForumTrajanum(players=2, setup="fixed").new_state(3)
    a = state.array
    for p in range(2):
        a[base(p) + L.CIT:base(p) + L.CIT + 12] = 0
    return state


@pytest.mark.parametrize("kind, worth", [(L.T_B, 0.5), (L.T_R, 0.5), (L.T_A, 0.5), (L.T_T, 0.5),
                                         (L.T_CITP, 2.1), (L.T_CITC, 2.1), (L.T_U, 0.9)])
def test_a_tile_is_worth_what_using_it_adds(kind, worth):
    a = fixed_game().array
    assert tile_worth(a, 0, kind, SCORINGS, False) == pytest.approx(worth)


def test_a_citizen_without_room_is_worth_nothing():
    a = fixed_game().array
    a[base(0) + L.CIT + 1] = 1  # row 1's right space
    assert tile_worth(a, 0, L.T_CITP, SCORINGS, False) == pytest.approx(2.1)  # row 2 has room
    a[base(0) + L.CIT + 3] = 1  # row 2's right space
    assert tile_worth(a, 0, L.T_CITP, SCORINGS, False) == 0.0
    assert tile_worth(a, 0, L.T_CITM, SCORINGS, False) == pytest.approx(2.1)


def test_an_upgrade_is_worth_its_steps_and_more_with_envoys():
    a = fixed_game().array
    pres = base(0) + L.PRES
    assert tile_worth(a, 0, L.T_U, SCORINGS, True) == pytest.approx(3 * 1.3)
    a[base(0) + L.CIT + 4] = 1  # Merchant I active: to the next cypress
    a[pres] = 0
    assert tile_worth(a, 0, L.T_U, SCORINGS, False) == pytest.approx(2 * 0.9)
    a[pres] = 1
    assert tile_worth(a, 0, L.T_U, SCORINGS, False) == pytest.approx(0.9)
    a[pres] = 8
    assert tile_worth(a, 0, L.T_U, SCORINGS, False) == 0.0


def test_a_pair_is_its_better_tile_and_the_other_when_two_tribunes_pay():
    assert pair_worth(2.1, 0.5, 5) == pytest.approx(2.1)  # 0.5 < the tribunes' 1.0
    assert pair_worth(2.1, 2.1, 2) == pytest.approx(3.2)
    assert pair_worth(2.1, 2.1, 1) == pytest.approx(2.1)
    assert pair_worth(0.9, 2.1, 2) == pytest.approx(2.1)


def _taken(state, kept_kind, passed_kind):
    """Seat 0 takes the first legal pair with hand-set tiles on it; seat 1's board holds
    builders only; nobody has tribunes."""
    a = state.array
    x, y = state.legal_move_texts()[0].split()[1:]
    cell = {L.cell_name(c): c for c in range(37)}
    a[base(0) + L.TILE + cell[x]] = word(kept_kind, 0)
    a[base(0) + L.TILE + cell[y]] = word(passed_kind, 0)
    for c in range(37):
        if a[base(1) + L.TILE + c] != 0:
            a[base(1) + L.TILE + c] = word(L.T_B, 1)
    state.play(f"take {x} {y}")
    for p in range(2):
        a[base(p) + L.RES + L.R_T] = 0
    return x, y


def test_keeping_a_citizen_beats_keeping_a_builder_by_the_hand_computed_margin():
    state = fixed_game()
    x, y = _taken(state, L.T_CITP, L.T_B)
    values = {}
    for keep in (x, y):
        child = state.copy()
        child.play(f"keep {keep}")
        values[keep] = dispatch.heuristic(child.game.kernels.tag, child.array, 0)
        if keep == x:
            # seat 0: envoy 0.7 + max(its citizen 2.1 - 0.7, seat 1's builders 0.5) = 2.1;
            # seat 1 (still to take): envoy 0.7 + max(its builders 0.5, the builder 0.5)
            assert held_worth(child.array, 0, SCORINGS) == pytest.approx(2.1)
            assert held_worth(child.array, 1, SCORINGS) == pytest.approx(1.2)
        else:
            # seat 0 keeps the builder: 0.7 + 0.5; seat 1 receives the citizen: 0.7 + 2.1
            assert held_worth(child.array, 0, SCORINGS) == pytest.approx(1.2)
            assert held_worth(child.array, 1, SCORINGS) == pytest.approx(2.8)
    # keep x: 2.1 - 1.2 = +0.9; keep y: 1.2 - 2.8 = -1.6 (all else equal)
    assert values[x] - values[y] == pytest.approx(2.5)


def test_before_the_keep_the_seat_counts_its_better_tile():
    state = fixed_game()
    _taken(state, L.T_B, L.T_CITP)  # the citizen is on the second space this time
    assert held_worth(state.array, 0, SCORINGS) == pytest.approx(0.7 + 1.4)
    assert held_worth(state.array, 1, SCORINGS) == pytest.approx(0.7 + 0.5)  # receives the builder


def _at_use(kept, received, tribunes):
    """Seat 0 at its use ply holding hand-set tiles."""
    state = fixed_game()
    for _ in range(4):  # both seats take and keep
        state.play(state.legal_move_texts()[0])
    a = state.array
    assert state.current_player == 0 and state.legal_move_texts()[:2] == ["use k", "use r"]
    a[base(0) + L.HELD] = kept
    a[base(0) + L.HELD + 1] = received
    a[base(0) + L.RES + L.R_T] = tribunes
    a[base(0) + L.CIT:base(0) + L.CIT + 12] = 0
    return state


def test_a_pair_still_to_use_counts_the_better_tile_or_both():
    own_citizen, their_citizen = word(L.T_CITP, 0), word(L.T_CITM, 1)
    # own citizen used: 2.1 (placed, no envoy); unused: its envoy 0.7
    assert held_worth(_at_use(own_citizen, word(L.T_B, 1), 0).array, 0, SCORINGS) == pytest.approx(2.1)
    assert held_worth(_at_use(own_citizen, their_citizen, 1).array, 0, SCORINGS) == pytest.approx(2.8)
    # two tribunes: both citizens, 0.7 + 1.4 + 2.1 - 1.0
    assert held_worth(_at_use(own_citizen, their_citizen, 2).array, 0, SCORINGS) == pytest.approx(3.2)


def test_once_a_tile_is_used_the_other_one_keeps_only_its_envoy():
    state = _at_use(word(L.T_B, 0), word(L.T_CITP, 1), 0)
    a = state.array
    ship = a[base(0) + L.SHIP]
    state.play("use k")  # the builder is gained; the unused citizen is discarded (not own)
    assert held_worth(a, 0, SCORINGS) == 0.0 and a[base(0) + L.SHIP] == ship + 1
    state = _at_use(word(L.T_CITP, 0), word(L.T_B, 1), 0)
    state.play("use r")  # the builder; the own citizen goes to the ship
    assert held_worth(state.array, 0, SCORINGS) == 0.0
    assert state.array[base(0) + L.SHIP] == ship + 1


def test_a_neighbours_keep_is_predicted_with_its_own_envoys_on_the_forum():
    # Seat 0 kept a builder; seat 1 takes an upgrade and its own citizen. Seat 1 has an
    # envoy on the Forum and one prestige step to gain: the upgrade is worth
    # 1 x 3 x (0.3 + 1) = 3.9 to it, the citizen 2.1 - 0.7 = 1.4, so it keeps the upgrade
    # and seat 0 receives the citizen (2.1 to seat 0). Seat 0 has no envoy on the Forum;
    # read with seat 0's envoys instead (the bug this test caught), the upgrade is worth
    # 0.9 to seat 1, it keeps the citizen and seat 0 was counted receiving the upgrade
    # (0.7 + 0.9 = 1.6).
    state = fixed_game()
    _taken(state, L.T_B, L.T_B)
    state.play(state.legal_move_texts()[0])
    a = state.array
    cell = {L.cell_name(c): c for c in range(37)}
    a[base(1) + L.TILE + cell["a1"]] = word(L.T_U, 1)
    a[base(1) + L.TILE + cell["a6"]] = word(L.T_CITP, 1)
    a[L.FOCC] = 2  # seat 1's envoy
    state.play("take a1 a6")
    assert tile_worth(a, 1, L.T_U, SCORINGS, True) == pytest.approx(3.9)
    assert held_worth(a, 0, SCORINGS) == pytest.approx(0.7 + 2.1)
