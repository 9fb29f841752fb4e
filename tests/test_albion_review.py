"""Albion: an adversarial review of the rules core (src_ext/boardrules/_ext/albion.pyx).

Each test checks one thing the rule text (shared/rules/albion.txt) or the core's own
contract promises: the bounds the C buffers rely on (``max_legal_actions = 11 n + 32``,
67 actions a turn), that every decision has a legal completion and is asked of the right
player, that the invariants hold through long games, that saves round-trip at every kind
of decision and forged saves are refused.  The defects it found (a lost token still shown
face down, the edit hook's missing limits, a wrong explanation, a shortage loop the edit
hook could make endless) are fixed; their tests stay as regressions.

Positions are staged on the test board of ``tests/albion_helpers.py`` by editing the
position (the core's checked ``load``: ``stage_position``), or played.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from albion_helpers import (
    INDEX,
    TEST_BOARD,
    building,
    edit,
    figures,
    give,
    legal,
    new_game,
    play,
    raw,
    stage_position,
)

from boardrules import CHANCE, InvalidStateError
from boardrules.games.albion import AlbionGame, AlbionState
from boardrules.games.albion.game import ILLEGAL_REASONS

TURN_ACTIONS = 67            # the per-turn bound of AlbionCore._game_length_bound


def max_legal(state: AlbionState) -> int:
    """The core's ``max_legal_actions`` (the size of the C buffer legal_actions fills)."""
    return 11 * len(state.game.board.regions) + 32


def consistent(state: AlbionState) -> None:
    bad = {k: v for k, v in state.invariants().items() if v[0] != v[1]}
    assert not bad, bad


def stage(state: AlbionState, region: str, player: int) -> tuple[str, int]:
    r = raw(state)
    types = ("", "settlement", "fortress", "rampart", "plant")
    return types[r["btype"][INDEX[region]][player]], r["bstage"][INDEX[region]][player]


def neutral(state: AlbionState, player: int, held: int) -> None:
    r = raw(state)
    edit(state, "neutral", held, player)
    edit(state, "neutral_supply", r["neutral_supply"] + r["neutral"][player] - held)


def reveal(state: AlbionState, region: str, n: int) -> None:
    """``n`` of the region's face-down Picts already turned face up (assault)."""
    r = raw(state)
    edit(state, "face_down", r["face_down"][INDEX[region]] - n, region)
    edit(state, "face_up", r["face_up"][INDEX[region]] + n, region)
    edit(state, "pool_assault", r["pool_assault"] - n)


def launch_region(state: AlbionState) -> int:
    return next(i for i, r in enumerate(state.game.board.regions) if r.kind == "launch")


def check_decision(state: AlbionState) -> None:
    """The decision at hand: legal moves exist, fit the C buffer, and belong to the
    player the phase says (the turn player; a tribute taker; a loser who owes)."""
    r = raw(state)
    turn = r["turn_player"]
    if state.current_player == CHANCE:
        assert state.phase == "reveal" and state.chance_outcomes()
        assert r["face_down"][r["b_region"]] > 0
        return
    moves = state.legal_moves()
    assert moves and len(moves) <= max_legal(state), (state.phase, len(moves))
    who = state.current_player
    if state.phase in ("move", "build", "pay", "figure", "free"):
        assert who == turn, (state.phase, who, turn)
    elif state.phase == "tribute":
        assert who != turn and who == r["tribute_takers"][0]
    elif state.phase == "loss":
        assert any(r["owe"][who]), (r["owe"], who)
    # settlers that built or are new this turn all stand in the launching region
    if state.phase != "setup":
        assert r["spent"] <= r["settlers"][launch_region(state)][turn]


WEIGHTS = {"build": 30.0, "develop": 40.0, "pay": 5.0, "resources": 6.0, "end": 1.0,
           "settler": 3.0, "legion": 1.0, "carry": 1.0, "launch": 5.0, "remove": 0.3}


