"""Rome & Carthage events (the docs page's "Events"): what a battle's reveal shows, the
retreats, the cards drawn, paid and given, and their redaction -- each viewer's events
hold nothing his view does not."""

from __future__ import annotations

import random

from rome_and_carthage_helpers import BATTLE_AT_SALONA

from boardrules.games.rome_and_carthage import RomeCarthageGame
from boardrules.games.rome_and_carthage.events import sees_hand


def _battle(text: str = BATTLE_AT_SALONA) -> object:
    game = RomeCarthageGame(players=2)
    state = game.position(text)
    state.apply("aquileia-salona")
    return state


def test_battle_reveal_shows_cards_totals_and_result() -> None:
    state = _battle()
    state.apply("play 10+5")
    assert state.last_events(1) == []          # face down: nothing shown yet
    state.apply("play 7+3")
    kinds = [e.kind for e in state.last_events(None)]
    assert kinds == ["battle", "excluded", "over"]
    battle = state.last_events(None)[0].data
    assert battle["city"] == "salona"
    assert battle["armies"] == ["rome infantry", "byzantium infantry"]
    assert battle["cards"] == [[10, 5], [7, 3]]
    assert battle["totals"] == [15, 10]
    assert battle["advantages"] == [None, None]
    assert battle["result"] == "attacker"
    assert state.last_events(None)[2].data == {"winner_team": 0, "reason": "elimination"}


def test_battle_special_advantage_elephant_doubles_its_highest_card() -> None:
    state = _battle(BATTLE_AT_SALONA.replace("byzantium infantry", "byzantium elephant"))
    state.apply("play 10+5")
    state.apply("play 7+3")
    battle = state.last_events(None)[0].data
    assert battle["advantages"] == [None, "elephant"]
    assert battle["totals"] == [15, 17]
    assert battle["result"] == "defender"


def test_battle_ties_both_zero_totals_attacker_retreats() -> None:
    state = _battle()
    state.apply("play 0+0")
    state.apply("play 0+0")
    events = state.last_events(0)
    assert [e.kind for e in events][:2] == ["battle", "retreat"]
    assert events[0].data["result"] == "retreat"
    assert events[1].data == {"army": "rome infantry", "from": "salona", "to": "aquileia"}


def _drawing(turn_player: int, seed: int) -> object:
    text = (BATTLE_AT_SALONA.replace("phase: main", "phase: draw")
            .replace("turn_player: 0\ncurrent: 0", f"turn_player: {turn_player}\n"
                     f"current: {turn_player}\ndraws_left: 1"))
    return RomeCarthageGame(players=2).position(text, seed=seed)


def test_draw_a_card_is_seen_by_the_drawer_only() -> None:
    state = _drawing(1, seed=3)
    truth = state.events(1)
    assert [e.kind for e in truth] == ["draw"]
    assert truth[0].data["card"] in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert state.events(0)[0].data == {"player": 1, "card": None}
    assert state.events(None)[0].data == {"player": 1, "card": None}


def test_draw_twins_give_equal_events_to_who_cannot_see() -> None:
    cards = {}
    for seed in range(40):
        state = _drawing(1, seed)
        cards.setdefault(state.events(1)[0].data["card"], state)
    assert len(cards) >= 2
    first, second = list(cards.values())[:2]
    assert first.events(0) == second.events(0)
    assert first.events(None) == second.events(None)
    assert first.events(1) != second.events(1)


def test_events_hold_no_card_the_view_hides_in_random_games() -> None:
    for options in RomeCarthageGame.example_options:
        game = RomeCarthageGame(**options)  # type: ignore[arg-type]
        state = game.new_game(seed=11)
        rng = random.Random(11)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        for viewer in [None, *range(game.num_players)]:
            for event in state.events(viewer):
                if event.kind in ("draw", "give"):
                    visible = sees_hand(game, viewer, event.data["player"])
                    assert (event.data["card"] is not None) == visible
                if event.kind == "battle":
                    assert event.data["result"] in (
                        "attacker", "defender", "retreat", "tie", "spy", "restart")


def test_render_text_shows_the_last_events() -> None:
    state = _battle()
    state.apply("play 0+0")
    state.apply("play 0+0")
    assert "last: battle at salona: 0+0 vs 0+0, totals 0-0: retreat" in state.render_text(0)
