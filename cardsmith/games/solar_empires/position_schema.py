"""What a Solar Empires position may hold: the schema `from_position` checks a hand-written position
against (docs/rules/solar-empires.md, "Positions", shows one). Entries with a default may be left out;
a seat's `fleet:` and `solar_bodies:` have none on purpose (left out, they are the cards the position
places), nor has `combat.step` (its default depends on `combat.position`)."""

from __future__ import annotations

from typing import Any, Mapping

from cardsmith.engine.contract import PositionError
from cardsmith.engine.kit.shape import Schema, card, cards, count, enum, flag, obj, per_seat, position_schema, seat
from cardsmith.games.solar_empires.cards import (BODY, BUILDING, CLASS_NAMES, EVENT, POSITIONS, SHIP, STAR,
                                                 CardInfo)
from cardsmith.games.solar_empires.names import (COMBAT, COMBAT_STEPS, CONSTRUCT, DECISIONS, DEPLOY, ORDER, PICK,
                                                 PRIORITY, SPY, STAGES)

PICKS = ("fighters", "discard", "deck")  # resolve.Pick.kind
THEN = ("construct", "combat")  # resolve.Pick.then
SPOT = {**count(1, POSITIONS), "x-what": f"a position of the solar system (1 to {POSITIONS})"}
SPOT_OR_NULL = {"anyOf": [SPOT, {"type": "null"}], "x-what": f"a position (1 to {POSITIONS}) or null", "default": None}
SHIP_REF = {"type": "array", "prefixItems": [seat(2), enum(("ships", "discard")), count()], "items": False,
            "minItems": 3, "maxItems": 3, "x-what": "a ship [seat, \"ships\" or \"discard\", index in that list]"}
SHIP_REF_OR_NULL = {"anyOf": [SHIP_REF, {"type": "null"}], "x-what": "a ship [seat, \"ships\" or \"discard\", index] or null"}


def _nullable(s: Schema, what: str, default: bool = True) -> Schema:
    out: Schema = {"anyOf": [s, {"type": "null"}], "x-what": what}
    if default:
        out["default"] = None
    return out


def schema() -> Schema:
    ship = obj({"card": card()}, {"at": SPOT_OR_NULL, "damage": count(default=0), "shield": count()})
    player = obj({}, {
        "fleet": cards(default=False), "solar_bodies": cards(default=False),
        "hand": cards(), "deck": cards(), "discard": cards(), "events": cards(),
        "ships": {"type": "array", "items": ship, "default": []}, "played": cards(),
        "event_played": flag(False), "spell_played": flag(False), "cannon_fired": flag(False)})
    building = obj({"card": card()}, {"owner": seat(2)})
    planet = obj({"card": card()}, {"controller": {**seat(2, nullable=True), "default": None},
                                    "building": _nullable(building, "a building {card, owner} or null")})
    pick = obj({"kind": enum(PICKS), "seat": seat(2), "left": count()}, {
        "max_class": enum(CLASS_NAMES, default="battleship"), "may_stop": flag(False),
        "chosen": {"type": "array", "items": SHIP_REF, "default": []}, "then": enum(THEN, default="construct"),
        "amount": count(default=0)})
    effect = obj({"seat": seat(2), "amount": {"type": "integer"}, "target": {"type": "string"},
                  "source": {"type": "string"}, "engaged": {"type": "boolean"}})
    pair = {"type": "array", "minItems": 2, "maxItems": 2}
    combat = obj({}, {
        "pending": {"type": "array", "items": SPOT, "default": []}, "position": SPOT_OR_NULL,
        "step": enum(COMBAT_STEPS), "effects": {"type": "array", "items": effect, "default": []},
        "point": {**pair, "items": SHIP_REF_OR_NULL, "default": [None, None], "x-what": "two ships (or nulls), one per seat"},
        "new_point_max": {**pair, "items": _nullable(enum(CLASS_NAMES), "a ship class or null", False),
                          "default": [None, None], "x-what": "two ship classes (or nulls), one per seat"},
        "shots": count(default=0), "first": {**seat(2), "default": 0}, "attacker": {**seat(2), "default": 0},
        "damage_left": count(default=0), "forced": {**SHIP_REF_OR_NULL, "default": None},
        "winner": {**seat(2, nullable=True), "default": None},
        "previous_controller": {**seat(2, nullable=True), "default": None}, "swarm_step": count(default=0)})
    result = obj({"reason": {"type": "string", "minLength": 1}}, {"winner": {**seat(2, nullable=True), "default": None}})
    instances = obj({}, {k: {"type": "array", "items": count()} for k in ("0", "1", "solar")})
    return position_schema(2, {"players": per_seat(2, player)}, {
        "turn": count(1, default=1), "priority": {**seat(2), "default": 0},
        "stage": enum(STAGES, default="construct1"),
        "stage_step": {**count(0, 2, default=0), "x-what": "which seat's go in the stage: 0 (priority), 1, or 2 (both done)"},
        "decision": _nullable(obj({"kind": enum(DECISIONS), "seat": seat(2)}), "a decision {kind, seat} or null"),
        "result": _nullable(result, "a result {winner, reason} or null"),
        "star": {**card(nullable=True), "default": None}, "black_hole": flag(False),
        "planets": {"type": "array", "maxItems": POSITIONS, "default": [],
                    "items": _nullable(planet, "a planet {card, controller, building} or null", False),
                    "x-what": f"a list of up to {POSITIONS} planets (null for an empty position)"},
        "removed": cards(), "flare": {"type": "array", "items": SPOT, "default": []},
        "swarm": {"type": "array", "items": obj({"position": SPOT, "bonus": {"type": "integer"}}), "default": []},
        "pick": _nullable(pick, "a pick {kind, seat, left, ...} or null"),
        "combat": _nullable(combat, "a combat {pending, position, step, ...} or null"),
        "instances": _nullable(instances, "a mapping of '0', '1' and 'solar' to instance numbers, or null"),
        # (the header's `seats:` is required by the kit; for a two-player game it may be left out)
        "seats": {"enum": [2], "default": 2, "x-what": "2 (Solar Empires is a game for 2 players)"}})


