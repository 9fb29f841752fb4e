"""Kuhn poker: one test per rule, the boardrules conformance suite, and a cross-check
against OpenSpiel's own C++ ``kuhn_poker``.

Run in place (the package built with ``python setup.py build_ext --inplace`` and
``src`` on the path) or installed; the entry point registers ``kuhn_poker`` only once
the package is installed, so the tests register it themselves when it is not.
"""

from __future__ import annotations

import itertools
from typing import Any

import boardrules
import pytest
from boardrules.api import CHANCE, TERMINAL
from boardrules.games import available_games, register
from boardrules.testing import assert_illegal, check_game

from boardrules_kuhn_poker import KuhnPokerGame, KuhnPokerState

if "kuhn_poker" not in available_games():
    register("kuhn_poker", KuhnPokerGame)


def hand(*moves: str) -> KuhnPokerState:
    """A hand played from its first deal (``deal Q to 0``...) without auto chance."""
    state = KuhnPokerGame().new_game(auto_chance=False)
    for move in moves:
        state.apply(move)
    return state


DEALT = ("deal Q to 0", "deal K to 1")   # player 0 holds the queen, player 1 the king


# --- the deal --------------------------------------------------------------------------------


def test_both_players_ante_one_chip() -> None:
    assert hand().view(None)["pot"] == [1, 1]


def test_the_deal_comes_first_player_0_card_uniform_over_three() -> None:
    state = hand()
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert [str(m) for m, _ in outcomes] == ["deal J to 0", "deal Q to 0", "deal K to 0"]
    assert [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)


def test_player_1_card_uniform_over_the_two_left() -> None:
    state = hand("deal Q to 0")
    assert [(str(m), p) for m, p in state.chance_outcomes()] == [
        ("deal J to 1", 0.5), ("deal K to 1", 0.5)]


def test_a_card_is_dealt_once() -> None:
    assert assert_illegal(hand("deal Q to 0"), "deal Q to 1").rule == "card_dealt"


def test_cards_are_dealt_in_turn() -> None:
    assert assert_illegal(hand(), "deal Q to 1").rule == "wrong_player_dealt"
    assert assert_illegal(hand("deal Q to 0"), "deal K to 0").rule == "wrong_player_dealt"


def test_no_betting_during_the_deal() -> None:
    assert assert_illegal(hand(), "bet").rule == "deal_expected"


def test_a_deal_is_no_players_move() -> None:
    assert assert_illegal(hand(*DEALT), "deal J to 0").rule == "not_chance"


# --- hidden cards --------------------------------------------------------------------------


def test_each_player_sees_his_own_card_only() -> None:
    state = hand(*DEALT)
    assert state.view(0)["cards"] == ["Q", "?"]
    assert state.view(1)["cards"] == ["?", "K"]
    assert state.view(None)["cards"] == ["?", "?"]
    assert [m for _, m in state.history_view(0)] == ["deal Q to 0", "deal ? to 1"]
    assert [e.data["card"] for e in state.events(1)] == [None, "K"]


def test_a_player_cannot_rule_out_the_card_he_has_not_seen() -> None:
    state = hand("deal Q to 0")
    assert [(str(m), p) for m, p in state.chance_outcomes(viewer=0)] == [
        ("deal J to 1", 0.5), ("deal K to 1", 0.5)]
    assert [str(m) for m, _ in state.chance_outcomes(viewer=1)] == [
        "deal J to 1", "deal Q to 1", "deal K to 1"]


def test_determinize_redraws_only_the_opponents_card() -> None:
    state = hand(*DEALT, "pass")
    seen = set()
    for seed in range(40):
        world = state.determinize(0, seed=seed)
        assert world.view(0) == state.view(0)
        seen.add(world.position().splitlines()[1])
    assert seen == {"cards: Q J", "cards: Q K"}
    before_own = hand("deal Q to 0").determinize(1, seed=1)  # player 1 holds no card yet
    assert before_own.current_player == CHANCE


