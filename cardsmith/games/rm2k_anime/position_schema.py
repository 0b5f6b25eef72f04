"""What a #rm2k_anime position may hold: the schema `from_position` checks a hand-written position
against (docs/rules/rm2k-anime.md, "Positions", shows one). Every entry but `seats:` may be left out."""

from __future__ import annotations

from cardsmith.engine.kit.shape import (Schema, anything, card, cards, count, enum, flag, obj, per_seat,
                                        position_schema, seat)

STAGES = ("setup", "lag", "draw", "main", "challenge", "victory")
DECISIONS = ("main_user", "starting", "distribute_lag", "main", "window", "react", "challenge", "attackers",
             "defender", "defenders", "victory")
PILES = ("deck", "hand", "discard", "scored", "aside", "picks")


def schema() -> Schema:
    user = obj({"card": card()}, {"lag": count(), "ping": count(), "limbo": flag(), "attacked": flag(),
                                   "main": flag(), "syncing": card(nullable=True), "tokens": count(),
                                   "attached": cards(default=False)})
    one = obj({}, {"vp": count(), "won": count(), "had_turn": flag(), **{k: cards(default=False) for k in PILES},
                   "users": {"type": "array", "items": user}})
    challenge = {"anyOf": [{"type": "null"}, obj(
        {"card": card(), "seat": seat(2)},
        {"att": {"type": "array", "items": count(), "default": []}, "dfn": {"type": "array", "items": count(), "default": []},
         "bonus": per_seat(2, {"type": "integer"}, [0, 0]), "cancelled": flag(False)}, open_=True)],
        "x-what": "a Challenge being resolved (a mapping) or null"}
    pending = {"anyOf": [{"type": "null"}, obj({"seat": seat(2), "card": card()},
                                               {"user": count(default=0), "target": anything(None, ("integer", "null")),
                                                "reacts": {"type": "array", "items": obj({"seat": seat(2), "card": card()}),
                                                           "default": []}}, open_=True)],
               "x-what": "an Event waiting for a React, with the Reacts played on it in `reacts` (a mapping), or null"}
    body = {"seats": {**per_seat(2, {"anyOf": [one, {"type": "null"}], "x-what": "a seat (a mapping)"}),
                      "x-what": "a list of the two seats"}}
    return position_schema(2, body, {
        "turn": count(1), "active": seat(2), "first_player": seat(2, nullable=True), "stage": enum(STAGES),
        "decision": {"anyOf": [enum(DECISIONS), {"type": "null"}], "x-what": "one of " + ", ".join(DECISIONS) + " or null"},
        "actor": seat(2), "lag_left": count(), "passes": count(), "challenge": challenge, "pending": pending,
        "winner": seat(2, nullable=True), "end_reason": anything(None, ("string", "null")),
        "played": per_seat(2, cards(default=False))})
