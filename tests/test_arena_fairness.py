"""Fair bots: what the arena hands a bot (``fair_state``) holds nothing its seat may not
know, not even the table's RNG, and the library's own bots play exactly as they would
from the truth."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from boardrules.api import CHANCE, Move, State
from boardrules.arena import fair_state, play_match
from boardrules.games import load
from boardrules.search.bots import AlphaBetaBot, GreedyBot, ISMCTSBot, MCTSBot

#: Predictions of the next die made by the cheating bot, in the order it made them.
PREDICTIONS: list[str] = []


class RngReader:
    """Rolls, and predicts the die that comes next by playing its roll on what it was
    handed and drawing the chance outcome from that state's own RNG."""

    def choose(self, state: State[Move]) -> Move:
        roll = state.game.parse_move("roll")
        if roll not in state.legal_moves():
            return state.legal_moves()[0]
        peek = state.copy()
        peek.apply(roll)
        if peek.current_player == CHANCE:  # auto_chance off: draw it here
            peek.apply_random_chance()
        PREDICTIONS.append(str(peek.history[-1]) if peek.history else "")
        return roll


def _dice_after_rolls(records: Path, bot_seat_of_game: dict[int, int]) -> list[str]:
    """The die that followed each roll of the reader's seat, game after game."""
    dice = []
    for path in sorted(records.glob("game-*.json")):
        game = int(path.stem.split("-")[1]) - 1
        moves = json.loads(path.read_text())["moves"]
        for move, after in itertools.pairwise(moves):
            if move["mover"] == bot_seat_of_game[game] and move["move"] == "roll":
                dice.append(after["move"])
    return dice


def test_a_bot_reading_the_rng_of_what_it_is_handed_cannot_predict_the_next_die(
        tmp_path: Path) -> None:
    PREDICTIONS.clear()
    result = play_match("pig", [RngReader(), "random"], games=40, seed=5, processes=1,
                        records_dir=tmp_path)
    seat_of_reader = {r.index: r.seats.index(0) for r in result.records}
    dice = _dice_after_rolls(tmp_path, seat_of_reader)
    assert len(dice) == len(PREDICTIONS) > 250
    hits = sum(p == d for p, d in zip(PREDICTIONS, dice, strict=True))
    # one die in six by luck: 250+ guesses right well under half the time (the RNG of
    # the table would give every one of them)
    assert hits / len(dice) < 0.3, (hits, len(dice))


def test_the_same_reader_handed_a_copy_of_the_table_would_predict_every_die() -> None:
    """The check above can fail: on a copy of the real state the reader is always right."""
    PREDICTIONS.clear()
    state = load("pig").new_game(seed=3)
    reader = RngReader()
    other = random.Random(0)
    rolls_seen = []
    while not state.is_terminal() and len(rolls_seen) < 50:
        if state.current_player == 0:
            move = reader.choose(state.copy())
            state.apply(move)
            rolls_seen.append(str(state.history[-1]))
        else:
            state.apply(other.choice(state.legal_moves()))
    assert rolls_seen and rolls_seen == PREDICTIONS


@pytest.mark.parametrize("game_id", ["armadora", "rome_and_carthage", "armada", "albion",
                                     "pig", "connect_four"])
def test_the_fair_state_holds_only_what_the_seat_may_know(game_id: str) -> None:
    """Its view for the seat is the truth's, its RNG another, and for a game with hidden
    information what the seat cannot see is redrawn somewhere along a game."""
    game = load(game_id)
    state = game.new_game(seed=2)
    rng = random.Random(2)
    redrawn = 0
    step = 0
    while not state.is_terminal():
        player = state.current_player
        if player >= 0:
            world = fair_state(state, player, seed=step)
            assert world.view(player) == state.view(player)
            assert world.legal_moves() == state.legal_moves()
            assert world._core.rng_state != state._core.rng_state
            redrawn += world.state_bytes() != state.state_bytes()
            state.apply(rng.choice(state.legal_moves()))
        else:
            state.apply_random_chance()
        step += 1
    assert (redrawn > 0) == game.has_hidden_information


def _bots() -> list[Any]:
    return [MCTSBot(iterations=40, seed=7), ISMCTSBot(iterations=40, seed=7),
            AlphaBetaBot(max_nodes=200, seed=7), GreedyBot(seed=7)]


@pytest.mark.parametrize("game_id", ["armadora", "rome_and_carthage", "armada", "albion",
                                     "pig"])
def test_the_library_bots_choose_from_the_fair_state_as_from_the_truth(game_id: str) -> None:
    """Their strength is unchanged: the same seed gives the same move and the same
    search statistics from either (they search worlds of the mover's knowledge anyway)."""
    game = load(game_id)
    rng = random.Random(4)
    compared = 0
    state = game.new_game(seed=4)
    step = 0
    while not state.is_terminal():
        player = state.current_player
        if player < 0:
            state.apply_random_chance()
            continue
        if step % 3 == 0 and len(state.legal_moves()) > 1:
            world = fair_state(state, player, seed=1000 + step)
            for from_truth, from_world in zip(_bots(), _bots(), strict=True):
                assert from_truth.choose(state) == from_world.choose(world)
                last_truth = getattr(from_truth, "last", None)
                last_world = getattr(from_world, "last", None)
                if last_truth is not None:
                    assert last_world is not None
                    assert last_truth.ranked == last_world.ranked
                compared += 1
        state.apply(rng.choice(state.legal_moves()))
        step += 1
    assert compared >= 8
