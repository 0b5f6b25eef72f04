"""What an Alien Empires position may hold: the schema `from_position` checks a hand-written position
against (docs/rules/alien-empires.md, "Positions", shows one). Entries with a default may be left
out; the default stack, `[{kind: "@start_turn"}]`, starts the turn of the seat `order[active]`."""

from __future__ import annotations

from typing import Collection

from cardsmith.engine.contract import PositionError
from cardsmith.engine.kit.shape import Schema, anything, cards, count, enum, obj, per_seat, position_schema, seat

# What a turn in progress keeps (turns.start_turn); a stack in mid-turn needs them all.
TURN = {"moved": {}, "attacks": 0, "fought": [], "range_bonus": 0, "drawn": False, "used": []}
# The steps pushed without a seat (every other step belongs to one: `st.push(kind, seat, ...)`).
SEATLESS = frozenset({"@allies", "@deal", "@defender_draws", "@end_turn", "@first_turn", "@resolve", "@reveal",
                      "@start_autos", "@start_early", "@start_late", "@start_turn", "reveal"})
HEX = {"type": "string", "pattern": r"^-?\d+,-?\d+$", "x-what": "a hex label 'q,r' (two whole numbers)"}


def conflict(c: dict, n: int, stack: list) -> dict:
    """A conflict entry with what a hand-written one may leave out filled in (docs/rules/alien-empires.md,
    "Starting mid-phase"): only `hex`, `attacker` and `defender` are required; the conflict's own steps
    are those above the last `attack` step of the stack."""
    missing = [k for k in ("hex", "attacker", "defender") if k not in c]
    if missing:
        raise PositionError(f"conflict: needs {', '.join(missing)} (the contested hex and the two primary seats)")
    side: list[str | None] = [None] * n
    side[int(c["attacker"])], side[int(c["defender"])] = "A", "D"
    attack = [i for i, e in enumerate(stack) if e["kind"] == "attack"]
    full = {"side": side, "commit": [{} for _ in range(n)], "bonus": {"A": 0, "D": 0}, "flags": {"A": {}, "D": {}},
            "cancelled": [[] for _ in range(n)], "borrowed": [[] for _ in range(n)], "reveal": [None] * n,
            "used": [[] for _ in range(n)], "events": [[] for _ in range(n)], "only": [None] * n, "drawn": False,
            "shown": False, "second": False, "base": attack[-1] + 1 if attack else 0}
    full.update(c)
    return full


def schema(n: int, world_ids: Collection[str], kinds: Collection[str]) -> Schema:
    turnstate = obj({}, {"moved": {"type": "object", "propertyNames": HEX, "additionalProperties": count()},
                         "attacks": count(), "fought": {"type": "array", "items": HEX}, "range_bonus": count(),
                         "drawn": {"type": "boolean"}, "used": {"type": "array"},
                         "resurrected": {"type": "array", "items": seat(n)},
                         "psychic": {"type": ["integer", "null"]}}, open_=True)
    step = {**obj({"kind": enum(sorted(kinds))}, {"seat": seat(n)}, open_=True),
            # every step names its seat but these (a reveal lists the seats `waiting:`)
            "if": {"properties": {"kind": {"not": enum(sorted(SEATLESS))}}}, "then": {"required": ["seat"]}}
    return position_schema(n, {
        "worlds": {"type": "object", "propertyNames": HEX, "additionalProperties": enum(sorted(world_ids)),
                   "x-what": "a mapping of hex label to world"},
        "tokens": {"type": "object", "propertyNames": HEX, "additionalProperties": per_seat(n, count()),
                   "x-what": "a mapping of hex label to one token count per seat"},
        "hands": per_seat(n, cards(default=False)),
    }, {
        "order": {**per_seat(n, seat(n)), "default": list(range(n)), "uniqueItems": True,
                  "x-what": f"every seat 0 to {n - 1} once, in playing order"},
        "active": {**count(0, n - 1, 0), "x-what": f"an index into `order` (0 to {n - 1})"},
        "turn": count(1, default=1), "round": count(1, default=1),
        "out": {"type": "array", "items": seat(n), "default": []},
        "deck": cards(), "discard": cards(), "destiny": per_seat(n, cards(default=False), [[] for _ in range(n)]),
        "turnstate": {**turnstate, "default": {}}, "conflict": anything(None, ("object", "null")),
        "stack": {"type": "array", "items": step, "default": [{"kind": "@start_turn"}]},
        "played": per_seat(n, cards(default=False), [[] for _ in range(n)]), "neutral": cards(),
        "pool": {"type": "object", "additionalProperties": count(1)}})
