"""What a TRF position may hold: the schema `from_position` checks a hand-written position against
(docs/rules/trf.md, "Positions", shows one). Entries with a default may be left out."""

from __future__ import annotations

from cardsmith.engine.kit.shape import (Schema, anything, card, cards, count, enum, flag, obj, per_seat,
                                        position_schema, seat)
from cardsmith.games.trf.board import PHASES

UID = {"type": "integer", "minimum": 0, "x-what": "a uid (a whole number naming a card in play)"}
UID_OR_NULL = {"anyOf": [UID, {"type": "null"}], "x-what": "a uid or null", "default": None}
PAIR = {"type": "array", "items": UID, "minItems": 2, "maxItems": 2, "x-what": "a pair [uid, uid]"}
UNTIL = ("next_turn", "planet_lost", "character_lost", "countered")


def schema() -> Schema:
    planet = obj({"uid": UID, "card": card()}, {"home": flag(False)})
    persistent = obj({"card": card(), "until": enum(UNTIL)}, {"rank": count(0, 2, default=0)})
    player = obj({"account": card(), "homeworld": card(), "planets": {"type": "array", "items": planet}},
                 {"deck": cards(), "hand": cards(), "discard": cards(), "played": cards(),
                  "list": {"type": "array", "items": card()},
                  "spent_m": count(default=0), "spent_w": count(default=0), "bonus_m": count(default=0),
                  "bonus_w": count(default=0), "activated": {"type": "array", "items": UID, "default": []},
                  "persistent": {"type": "array", "items": persistent, "default": []},
                  "account_used": flag(False)})
    char = obj({"uid": UID, "card": card(), "owner": seat(2)},
               {"bought": count(default=0), "rest": count(default=0), "done": count(default=0),
                "acted": count(default=0), "moved": count(default=0), "fleet": UID_OR_NULL})
    fight = obj({"seats": per_seat(2, seat(2)), "att": {"type": "array", "items": UID},
                 "def": {"type": "array", "items": UID}},
                {"bicker": flag(False), "bonus": per_seat(2, {"type": "integer"}, default=[0, 0])})
    return position_schema(2, {"p": per_seat(2, player), "chars": {"type": "array", "items": char, "default": []}}, {
        "turn": count(1, default=1), "active": {**seat(2), "default": 0}, "first": {**seat(2), "default": 0},
        "phase": enum(PHASES, default="draw"),
        "fights": {"type": "array", "items": fight, "default": []},
        "declared": {"type": "array", "items": UID, "default": []},
        "blocks": {"type": "array", "items": PAIR, "default": []},
        "assign": {"type": "array", "items": PAIR, "default": []},
        "capture_bonus": count(default=0), "uid": count(default=0),
        "winner": {**seat(2, nullable=True), "default": None},
        "end": anything(None, ("string", "null"))})
