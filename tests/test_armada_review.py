"""Armada: an adversarial review of the rules core (src_ext/boardrules/_ext/armada.pyx)
and its facade (boardrules/games/armada/game.py).

Each test checks one thing the rule text (shared/rules/armada_1986.txt), the lead's
readings (M1..M26) or the core's contract promises: the bounds the C buffers rely on and
the declared ``max_game_length``, that nothing an observer sees depends on another
player's hand, that saves round-trip at every kind of decision and forged saves are
refused, that bad input changes nothing, and rules points checked against the text.
The defects this review found are fixed and kept as regressions: a staged position's
missing limits (a pending move's source, emptying the pile at a draw), history_view
replaying an edited history, determinize at a Grand stratège's next draw, the 3-player
Shipyard, a Coup de main's recruitment, the window after a Coup de main, and two
explanations.  Long ASan runs are not here (they take minutes); see the review report.

Positions are staged through the position format (``edit`` in
``tests/armada_review_helpers.py`` changes one field of ``state.position()``, checked by
``game.position``) and legal moves; games run without automatic chance so that every
die and card is the test's choice.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from armada_review_helpers import (
    W_BOX,
    W_CITY,
    W_SEA,
    C,
    S,
    T,
    clear_hands,
    edit,
    give,
    legal,
    new,
    play,
    random_game,
    raw,
    stage,
)

import boardrules
from boardrules import CHANCE, IllegalMoveError, InvalidMoveError, InvalidStateError
from boardrules._ext.armada import CARD_KINDS, ArmadaCore
from boardrules.games.armada import ArmadaGame, ArmadaState

ALL_OPTIONS = (
    {"players": 4, "cards": True, "recruitment": True, "reaction_windows": "every_action"},
    {"players": 3, "cards": True, "recruitment": True, "reaction_windows": "every_action",
     "neutral": "blue"},
    {"players": 2, "cards": True, "recruitment": True, "reaction_windows": "turn_start"},
    {"players": 4, "cards": True, "reaction_windows": "off"},
)


def consistent(state: ArmadaState) -> None:
    bad = {k: v for k, v in state.invariants().items() if v[0] != v[1]}
    assert not bad, bad


def bounded(state: ArmadaState) -> None:
    """Every legal action id inside the layout, no more than max_legal_actions, the
    history within max_game_length; bands/gold choices inside their blocks."""
    game = state.game
    actions = state._core.legal_actions()
    assert len(actions) <= game.num_distinct_actions
    assert all(0 <= a < game.num_distinct_actions for a in actions)
    assert len(state.history) <= game.max_game_length
    for move in state.legal_moves():
        if move.kind in ("bands", "deploy"):
            assert move.count is not None and move.count <= 50
        if move.kind == "gold":
            assert move.count is not None and move.count <= 50


def check(state: ArmadaState) -> None:
    consistent(state)
    bounded(state)


# ------------------------------------------------------------------ memory and bounds


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_random_games_keep_invariants_and_bounds(options: dict[str, Any]) -> None:
    state = new(**options, max_rounds=3)
    n = random_game(state, random.Random(7), check=check)
    assert state.is_terminal() and n > 0
    assert len(state.history) <= state.game.max_game_length


def test_core_random_playouts_all_options() -> None:
    for options in ALL_OPTIONS:
        game = ArmadaGame(**options, max_rounds=4)
        moves = game.core.random_playouts(3, 11)
        assert 0 < moves <= 3 * game.max_game_length


def _limit_board(extra_land: int = 0) -> dict[str, Any]:
    """ArmadaCore arguments for a board at the compiled limits: 64 territories (four
    lairs of 8, 32 central), 128 sea spaces, a sea space with 16 sea links and 16 shores,
    a territory with 16 land links and 16 coasts (``extra_land`` links one more)."""
    groups = [2] * 32 + [0] * 32
    lairs = [r // 8 for r in range(32)] + [-1] * 32
    cities = [r < 32 and r % 8 < 3 for r in range(64)]
    posts = [-1] * 64
    for k in range(5):
        posts[32 + k] = k
    land = [(r, r + 1) for r in range(31) if r // 8 == (r + 1) // 8]
    land += [(r, r + 1) for r in range(32, 63)]
    hub = 40                                  # 16 land links: 32..39 and 41..48
    land += [(hub, x) for x in [*range(32, 39), *range(42, 49 + extra_land)]]
    sea = [(x, x + 1) for x in range(127)]    # a line through all 128 spaces
    sea += [(0, x) for x in range(2, 17)]     # sea 0: 16 links (1..16)
    coast = [(x, r) for r in range(64) for x in (2 * (r % 60) + 6,)]
    coast += [(0, r) for r in range(33, 49) if r != 40]   # sea 0: 15 shores + 1 below
    coast += [(0, 40)]
    coast += [(x, hub) for x in range(100, 114)]          # the hub: 16 coasts
    return {"groups": groups, "lairs": lairs, "islands": [r // 8 for r in range(64)],
            "cities": cities, "posts": posts, "nseas": 128, "land": land, "sea": sea,
            "coast": coast}


def _limit_core(board: dict[str, Any], players: int = 4, **options: Any) -> ArmadaCore:
    deck = [5, 5, 3, 4, 2, 1, 1, 1, 1, 8, 8, 16]
    combat = [[1, 0], [1, 0], [2, 0], [2, 0], [0, 1], [0, 2]]
    return ArmadaCore(players, board["groups"], board["lairs"], board["islands"],
                      board["cities"], board["posts"], board["nseas"],
                      [list(p) for p in board["land"]], [list(p) for p in board["sea"]],
                      [list(p) for p in board["coast"]], combat, [0, 1, 1, 2, 2, 3],
                      [0, 1, 1, 2, 2, 3], deck, [18] * 4, **options)


def test_core_board_at_the_compiled_limits_plays() -> None:
    board = _limit_board()
    for options in ({"cards": True, "recruitment": True, "windows": 2}, {}):
        core = _limit_core(board, **options)
        assert core.random_playouts(2, 5) > 0


def test_core_refuses_a_seventeenth_link() -> None:
    board = _limit_board(extra_land=1)
    with pytest.raises(ValueError, match="at most 16 links"):
        _limit_core(board)
    too_many_seas = dict(_limit_board(), nseas=129)
    with pytest.raises(ValueError):
        _limit_core(too_many_seas)


def _big_board(extra_links: int = 0) -> dict[str, Any]:
    """The shipped board with 40 more sea spaces (128, the limit): a chain from s_c2 next
    to green's lair, the last one linked to ``extra_links`` more of them besides its
    neighbour (16 at most)."""
    from boardrules.games.armada.board import BOARDS_DIR

    doc: dict[str, Any] = json.loads((BOARDS_DIR / "archipelago.json").read_text("utf-8"))
    doc["provenance"] = "user"
    keys = [f"s_x{k}" for k in range(40)]
    doc["seas"] += [{"key": key, "x": 10.0 + k, "y": 990.0} for k, key in enumerate(keys)]
    doc["sea"] += [["s_c2", keys[0]]] + [[keys[k], keys[k + 1]] for k in range(39)]
    doc["sea"] += [[keys[39], keys[k]] for k in range(extra_links)]
    doc["coast"] += [[keys[0], "gn3"], [keys[1], "gn3"], [keys[2], "gn5"]]
    return doc


def test_user_board_with_128_seas_plays() -> None:
    doc = _big_board(extra_links=15)            # s_x39: 16 sea links
    for options in ({"players": 4, "cards": True, "recruitment": True,
                     "reaction_windows": "every_action"}, {"players": 2}):
        game = ArmadaGame(**options, board=doc, max_rounds=6)
        assert len(game.board.seas) == 128
        assert game.core.random_playouts(4, 3) > 0
        state = new(**options, board=doc, max_rounds=3)
        random_game(state, random.Random(1), check=check)


def test_user_board_with_a_seventeenth_link_is_refused() -> None:
    from boardrules.errors import BoardDataError

    with pytest.raises(BoardDataError, match="16 links"):
        ArmadaGame(board=_big_board(extra_links=16))


@pytest.mark.parametrize(("field", "value", "i", "j"), [
    ("bands", 256, 0, 0), ("bands", -1, 0, 0), ("bands", 51, 2, 0), ("gold", 51, 2, 0),
    ("natives", 51, 40, 0), ("flag", 5, 0, 0), ("occ", 4, 0, 0), ("bands", 3, 52, 0),
    ("ship_where", 3, 0, 0), ("ship_pos", 88, 0, 0), ("ship_owner", 4, 0, 0),
    ("ship_bands", 1, 0, 0), ("ship_gold", 1, 8, 0), ("hand", 6, 0, 0), ("hand", 1, 4, 0),
    ("hand", 1, 0, 12), ("played", 17, 11, 0), ("played", 1, 12, 0), ("option", 1, 4, 0),
    ("round", 0, 0, 0), ("round", 61, 0, 0), ("phase", 1, 0, 0), ("explored", 1, -1, 0),
])
def test_edit_hook_refuses_out_of_limits_and_changes_nothing(field: str, value: int, i: int,
                                                           j: int) -> None:
    state = new(4, cards=True)
    before = state.state_bytes()
    if field == "ship_pos":
        edit(state, "ship_where", W_BOX, 0)    # a ship at sea must be on a sea space
        edit(state, "ship_where", W_SEA, 0)
        before = state.state_bytes()
    with pytest.raises((ValueError, OverflowError)):
        edit(state, field, value, i, j)
    assert state.state_bytes() == before


def test_edit_hook_flags_and_ship_tokens() -> None:
    state = new(4)
    edit(state, "ship_where", W_BOX, 1)
    edit(state, "ship_pos", S(state, "s_c1"), 1)
    edit(state, "ship_where", W_SEA, 1)
    before = state.state_bytes()
    with pytest.raises(ValueError):
        edit(state, "ship_gold", 11, 1)           # "never more than 10 tokens"
    with pytest.raises(ValueError):
        edit(state, "ship_pos", T(state, "gn1"), 0)   # an unlaunched ship on a city
    edit(state, "ship_where", W_BOX, 0)
    edit(state, "ship_pos", S(state, "s_c1"), 0)
    with pytest.raises(ValueError):
        edit(state, "ship_where", W_SEA, 0)       # two ships on one sea space
    edit(state, "ship_pos", T(state, "gn3"), 0)
    edit(state, "ship_where", W_CITY, 0)
    assert state.state_bytes() == before
    # 31 flags of one colour: at most 30 tokens
    for t in range(7, 37):                         # other lairs and the central group
        edit(state, "flag", C("green"), t)
    with pytest.raises(ValueError, match="30 at most"):
        edit(state, "flag", C("green"), 40)
    assert raw(state)["flags_used"][C("green")] == 30


def test_edit_during_pending_move_cannot_underflow_the_source() -> None:
    state = new(4)
    gn1 = T(state, "gn1")
    edit(state, "gold", 1, gn1)
    play(state, "move gn1-gn2", "bands 3")
    assert state.phase == "gold"
    before = state.state_bytes()
    with pytest.raises(ValueError):
        edit(state, "bands", 1, gn1)      # fewer than the 3 bands the move carries
    assert state.state_bytes() == before


def test_edit_cannot_empty_the_pile_during_a_draw() -> None:
    """Regression: editing hands at a draw could empty the pile, leaving a chance node
    without outcomes (core._chance_draw then applied a stale id).  The hook now edits
    only at a colour's turn."""
    state = new(4, cards=True, reaction_windows="off")
    edit(state, "gold", 2, T(state, "gn1"))
    play(state, "buy gn1")
    assert state.current_player == CHANCE
    deck = raw(state)["deck"]
    before = state.state_bytes()
    for k in range(12):
        if deck[k]:
            with pytest.raises(ValueError, match="turn only"):
                edit(state, "hand", raw(state)["hand"][1][k] + deck[k], 1, k)
    assert state.state_bytes() == before
    assert state.chance_outcomes()