def test_a_showdown_shows_both_cards_a_fold_none() -> None:
    assert hand(*DEALT, "pass", "pass").view(0)["cards"] == ["Q", "K"]
    folded = hand(*DEALT, "bet", "pass")
    assert folded.view(0)["cards"] == ["Q", "?"]
    assert folded.determinize(0, seed=3).view(0) == folded.view(0)


# --- the betting -----------------------------------------------------------------------------


def test_player_0_acts_first_pass_or_bet() -> None:
    state = hand(*DEALT)
    assert state.current_player == 0
    assert [str(m) for m in state.legal_moves()] == ["pass", "bet"]


def test_pass_pass_is_a_showdown_for_the_antes() -> None:
    state = hand(*DEALT, "pass", "pass")
    assert state.is_terminal() and state.returns() == (-0.5, 0.5)
    assert state.score() == (-1, 1)


def test_bet_pass_is_a_fold_player_0_takes_the_antes() -> None:
    state = hand(*DEALT, "bet", "pass")
    assert state.is_terminal() and state.returns() == (0.5, -0.5)


def test_bet_bet_is_a_showdown_for_two_chips() -> None:
    state = hand(*DEALT, "bet", "bet")
    assert state.is_terminal() and state.returns() == (-1.0, 1.0)
    assert [e.kind for e in state.last_events()] == ["call", "end"]


def test_pass_bet_asks_player_0_again() -> None:
    state = hand(*DEALT, "pass", "bet")
    assert state.current_player == 0
    assert state.view(None)["pot"] == [1, 2]


def test_pass_bet_pass_is_a_fold_player_1_takes_the_antes() -> None:
    state = hand("deal K to 0", "deal J to 1", "pass", "bet", "pass")
    assert state.returns() == (-0.5, 0.5)
    assert state.outcome() is not None and state.outcome().winners == (1,)  # type: ignore[union-attr]


def test_pass_bet_bet_is_a_showdown_for_two_chips() -> None:
    state = hand("deal K to 0", "deal J to 1", "pass", "bet", "bet")
    assert state.returns() == (1.0, -1.0)


def test_the_hand_ends_after_the_betting() -> None:
    state = hand(*DEALT, "bet", "bet")
    assert state.current_player == TERMINAL and state.legal_moves() == []
    assert assert_illegal(state, "pass").rule == "game_over"


# --- positions, pictures, search ---------------------------------------------------------------


def test_positions_round_trip_and_refuse_what_play_cannot_reach() -> None:
    game = KuhnPokerGame()
    text = "Kuhn poker position\ncards: Q K\nbetting: pass bet\n"
    state = game.position(text)
    assert state.position() == text and state.current_player == 0
    for bad in ("cards: Q Q\nbetting: -", "cards: - K\nbetting: -",
                "cards: Q -\nbetting: pass", "cards: Q K\nbetting: bet bet bet"):
        with pytest.raises(boardrules.InvalidPositionError):
            game.position("Kuhn poker position\n" + bad)


def test_pictures_show_what_the_viewer_sees() -> None:
    state = hand(*DEALT)
    assert "player 1: ?" in state.render_text(0)
    assert ">K<" in state.render_svg(1) and ">Q<" not in state.render_svg(1)
    assert ">Q<" in state.render_svg_truth() and ">K<" in state.render_svg_truth()


def test_suggest_picks_a_legal_move() -> None:
    state = boardrules.load("kuhn_poker").new_game(seed=2)
    assert boardrules.suggest(state, iterations=200, seed=1).move in state.legal_moves()


# --- conformance -----------------------------------------------------------------------------


def test_conformance() -> None:
    check_game(boardrules.load("kuhn_poker"), games=20)


# --- OpenSpiel's kuhn_poker ----------------------------------------------------------------------