def biased_move(state: AlbionState, rng: random.Random) -> Any:
    """A random move, building favoured (plain random play hardly ever builds)."""
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
    moves = state.legal_moves()
    return rng.choices(moves, [WEIGHTS.get(str(m).split()[0], 3.0) for m in moves])[0]


# ------------------------------------------------------------------ bugs found


def test_view_drops_a_token_lost_in_its_assault_before_the_losers_decide() -> None:
    """"Players whose defense strength is too low must ... remove the face-down token they
    were just building ... return it to their supply": once lost, the view must not show
    it as a stage being built while another loser decides which figure to return."""
    state = new_game(2)
    building(state, "moor", 0, "settlement", 1)
    figures(state, "moor", 0, settlers=1)
    give(state, 0, fish=1, wood=1)
    building(state, "moor", 1, "settlement", 1)
    figures(state, "hill", 1, legions=1)        # player 1: a settler and a legionnaire
    play(state, "develop moor", "pict assault")   # strength 1 printed + 1 = 2 > 1 each
    assert state.phase == "loss" and state.current_player == 1
    assert stage(state, "moor", 0) == ("settlement", 1)   # the stage II token is gone
    view = state.view(None)
    moor = view["regions"][INDEX["moor"]]["buildings"]
    assert moor == [{"player": 0, "type": "settlement", "stage": 1, "face_down": False}]
    assert view["build"] is None


def test_a_position_refuses_a_building_type_out_of_range() -> None:
    state = new_game(2)
    before = state.state_bytes()
    with pytest.raises(ValueError):
        edit(state, "btype", 5, "moor", 0)
    assert state.state_bytes() == before


def test_a_position_refuses_more_figures_than_a_colour_has() -> None:
    state = new_game(2)
    for region in ("westgate", "eastgate", "moor"):
        edit(state, "settlers", 1, region, 0)     # with the port's one: all 4 settlers
    before = state.state_bytes()
    with pytest.raises(ValueError):
        edit(state, "settlers", 1, "glade", 0)    # a fifth
    with pytest.raises(ValueError):
        edit(state, "legions", 4, "glade", 0)     # 3 legionnaires a colour
    with pytest.raises(ValueError):
        edit(state, "neutral", 7, 0)              # 6 neutral markers at most
    assert state.state_bytes() == before


# ------------------------------------------------------------------ C buffer bounds


def stage_crowded_position(state: AlbionState, rng: random.Random) -> None:
    """Player 0 with all 4 settlers and 3 legionnaires spread, 7 movement points, every
    kind of resource, random buildings under his settlers and stage III fortresses."""
    n = len(state.game.board.regions)
    regions = list(range(n))
    edit(state, "settlers", 0, launch_region(state), 0)
    spread = rng.sample(regions, 4)
    for r in spread:
        edit(state, "settlers", 1, r, 0)
    for r in rng.sample(regions, 3):
        edit(state, "legions", 1, r, 0)
        if state.game.board.regions[r].kind in ("dark", "start"):
            edit(state, "face_down", 2, r)
    if rng.random() < 0.7:
        edit(state, "settlers", 0, rng.choice(spread), 0)   # one of them back home
        edit(state, "settlers", 1, launch_region(state), 0)
    room = {1: 3, 2: 2, 3: 1}      # tokens left besides the starting fortress and rampart

    def buildings(whole: dict[str, Any]) -> None:
        for r in rng.sample(regions, rng.randrange(0, 4)):
            kind = state.game.board.regions[r].kind
            if kind in ("fish", "wood", "stone", "gold"):
                btype = 4
            elif whole["btype"][r][0] or kind == "launch":
                continue
            else:
                btype = rng.choice([t for t in (1, 2, 3) if room[t]])
                room[btype] -= 1
            whole["btype"][r][0] = btype
            whole["bstage"][r][0] = 3 if btype == 2 else rng.randrange(1, 4)

    stage_position(state, buildings)
    for k in range(4):
        edit(state, "res", 3, 0, k)
    edit(state, "points", 7)