# ---------------------------------------------------------------------- what the schema cannot say
FLEET_KINDS = (SHIP, EVENT, BUILDING)
SOLAR_KINDS = (STAR, BODY)
KIND_NAMES = {SHIP: "a ship", EVENT: "an event", BUILDING: "a building", STAR: "a star", BODY: "a solar body"}
# Decisions taken inside a combat at a position (`combat_order` picks the position; a pick may follow one).
AT_A_COMBAT = frozenset(DECISIONS) - {ORDER, PRIORITY, CONSTRUCT, PICK, DEPLOY, SPY, COMBAT}


def check_fit(infos: Mapping[str, CardInfo], data: Mapping[str, Any]) -> None:
    """What a position holds fits together (after `check_position`): cards of the right kind in each
    zone, ships named by [seat, zone, index] that are there, and a decision its stage can ask."""
    _kinds(infos, data)
    for where, ref in _ship_refs(data):
        seat_, zone, k = ref
        pile = data["players"][seat_][zone] if zone == "discard" else data["players"][seat_]["ships"]
        if k >= len(pile):
            raise PositionError(f"{where} is {ref}: players[{seat_}].{zone} has {len(pile)} entries, so index "
                                f"{k} names no ship (indices start at 0)")
        cid = pile[k] if zone == "discard" else pile[k]["card"]
        if infos[cid].type != SHIP:
            raise PositionError(f"{where} is {ref}: players[{seat_}].{zone}[{k}] is '{cid}', not a ship")
    _decision(data)


def _kinds(infos: Mapping[str, CardInfo], data: Mapping[str, Any]) -> None:
    def expect(where: str, cid: str | None, kinds: tuple[int, ...]) -> None:
        if cid is not None and infos[cid].type not in kinds:
            want = " or ".join(KIND_NAMES[k] for k in kinds)
            raise PositionError(f"{where}: '{cid}' is {KIND_NAMES[infos[cid].type]} card; this entry holds {want}")

    expect("star", data["star"], (STAR,))
    for k, cid in enumerate(data["removed"]):
        expect(f"removed[{k}]", cid, SOLAR_KINDS)
    for i, pl in enumerate(data["planets"]):
        if pl:
            expect(f"planets[{i}].card", pl["card"], (BODY,))
            if pl["building"]:
                expect(f"planets[{i}].building.card", pl["building"]["card"], (BUILDING,))
    for p, pd in enumerate(data["players"]):
        for key, kinds in (("fleet", FLEET_KINDS), ("solar_bodies", SOLAR_KINDS), ("hand", FLEET_KINDS),
                           ("deck", FLEET_KINDS), ("discard", FLEET_KINDS), ("events", (EVENT,)),
                           ("played", FLEET_KINDS)):
            for k, cid in enumerate(pd.get(key) or ()):
                expect(f"players[{p}].{key}[{k}]", cid, kinds)
        for k, sh in enumerate(pd["ships"]):
            expect(f"players[{p}].ships[{k}].card", sh["card"], (SHIP,))


