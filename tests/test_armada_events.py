"""Armada events (docs/armada.rst, "Events"): dice and their effect, exploration finds,
combat, cards drawn and played; redacted per viewer exactly as ``view`` is."""

from __future__ import annotations

from boardrules.games.armada import ArmadaGame
from boardrules.testing import check_events_redact_as_views, check_forced_steps_recorded

#: Green's 5 bands on ci1 (explored) beside raspberry's 2 on ci4; green to act.
BATTLE = """armada position
territory ci1: flag=green green=5 explored
territory ci4: flag=raspberry raspberry=2 explored
territory rs1: flag=raspberry raspberry=3
territory bl1: flag=blue blue=3
territory or1: flag=orange orange=3
phase: turn
"""


def _kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def test_events_combat_die_and_its_effect() -> None:
    game = ArmadaGame()
    state = game.position(BATTLE, auto_chance=False)
    assert "attack ci1-ci4" in [str(m) for m in state.legal_moves()]
    state.apply("attack ci1-ci4")
    roll = max((m for m, _ in state.chance_outcomes()), key=lambda m: (m.first, m.second))
    state.apply(roll)
    events = [e.as_dict() for e in state.events()]
    assert events[0]["kind"] == "dice" and events[0]["die"] == "combat"
    assert (events[0]["defenders_lost"], events[0]["attackers_lost"]) == (roll.first,
                                                                          roll.second)
    combat = events[1]
    assert combat["kind"] == "combat" and combat["from"] == "ci1" and combat["to"] == "ci4"
    assert (combat["attacker"], combat["defender"]) == ("green", "raspberry")
    view = state.view(None)["territories"]
    ci1, ci4 = (next(t for t in view if t["territory"] == k) for k in ("ci1", "ci4"))
    assert combat["defenders_lost"] == 2 - ci4["bands"] == min(2, roll.first)
    assert combat["attackers_lost"] == 5 - ci1["bands"] == min(5, roll.second)
    assert "last: dice die combat" in state.render_text()


def test_events_exploration_find() -> None:
    game = ArmadaGame()
    text = BATTLE.replace("territory ci4: flag=raspberry raspberry=2 explored",
                          "territory ci4: -")
    state = game.position(text, auto_chance=False)
    explores = [str(m) for m in state.legal_moves() if m.kind == "explore"]
    assert explores
    state.apply(explores[0])
    outcome = next(str(m) for m, _ in state.chance_outcomes() if str(m) != "find 0 0")
    state.apply(outcome)
    kinds = _kinds(state.last_events())
    assert kinds == ["dice", "found"]
    found = state.last_events()[-1].data
    t = [t.key for t in game.board.territories].index(found["territory"])
    assert found["gold"] == state.view(None)["territories"][t]["gold"]
    assert found["natives"] == state.view(None)["territories"][t]["natives"]


def test_events_cards_drawn_are_seen_by_their_owner_only() -> None:
    game = ArmadaGame(players=2, cards=True)
    state = game.new_game(seed=3)
    deals = [e for e in state.events() if e.kind == "draw"]
    assert len(deals) == 4
    for viewer in (0, 1, None):
        for event in state.events(viewer):
            if event.kind == "draw":
                mine = event.data["player"] == viewer
                assert (event.data["card"] is not None) == mine
    hand = state.view(0)["players"][0]["hand"]
    drawn = [e.data["card"] for e in state.events(0)
             if e.kind == "draw" and e.data["player"] == 0]
    assert sorted(drawn) == sorted(k for k, n in hand.items() for _ in range(n))


def test_events_redact_as_views_and_forced_steps_recorded() -> None:
    for options in ArmadaGame.example_options[2:]:
        game = ArmadaGame(**options)
        check_events_redact_as_views(game, games=1, seed=1)
        check_forced_steps_recorded(game, games=1, seed=1)
