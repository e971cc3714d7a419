"""The conformance kit catches broken games and names the rule: each test breaks one
rule in a variant of the toy game (tests/toy_goofspiel) and checks the message; the
differential check is driven with a stand-in reference engine (the toy's own facade)
broken one way at a time."""
import dataclasses
import os

import numpy as np
import pytest

from forumlab.core.registry import create_game
from forumlab.testing import conformance as kit
from forumlab.testing import differential, malformed
from forumlab.testing.conformance import ConformanceError
from forumlab.testing.reference import NoReferenceEngine, ReferenceEngine, reference_engine, start_reference
from tests import toy_goofspiel
from tests.toy_goofspiel import kernels as goofspiel_kernels
from tests.toy_goofspiel.game import ToyGoofspiel


def broken(players=2, kernels=None, **attrs):
    """A configured toy game whose class has ``attrs`` and whose kernels have the
    given replacements (plain Python functions: the kit calls them from Python)."""
    if kernels:
        attrs["kernels"] = dataclasses.replace(ToyGoofspiel.kernels, **kernels)
    return type("Broken", (ToyGoofspiel,), attrs)(players=players)


def fails(check, game, rule, seed=0):
    with pytest.raises(ConformanceError) as info:
        check(game, seed)
    message = str(info.value)
    assert message.startswith(rule), message
    return message


def test_the_toy_game_itself_passes_the_checks_used_below():
    game = ToyGoofspiel(players=3)
    for check in (kit.check_start, kit.check_legal_moves, kit.check_notation, kit.check_illegal_moves,
                  kit.check_random_move, kit.check_determinize, kit.check_view_for, kit.check_result,
                  kit.check_move_seen_by):
        check(game, 0)


def test_a_move_printed_wrong_breaks_the_notation_round_trip():
    game = broken(format_move=lambda self, array, move: str(int(move) + 2))
    message = fails(kit.check_notation, game, "notation round trip: move 0 printed as '2' parses as 1 ('3')")
    assert message.endswith("at ply 0 of seed 0 (Broken(players=2, cards=4))")


def test_a_parser_raising_another_error_breaks_the_malformed_move_rule():
    game = broken(parse_move=lambda self, array, text: int(text) - 1)
    fails(kit.check_notation, game, "malformed move: '' raised ValueError")


def test_a_parser_accepting_garbage_as_a_move_is_caught():
    game = broken(parse_move=lambda self, array, text: 0 if text.strip() in ("", "?") else int(text) - 1)
    fails(kit.check_illegal_moves, game, "malformed move: '' was played")


def test_duplicate_legal_moves_are_caught():
    def legal_moves(s, out):
        n = goofspiel_kernels.legal_moves(s, out)
        out[n] = out[0]
        return n + 1

    fails(kit.check_legal_moves, broken(kernels={"legal_moves": legal_moves}),
          "legal moves: the list repeats a move")


def test_a_random_move_that_changes_the_state_is_caught():
    def random_move(s, rng):
        s[goofspiel_kernels.SEED] += 1
        return goofspiel_kernels.random_move(s, rng)

    fails(kit.check_random_move, broken(kernels={"random_move": random_move}),
          "random_move purity: random_move changed the state at ply 0")


def test_a_biased_random_move_fails_the_uniformity_test():
    def lowest_first(s, rng):  # the lowest card about 1.5 times as often as the others
        hand = int(s[goofspiel_kernels.HAND + s[goofspiel_kernels.PLAYER]])
        low = (hand & -hand).bit_length() - 1
        draw = goofspiel_kernels.random_move(s, rng)
        return low if draw != low and goofspiel_kernels.rand_below(rng, 4) == 0 else draw

    fails(kit.check_random_move, broken(kernels={"random_move": lowest_first}),
          "random_move uniformity: chi-square")


def test_determinize_that_resamples_the_observers_own_bid_is_caught():
    def leaky(s, observer, rng):
        goofspiel_kernels.determinize(s, -1, rng)  # resamples every seat's bid, the observer's too

    message = fails(kit.check_determinize, broken(kernels={"determinize": leaky}),
                    "determinize: seat 0's observation changed at ply 1")
    assert "(Broken(players=2, cards=4))" in message


def test_a_hidden_information_game_whose_determinize_does_nothing_is_caught():
    fails(kit.check_determinize, broken(kernels={"determinize": lambda s, observer, rng: None}),
          "determinize: never changed a hidden-information state")


def test_determinize_must_not_change_a_perfect_information_game():
    game = broken(perfect_information=True)
    fails(kit.check_determinize, game, "determinize: changed a perfect-information state for seat")
    fails(kit.check_view_for, game, "view_for: a perfect-information view of seat")


def test_scores_that_are_not_numbers_are_caught():
    def scores(s, out):
        out[:] = np.nan

    fails(kit.check_result, broken(kernels={"scores": scores}),
          "result: scores [nan, nan] are not one finite")


def test_a_config_that_forgets_an_option_is_caught():
    forgetful = type("Broken", (ToyGoofspiel,), {"config": property(lambda self: {"players": self.players})})
    fails(kit.check_start, forgetful(players=2, cards=5),
          "config round trip: the game rebuilt from its JSON config {'players': 2} differs")


def test_a_heuristic_that_is_not_finite_is_caught():
    fails(kit.check_result, broken(kernels={"heuristic": lambda s, player: float("inf")}),
          "heuristic: inf for seat 0 is not a finite number at ply 0")


def test_a_game_with_more_legal_moves_than_its_bound_is_caught():
    def legal_moves(s, out):  # writes at most len(out), reports them all
        room = np.empty(goofspiel_kernels.MAX_MOVES, dtype=np.int64)
        n = goofspiel_kernels.legal_moves(s, room)
        out[:min(n, len(out))] = room[:min(n, len(out))]
        return n

    game = broken(kernels={"legal_moves": legal_moves, "max_moves": 3})
    fails(kit.check_legal_moves, game, "move bound: 4 legal moves, MAX_MOVES is 3 at ply 0")