def _ship_refs(data: Mapping[str, Any]) -> list[tuple[str, list]]:
    pick, fight = data["pick"], data["combat"] or {}
    refs = [(f"pick.chosen[{k}]", r) for k, r in enumerate(pick["chosen"] if pick else ())]
    refs += [(f"combat.point[{k}]", r) for k, r in enumerate(fight.get("point") or ())]
    refs.append(("combat.forced", fight.get("forced")))
    return [(where, ref) for where, ref in refs if ref is not None]


def _decision(data: Mapping[str, Any]) -> None:
    """The decision is one the stage asks, with the pick or the combat it needs."""
    if data["result"]:
        return
    dec, pick, fight, stage = data["decision"], data["pick"], data["combat"], data["stage"]
    kind = dec["kind"] if dec else None
    if (kind == PICK) != (pick is not None):
        raise PositionError("decision.kind is 'choose_cards' exactly when a `pick:` is in progress "
                            f"(found decision {kind!r} and pick {'given' if pick else 'null'})")
    if pick and pick["seat"] != dec["seat"]:
        raise PositionError(f"pick.seat is {pick['seat']}, but the decision is seat {dec['seat']}'s")
    if fight and stage != "combat":
        raise PositionError(f"`combat:` is given but the stage is {stage!r}: a combat is only in progress in "
                            "the 'combat' stage (write `combat: null`)")
    needs = ("combat" if kind == COMBAT or kind in AT_A_COMBAT else {ORDER: "setup", PRIORITY: "coin",
             CONSTRUCT: "construct1' or 'construct2", DEPLOY: "deploy", SPY: "spy"}.get(kind or ""))
    if needs and stage not in needs.split("' or '"):
        raise PositionError(f"decision.kind {kind!r} is asked in the '{needs}' stage, not in {stage!r}")
    at = fight["position"] if fight else None
    if kind in AT_A_COMBAT and at is None:
        raise PositionError(f"decision.kind {kind!r} is taken in a combat: `combat.position` must name where")
    if fight and at is None and fight.get("step") not in (None, "next"):
        raise PositionError(f"combat.step is {fight['step']!r} but combat.position is null: without a combat "
                            "at a position the step is 'next'")
    if fight and at is not None:
        _combat_at(data, fight, at)
    for k, pos in enumerate(fight["pending"] if fight else ()):
        if not data["planets"][pos - 1:pos] or data["planets"][pos - 1] is None:
            raise PositionError(f"combat.pending[{k}] is {pos}: there is no planet at position {pos} to fight over")


# Steps of a combat in which both seats still have ships at the position, and those after the point
# ships are chosen; from 'won' on, the combat has a winner.
BOTH_FLEETS = ("point", "choice", "shoot", "intercept_wait", "place", "newpoint")
POINTED = ("choice", "shoot", "intercept_wait", "place", "after")
WON = ("won", "world_eater_wait", "building", "order101_wait")


def _combat_at(data: Mapping[str, Any], fight: Mapping[str, Any], at: int) -> None:
    step = fight.get("step", "effects")
    if step in BOTH_FLEETS:
        for p, pd in enumerate(data["players"]):
            if not any(sh["at"] == at for sh in pd["ships"]):
                raise PositionError(f"combat.step is {step!r} at position {at}, but seat {p} has no ship there "
                                    f"(a ship of players[{p}].ships with `at: {at}`)")
    if step in POINTED and None in fight["point"]:
        raise PositionError(f"combat.step is {step!r}: both point ships are chosen by then, but combat.point is "
                            f"{fight['point']}")
    if step in WON and fight["winner"] is None:
        raise PositionError(f"combat.step is {step!r}: the combat is won by then, so combat.winner names a seat")
