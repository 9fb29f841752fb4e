"""What a Kuhn poker action caused: a card dealt (its card hidden from everyone but the
player who gets it), a check, a bet, a call or a fold, and the end of the hand (the
cards shown at a showdown)."""

from __future__ import annotations

from typing import Any

from boardrules.api import Event

from boardrules_kuhn_poker.moves import BET, CARDS, DEAL

#: What a pass or a bet is, by (is it a bet, does it face a bet).
ACTION_KINDS = {(False, False): "check", (True, False): "bet",
                (False, True): "fold", (True, True): "call"}


def kuhn_poker_events(before: dict[str, Any], action: int, mover: int,
                      after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The whole truth: the facade's ``_redact_event`` hides a dealt card from the
    others."""
    if action >= DEAL:
        player, card = divmod(action - DEAL, len(CARDS))
        return [("deal", {"player": player, "card": CARDS[card]})]
    facing = before["pot"][0] != before["pot"][1]   # a bet waits for an answer
    kind = ACTION_KINDS[action == BET, facing]
    events: list[tuple[str, dict[str, Any]]] = [
        (kind, {"player": mover, "pot": list(after["pot"])})]
    if after["winner"] >= 0:
        winner = after["winner"]
        shown = [CARDS[c] for c in after["cards"]] if after["showdown"] else None
        events.append(("end", {"winner": winner, "chips": after["pot"][1 - winner],
                               "showdown": after["showdown"], "cards": shown}))
    return events


def redact(event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` may see it: a card dealt to another player (or any card,
    for a spectator) without its value."""
    if event.kind == "deal" and event.data["player"] != viewer:
        return Event(event.index, event.player, event.kind, {**event.data, "card": None})
    return event


def describe(event: Event) -> str:
    """A short line for the text board's ``last:`` line."""
    data = event.data
    if event.kind == "deal":
        return f"player {data['player']} is dealt {data['card'] or 'a card'}"
    if event.kind == "end":
        how = (f"shows {' against '.join(data['cards'])}" if data["showdown"]
               else "takes the pot")
        return f"player {data['winner']} {how} and wins {data['chips']}"
    verbs = {"check": "checks", "bet": "bets", "call": "calls", "fold": "folds"}
    return f"player {data['player']} {verbs[event.kind]}"