def test_history_view_of_an_edited_state_names_the_right_drawer() -> None:
    state = new(4, cards=True, reaction_windows="turn_start")
    clear_hands(state)                    # no window at raspberry's turn (none in replay)
    edit(state, "gold", 2, T(state, "rs1"))
    play(state, "end", "buy rs1", "draw dope")
    assert state.history_view(1)[-1] == (CHANCE, "draw dope")
    assert state.history_view(2)[-1] == (CHANCE, "draw ?")


def test_max_legal_actions_covers_a_crowded_turn() -> None:
    """A colour on many territories with ships, gold, cards and recruitment: the legal
    list stays inside the layout (every id once)."""
    state = new(4, cards=True, recruitment=True, reaction_windows="off")
    for key in ("ci1", "post_north", "ci2", "post_west"):
        stage(state, key, 1)
    for key in ("gn1", "gn2", "ci1", "post_north"):
        edit(state, "gold", 2, T(state, key))
    for card in ("dope", "strategist", "gold_mine", "recruitment", "discovery"):
        give(state, 0, card)
    moves = state._core.legal_actions()
    assert len(moves) == len(set(moves))
    bounded(state)
    assert {"recruit", "play dope", "buy gn1"} <= set(legal(state))


# ------------------------------------------------------------------ max_game_length


