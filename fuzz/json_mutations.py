"""The fuzz targets' structural JSON mutations (fuzz/_common.py's ``json_mutator`` uses
them): a document changed as a forger would -- a value replaced or tweaked, a key or
item removed, an item duplicated or moved, a key renamed or added.  Plain Python, no
atheris, so that the test suite can check them (tests/test_fuzz_regressions.py)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

JSON_VALUES: tuple[Any, ...] = (
    0, 1, -1, 2, 3, 4, 255, 256, 2**31, 2**63, 2**64, -2**63, 10**30, 0.5, -0.0, 1e308,
    float("nan"), float("inf"), True, False, None, "", " ", "x" * 70, "\u00e9", "\ud800",
    "0" * 16, "f" * 16, "0" * 64, [], {}, [0], [0, 0, 0, 0], {"": 0},
)


def _slots(doc: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key) of a JSON document, depth first."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            out.append((doc, key))
            _slots(value, out)
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out.append((doc, i))
            _slots(value, out)
    return out


def _json_value(rng: random.Random) -> Any:
    """One of JSON_VALUES, a fresh copy: a mutation changes the document's containers in
    place, and a shared ``[0]`` once changed could end up inside itself (a circular
    document json.dumps refuses: found by CI's fuzz run)."""
    return copy.deepcopy(rng.choice(JSON_VALUES))


def _leaves(doc: Any) -> Iterator[Any]:
    for container, key in _slots(doc, []):
        value = container[key]
        if not isinstance(value, dict | list):
            yield value


def _tweak(value: Any, rng: random.Random, donors: list[Any]) -> Any:
    """A nearby value: an int moved by a little or to a boundary, a string edited or
    swapped for another of the document's strings, or anything of another type."""
    choice = rng.randrange(6)
    if isinstance(value, bool) and choice < 3:
        return not value
    if isinstance(value, int) and not isinstance(value, bool) and choice < 3:
        return value + rng.choice((-1, 1, -value - 1, 1 << rng.randrange(70), 2 * value))
    if isinstance(value, str) and choice < 3 and donors:
        if choice == 0 and value:
            i = rng.randrange(len(value))
            return value[:i] + rng.choice((" ", "-", "@", "?", "0", "9", value[i].upper(),
                                           "")) + value[i + 1:]
        return rng.choice(donors)
    if choice == 3 and donors:
        return rng.choice(donors)
    return _json_value(rng)


def mutate_document(doc: Any, rng: random.Random) -> Any:
    """``doc`` with one structural change: a value replaced or tweaked, a key or item
    removed, an item duplicated or moved, a key renamed or added."""
    slots = _slots(doc, [])
    if not slots:
        return _json_value(rng) if rng.random() < 0.5 else {"format": doc}
    container, key = rng.choice(slots)
    donors = [leaf for leaf in _leaves(doc) if isinstance(leaf, str | int)]
    op = rng.randrange(8)
    if op <= 2:
        container[key] = _tweak(container[key], rng, donors)
    elif op == 3:
        del container[key]
    elif op == 4 and isinstance(container, list):
        container.insert(key, copy.deepcopy(container[key]))  # a copy: a tree stays a tree
    elif op == 5 and isinstance(container, list) and len(container) > 1:
        other = rng.randrange(len(container))
        container[key], container[other] = container[other], container[key]
    elif op == 6 and isinstance(container, dict):
        container[key + rng.choice(("_", "x", " ")) if rng.random() < 0.5 else key.upper()] = (
            container.pop(key))
    else:
        value = container[key]
        wrapped = [[value], {"": value}]
        pick = rng.randrange(len(JSON_VALUES) + len(wrapped))
        container[key] = (copy.deepcopy(JSON_VALUES[pick]) if pick < len(JSON_VALUES)
                          else wrapped[pick - len(JSON_VALUES)])
    return doc
