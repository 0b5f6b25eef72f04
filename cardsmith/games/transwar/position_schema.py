"""What a TransWar position may hold: the schema `from_position` checks a hand-written position
against (docs/rules/transwar.md, "Positions", shows one). Entries with a default may be left out;
an empty `stack:` starts the active seat's turn."""

from __future__ import annotations

from cardsmith.engine.kit.shape import Schema, anything, card, cards, count, enum, flag, obj, per_seat, position_schema, seat
from cardsmith.games.transwar.state import STEPS, TALLIES


# Steps of the stack that belong to an attack in progress (fight.begin_attack pushes them).
ATTACK_STEPS = frozenset({"ask", "@answers", "ready", "@choose_mode", "cards", "@ally_cards", "@resolve", "@attack_end"})


def schema(n: int) -> Schema:
    status = obj({}, {"lost": count(default=0), "sprayed": flag(False), "broken": flag(False),
                      "bleeding": count(default=0), "berserk": flag(False)})
    kinds = sorted(set(STEPS.autos) | set(STEPS.decisions))
    step = obj({"kind": enum(kinds)}, {"seat": seat(n, nullable=True)}, open_=True)
    tally = obj({}, {"first_form": per_seat(n, card(nullable=True), [None] * n),
                     **{k: per_seat(n, count(), [0] * n) for k in TALLIES}})
    sides = {"att": {"type": "array", "items": seat(n)}, "def": {"type": "array", "items": seat(n)}}
    side_counts = {**obj({"att": {"type": "integer"}, "def": {"type": "integer"}}), "default": {"att": 0, "def": 0}}
    prep = obj({}, {"seat": seat(n), "air": flag(False), "spray": count(default=0), "breath": anything(None, ("string", "null")),
                    "roar": flag(False), "base": count(default=0)})
    attack = {"anyOf": [{"type": "null"}, obj(
        {"attacker": seat(n), "defender": seat(n)},
        {"asked": {**obj(sides), "default": {"att": [], "def": []}},
         "allies": {**obj(sides), "default": {"att": [], "def": []}}, "modes": {"type": "array", "items": {"type": "string"}, "default": []},
         "played": {"type": "object", "additionalProperties": cards(default=False), "default": {}},
         "mult": {"type": "object", "additionalProperties": {"type": "integer"}, "default": {}},
         "air_att": flag(False), "air_def": flag(False), "leap": flag(False), "roar": seat(n, nullable=True),
         "blind": flag(False), "perfect": flag(False), "feign": flag(False), "broken": flag(False),
         "bleeding": count(default=0), "def_bonus": {"type": "integer", "default": 0},
         "coordinate": side_counts, "luck": side_counts})], "x-what": "an attack in progress (a mapping) or null",
        "default": None}
    return position_schema(n, {"forms": per_seat(n, card(nullable=True)), "hands": per_seat(n, cards(default=False))}, {
        "dealer": {**seat(n), "default": 0}, "active": {**seat(n), "default": 0}, "turn": count(1, default=1),
        "turn_cap": count(1), "out": {"type": "array", "items": seat(n), "default": []},
        "damage": per_seat(n, count(), [0] * n), "status": per_seat(n, status, [{} for _ in range(n)]),
        "started": per_seat(n, flag(), [True] * n), "deck": cards(), "discard": cards(),
        "prep": {**prep, "default": {}}, "attack": attack,
        "rescue": anything(None, ("object", "null")), "stack": {"type": "array", "items": step, "default": []},
        "played": per_seat(n, cards(default=False), [[] for _ in range(n)]), "tally": tally,
        "pool": {"type": "object", "additionalProperties": count(1)}})
