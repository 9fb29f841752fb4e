"""Write the seed corpus of every fuzz target into ``fuzz/corpus/<target>/``.

The seeds are real: move texts of real positions (in ``fuzz_moves``' input format), saves
and signed saves of a few positions of every game and option set, whole records of real
games (and a player's record, which replay refuses), every shipped board, dice and deck
file, and fixed programs for the core target.  Every seed is played by seeded random
games, so the corpus is the same on every run; run this again (and commit its output)
when a game's notation, save format or data files change::

    python fuzz/make_corpus.py
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import fuzz_moves
from _common import CORPUS_DIR, SIGNING_KEY, boardrules, example_games

#: Positions of sample_positions() (auto_chance, by depth 0/3/12/40/120, then without it,
#: then a finished game) whose saves and records are seeds.
SAVED_POSITIONS = (1, 7, 10)
SHIPPED_FILES = ["armadora/boards", "rome_and_carthage/boards", "albion/boards",
                 "armada/boards", "armada/dice", "armada/decks"]


def write(target: str, name: str, content: bytes) -> None:
    folder = CORPUS_DIR / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(content)


def game_label(game: Any, index: int) -> str:
    return f"{game.id}-{index}"


def move_seeds() -> int:
    """Real move texts of real positions, a spelling variant of each, and moves of other
    positions, as fuzz_moves reads them (header: position, kind, player)."""
    count, rng = 0, random.Random(0)
    for index, state in enumerate(fuzz_moves.POSITIONS):
        if index % 4:
            continue
        header = index.to_bytes(2, "little")
        moves = state.legal_moves() or list(state.history)[-1:]
        for move in rng.sample(moves, 1):
            text = str(move)
            variant = "  " + text.upper().replace(" ", "   ") + " "
            for n, spelling in enumerate((text, variant)):
                body = header + bytes([fuzz_moves.TEXT, rng.choice((0, 4, 5))])
                write("moves", f"{state.game.id}-{index}-{move.action}-{n}",
                      body + spelling.encode())
                count += 1
        kinds = (fuzz_moves.MOVE_OBJECT, fuzz_moves.FORGED_MOVE, fuzz_moves.OTHER_VALUE,
                 fuzz_moves.OTHER_POSITION_MOVE, fuzz_moves.STR_SUBCLASS)
        for kind in rng.sample(kinds, 2):
            body = header + bytes([kind, rng.randrange(8)]) + rng.randbytes(12)
            write("moves", f"{state.game.id}-{index}-kind{kind}", body)
            count += 1
    return count


def save_seeds() -> int:
    count = 0
    for g, game in enumerate(fuzz_moves.GAMES):
        states = fuzz_moves.POSITIONS_BY_GAME[g]
        for p in SAVED_POSITIONS:
            name = f"{game_label(game, g)}-{p}.json"
            write("saves", name, states[p].to_json().encode())
            if p in (1, 10):
                write("signed_saves", name, states[p].to_json(key=SIGNING_KEY).encode())
            count += 1
    return count


def record_seeds() -> int:
    from boardrules.records import game_record

    count = 0
    for g, game in enumerate(example_games()):
        state = boardrules.testing.random_play(game, seed=g, moves=25, auto_chance=False)
        # date=None: the corpus is the same on every run
        write("records", f"{game_label(game, g)}.json",
              json.dumps(game_record(state, seed=g, date=None)).encode())
        count += 1
        if game.max_game_length <= 100:  # small games: a whole game too
            done = boardrules.testing.play_to_end(game.new_game(seed=g, auto_chance=False))
            write("records", f"{game_label(game, g)}-end.json",
                  json.dumps(game_record(done, seed=g, date=None,
                                         comments={0: "a comment"})).encode())
            count += 1
        if g == 0 or (game.has_hidden_information and game.options == type(
                game).example_options[0]):
            write("records", f"{game_label(game, g)}-player0.json",
                  json.dumps(game_record(state, viewer=0, date=None)).encode())
            count += 1
    return count


def board_file_seeds() -> int:
    games_dir = Path(boardrules.__file__).parent / "games"
    count = 0
    for folder in SHIPPED_FILES:
        for path in sorted((games_dir / folder).glob("*.json")):
            write("board_files", f"{folder.replace('/', '-')}-{path.name}", path.read_bytes())
            count += 1
    return count


def position_seeds() -> int:
    """The positions state.position() writes at sample positions of every game with a
    position format, and for each game a few texts that are no position."""
    import fuzz_positions

    count = 0
    for g, game in enumerate(fuzz_positions.GAMES):
        for n, junk in enumerate(("", "board", "x" * 40)):
            write("positions", f"{game_label(game, g)}-junk{n}", bytes([g]) + junk.encode())
            count += 1
        if not fuzz_positions.WITH_FORMAT[g]:
            continue
        for p, state in enumerate(fuzz_moves.POSITIONS_BY_GAME[g]):
            write("positions", f"{game_label(game, g)}-{p}",
                  bytes([g]) + state.position().encode())
            count += 1
    return count


def core_seeds() -> int:
    """Programs for fuzz_core: byte strings from a fixed seed, one set per game."""
    rng = random.Random(1)
    for _n in range(48):
        program = rng.randbytes(rng.randrange(8, 64))
        write("core", hashlib.sha1(program).hexdigest()[:16], program)
    return 48


def main() -> None:
    if CORPUS_DIR.exists():
        shutil.rmtree(CORPUS_DIR)
    counts = {"moves": move_seeds(), "saves": save_seeds(), "records": record_seeds(),
              "board_files": board_file_seeds(), "core": core_seeds(),
              "positions": position_seeds()}
    counts["signed_saves"] = len(list((CORPUS_DIR / "signed_saves").iterdir()))
    for target, count in counts.items():
        size = sum(p.stat().st_size for p in (CORPUS_DIR / target).iterdir())
        print(f"{target:13} {count:4} seeds {size / 1024:7.1f} KiB")


if __name__ == "__main__":
    main()
    sys.exit(0)