@pytest.mark.parametrize("board", ["test", "albion"])
def test_legal_moves_never_exceed_max_legal_actions(board: str) -> None:
    """``max_legal_actions = 11 n + 32`` sizes the C buffer legal_actions() fills.  The
    most a turn can offer: resources, end, 3 launches, 4 settler + 3 legionnaire + 3
    carrying sources each to n - 1 regions, 3 builds under each of 4 settlers."""
    game = AlbionGame(4, board=TEST_BOARD if board == "test" else "albion")
    base = game.new_game(seed=1, auto_chance=False)
    for _ in range(4):
        base.apply("fortress " + game.board.regions[
            next(i for i, r in enumerate(game.board.regions) if r.kind == "start")].key)
    n = len(game.board.regions)
    worst = 0
    rng = random.Random(7)
    for _ in range(150):
        state = base.copy()
        stage_crowded_position(state, rng)
        count = len(state.legal_moves())
        worst = max(worst, count)
        assert count <= 2 + 3 + 10 * (n - 1) + 12 <= max_legal(state)
    assert worst > 8 * n          # the staging does reach crowded positions


def test_legal_moves_of_the_crowded_turn_on_the_test_board() -> None:
    """A hand-made worst case: 3 launches, settlers in 4 regions far apart, legionnaires
    on Picts in 3 regions, 7 points (every region in reach), all resources."""
    state = new_game(2)
    for region in ("westgate", "eastgate", "glade"):
        building(state, region, 0, "fortress", 3)
    neutral(state, 0, 6)
    edit(state, "points", 7)
    for region in ("port", "fishery", "moor", "glen"):
        figures(state, region, 0, settlers=1)
    for region in ("hill", "crag", "peak"):
        figures(state, region, 0, legions=1)
    give(state, 0, fish=2, wood=2, stone=2, gold=2)
    consistent(state)
    moves = legal(state)
    assert {"launch westgate", "launch eastgate", "launch glade"} <= moves
    assert "carry hill-westgate" in moves and "carry hill-glade" not in moves
    assert len(moves) <= max_legal(state)
    # resources + end + 3 launches + 4 x 12 settler moves + 3 x 12 legion moves
    # + 3 x 6 carries (to the other dark and start regions) + builds
    builds = {m for m in moves if m.split()[0] in ("build", "develop", "remove")}
    assert len(moves) == 2 + 3 + 48 + 36 + 18 + len(builds)


# ------------------------------------------------------------------ the per-turn bound


def rich_turn_position() -> AlbionState:
    """Four players; player 0 with three stage III fortresses (3 launches, 7 points),
    three stage II settlements under tribute and assault (weak neighbours with figures
    to return and buildings to reduce), resources for everything."""
    state = new_game(4)
    for region in ("westgate", "eastgate", "glade"):
        building(state, region, 0, "fortress", 3)
    neutral(state, 0, 6)
    edit(state, "points", 7)
    figures(state, "port", 0, settlers=3)
    figures(state, "moor", 0, settlers=1)
    for region in ("moor", "hill", "crag"):
        building(state, region, 0, "settlement", 2)
        reveal(state, region, 2)
    building(state, "peak", 0, "rampart", 1)
    building(state, "port", 0, "rampart", 3)           # defence 4 (+ the peak's rampart)
    give(state, 0, fish=8, wood=8, stone=8, gold=8)
    for q in (1, 2, 3):
        building(state, "port", q, "rampart", 0)       # no defence
        for region in ("moor", "hill", "crag"):
            building(state, region, q, "settlement", 3 if q == 1 else q - 1)
        building(state, "peak", q, "fortress", 2)
        building(state, "fishery", q, "plant", 2)
        building(state, "forest", q, "plant", 2)
        neutral(state, q, 3)
        figures(state, "port", q, settlers=1)
        figures(state, "glade", q, settlers=1, legions=1)
    consistent(state)
    return state