class PidSeeded(ToyGoofspiel):
    """Deals from the seed plus the process id: the same within a process (so replay
    holds), different in every other process."""

    def initial_array(self, seed):
        return goofspiel_kernels.new_state(self.players, self.cards, seed + os.getpid())


def test_telling_a_seat_what_it_cannot_see_is_caught():
    """A game that names the bids already made this round when it announces a bid."""
    def leaky(self, array, move, seat):
        text = self.format_move(array, move)
        if seat == int(array[goofspiel_kernels.PLAYER]):
            return text
        return f"{text} after {[int(array[goofspiel_kernels.BID + q]) for q in range(self.players)]}"

    fails(kit.check_move_seen_by, broken(players=3, move_seen_by=leaky),
          "move_seen_by: seat 2 is told '2 after [")  # seat 0's bid, seen from seat 2


def test_the_mover_must_be_told_its_own_move():
    fails(kit.check_move_seen_by, broken(move_seen_by=lambda self, array, move, seat: None),
          "move_seen_by: the mover is told None, not its move's notation")


def test_a_setup_that_depends_on_the_process_fails_the_determinism_check():
    with pytest.raises(ConformanceError, match=r"^determinism: another process got a different 'state' "
                                               r"at seed 0 \(PidSeeded\(players=3, cards=4\)\)"):
        kit.check_determinism([(PidSeeded(players=3), 0)])


# ---- the differential check and the reference protocol ---------------------------------
class Mirror:
    """A stand-in reference engine for the toy game: the toy's own facade, so it agrees
    with the numba engine by construction; the variants below break one thing each."""

    def __init__(self, state):
        self.state = state

    @classmethod
    def from_config(cls, config, seed):
        return cls(ToyGoofspiel.from_config(config).new_state(seed))

    def legal_moves(self):
        return self.state.legal_move_texts()

    def play(self, text):
        self.state.play(text)

    def current_player(self):
        return self.state.current_player

    def is_terminal(self):
        return self.state.is_terminal

    def result(self):
        return self.state.result()

    def summary(self):
        return {"ply": len(self.state.history), "array": self.state.array.tolist()}

    def copy(self):
        return type(self)(self.state.clone())

    @staticmethod
    def engine_summary(state):
        return {"ply": len(state.history), "array": state.array.tolist(), "more": "ignored"}


def differs(reference, rule, players=3):
    with pytest.raises(ConformanceError) as info:
        differential.differential_game(ToyGoofspiel(players=players), 0, reference=reference)
    message = str(info.value)
    assert message.startswith(f"differential: {rule}"), message
    return message


def test_the_reference_protocol_is_kept_by_the_mirror_and_the_games_engines():
    assert isinstance(Mirror.from_config({"players": 2}, 0), ReferenceEngine)
    for name in ("forum-romanum", "forma", "foundations-of-rome", "forum-trajanum"):
        ref = start_reference(create_game(name), 0)
        assert isinstance(ref, reference_engine(name)) and isinstance(ref, ReferenceEngine), name


def test_engines_that_agree_pass_the_differential_check():
    assert differential.differential_game(ToyGoofspiel(players=3), 0, reference=Mirror) == 3 * 4


def test_a_missing_legal_move_is_named_with_the_game_seed_and_ply():
    class Forgetful(Mirror):
        def legal_moves(self):
            return self.state.legal_move_texts()[:-1]

    message = differs(Forgetful, "legal moves: 4 in numba, 3 in the reference; only numba ['4'], only reference []")
    assert message.endswith("at ply 0 of seed 0 (ToyGoofspiel(players=3, cards=4))")


def test_the_first_differing_summary_key_is_named_with_both_values():
    class LateByOne(Mirror):
        def summary(self):
            return {"ply": len(self.state.history) + (len(self.state.history) >= 2)}

    message = differs(LateByOne, "summary key 'ply' differs: numba 2, reference 3 at ply 2 of seed 0")
    assert "(ToyGoofspiel(players=3, cards=4))" in message


def test_another_seat_to_move_and_another_result_are_caught():
    class Elsewhere(Mirror):
        def current_player(self):
            return (self.state.current_player + 1) % self.state.game.players

    differs(Elsewhere, "seat to move: numba 0, reference 1 at ply 0")

    class Generous(Mirror):
        def result(self):
            return {**self.state.result(), "scores": [99] * self.state.game.players}

    differs(Generous, "result 'scores': numba")


def test_a_game_without_a_reference_engine_is_a_skip_not_a_failure():
    with toy_goofspiel.registered(), pytest.raises(NoReferenceEngine, match="no reference engine"):
        kit.run_check(toy_goofspiel.NAME, "differential")


def test_the_malformed_check_catches_an_accepted_bad_move_and_a_bad_record_error(monkeypatch):
    data = {"bad_moves": [{"config": {"players": 2}, "seed": 0, "after": [], "moves": ["2"]}]}
    monkeypatch.setattr(malformed, "conformance_data", lambda name: data)
    with toy_goofspiel.registered():
        with pytest.raises(ConformanceError, match=r"^malformed move: '2' was played after 0 plies of seed 0"):
            malformed.check_malformed(toy_goofspiel.NAME)
        data = {"bad_records": [{"record": {"config": {"players": 2}, "seed": 0, "moves": ["1", "1", "1"]},
                                 "error": "ply 2"}]}
        with pytest.raises(ConformanceError, match=r"^bad record: the error .error: ply 3: illegal move .* does not say 'ply 2'"):
            malformed.check_malformed(toy_goofspiel.NAME)