def _longest(state: ArmadaState, rng: random.Random) -> None:
    """A player who never ends while anything else is legal and always looks again."""
    while not state.is_terminal():
        if state.current_player == CHANCE:
            moves, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(moves, weights)[0])
            continue
        moves = legal(state)
        if "look" in moves:
            state.apply("look")
            continue
        plays = [m for m in moves if m.startswith("play")]
        rest = [m for m in moves if m not in ("end", "decline")] or moves
        state.apply(rng.choice(plays or rest))
        assert len(state.history) <= state.game.max_game_length


@pytest.mark.parametrize("players", [2, 4])
def test_max_game_length_holds_for_long_turns(players: int) -> None:
    """Dopé and Grand stratège cards in every hand, every_action windows, recruitment:
    the longest play we could build stays within the declared bound."""
    state = new(players, cards=True, recruitment=True, reaction_windows="every_action",
                max_rounds=1)
    clear_hands(state)
    per_player = {"dope": 16 // players, "strategist": 8 // players,
                  "coup_de_main": 4 // players, "attack_weapon": 1, "defence_weapon": 1}
    for p in range(players):
        for card, n in per_player.items():
            give(state, p, card, n)
    _longest(state, random.Random(3))
    assert state.is_terminal()
    assert len(state.history) <= state.game.max_game_length


@pytest.mark.parametrize("players", [2, 3, 4])
def test_max_game_length_holds_without_cards(players: int) -> None:
    """Without cards no window opens and no card is dealt or played, so the bound counts
    none (whatever ``reaction_windows`` says); the longest play still stays within it."""
    state = new(players, recruitment=True, max_rounds=2)
    assert state.game.max_game_length == ArmadaGame(
        players, recruitment=True, max_rounds=2, reaction_windows="off").max_game_length
    _longest(state, random.Random(5))
    assert state.is_terminal()
    assert len(state.history) <= state.game.max_game_length


def test_max_game_length_is_refused_above_in_saves() -> None:
    state = new(4, max_rounds=1)
    doc = json.loads(state.to_json())
    doc["history"] = doc["history"] + ["end"] * (state.game.max_game_length + 1)
    with pytest.raises(InvalidStateError, match="longer than any game"):
        state.game.state_from_json(json.dumps(doc))


# ------------------------------------------------------------------ information


def _twin(options: dict[str, Any], hidden: int) -> tuple[ArmadaState, ArmadaState]:
    """Two states that differ only in player ``hidden``'s hand (same size): one holds a
    Coup de main, an attack and a defence weapon, the other three Dopé cards."""
    a = new(**options)
    clear_hands(a)
    b = a.copy()
    for p in range(a.game.num_players):
        if p != hidden:
            give(a, p, "gold_mine")
            give(b, p, "gold_mine")
    for card in ("coup_de_main", "attack_weapon", "defence_weapon"):
        give(a, hidden, card)
    give(b, hidden, "dope", 3)
    return a, b


def _observed(state: ArmadaState, observer: int | None) -> Any:
    return (state.current_player, state.view(observer), state.history_view(observer))


@pytest.mark.parametrize(("options", "hidden"), [
    ({"players": 4, "cards": True, "recruitment": True,
      "reaction_windows": "every_action"}, 2),
    ({"players": 2, "cards": True, "reaction_windows": "every_action"}, 1),
    ({"players": 3, "cards": True, "reaction_windows": "turn_start"}, 0),
])
def test_opponent_hand_changes_nothing_an_observer_sees(options: dict[str, Any],
                                                         hidden: int) -> None:
    """Both states follow the same moves (the hidden player's moves are legal in both,
    chance outcomes possible in both): every view, current player and history view of
    every other player and a spectator stays identical, windows included."""
    a, b = _twin(options, hidden)
    rng = random.Random(5)
    observers = [p for p in range(a.game.num_players) if p != hidden] + [None]
    windows = 0
    for _ in range(400):
        for observer in observers:
            assert _observed(a, observer) == _observed(b, observer)
        if a.is_terminal():
            break
        if a.current_player == CHANCE:
            common = sorted({str(m) for m, _ in a.chance_outcomes()}
                            & {str(m) for m, _ in b.chance_outcomes()})
        else:
            common = sorted(set(legal(a)) & set(legal(b)))
            if a.current_player != hidden:
                assert legal(a) == legal(b)
        windows += a.phase in ("coup", "attack_weapon", "defence_weapon") \
            and a.current_player == hidden
        move = rng.choice([m for m in common if m != "end"] or common)
        a.apply(move)
        b.apply(move)
    assert windows > 0          # the hidden player's windows were exercised


def test_windows_open_for_a_player_without_the_card() -> None:
    """M4/M5: a player with a card in hand is asked, whatever the card."""
    state = new(4, cards=True, reaction_windows="turn_start")
    clear_hands(state)
    give(state, 0, "gold_mine")           # green's player holds one card, not a weapon
    play(state, "end")                    # raspberry's turn: green's player is asked
    assert state.phase == "coup" and state.current_player == 0
    assert legal(state) == ["decline"]
    play(state, "decline")
    assert state.phase == "turn" and state.current_player == 1   # players 2, 3: no card
    # raspberry's bands next to green's (gn2 given to raspberry), neither holds a weapon
    edit(state, "occ", C("raspberry"), T(state, "gn2"))
    edit(state, "flag", C("raspberry"), T(state, "gn2"))
    give(state, 1, "dope")
    assert "attack gn2-gn1" in legal(state)
    play(state, "attack gn2-gn1", "hits 1 0")
    assert state.phase == "attack_weapon" and state.current_player == 1
    assert legal(state) == ["decline"]
    play(state, "decline")
    assert state.phase == "defence_weapon" and state.current_player == 0
    assert legal(state) == ["decline"]
    play(state, "decline")
    assert state.phase == "turn"
    # nobody with a card: no window at all
    clear_hands(state)
    play(state, "attack gn2-gn1", "hits 1 0")
    assert state.phase == "turn"


def test_no_window_once_every_copy_is_played() -> None:
    state = new(4, cards=True)
    for p in range(4):
        give(state, p, "coup_de_main", 0)
    edit(state, "played", 4, CARD_KINDS.index("coup_de_main"))
    play(state, "end")
    assert state.phase == "turn" and state.current_player == 1


def test_weapon_windows_closed_once_every_copy_is_played() -> None:
    """M5: by public information a player cannot hold a weapon whose 5 copies are all
    face up: no window, although hands hold cards."""
    state = new(4, cards=True, reaction_windows="off")
    clear_hands(state)
    for p in range(4):
        give(state, p, "dope")
    edit(state, "played", 5, CARD_KINDS.index("attack_weapon"))
    edit(state, "occ", C("raspberry"), T(state, "gn2"))
    edit(state, "flag", C("raspberry"), T(state, "gn2"))
    play(state, "attack gn1-gn2", "hits 1 0")
    assert state.phase == "defence_weapon" and state.current_player == 1
    play(state, "decline")
    edit(state, "played", 5, CARD_KINDS.index("defence_weapon"))
    play(state, "attack gn1-gn2", "hits 1 0")
    assert state.phase == "turn"


def test_coup_windows_in_turn_order_from_the_acting_colour() -> None:
    state = new(4, cards=True, reaction_windows="turn_start")
    play(state, "end", "decline", "decline", "decline")   # raspberry's turn: 2, 3, 0
    play(state, "end")                                     # blue's turn
    asked = []
    while state.phase == "coup":
        asked.append(state.current_player)
        play(state, "decline")
    assert asked == [3, 0, 1] and state.current_player == 2


def test_window_goes_on_after_a_coup_de_main() -> None:
    state = new(4, cards=True, reaction_windows="turn_start")
    clear_hands(state)
    for p in (2, 3):
        give(state, p, "coup_de_main")
    play(state, "end")                     # raspberry's turn: player 2 asked first
    assert state.phase == "coup" and state.current_player == 2
    play(state, "play coup_de_main blue", "end")
    assert state.phase == "coup" and state.current_player == 3


def test_strategist_card_hidden_from_others() -> None:
    state = new(4, cards=True, reaction_windows="off")
    clear_hands(state)
    give(state, 0, "strategist")
    play(state, "play strategist", "draw coup_de_main")
    assert state.phase == "look"
    assert state.view(0)["pending"]["card"] == "coup_de_main"
    for p in (1, 2, 3, None):
        assert state.view(p)["pending"]["card"] is None
        assert state.history_view(p)[-1] == (CHANCE, "draw ?")
    assert state.history_view(0)[-1] == (CHANCE, "draw coup_de_main")
    play(state, "look", "draw dope", "take")
    assert raw(state)["hand"][0][CARD_KINDS.index("dope")] == 1
    assert raw(state)["looked"] == [0] * 12
    consistent(state)


def _looked_twins() -> tuple[ArmadaState, ArmadaState]:
    """Player 0 has looked at one card with a Grand stratège and looks again (the draw
    pending): one state set aside a Coup de main, the other a Dopé."""
    states = []
    for card in ("coup_de_main", "dope"):
        state = new(4, cards=True, reaction_windows="off")
        clear_hands(state)
        give(state, 0, "strategist")
        for p in (1, 2, 3):
            give(state, p, "gold_mine")
        play(state, "play strategist", f"draw {card}", "look")
        assert state.current_player == CHANCE
        states.append(state)
    return states[0], states[1]


def test_determinize_hides_set_aside_cards_at_the_next_draw() -> None:
    a, b = _looked_twins()
    for seed in range(5):
        wa, wb = raw(a.determinize(1, seed)), raw(b.determinize(1, seed))
        for key in ("hand", "deck", "looked"):
            assert wa[key] == wb[key], key


def test_determinize_hides_set_aside_cards_while_looking() -> None:
    a, b = _looked_twins()
    play(a, "draw gold_mine")
    play(b, "draw gold_mine")
    for seed in range(5):
        wa, wb = raw(a.determinize(1, seed)), raw(b.determinize(1, seed))
        for key in ("hand", "deck", "looked"):
            assert wa[key] == wb[key], key
    # the looker's own world keeps what he saw
    assert raw(a.determinize(0, 1))["looked"] == raw(a)["looked"]


# ------------------------------------------------------------------ saves


def _scripted_game() -> dict[str, ArmadaState]:
    """A game played by legal moves only (saves replay the history, so edits would not
    round-trip), reaching every kind of decision; the first state of each phase."""
    state = new(4, cards=True, recruitment=True, max_rounds=2, reaction_windows="turn_start",
                deal=["gold_mine", "strategist", "defence_weapon", "coup_de_main",
                      "recruitment", "dope", "dope", "dope"])
    seen: dict[str, ArmadaState] = {}
    script = [
        "play gold_mine", "place gn1", "move gn1-gn2", "bands 1", "gold 1",
        "buy gn1", "draw dope", "play dope", "play strategist", "draw big_recruitment",
        "look", "draw attack_weapon", "take", "launch gn5-s_e2", "move gn5-s_e2",
        "bands 3", "sail s_e2-s_e1", "sail s_e1-s_f1", "sail s_f1-s_g1", "explore nn2", "find 1 1",
        "sail s_g1-s_h1", "attack s_h1-rs6", "hits 1 0", "decline", "play defence_weapon",
        "end", "end", "play recruitment", "spears 2", "place bl1",
    ]
    for move in script:
        seen.setdefault(state.phase, state.copy())
        play(state, move)
        while state.phase == "coup":
            seen.setdefault("coup", state.copy())
            play(state, "decline")
    while not state.is_terminal():
        play(state, "end" if state.phase == "turn" else "decline")
    seen["over"] = state
    return seen


def test_saves_round_trip_at_every_kind_of_decision() -> None:
    seen = _scripted_game()
    expected = {"turn", "bands", "gold", "roll", "attack_weapon", "defence_weapon",
                "explore", "draw", "look", "coup", "place", "tribes", "over"}
    assert expected <= set(seen), expected - set(seen)
    for state in seen.values():
        text = state.to_json()
        back = boardrules.state_from_json(text)
        assert back == state
        assert back.view(None) == state.view(None)
        assert back.to_json() == text


def test_every_phase_renders_determinizes_and_undoes() -> None:
    """At each kind of decision: the pictures draw for every viewer, a determinized
    world looks the same to its observer (only hidden cards are redrawn) and keeps every
    invariant, and undo walks back to the earlier phases byte for byte."""
    seen = _scripted_game()
    final = seen["over"]
    for state in seen.values():
        n = state.game.num_players
        for viewer in [*range(n), None]:
            assert state.render_text(viewer)
            assert state.render_svg(viewer).startswith("<svg")
        for p in range(n):
            world = state.determinize(p, seed=p)
            consistent(world)
            assert world.view(p) == state.view(p)
            assert raw(world)["hand"][p] == raw(state)["hand"][p]
    states = sorted(seen.values(), key=lambda st: len(st.history), reverse=True)
    walker = final.copy()
    for state in states:
        while len(walker.history) > len(state.history):
            walker.undo()
        assert walker.state_bytes() == state.state_bytes()


def test_auto_chance_save_round_trips_with_cards() -> None:
    game = ArmadaGame(4, cards=True, recruitment=True, reaction_windows="every_action",
                      max_rounds=2)
    state = game.new_game(seed=9)
    rng = random.Random(2)
    for _ in range(150):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    assert boardrules.state_from_json(state.to_json()) == state
    # a dealt card changed: the saved RNG does not draw it
    doc = json.loads(state.to_json())
    first = doc["history"][0]
    doc["history"][0] = "draw dope" if first != "draw dope" else "draw strategist"
    with pytest.raises(InvalidStateError, match="RNG"):
        boardrules.state_from_json(json.dumps(doc))


def _doc(state: ArmadaState) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(state.to_json())
    return loaded


def test_forged_saves_are_refused() -> None:
    state = new(4, cards=True, max_rounds=3)
    play(state, "end")
    while state.current_player != 1:
        play(state, "decline")
    good = _doc(state)
    forged: list[dict[str, Any]] = []
    # a history move changed: another card dealt (the snapshot's hands differ)
    doc = json.loads(json.dumps(good))
    i = next(k for k, m in enumerate(doc["history"]) if m.startswith("draw"))
    doc["history"][i] = "draw dope" if doc["history"][i] != "draw dope" else "draw shipyard"
    forged.append(doc)
    # an illegal move inserted
    doc = json.loads(json.dumps(good))
    doc["history"].insert(len(doc["history"]) - 1, "convert gn1")
    forged.append(doc)
    # an unknown move
    doc = json.loads(json.dumps(good))
    doc["history"][-1] = "fly gn1"
    forged.append(doc)
    # the snapshot's hand changed
    doc = json.loads(json.dumps(good))
    doc["state"]["hand"][1][11] += 1
    forged.append(doc)
    # other options
    for key, value in (("players", 3), ("cards", False), ("board", "/etc/passwd"),
                       ("dice", "../dice.json"), ("deck", "/tmp/deck.json"),
                       ("reaction_windows", "never"), ("neutral", "green"),
                       ("board", {"format": "boardrules-board"})):
        doc = json.loads(json.dumps(good))
        doc["options"][key] = value
        forged.append(doc)
    for doc in forged:
        with pytest.raises(InvalidStateError):
            boardrules.state_from_json(json.dumps(doc))
        with pytest.raises(InvalidStateError):
            state.game.state_from_json(json.dumps(doc))
    # another round cap is another (valid) game: only this game's loader refuses it
    doc = json.loads(json.dumps(good))
    doc["options"]["max_rounds"] = 61
    with pytest.raises(InvalidStateError, match="options differ"):
        state.game.state_from_json(json.dumps(doc))
    assert boardrules.state_from_json(json.dumps(doc)).game.options["max_rounds"] == 61


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"game": "armada"}', "\udcff",
                                  b"\xff\xfe", "x" * 3_000_000])