def longest_turn(state: AlbionState, rng: random.Random) -> int:
    """Play player 0's turn out, never ending it while anything else is legal and
    preferring assaults: the number of actions (chance outcomes included)."""
    count = 0
    while raw(state)["turn_player"] == 0 and not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = [m for m, _ in state.chance_outcomes()]
            move = outcomes[0] if rng.random() < 0.9 else outcomes[-1]
        else:
            check_decision(state)
            moves = [m for m in state.legal_moves() if str(m) != "end"]
            if not moves:
                moves = state.legal_moves()
            move = rng.choice(moves)
        state.apply(move)
        count += 1
    return count


def test_a_turn_never_exceeds_the_per_turn_bound() -> None:
    """_game_length_bound: 3 launches + 7 movement steps + 4 builds of at most 14
    actions + end = 67 actions a turn, whoever decides them."""
    base = rich_turn_position()
    rng = random.Random(3)
    longest = max(longest_turn(base.copy(), rng) for _ in range(60))
    assert 20 <= longest <= TURN_ACTIONS
    game = base.game
    assert game.max_game_length == 4 + game.options["max_rounds"] * 4 * TURN_ACTIONS


# ------------------------------------------------------------------ long games


@pytest.mark.parametrize(("players", "tribute"), [(2, True), (3, False), (4, True),
                                                  (4, False)])
def test_biased_random_games_keep_invariants_and_ask_the_right_player(
        players: int, tribute: bool) -> None:
    game = AlbionGame(players, board=TEST_BOARD, start_region_tribute=tribute,
                      max_rounds=25)
    for seed in range(2):
        state = game.new_game(seed=seed, auto_chance=False)
        rng = random.Random(seed)
        while not state.is_terminal():
            consistent(state)
            check_decision(state)
            state.apply(biased_move(state, rng))
        consistent(state)
        assert len(state.history) <= game.max_game_length
        outcome = state.outcome()
        assert outcome is not None and len(outcome.returns) == players


# ------------------------------------------------------------------ saves


def round_trip(state: AlbionState) -> AlbionState:
    back = state.game.state_from_json(state.to_json())
    assert back.state_bytes() == state.state_bytes()
    assert [str(m) for m in back.legal_moves()] == [str(m) for m in state.legal_moves()]
    assert back.current_player == state.current_player
    assert back.view(None) == state.view(None)
    return back


def test_saves_round_trip_at_every_kind_of_decision() -> None:
    """A played game (saves replay the history) saved and restored at its first pay,
    tribute, reveal, loss, figure and free decision, then played on in step."""
    game = AlbionGame(3, board=TEST_BOARD, max_rounds=40)
    wanted = {"pay", "tribute", "reveal", "loss", "figure", "free", "build"}
    seen: set[str] = set()
    for seed in range(30):
        state = game.new_game(seed=seed, auto_chance=False)
        rng = random.Random(seed)
        while not state.is_terminal() and not wanted <= seen:
            if state.phase in wanted - seen:
                seen.add(state.phase)
                back = round_trip(state)
                for _ in range(5):
                    if state.is_terminal():
                        break
                    move = biased_move(state, rng)
                    state.apply(move)
                    back.apply(str(move))
                    assert back.state_bytes() == state.state_bytes()
                continue
            state.apply(biased_move(state, rng))
        if wanted <= seen:
            break
    assert seen == wanted


def played_loss_decision() -> AlbionState:
    """A played 2-player game stopped at its first loss decision."""
    game = AlbionGame(2, board=TEST_BOARD, max_rounds=40)
    for seed in range(20):
        state = game.new_game(seed=seed, auto_chance=False)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase == "loss":
                return state
            state.apply(biased_move(state, rng))
    raise AssertionError("no loss decision reached")