def test_agrees_with_openspiel_kuhn_poker() -> None:
    """Every deal and every betting sequence, side by side with OpenSpiel's C++ game: the
    same player to move, the same number of legal actions (chance outcomes included, with
    the same probabilities), terminal at the same nodes, returns equal to OpenSpiel's
    chips / 2; and two decisions look alike to their player (equal observation tensors)
    exactly when OpenSpiel gives them the same information state."""
    pyspiel = pytest.importorskip("pyspiel")
    game = KuhnPokerGame()
    counts = {"nodes": 0, "terminals": 0}
    infosets: dict[tuple[int, bytes], set[str]] = {}
    ours_of_theirs: dict[tuple[int, str], set[bytes]] = {}

    def walk(theirs: Any, ours: KuhnPokerState) -> None:  # theirs: a pyspiel.State
        counts["nodes"] += 1
        assert theirs.is_terminal() == ours.is_terminal()
        if theirs.is_terminal():
            counts["terminals"] += 1
            assert ours.returns() == tuple(r / 2 for r in theirs.returns())
            return
        if theirs.is_chance_node():
            assert ours.current_player == CHANCE
            outcomes = theirs.chance_outcomes()
            mine = ours.chance_outcomes()
            assert len(mine) == len(outcomes)
            dealt = 0 if ours.view(None)["cards"][0] is None else 1
            for (card, p), (move, q) in zip(outcomes, mine, strict=True):
                assert str(move) == f"deal {'JQK'[card]} to {dealt}" and p == q
                walk(theirs.child(card), ours.child(move))
            return
        player = theirs.current_player()
        assert ours.current_player == player
        actions = theirs.legal_actions()
        assert [m.action for m in ours.legal_moves()] == actions   # 0 pass, 1 bet
        key = (player, ours.observation(player).tobytes())
        info = theirs.information_state_string(player)
        infosets.setdefault(key, set()).add(info)
        ours_of_theirs.setdefault((player, info), set()).add(key[1])
        for action in actions:
            walk(theirs.child(action), ours.child(("pass", "bet")[action]))

    walk(pyspiel.load_game("kuhn_poker").new_initial_state(), game.new_game(auto_chance=False))
    # the deal: 1 + 3 chance nodes; then for each of the 6 deals 9 betting nodes (4
    # decisions, 5 terminals)
    assert counts == {"nodes": 1 + 3 + 6 * 9, "terminals": 6 * 5}
    assert all(len(v) == 1 for v in infosets.values())
    assert all(len(v) == 1 for v in ours_of_theirs.values())
    assert len(infosets) == 12        # Kuhn poker's 12 information sets


def test_every_deal_and_betting_sequence_is_enumerated() -> None:
    """The 6 deals x 5 betting sequences reach 30 distinct terminal positions."""
    sequences = [("pass", "pass"), ("bet", "pass"), ("bet", "bet"),
                 ("pass", "bet", "pass"), ("pass", "bet", "bet")]
    ends = {hand(f"deal {a} to 0", f"deal {b} to 1", *seq).position()
            for a, b in itertools.permutations("JQK", 2) for seq in sequences}
    assert len(ends) == 30


def test_openspiel_algorithms_solve_it_through_the_bridge() -> None:
    """Through ``boardrules.openspiel`` the game is a pyspiel game like OpenSpiel's own:
    its random simulation test passes, the uniform policy is exactly half as exploitable
    (returns are chips / 2), and CFR finds Kuhn poker's value, -1/18 chip for player 0
    (-1/36 in returns)."""
    pyspiel = pytest.importorskip("pyspiel")
    bridge = pytest.importorskip("boardrules.openspiel")
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    ours, theirs = bridge.load_game("kuhn_poker"), pyspiel.load_game("kuhn_poker")
    pyspiel.random_sim_test(ours, num_sims=20, serialize=False, verbose=False)
    assert exploitability.exploitability(ours, policy.UniformRandomPolicy(ours)) == (
        pytest.approx(exploitability.exploitability(theirs, policy.UniformRandomPolicy(theirs))
                      / 2))
    solver = cfr.CFRSolver(ours)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert exploitability.exploitability(ours, average) < 0.01
    value = expected_game_score.policy_value(ours.new_initial_state(), [average, average])
    assert value[0] == pytest.approx(-1 / 36, abs=0.002)