def test_junk_saves_are_refused(text: Any) -> None:
    with pytest.raises(InvalidStateError):
        boardrules.state_from_json(text)


def test_saved_board_as_content_round_trips_and_paths_are_refused(tmp_path: Any) -> None:
    from boardrules.games.armada.board import BOARDS_DIR

    path = tmp_path / "board.json"
    path.write_text((BOARDS_DIR / "archipelago.json").read_text("utf-8"), "utf-8")
    game = ArmadaGame(2, board=str(path), max_rounds=2)
    assert isinstance(game.options["board"], dict)      # saved as content, not the path
    state = game.new_game(seed=3)
    back = boardrules.state_from_json(state.to_json())
    assert back == state
    doc = _doc(state)
    doc["options"]["board"] = str(path)
    with pytest.raises(InvalidStateError):
        boardrules.state_from_json(json.dumps(doc))


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("move", [
    "", " ", "move", "move gn1", "move gn1-", "move gn1-zz", "bands 51", "bands -1",
    "gold 999", "deploy 51", "play", "play nothing", "play coup_de_main brown",
    "hits 4 0", "draw joker", "x" * 200, "move\x00gn1-gn2", "\uff4dove gn1-gn2",
])
def test_junk_move_text_is_refused_and_changes_nothing(move: str) -> None:
    state = new(4, cards=True)
    before = state.state_bytes()
    with pytest.raises(InvalidMoveError):
        state.apply(move)
    assert state.state_bytes() == before
    assert not state.is_legal(move)