def test_forged_saves_are_refused() -> None:
    state = played_loss_decision()
    doc = json.loads(state.to_json())
    game = state.game
    forged = [
        ("supply", lambda d: d["state"]["supply"].__setitem__(0, d["state"]["supply"][0] + 1)),
        ("face_down", lambda d: d["state"]["face_down"].__setitem__(5, 9)),
        ("current", lambda d: d["state"].__setitem__("current_player",
                                                    1 - d["state"]["current_player"])),
        ("buildings", lambda d: d["state"]["buildings"].append(
            {"region": "glen", "player": 0, "type": "settlement", "stage": 4})),
        ("history", lambda d: d["history"].__setitem__(len(d["history"]) - 1, "end")),
        ("extra move", lambda d: d["history"].append("resources")),
        ("board path", lambda d: d["options"].__setitem__("board", "/etc/passwd")),
        ("tribute option", lambda d: d["options"].__setitem__("start_region_tribute", 1)),
        ("rules 1.0", lambda d: d.__setitem__("rules_version", "1.0")),    # A1, A9 changed
    ]
    for name, change in forged:
        bad = json.loads(json.dumps(doc))
        change(bad)
        with pytest.raises(InvalidStateError):
            game.state_from_json(json.dumps(bad))
        assert name


# ------------------------------------------------------------------ rule sequences


def settlement_three_chain() -> AlbionState:
    """4 players.  Player 0 develops his crag settlement II -> III: only player 1
    (settlement III there) takes tribute -- players 2 (II) and 3 (I) are lower (A5); an
    assault (2 face up + 1) beats players 1, 2 and 3 (no defence), not player 0 (rampart
    III, 3 + rampart I); then player 0's free development of his rampart I in the peak
    turns a Pict over there too, where players 2 and 3 have weak settlements."""
    state = new_game(4)
    building(state, "crag", 0, "settlement", 2)
    figures(state, "crag", 0, settlers=1)
    building(state, "port", 0, "rampart", 3)
    building(state, "peak", 0, "rampart", 1)
    reveal(state, "crag", 2)
    reveal(state, "peak", 2)
    give(state, 0, fish=1, wood=1, stone=1, gold=1)
    for q in (1, 2, 3):
        building(state, "port", q, "rampart", 0)
    building(state, "crag", 1, "settlement", 3)
    building(state, "eastgate", 1, "fortress", 2)       # player 1's reduce choices:
    building(state, "fishery", 1, "plant", 2)           # fortress II, fishery II
    neutral(state, 1, 3)
    building(state, "crag", 2, "settlement", 2)
    building(state, "crag", 3, "settlement", 1)
    building(state, "peak", 2, "settlement", 1)
    building(state, "peak", 3, "settlement", 2)
    for q in (2, 3):
        figures(state, "glade", q, legions=1)           # a settler (port) and a legion
    consistent(state)
    return state


def test_settlement_three_tribute_assault_free_development_in_order() -> None:
    state = settlement_three_chain()
    play(state, "develop crag")
    assert state.phase == "pay" and state.current_player == 0
    play(state, "pay wood+stone+gold")
    # the one higher-or-equal building's owner picks; the lower stages get nothing
    assert state.phase == "tribute" and state.current_player == 1
    assert legal(state) == {"tribute wood", "tribute stone", "tribute gold"}
    play(state, "tribute gold")
    assert [raw(state)["res"][q] for q in (1, 2, 3)] == [[3, 2, 0, 1], [3, 3, 0, 0],
                                                         [3, 4, 0, 0]]
    assert raw(state)["res"][0] == [1, 0, 0, 0]
    assert state.current_player == CHANCE
    play(state, "pict assault")
    # losers decide clockwise from the builder: player 1 reduces, 2 returns, 3 returns
    assert stage(state, "crag", 1) == ("settlement", 2)
    assert state.phase == "loss" and state.current_player == 1
    assert legal(state) == {"reduce eastgate", "reduce fishery"}
    play(state, "reduce fishery")
    assert state.phase == "loss" and state.current_player == 2
    play(state, "return legion glade")
    assert state.phase == "loss" and state.current_player == 3
    play(state, "return settler port")
    assert stage(state, "crag", 3) == ("", 0)
    # only now the builder's settlement III is finished: the free development
    assert stage(state, "crag", 0) == ("settlement", 3)
    assert state.phase == "free" and state.current_player == 0
    play(state, "develop peak")
    assert state.current_player == CHANCE                # no payment, no tribute
    play(state, "pict assault")                          # 3 against 4: player 0 holds
    # players 2 and 3 each have one figure left: returned unasked
    assert stage(state, "peak", 2) == ("", 0) and stage(state, "peak", 3) == ("settlement", 1)
    assert [sum(row[q] + leg[q] for row, leg in zip(raw(state)["settlers"],
                                                    raw(state)["legions"], strict=True))
            for q in (2, 3)] == [0, 0]
    assert stage(state, "peak", 0) == ("rampart", 2)
    assert state.current_player == 0 and state.phase == "build"
    consistent(state)


