"""What an Albion action caused (docs/albion.rst, "Events"), computed from the core's
export before and after it.  Albion hides nothing (face-down Picts are unknown to
everyone), so every viewer sees every event whole: the game keeps the default
``_redact_event``.

Kinds:

* ``pict`` -- a face-down Pict turned over: ``region``, ``pict`` (``assault``/``peace``);
* ``assault`` -- "Defending an Assault": ``region``, ``strength`` (face-up and printed
  assault Picts), ``defenders`` (per player with a building there: ``player``,
  ``defence``, ``repelled``);
* ``loss`` -- what an assault (or its aftermath) cost: ``player``, ``region``, ``what``
  (``token``: the face-down token being built; ``stage``: a stage of his building there,
  with ``building`` and the ``stage`` left; ``settler`` / ``legion``: a figure returned
  for a reduced settlement I or II);
* ``tribute`` -- ``player`` took ``resource`` of the builder's payment;
* ``resources`` -- "Take Resources": ``player``, ``took`` (per kind), ``returned`` (the
  short supply's returns: ``[player, kind]`` pairs);
* ``end`` -- the game is over: ``reason``, ``winners``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardrules._ext.albion import END_REASONS, PHASES, TYPES

RESOURCES = ("fish", "wood", "stone", "gold")
_REVEAL = PHASES.index("reveal")
_OVER = PHASES.index("over")

Events = list[tuple[str, dict[str, Any]]]


def albion_events(layout: dict[str, int], keys: Sequence[str], printed: Sequence[int],
                  before: dict[str, Any], action: int, after: dict[str, Any]) -> Events:
    """The events of ``action`` from the exports ``before`` and ``after`` it."""
    events: Events = []
    if action >= layout["pict"]:
        events.extend(_pict(keys, printed, before, action == layout["pict"], after))
    elif layout["return"] <= action < layout["pict"]:
        events.extend(_losses(keys, before, after, None))
    if action == layout["resources"]:
        events.append(_resources(before, after))
    else:       # only a tribute gives a resource to another player than the turn's
        events.extend(_tributes(before, after))
    if after["phase"] == _OVER and before["phase"] != _OVER:
        events.append(("end", {"reason": END_REASONS[after["end_reason"]],
                               "winners": list(after["winners"])}))
    return events


def _pict(keys: Sequence[str], printed: Sequence[int], before: dict[str, Any],
          assault: bool, after: dict[str, Any]) -> Events:
    r = before["b_region"]
    events: Events = [("pict", {"region": keys[r], "pict": "assault" if assault else "peace"})]
    if before["phase"] != _REVEAL or not assault:
        return events
    strength = after["face_up"][r] + printed[r]
    defenders = []
    for q in range(len(before["res"])):
        if before["btype"][r][q]:
            defence = before["legions"][r][q] + before["rampart_stages"][q]
            defenders.append({"player": q, "defence": defence,
                              "repelled": defence >= strength})
    events.append(("assault", {"region": keys[r], "strength": strength,
                               "defenders": defenders}))
    builder = before["turn_player"]
    lost = any(d["player"] == builder and not d["repelled"] for d in defenders)
    events.extend(_losses(keys, before, after, r if lost else None))
    return events


def _losses(keys: Sequence[str], before: dict[str, Any], after: dict[str, Any],
            token_lost: int | None) -> Events:
    """Each stage and figure lost between ``before`` and ``after`` (``token_lost``: the
    region where the builder lost the token he was building)."""
    events: Events = []
    builder = before["turn_player"]
    for q in range(len(before["res"])):
        for r, key in enumerate(keys):
            if r == token_lost and q == builder:
                events.append(("loss", {"player": q, "region": key, "what": "token"}))
            elif after["bstage"][r][q] < before["bstage"][r][q]:
                events.append(("loss", {"player": q, "region": key, "what": "stage",
                                        "building": TYPES[before["btype"][r][q]],
                                        "stage": after["bstage"][r][q]}))
            for what in ("settlers", "legions"):
                for _ in range(before[what][r][q] - after[what][r][q]):
                    events.append(("loss", {"player": q, "region": key,
                                            "what": what[:-1]}))
    return events


def _tributes(before: dict[str, Any], after: dict[str, Any]) -> Events:
    builder = before["turn_player"]
    events: Events = []
    for q in range(len(before["res"])):
        if q == builder:
            continue
        for k, kind in enumerate(RESOURCES):
            for _ in range(after["res"][q][k] - before["res"][q][k]):
                events.append(("tribute", {"player": q, "resource": kind}))
    return events


def _resources(before: dict[str, Any], after: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    taker = before["turn_player"]
    took = {kind: after["res"][taker][k] - before["res"][taker][k]
            for k, kind in enumerate(RESOURCES)}
    returned = [[q, kind] for q in range(len(before["res"])) if q != taker
                for k, kind in enumerate(RESOURCES)
                for _ in range(before["res"][q][k] - after["res"][q][k])]
    return ("resources", {"player": taker, "took": took, "returned": returned})


def describe(kind: str, data: dict[str, Any]) -> str:
    """One event in words, for the text board's ``last:`` line."""
    if kind == "pict":
        return f"{data['pict']} Pict in {data['region']}"
    if kind == "assault":
        held = ", ".join(f"p{d['player']} {d['defence']}" for d in data["defenders"])
        return f"assault {data['strength']} in {data['region']} ({held or 'nobody'})"
    if kind == "loss":
        what = data["what"]
        if what == "stage":
            what = f"{data['building']} to stage {data['stage']}"
        return f"p{data['player']} loses {what} in {data['region']}"
    if kind == "tribute":
        return f"p{data['player']} takes {data['resource']} as tribute"
    if kind == "resources":
        took = "+".join(f"{n} {k}" for k, n in data["took"].items() if n) or "nothing"
        return f"p{data['player']} takes {took}"
    return f"game over ({data['reason']})"