@pytest.mark.parametrize("move", [None, 3, 3.0, b"end", ["end"], True, object()])
def test_wrong_types_raise_type_error_and_change_nothing(move: Any) -> None:
    state = new(4, cards=True)
    before = state.state_bytes()
    with pytest.raises(TypeError):
        state.apply(move)
    assert state.state_bytes() == before


def test_illegal_and_out_of_turn_moves_change_nothing() -> None:
    state = new(4, cards=True)
    cases: list[tuple[str, int | None, str]] = [
        ("end", 1, "wrong_player"), ("end", 4, "wrong_player"),
        ("decline", None, "nothing_pending"), ("hits 1 0", None, "not_chance"),
        ("deploy 3", None, "setup_over"), ("recruit", None, "recruitment_off"),
        ("convert gn3", None, "convert_not_allowed"), ("move rs1-rs2", None,
                                                       "move_not_allowed"),
        ("attack gn1-gn2", None, "attack_not_allowed"), ("explore ci1", None,
                                                         "explore_not_allowed"),
        ("play coup_de_main raspberry", None, "nothing_pending"),
    ]
    for move, player, rule in cases:
        before = state.state_bytes()
        with pytest.raises(IllegalMoveError) as err:
            state.apply(move, player=player)
        assert err.value.rule == rule, (move, err.value.rule)
        assert state.state_bytes() == before
    with pytest.raises(TypeError):
        state.apply("end", player="0")  # type: ignore[arg-type]
    play(state, "move gn1-gn2")
    before = state.state_bytes()
    with pytest.raises(IllegalMoveError):
        state.apply("bands 4")          # 3 bands on gn1
    with pytest.raises(IllegalMoveError):
        state.apply("end")
    assert state.state_bytes() == before


