"""Smoke test of an *installed* boardrules (run by .ci/check_dist.sh in a fresh virtualenv).

Run it with ``python -I`` from a directory outside the clone, so that the package imported is
the one installed from the sdist or the wheel, never the source folder.  It checks that the
compiled cores are real extension modules inside that environment, then plays a whole game of
every registered game with random legal moves and asks ``suggest()`` for a move once per game.
Exit status 0 means the artifact works for a user; anything else is a broken release.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import boardrules
from boardrules import CHANCE

EXT_MODULES = ("core", "search", "armadora", "connect_four", "pig", "tic_tac_toe")


def fail(message: str) -> None:
    print(f"smoke: FAIL: {message}", file=sys.stderr)
    raise SystemExit(1)


def check_installed_location() -> None:
    # The package must come from this environment's site-packages, not a source checkout.
    package_dir = Path(boardrules.__file__).resolve().parent
    prefix = Path(sys.prefix).resolve()
    if prefix not in package_dir.parents:
        fail(f"boardrules imported from {package_dir}, outside the environment {prefix}")
    for name in EXT_MODULES:
        module = importlib.import_module(f"boardrules._ext.{name}")
        path = str(module.__file__)
        if not path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            fail(f"boardrules._ext.{name} is {path}, not a compiled extension module")
    print(f"smoke: boardrules {boardrules.__version__} from {package_dir}")


def play_random_game(game_id: str, seed: int) -> None:
    game = boardrules.load(game_id)
    state = game.new_game(seed=seed)
    hint = boardrules.suggest(state, iterations=200, seed=1)
    if hint.move not in state.legal_moves():
        fail(f"{game_id}: suggest() returned {hint.move}, not a legal move")
    rng = random.Random(seed)
    moves = 0
    while not state.is_terminal():
        if moves > game.max_game_length:
            fail(f"{game_id}: no end after {moves} moves (max_game_length {game.max_game_length})")
        player = state.current_player
        if player == CHANCE:
            state.apply_random_chance(seed=rng.randrange(2**32))
        else:
            state.apply(rng.choice(state.legal_moves()), player=player)
        moves += 1
    outcome = state.outcome()
    if outcome is None:
        fail(f"{game_id}: terminal state without an outcome")
    print(f"smoke: {game_id}: {moves} moves, scores {list(outcome.scores)}, "
          f"winners {list(outcome.winners)}; suggest() said {hint.move}")


def check_tools() -> None:
    """The console script, the records (schema shipped as package data), the viewer and
    the bench command, as a user of the wheel meets them."""
    from boardrules.records import game_record, record_from_text, record_schema, record_to_text
    from boardrules.viewer import record_html

    script = shutil.which("boardrules", path=str(Path(sys.executable).parent))
    if script is None:
        fail("the boardrules console script is not installed")
    usage = subprocess.run([script, "--help"], capture_output=True, text=True, check=True)
    for command in ("play", "replay", "record", "bench"):
        if command not in usage.stdout:
            fail(f"boardrules --help does not list {command}")
    if record_schema().get("title") is None:
        fail("the record schema is not shipped")
    state = boardrules.load("armadora").new_game(seed=3)
    state.apply(state.legal_moves()[0])
    record = game_record(state, players=["a", "b"])
    if record_from_text(record_to_text(record)) != record:
        fail("a record's text form does not read back")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_text(json.dumps(record))
        subprocess.run([script, "record", "validate", str(path)], check=True,
                       capture_output=True)
        page = record_html(record)
        addresses = set(re.findall(r"https?://[^\"' \\]+", page))
        if 'id="board"' not in page or addresses - {"http://www.w3.org/2000/svg"}:
            fail(f"the viewer page is not self-contained: {sorted(addresses)}")
    bench = subprocess.run([script, "bench", "--game", "pig", "--seconds", "0.05", "--json",
                            "--no-search"], capture_output=True, text=True, check=True)
    if not json.loads(bench.stdout)["rows"]:
        fail("boardrules bench printed no figures")
    print("smoke: the command line, records, viewer and bench work")


def main() -> int:
    check_installed_location()
    check_tools()
    games = boardrules.available_games()
    if not games:
        fail("no game registered")
    for i, game_id in enumerate(games):
        play_random_game(game_id, seed=100 + i)
    print(f"smoke: OK ({len(games)} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