def test_a_free_development_lost_in_its_assault_gives_nothing() -> None:
    """The free development's own assault: a builder too weak loses the face-down stage
    (a fortress II gives no marker) and his turn goes on."""
    state = new_game(2)
    building(state, "crag", 0, "settlement", 2)
    figures(state, "crag", 0, settlers=1)
    figures(state, "port", 0, settlers=0)
    figures(state, "hill", 0, settlers=1)
    building(state, "hill", 0, "fortress", 1)
    building(state, "westgate", 0, "plant", 0)
    building(state, "westgate", 0, "", 0)
    building(state, "westgate", 0, "fortress", 0)
    neutral(state, 0, 1)
    building(state, "port", 0, "rampart", 0)
    give(state, 0, fish=2, wood=2, stone=1)           # fish + wood left after paying
    edit(state, "face_down", 0, "crag")               # the crag's Picts to the peak
    edit(state, "face_down", 4 + raw(state)["face_down"][INDEX["peak"]], "peak")
    play(state, "develop crag")
    assert state.phase == "free"
    play(state, "develop hill", "pict assault")          # strength 1 > defence 0
    assert stage(state, "hill", 0) == ("fortress", 1)
    assert raw(state)["neutral"][0] == 1
    # the hill's settler did not build: it may still act this turn
    assert state.current_player == 0 and "develop hill" in legal(state)
    consistent(state)


def test_two_settlers_in_the_launching_region_build_once_each() -> None:
    """"2) Return Settler": the settler that built "may not do further actions in this
    round"; a second one in the same region still may."""
    state = new_game(2)
    figures(state, "port", 0, settlers=2)
    give(state, 0, fish=2, wood=2, stone=1)
    play(state, "develop port", "pay fish+wood")
    assert stage(state, "port", 0) == ("rampart", 2)
    assert "develop port" in legal(state) and "remove port" in legal(state)
    play(state, "develop port")                           # fish+wood+stone: forced
    assert stage(state, "port", 0) == ("rampart", 3)
    assert state.current_player == 1                      # nothing left: the turn ended


def test_removal_returning_the_last_figure_ends_the_turn_cleanly() -> None:
    """A9: removing a settlement II costs two figures; with only the removing settler on
    the board it goes back, the second debt lapses, and the turn ends by itself."""
    state = new_game(2)
    figures(state, "port", 0, settlers=0)
    figures(state, "moor", 0, settlers=1)
    building(state, "moor", 0, "settlement", 2)
    play(state, "remove moor")
    assert stage(state, "moor", 0) == ("", 0)
    assert sum(row[0] for row in raw(state)["settlers"]) == 0
    assert raw(state)["owe"][0] == [0, 0]
    assert state.current_player == 1 and state.phase == "move"
    consistent(state)


def test_every_refused_action_is_explained_in_every_phase() -> None:
    """illegal_reason() names a rule of the message table for every action id not
    legal, at each decision of the settlement III chain."""
    state = settlement_three_chain()
    core = state.game.core
    moves = ["develop crag", "pay wood+stone+gold", "tribute gold", "pict assault",
             "reduce fishery", "return legion glade", "return settler port", "develop peak",
             "pict assault"]
    for move in [*moves, None]:
        legal_ids = set(state._core.legal_actions())
        if state.current_player == CHANCE:
            legal_ids = {a for a, _ in state._core.chance_outcomes()}
        for action in range(state.game.num_distinct_actions):
            reason = core.illegal_reason(state._core, action)  # type: ignore[attr-defined]
            assert reason in ILLEGAL_REASONS
            assert (reason == "legal") == (action in legal_ids), (state.phase, action)
        if move is not None:
            state.apply(move)