def test_recruit_without_actions_is_explained_by_the_action_budget() -> None:
    state = new(4, recruitment=True)
    edit(state, "ap", 0)
    with pytest.raises(IllegalMoveError) as err:
        state.apply("recruit")
    assert err.value.rule == "no_actions_left"


@pytest.mark.parametrize("options", [
    {"players": True}, {"players": 5}, {"players": "4"}, {"players": 3, "neutral": "brown"},
    {"players": 4, "neutral": "green"}, {"recruitment": 1}, {"cards": "yes"},
    {"reaction_windows": None}, {"max_rounds": 0}, {"max_rounds": 10_001},
    {"max_rounds": True}, {"board": 5}, {"board": "nope"}, {"dice": []}, {"deck": {}},
])
def test_bad_options_raise_the_librarys_errors(options: dict[str, Any]) -> None:
    from boardrules.errors import BoardRulesError

    with pytest.raises(BoardRulesError):
        ArmadaGame(**options)


@pytest.mark.parametrize("option", ["dice", "deck"])
def test_bad_dice_or_deck_option_names_itself(option: str) -> None:
    from boardrules.errors import BoardDataError

    for value in ("nope", []):
        with pytest.raises(BoardDataError) as err:
            ArmadaGame(**{option: value})
        assert "board" not in str(err.value) and option in str(err.value)


