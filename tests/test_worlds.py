"""Worlds are consistent: a world ``determinize`` draws is a state the rules could reach
from its observer's information set -- its mover has a legal move whenever the game is
not over, a hand can pay what the phase asks -- and the conformance kit's check of it
fails on a world that is not (issue 33; the search side, which must report such a world
instead of crashing, is pinned in tests/test_search_regressions.py)."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
from collections import Counter
from math import comb
from typing import Any

import pytest

import boardrules
from boardrules.errors import InvalidPositionError
from boardrules.games.rome_and_carthage.game import RomeCarthageGame, RomeCarthageState
from boardrules.testing import CHECKS, check_worlds_are_consistent

# The reproducer's position (shared/reproducers/v0.6.0-pre/repro_rc_mcts_observer_segfault.py):
# 2 players, seed 1, no auto_chance; player 1 has paid a 2 toward a forced march and owes
# one more point with a card no higher than 2 (his hand: 0 0 1 9 10 10, all four non-zero
# cards unseen by player 0).
PAY_HISTORY = [
    "infantry@paraetonium", "chariot@berenice", "infantry@mediolanum", "galley@genua",
    "infantry@cyrene", "elephant@rhegium", "elephant@memphis", "chariot@messana",
    "chariot@gortyn", "galley@nicomedia", "galley@carthago", "infantry@caralis",
    "elephant@hippo", "infantry@iol", "elephant@byzantium", "galley@dyrrachium",
    "galley@salamis", "infantry@roma", "galley@pelusium", "infantry@enna",
    "infantry@paphos", "galley@capua", "galley@hadrumetum", "infantry@leptis",
    "infantry@philippopolis", "infantry@thessalonica", "infantry@salona",
    "chariot@lilybaeum", "draw 4", "cyrene-paraetonium", "pay 2", "pay 1",
    "paraetonium-cyrene", "draw 8", "lilybaeum-messana", "pay 6", "iol-cirta", "play 9+5",
    "play 8+3", "draw 8", "pelusium-gaza", "done", "draw 7", "carthago-hadrumetum", "pay 3",
    "hadrumetum-carthago", "draw 5", "rhegium-brundisium", "pay 8", "gaza-tyrus", "draw 7",
    "salona-dyrrachium", "pay 15", "dyrrachium-salona", "draw 4", "paraetonium-alexandria",
    "enna-syracusae", "pay 15", "salamis-tarsus", "draw 5", "messana-syracusae", "pay 15",
    "thessalonica-athenae", "play 7+5", "play 9+7", "draw 6", "alexandria-pelusium",
    "mediolanum-ariminum", "pay 5", "berenice-paraetonium", "draw 1", "salona-dyrrachium",
    "pay 10", "dyrrachium-thessalonica", "draw 2", "memphis-alexandria", "pay 6",
    "cyrene-berenice", "draw 6", "treason", "tarsus-rhodus", "syracusae-enna", "pay 4",
    "athenae-sparta", "draw 10", "paraetonium-pelusium", "pay 5", "pelusium-paraetonium",
    "draw 10", "hippo-cirta", "pay 2", "pay 1", "cirta-hippo", "draw 9", "tyrus-salamis",
    "pay 6", "pelusium-gaza", "draw 9", "cirta-iol", "pay 6", "iol-tingis", "draw 3", "pass",
    "draw 2", "dyrrachium-brundisium", "pay 10", "thessalonica-dyrrachium", "play 8+0",
    "play 4+4", "play 8", "play 2", "draw 3", "roma-capua", "pay 10", "capua-neapolis",
    "draw 1", "hippo-carthago", "pay 7", "carthago-hippo", "draw 8", "gaza-tyrus",
    "ariminum-aquileia", "pay 8", "paraetonium-pelusium", "draw 1", "hippo-cirta", "pay 9",
    "cirta-iol", "draw 8", "treason", "carthago-lilybaeum", "pelusium-hierosolyma", "pay 3",
    "hierosolyma-antiochia", "draw 10", "enna-syracusae", "done", "draw 9",
    "antiochia-damascus", "pay 15", "rhodus-tarsus", "draw 1", "nicomedia-byzantium",
    "pay 1", "pay 1", "pay 1", "byzantium-nicomedia", "draw 2", "salamis-tarsus", "pay 8",
    "tarsus-rhodus", "draw 6", "brundisium-dyrrachium", "pay 6", "dyrrachium-salona",
    "draw 6", "neapolis-rhegium", "aquileia-mediolanum", "pay 3", "alexandria-pelusium",
    "draw 10", "hadrumetum-carthago", "pay 7", "philippopolis-thessalonica", "draw 6",
    "pelusium-memphis", "pay 6", "damascus-gaza", "draw 9", "syracusae-lilybaeum", "pay 2",
]
# player 1's four unseen cards and the pile they were drawn with (the truth)
PAYER_UNSEEN = [1, 9, 10, 10]
PILE = [2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 7, 7, 7, 8, 8, 10]


def paying_state() -> RomeCarthageState:
    game = boardrules.load("rome_and_carthage", players=2)
    state = game.new_game(seed=1, auto_chance=False, auto_forced=False)
    for move in PAY_HISTORY:
        state.apply(move)
    assert (state.phase, state.current_player) == ("pay", 1)
    return state


def unseen_cards(world: RomeCarthageState, player: int) -> list[int]:
    hand = world.view(player)["players"][player]["hand"]
    return sorted(card for card in hand if card)


# --- Rome & Carthage: a payment begun is a payment the hand can finish -----------------------


def test_rome_and_carthage_mcts_for_the_non_mover_at_a_payment_does_not_crash() -> None:
    """The reproducer's scenario: MCTS for player 0 while player 1 pays killed the
    interpreter (SIGSEGV) up to 0.5.0; run in a child process so that a crash fails the
    test instead of ending the run."""
    child = textwrap.dedent(f"""
        import boardrules
        state = boardrules.load("rome_and_carthage", players=2).new_game(
            seed=1, auto_chance=False, auto_forced=False)
        for move in {PAY_HISTORY!r}:
            state.apply(move)
        for seed in range(6):
            result = boardrules.suggest(state, player=0, algorithm="mcts", seed=seed,
                                        iterations=300)
            assert str(result.move).startswith("pay "), result.move
        print("SURVIVED", flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0 and "SURVIVED" in done.stdout, (done.returncode, done.stderr)


def test_rome_and_carthage_worlds_at_a_payment_leave_the_payer_a_move() -> None:
    """R9 / "Forced march": player 0 saw player 1 begin a forced march (``pay 2``, one
    point to go with cards no higher than 2), so every world he draws gives player 1 a
    card that finishes it; up to 0.5.0 four of the seeds 0-5 gave a hand with none."""
    state = paying_state()
    for seed in range(200):
        world = state.determinize(0, seed)
        assert world.legal_moves(), seed
        cards = unseen_cards(world, 1)
        assert len(cards) == len(PAYER_UNSEEN) and any(card in (1, 2) for card in cards)
        assert world.view(0) == state.view(0)


def test_rome_and_carthage_paying_hand_is_drawn_uniformly_among_the_hands_that_pay() -> None:
    """The payer's unseen cards are redrawn uniformly among the draws that can finish the
    payment (the observer's posterior), not forced to hold some chosen card: over 4,000
    worlds the number of 1s and 2s and of 10s drawn match the exact conditional odds
    (every 4-card draw of the 22 unseen cards with a 1 or a 2)."""
    state = paying_state()
    worlds = 4000
    small: Counter[int] = Counter()
    tens: Counter[int] = Counter()
    for seed in range(worlds):
        cards = unseen_cards(state.determinize(0, seed), 1)
        small[sum(card in (1, 2) for card in cards)] += 1
        tens[cards.count(10)] += 1
    pool = PILE + PAYER_UNSEEN
    exact_small: Counter[int] = Counter()
    exact_tens: Counter[int] = Counter()
    for draw in itertools.combinations(range(len(pool)), 4):
        cards = [pool[i] for i in draw]
        k = sum(card in (1, 2) for card in cards)
        if k:
            exact_small[k] += 1
            exact_tens[cards.count(10)] += 1
    total = sum(exact_small.values())
    assert total == comb(22, 4) - comb(19, 4)
    for seen, exact in ((small, exact_small), (tens, exact_tens)):
        assert set(seen) <= set(exact)
        for k, count in exact.items():
            assert abs(seen[k] / worlds - count / total) < 0.02, (k, seen, exact)


# Rapid Conquest, explicit consent: player 3 (Byzantium) asked his ally to let him move
# the ally's army ("ally"), which he must then pay for with 3 points; his hand, 0 0 3, has
# one card the other team has not seen (the 3), and the pile holds a 1 and a 2.
CONSENT_POSITION = """\
Rome & Carthage position
city capua: rome chariot
city rhegium: rome infantry
city ariminum: rome galley
city aquileia: rome elephant
city syracusae: rome infantry
city enna: rome galley
city leptis: carthage chariot
city iol: carthage infantry
city tingis: carthage elephant
city carthago_nova: carthage galley
city panormus: rome infantry
city caralis: carthage infantry
city byzantium: byzantium galley
city dyrrachium: byzantium chariot
city sparta: byzantium elephant
city nicomedia: byzantium infantry
city ephesus: byzantium infantry
city ancyra: byzantium infantry
city cnossus: byzantium galley
city alexandria: alexandria galley
city memphis: alexandria chariot
city paraetonium: alexandria infantry
city gaza: alexandria elephant
city tyrus: alexandria infantry
city antiochia: alexandria galley
city salamis: alexandria infantry
phase: consent
round: 7
turn_player: 3
current: 1
asked: ally
bcity: panormus
commit_side: defender
defender_player: 1
total: 13 8
removed: 15 15
fifteens_removed: 2
treason: 0 1 0 0
quiet_turns: 3
last_action: ally
last_turn: 3
move_count: 107
hand[0]: 0 0 2 7 9
hand[1]: 0 0 5 9
hand[2]: 0 0 3 3 4 6 15
hand[3]: 0 0 3
unknown[0]: 3
unknown[1]: 2
unknown[2]: 5
unknown[3]: 1
pile[0]: 1 2 3 5 5 5 6 8 9 15
discard[0]: 1 1 1 2 2 4 4 4 6 6 7 7 7 8 8 8 9 10 10 10 10
placed[byzantium]: 3
"""


def test_rome_and_carthage_worlds_at_a_consent_to_move_the_ally_can_pay() -> None:
    """Rapid Conquest: "To carry out this action, the player must discard one (or
    several) card(s) from his hand, for a minimum of 3 points": "ally" is offered only to
    a hand that can pay, so every world of a player who cannot see that hand, once the
    ally agrees, leaves the turn player a payment to make (up to 0.5.0, 14 of these 200
    worlds redrew the 3 as a 1 or a 2: no move after "agree")."""
    game = boardrules.load("rome_and_carthage", players=4, max_rounds=10,
                           variant="rapid_conquest", consent="explicit")
    state = game.position(CONSENT_POSITION)
    assert (state.phase, state.current_player) == ("consent", 1)
    for observer in range(4):
        for seed in range(50):
            world = state.determinize(observer, seed)
            world.apply("agree")
            assert (world.phase, world.current_player) == ("pay", 3)
            assert world.legal_moves(), (observer, seed)
            assert sum(world.view(3)["players"][3]["hand"]) >= 3


# --- the conformance kit's world check ---------------------------------------------------


class _PayWorldsState(RomeCarthageState):
    """A broken game: every world at a payment gives the payer no legal move (0.5.0's
    worlds did so at a few payments in a thousand)."""

    __slots__ = ()

    def legal_moves(self) -> Any:
        if self._world and self.phase == "pay":
            return []
        return super().legal_moves()


def _broken_rome_and_carthage(**options: Any) -> RomeCarthageGame:
    game = boardrules.load("rome_and_carthage", **options)
    assert isinstance(game, RomeCarthageGame)
    game.state_class = _PayWorldsState  # this instance only: the registered game is intact
    return game


def test_world_check_fails_on_a_world_whose_mover_has_no_move() -> None:
    game = _broken_rome_and_carthage(players=2, max_rounds=12)
    with pytest.raises(AssertionError, match=r"the world gives player \d no legal move and "
                                             r"is not over: .*phase 'pay'"):
        check_worlds_are_consistent(game, games=1, walk=0)
    check_worlds_are_consistent(boardrules.load("rome_and_carthage", players=2,
                                                max_rounds=12), games=1, walk=0)


class _DeadBelowWorldsState(RomeCarthageState):
    """A broken game whose worlds are fine where they are drawn but lead, a few legal
    steps on, to a payment with no move (0.5.0's worlds at an ally's consent did so: the
    payment after "agree")."""

    __slots__ = ()

    def legal_moves(self) -> Any:
        if self._world and self.history and self.phase == "pay":
            return []  # a world played on (a drawn world's history is empty) to a payment
        return super().legal_moves()


def test_world_check_walks_on_to_a_dead_end_below_the_world() -> None:
    game = boardrules.load("rome_and_carthage", players=2, max_rounds=12)
    assert isinstance(game, RomeCarthageGame)
    game.state_class = _DeadBelowWorldsState
    check_worlds_are_consistent(game, games=1, walk=0)  # each world itself is fine
    with pytest.raises(AssertionError, match=r"random steps on from it, the world gives "
                                             r"player \d no legal move and is not over"):
        check_worlds_are_consistent(game, games=1)


def test_world_check_is_a_conformance_check() -> None:
    assert CHECKS["worlds_are_consistent"] is check_worlds_are_consistent


def test_rome_and_carthage_position_asking_consent_for_an_unpaid_ally_move_is_refused() -> None:
    """The truth too is a state the rules reach: a position asking the ally's consent to
    move his army for a hand without 3 points (0 0 2) would, once he agrees, leave the
    turn player no move; ``Game.position`` accepted it up to 0.5.0."""
    game = boardrules.load("rome_and_carthage", players=4, max_rounds=10,
                           variant="rapid_conquest", consent="explicit")
    poor = (CONSENT_POSITION.replace("hand[3]: 0 0 3", "hand[3]: 0 0 2")
            .replace("pile[0]: 1 2 3", "pile[0]: 1 3 3"))
    with pytest.raises(InvalidPositionError, match="asked: the ally's army is moved for "
                                                   "cards of at least 3 points") as caught:
        game.position(poor)
    assert caught.value.field == "asked"
    assert game.position(CONSENT_POSITION).legal_moves()  # the control: 0 0 3 pays
