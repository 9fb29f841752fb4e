"""Errors an integrator meets first: unknown options name the valid ones, every move error
carries a ``rule`` key, and the notation hint lists only the moves of the game's options."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import boardrules
from boardrules.games import option_names


@pytest.mark.parametrize(("game_id", "typo", "meant"), [
    ("armadora", "player", "players"),
    ("armadora", "varient", "variant"),
    ("rome_and_carthage", "max_round", "max_rounds"),
    ("armada", "card", "cards"),
    ("albion", "first_players", "first_player"),
])
def test_an_unknown_option_names_the_nearest_and_the_valid_ones(game_id: str, typo: str,
                                                               meant: str) -> None:
    with pytest.raises(boardrules.InvalidOptionError) as caught:
        boardrules.load(game_id, **{typo: 2})
    message = str(caught.value)
    assert f"did you mean {meant!r}?" in message
    names = option_names(game_id)
    assert names is not None and meant in names
    assert all(name in message for name in names)


def test_an_option_far_from_any_names_the_valid_ones_without_a_guess() -> None:
    with pytest.raises(boardrules.InvalidOptionError, match=r"no option 'colour' \(its "
                       r"options: board, look_at_face_down, players, variant\)"):
        boardrules.load("armadora", colour="red")
    with pytest.raises(boardrules.InvalidOptionError, match="pig has no option 'players'"):
        boardrules.load("pig", players=2)


def test_every_move_error_carries_a_rule_key() -> None:
    game = boardrules.load("armadora")
    state = game.new_game(seed=1)
    other = boardrules.load("pig").new_game(seed=1).legal_moves()[0]
    forged: Any = object.__new__(type(state.legal_moves()[0]))
    forged._game_key, forged._action, forged._text = game._game_key_cache, 10**6, "x"
    cases = {
        "not_notation": lambda: state.apply("no such move"),
        "too_long": lambda: state.apply("x" * 500),
        "action_out_of_range": lambda: game.move(10**6),
        "other_game": lambda: state.apply(other),
        "forged_move": lambda: state.apply(forged),
    }
    for rule, call in cases.items():
        with pytest.raises(boardrules.InvalidMoveError) as caught:
            call()
        assert caught.value.rule == rule
    with pytest.raises(boardrules.IllegalMoveError) as illegal:
        state.apply("c2-d2", player=1)
    assert illegal.value.rule == "wrong_player"


def test_the_notation_hint_lists_only_the_variants_moves() -> None:
    basic, advanced = (boardrules.load("armadora", variant=v) for v in ("basic", "advanced"))
    with pytest.raises(boardrules.InvalidMoveError) as caught:
        basic.parse_move("xyz")
    assert "'3@c2'" in str(caught.value)
    for power in ("goblin", "orc", "peek", "arrow", "reinforce", "race"):
        assert power not in str(caught.value)
    with pytest.raises(boardrules.InvalidMoveError, match="'goblin 3@c2'"):
        advanced.parse_move("xyz")


def test_move_errors_keep_their_rule_through_a_pickle() -> None:
    """A process pool re-raises a worker's error in the caller: its rule goes with it."""
    for error in (boardrules.InvalidMoveError("not a move", "too_long"),
                  boardrules.IllegalMoveError("not now", "wrong_player")):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error)
        assert back.rule == error.rule