def test_views_refuse_bad_viewers() -> None:
    state = new(3, cards=True)
    for bad in (3, -1, 1.0, "0", True):
        with pytest.raises((TypeError, ValueError)):
            state.view(bad)  # type: ignore[arg-type]
        with pytest.raises((TypeError, ValueError)):
            state.history_view(bad)  # type: ignore[arg-type]
        with pytest.raises((TypeError, ValueError)):
            state.determinize(bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------ rules


def test_cannot_move_or_unload_into_natives() -> None:
    """Invasion: "Only a territory free of native tribes and enemy pirate bands may be
    invaded"; natives must be fought."""
    state = new(4, reaction_windows="off")
    stage(state, "ci1", 3)
    ci4 = T(state, "ci4")
    edit(state, "explored", 1, ci4)
    edit(state, "natives", 2, ci4)
    moves = legal(state)
    assert "move ci1-ci4" not in moves and "attack ci1-ci4" in moves
    edit(state, "natives", 0, ci4)
    assert "move ci1-ci4" in legal(state)


def test_ship_never_sails_onto_or_through_a_ship() -> None:
    state = new(4, reaction_windows="off")
    play(state, "launch gn3-s_c2", "move gn3-s_c2", "bands 2")
    edit(state, "ship_where", W_BOX, 1)
    edit(state, "ship_pos", S(state, "s_c3"), 1)
    edit(state, "ship_where", W_SEA, 1)       # an empty ship on s_c3
    moves = legal(state)
    assert "sail s_c2-s_c3" not in moves and "sail s_c2-s_c1" in moves
    assert not any(m.startswith("sail s_c3") for m in moves)   # no crew


def test_ship_capacity_and_one_colour_a_ship() -> None:
    state = new(4, reaction_windows="off")
    gn3 = T(state, "gn3")
    edit(state, "bands", 12, gn3)
    edit(state, "gold", 5, gn3)
    play(state, "launch gn3-s_c2", "move gn3-s_c2")
    assert legal(state)[-1] == "bands 10"
    play(state, "bands 7")
    assert legal(state) == ["gold 0", "gold 1", "gold 2", "gold 3"]
    play(state, "gold 3")
    r = raw(state)
    assert r["ship_bands"][0] + r["ship_gold"][0] == 10
    assert "move gn3-s_c2" not in legal(state) and "move gn5-s_c2" not in legal(state)
    # a ship crewed by another colour takes none of green's bands
    edit(state, "ship_crew", C("raspberry"), 0)
    edit(state, "ship_bands", 5, 0)
    assert not any(m.endswith("-s_c2") and m.startswith("move") for m in legal(state))


def test_conversion_conditions() -> None:
    """Gold Conversion: in a city with 2 cities of its lair owned, or a trading post with
    3 trading posts owned; 1 gold, 1 action, 4 bands."""
    state = new(4, reaction_windows="off")
    gn3, gn5, gn7 = (T(state, k) for k in ("gn3", "gn5", "gn7"))
    edit(state, "gold", 1, gn3)
    assert "convert gn3" in legal(state)
    edit(state, "flag", C("raspberry"), gn5)
    edit(state, "flag", C("raspberry"), gn7)     # only 1 city of the lair green's
    assert "convert gn3" not in legal(state)
    edit(state, "flag", C("green"), gn7)
    edit(state, "gold", 1, T(state, "gn1"))     # not a city
    assert "convert gn1" not in legal(state)
    play(state, "convert gn3")
    r = raw(state)
    assert r["bands"][gn3] == 7 and r["gold"][gn3] == 0 and r["ap"] == 9
    # trading posts: 2 owned are not enough
    stage(state, "post_north", 1)
    edit(state, "gold", 1, T(state, "post_north"))
    edit(state, "flag", C("green"), T(state, "post_west"))
    assert "convert post_north" not in legal(state)
    edit(state, "flag", C("green"), T(state, "post_east"))
    assert "convert post_north" in legal(state)


def test_invasion_places_a_flag_and_flags_run_out() -> None:
    state = new(4, reaction_windows="off")
    stage(state, "ci1", 3)
    ci1, ci4 = T(state, "ci1"), T(state, "ci4")
    assert raw(state)["flag"][ci1] == C("green")
    used = raw(state)["flags_used"][C("green")]
    post = T(state, "post_north")
    edit(state, "explored", 1, ci4)
    edit(state, "explored", 1, post)
    play(state, "move ci1-ci4", "bands 1")
    assert raw(state)["flag"][ci4] == C("green")
    assert raw(state)["flags_used"][C("green")] == used + 1
    play(state, "move ci4-ci1")                 # back into its own flag: no new token
    assert raw(state)["flags_used"][C("green")] == used + 1
    # all 30 flags placed: no invasion, moves within its own territories still
    free = [t for t in range(7, 52) if raw(state)["flag"][t] != C("green") and t != post]
    for t in free[:30 - raw(state)["flags_used"][C("green")]]:
        edit(state, "flag", C("green"), t)
    assert raw(state)["flags_used"][C("green")] == 30
    assert "move ci1-post_north" not in legal(state)
    assert "move ci1-ci4" in legal(state)        # its own flag flies there
    assert "move gn2-gn1" in legal(state)


def test_explored_flag_even_when_nothing_found_and_no_second_exploration() -> None:
    state = new(4, reaction_windows="off")
    play(state, "launch gn5-s_d3", "move gn5-s_d3", "bands 2")
    edit(state, "ship_pos", S(state, "s_e4"), 1)   # next to ci1
    assert "explore ci1" in legal(state)
    play(state, "explore ci1", "find 0 0")
    r = raw(state)
    assert r["explored"][T(state, "ci1")] and r["flag"][T(state, "ci1")] == 4
    assert "explore ci1" not in legal(state)


def test_neighbour_island_not_explored_by_land() -> None:
    state = new(4, reaction_windows="off")
    stage(state, "nn3", 2)
    nn1 = T(state, "nn1")
    assert raw(state)["explored"][nn1] == 0
    assert "explore nn1" not in legal(state)


def test_victory_needs_two_own_turns_in_a_row() -> None:
    """Object of the Game / M1: announced at the end of the turn, won at the end of the
    next own turn if still in a victory situation."""
    state = new(4, reaction_windows="off")
    for key in ("post_north", "post_central", "post_east"):
        edit(state, "flag", C("green"), T(state, key))
    assert state.in_victory("green")
    play(state, "end")
    assert raw(state)["option"][C("green")]
    for _ in range(3):
        play(state, "end")
    assert not state.is_terminal()
    play(state, "end")
    assert state.is_terminal() and state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_victory_option_removed_when_lost_in_between() -> None:
    state = new(4, reaction_windows="off")
    for key in ("post_north", "post_central", "post_east"):
        edit(state, "flag", C("green"), T(state, key))
    play(state, "end")
    edit(state, "flag", C("raspberry"), T(state, "post_central"))
    for _ in range(4):
        play(state, "end")
    assert not state.is_terminal() and not raw(state)["option"][C("green")]


def test_two_player_partner_lair_cities_do_not_count() -> None:
    """M10: in 2p the partner colour's lair is not an opposing lair."""
    state = new(2, reaction_windows="off")
    for key in ("bl3", "bl5", "bl7", "rs3"):
        edit(state, "flag", C("green"), T(state, key))
    assert not state.in_victory("green")     # 4 cities, 3 of them the partner's
    for key in ("rs5", "rs7", "or3"):
        edit(state, "flag", C("green"), T(state, key))
    assert state.in_victory("green")


def test_shipyard_needs_a_sunk_ship_with_three_players() -> None:
    state = new(3, cards=True, reaction_windows="off")
    give(state, 0, "shipyard")
    assert state.view(None)["ships"][6]["where"] == "box"     # orange: neutral
    assert "play shipyard" not in legal(state)


def test_shipyard_after_a_scuttle() -> None:
    state = new(4, cards=True, reaction_windows="off")
    clear_hands(state)
    give(state, 0, "shipyard")
    assert "play shipyard" not in legal(state)
    play(state, "launch gn3-s_b3", "scuttle s_b3")
    assert "play shipyard" in legal(state)
    play(state, "play shipyard")
    assert legal(state) == ["place gn3", "place gn7"]     # cities of green's without a ship


def test_coup_recruitment_leaves_the_turns_own_recruitment() -> None:
    state = new(4, cards=True, recruitment=True, reaction_windows="turn_start")
    clear_hands(state)
    for key in ("rs1", "rs2", "rs3", "rs4"):
        edit(state, "flag", C("raspberry"), T(state, key))   # raspberry owns its lair
    give(state, 1, "coup_de_main")
    play(state, "end", "end")              # green's and raspberry's turns
    # blue's turn starts: raspberry (player 1) interrupts and recruits
    assert state.phase == "coup" and state.current_player == 1
    play(state, "play coup_de_main raspberry", "recruit")
    while state.phase == "place":
        play(state, legal(state)[0])
    play(state, "end")                     # the Coup de main ends
    assert state.phase == "turn" and raw(state)["acting"] == C("blue")
    assert "recruit" in legal(state)      # blue owns its lair: its own recruitment


def test_coup_de_main_three_actions_then_the_turn_resumes() -> None:
    state = new(4, cards=True, reaction_windows="turn_start")
    clear_hands(state)
    give(state, 1, "coup_de_main")
    play(state, "move gn1-gn2", "bands 1")
    play(state, "end")                     # raspberry's own turn: no window for 1
    assert state.current_player == 1 and state.phase == "turn"
    play(state, "end")                     # blue's turn starts: window for player 1
    assert state.phase == "coup" and state.current_player == 1
    play(state, "play coup_de_main raspberry")
    assert raw(state)["ap"] == 3 and raw(state)["acting"] == C("raspberry")
    play(state, "move rs1-rs2", "bands 1", "move rs2-rs1", "bands 1", "move rs1-rs2",
         "bands 1")
    assert legal(state) == ["end"]
    play(state, "end")
    assert raw(state)["acting"] == C("blue") and raw(state)["ap"] == 10
    assert state.current_player == 2


def test_attack_losses_capped_and_weapon_replaces_roll() -> None:
    state = new(4, cards=True, reaction_windows="off")
    clear_hands(state)
    give(state, 0, "attack_weapon")
    give(state, 1, "defence_weapon")
    stage(state, "ci1", 3)
    ci1, ci4 = T(state, "ci1"), T(state, "ci4")
    edit(state, "explored", 1, ci4)
    edit(state, "natives", 1, ci4)
    play(state, "attack ci1-ci4", "hits 0 2")
    play(state, "play attack_weapon")       # natives: no defence window
    r = raw(state)
    assert state.phase == "turn" and r["natives"][ci4] == 0 and r["bands"][ci1] == 3
    assert r["supply_natives"] == 50
    consistent(state)


def test_defence_weapon_last_played_stands() -> None:
    state = new(4, cards=True, reaction_windows="off")
    clear_hands(state)
    give(state, 0, "attack_weapon")
    give(state, 1, "defence_weapon")
    edit(state, "occ", C("raspberry"), T(state, "gn2"))
    edit(state, "flag", C("raspberry"), T(state, "gn2"))
    play(state, "attack gn1-gn2", "hits 1 0", "play attack_weapon")
    assert state.phase == "defence_weapon" and state.current_player == 1
    play(state, "play defence_weapon")
    r = raw(state)
    assert r["bands"][T(state, "gn2")] == 3 and r["bands"][T(state, "gn1")] == 1
    consistent(state)


def test_gold_mine_and_cards_are_free() -> None:
    state = new(4, cards=True, reaction_windows="off")
    clear_hands(state)
    give(state, 0, "gold_mine")
    give(state, 0, "dope")
    play(state, "play dope")
    assert raw(state)["ap"] == 13
    play(state, "play gold_mine")
    assert state.phase == "place"
    assert all(state.game.board.islands[state.game.board.territories[T(state, m[6:])]
                                        .island].group == "green"
               for m in legal(state))
    play(state, "place gn1")
    r = raw(state)
    assert r["gold"][T(state, "gn1")] == 3 and r["supply_gold"] == 47 and r["ap"] == 13


def test_buy_costs_two_gold_and_two_actions_hidden_draw() -> None:
    state = new(4, cards=True, reaction_windows="off")
    edit(state, "gold", 2, T(state, "gn1"))
    assert "buy gn1" in legal(state)
    edit(state, "ap", 1)
    assert "buy gn1" not in legal(state)
    edit(state, "ap", 10)
    play(state, "buy gn1", "draw strategist")
    r = raw(state)
    assert r["ap"] == 8 and r["gold"][T(state, "gn1")] == 0 and r["supply_gold"] == 50
    assert state.history_view(1)[-1] == (CHANCE, "draw ?")
    assert state.view(0)["players"][0]["hand"]["strategist"] >= 1


def test_recruitment_worked_example() -> None:
    """Optional Rules, Recruitment: 5 of its lair, 9 central territories: 3 bands, 1 in
    the lair, 2 on the central group, one action."""
    state = new(4, recruitment=True, reaction_windows="off")
    central = [T(state, k) for k in ("ci1", "ci2", "ci3", "ci4", "ci5", "ci6", "ci7",
                                     "ci8", "ci9")]
    stage(state, "ci1", 1)
    stage(state, "ci2", 1)
    for t in central:
        edit(state, "flag", C("green"), t)
    play(state, "move gn6-gn7", "bands 3")
    edit(state, "flag", C("blue"), T(state, "gn6"))     # 6 of its lair's 7 green's
    edit(state, "ap", 10)
    pool = raw(state)["pool"][C("green")]
    play(state, "recruit")
    assert state.phase == "place"
    assert all(m.startswith("place gn") for m in legal(state))
    play(state, legal(state)[0])
    assert set(legal(state)) == {f"place {k}" for k in ("ci1", "ci2", "ci3", "ci4", "ci5",
                                                        "ci6", "ci7", "ci8", "ci9")}
    play(state, "place ci5")
    assert "place ci4" not in legal(state) and "place ci5" in legal(state)
    play(state, "place ci9")
    r = raw(state)
    assert r["pool"][C("green")] == pool - 3 and r["ap"] == 9 and state.phase == "turn"
    assert "recruit" not in legal(state)


def test_three_player_neutral_defends_like_natives() -> None:
    """Three-Player Rule: the neutral bands (3 a city, 1 elsewhere) "behave like native
    tribes": no defence weapon window although every player holds a card, and the
    neutral colour takes no turn."""
    state = new(3, cards=True, neutral="orange", reaction_windows="off")
    clear_hands(state)
    for p in range(3):
        give(state, p, "defence_weapon" if p else "attack_weapon")
    r = raw(state)
    assert r["bands"][T(state, "or3")] == 3 and r["bands"][T(state, "or1")] == 1
    # orange bands next to green's (gn2 given to the neutral colour)
    edit(state, "occ", C("orange"), T(state, "gn2"))
    edit(state, "flag", C("orange"), T(state, "gn2"))
    play(state, "attack gn1-gn2", "hits 1 0")
    assert state.phase == "attack_weapon"
    play(state, "decline")
    assert state.phase == "turn"
    assert raw(state)["bands"][T(state, "gn2")] == 2 and raw(state)["pool"][C("orange")] == 35
    colours = set()
    for _ in range(6):
        colours.add(state.view(None)["turn_colour"])
        play(state, "end")
    assert colours == {"green", "raspberry", "blue"}