def test_a_refused_return_while_a_reduction_is_owed_is_explained_truly() -> None:
    state = settlement_three_chain()
    play(state, "develop crag", "pay wood+stone+gold", "tribute gold", "pict assault")
    assert state.phase == "loss" and state.current_player == 1
    assert raw(state)["settlers"][INDEX["port"]][1] == 1      # the figure is there
    core = state.game.core
    action = state.game.parse_move("return settler port").action
    assert core.illegal_reason(state._core, action) != "no_figure_there"  # type: ignore


def test_a_removal_asks_the_turn_player_its_losses_then_the_turn_goes_on() -> None:
    """A9: removing a settlement III: the owner (the player whose turn it is) chooses the
    two figures its stages II and I gave back (no other building is reduced: that is an
    assault's further loss); then he builds on."""
    state = new_game(2)
    building(state, "crag", 0, "settlement", 3)
    figures(state, "crag", 0, settlers=1)
    figures(state, "glade", 0, settlers=1)
    figures(state, "hill", 0, legions=2)
    building(state, "eastgate", 0, "fortress", 2)
    building(state, "fishery", 0, "plant", 2)
    neutral(state, 0, 3)
    give(state, 0, fish=1)
    consistent(state)
    play(state, "remove crag")
    assert state.phase == "loss" and state.current_player == 0
    assert legal(state) == {"return settler port", "return settler glade",
                            "return legion hill"}
    play(state, "return settler port", "return legion hill")
    assert raw(state)["neutral"][0] == 3                      # fortress II untouched
    assert stage(state, "fishery", 0) == ("plant", 2)
    # the settler sent home by the removal went back first: the glade's may still build
    assert raw(state)["settlers"][INDEX["glade"]][0] == 1
    assert state.phase == "build" and "build settlement glade" in legal(state)
    consistent(state)


def third_stage_four(laurel: str, max_rounds: int = 1) -> AlbionState:
    """Player 0 develops his third settlement to stage IV in the glade (no Picts), his
    other two stage IV settlements in ``laurel`` and the moor; then both players end."""
    state = new_game(2, max_rounds=max_rounds)
    building(state, laurel, 0, "settlement", 4)
    building(state, "moor", 0, "settlement", 4)
    building(state, "glade", 0, "settlement", 3)
    figures(state, "glade", 0, settlers=1)
    give(state, 0, fish=1, wood=1, stone=1, gold=1)
    play(state, "develop glade")
    while not state.is_terminal():
        play(state, "end")
    return state


def test_three_stage_four_settlements_in_the_capped_round_win_not_draw() -> None:
    """"As soon as a player has developed three stage IV settlements ... the current
    round is played to the end": in the last round the round cap allows, the victory
    still counts (the end is not a round-cap draw)."""
    state = third_stage_four("crag")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert state.view(None)["end_reason"] == "three_settlements"
    assert state.returns() == (1.0, -1.0)


def test_three_stage_four_settlements_outside_the_laurels_do_not_end_the_game() -> None:
    """"at least one must be in one of the three fields with a laurel wreath" (A8 makes
    such a position unreachable; the victory condition still checks it)."""
    state = third_stage_four("hill", max_rounds=2)
    assert state.score() == (3, 0)
    assert state.view(None)["end_reason"] == "round_cap" and state.returns() == (0.0, 0.0)


def test_take_resources_ends_when_no_resource_of_the_kind_is_left_anywhere() -> None:
    """A position play never makes, staged past the conservation counts that
    ``Game.position`` checks (every gold gone from supply and hands): the
    shortage rule's rounds stop when nobody holds one, and the taker takes what the
    supply has (the loop in C used to run for ever)."""
    state = new_game(2)
    building(state, "mine", 0, "plant", 1)
    edit(state, "supply", 0, "gold")
    play(state, "resources")
    assert raw(state)["res"][0][3] == 0 and state.current_player == 1
