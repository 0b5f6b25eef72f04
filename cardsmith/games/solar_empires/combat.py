"""One combat at a planet: pre-combat effects, point ships, shots, damage placement, the win and
what follows it (control, Battlefield Reclamation, World Eater, the building's survival roll).

`step(s)` advances the combat at `s.cpos` through its named steps (`s.cstage`) until a seat must
decide or the combat is over. `LEGAL` and `HANDLE` give the combat decisions' options and effects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import cardsmith.games.solar_empires.resolve as resolve
from cardsmith.games.solar_empires.cards import FIGHTER, SEATS
from cardsmith.games.solar_empires.names import (BOMBER_BONUS, DAMAGE, FIRE, INTERCEPT, ORDER101, POINT, SHOT_CAP,
                                                 STRIKE, SWARM, WORLD_EATER)
from cardsmith.games.solar_empires.board import Pick
from cardsmith.games.solar_empires.resolve import building_save

if TYPE_CHECKING:
    from cardsmith.games.solar_empires.board import Board


def start(s: "Board", pos: int) -> None:
    """Open the combat at `pos`: list the pre-combat damage effects that may act there."""
    s.cpending.remove(pos)
    s.cpos = pos
    s.point = [-1, -1]
    s.point_max = [-1, -1]
    s.cshots = 0
    s.cwinner = -1
    info = s.t.info
    fx = []
    b, c = s.bldg[pos], s.ctrl[pos]
    if b >= 0 and c >= 0:  # a building acts for its planet's controller, with or without ships there
        d = info[b].fx.get("damage")
        if d is not None and d.get("when") == "before_attacks":
            fx.append((c, d["amount"], d["target"], info[b].name, False))
    events = s.events
    if events[0] or events[1]:
        for q in (s.priority, 1 - s.priority):  # an event only where its owner is engaged too
            for i in events[q]:
                d = info[i].fx.get("damage")
                if d is not None and d.get("when") == "before_attacks":
                    fx.append((q, d["amount"], d["target"], info[i].name, True))
    s.cfx = fx
    at, ships = s.at, s.ships
    s.cf = [[i for i in ships[0] if at[i] == pos], [i for i in ships[1] if at[i] == pos]]  # fleet_at, both seats
    s.cstage = "effects"
    if not fx and not s.swarm:  # no effect and no swarm to resolve: the fleets meet at once
        s.swarm_i = 0
        s.cstage = "start"
    if s.loud:
        s.rec("combat", f"Combat at position {pos + 1} ({s.name(s.planet[pos])})", position=pos + 1)


def withdraw(s: "Board", p: int) -> None:
    for i in s.cf[p]:
        s.at[i] = -1
    s.cf[p] = []
    s.cwinner = 1 - p
    s.cstage = "won"


def roll_attack(s: "Board") -> None:
    """The attacker's shot: d6 + attack bonus - the enemy point ship's shield, into `s.pd_amt`."""
    info = s.t.info
    a = s.catt
    pa, pd = s.point[a], s.point[1 - a]
    ci = info[pa]
    bonus = ci.attack
    # A shielded point ship is supported only by smaller ships (larger ones add nothing).
    big_counted = s.shield(pa) > 0
    for i in s.cf[a]:
        if i == pa:
            continue
        if info[i].cls < ci.cls:
            bonus += 1
        elif not big_counted:
            big_counted = True  # one or more of equal or larger size: +1 once
            bonus += 1
    if ci.bomber and info[pd].cls > ci.cls:
        bonus += BOMBER_BONUS
    b = s.bldg[s.cpos]
    if b >= 0 and s.ctrl[s.cpos] == a and "attack_bonus" in info[b].fx:
        bonus += info[b].fx["attack_bonus"]["amount"]
    roll = s.d6("attack")
    note = ""
    if roll == 1 and ci.accurate:
        roll = s.d6("accurate re-roll")
        note = " (accurate re-roll)"
    sh = s.shield(pd)
    total = max(0, roll + bonus - sh)
    s.pd_amt = total
    if s.loud:
        s.rec("shot", f"  P{a} fires: d6 {roll}{note} + {bonus}" + (f" - shield {sh}" if sh else "") + f" = {total}",
              seat=a, roll=roll, bonus=bonus, shield=sh, damage=total)


# ---------------------------------------------------------------------- the steps
def _effects(s: "Board") -> bool:
    info = s.t.info
    while s.cfx:
        side, amount, target, source, engaged = s.cfx[0]
        enemy = s.cf[1 - side][:]  # (a copy: the hits below may destroy ships)
        if engaged and not s.cf[side]:
            enemy = []
        if target == "enemy_ship" and enemy:
            s.cstage = "effect_wait"  # the effect stays first in s.cfx until its target is chosen
            return s.ask(STRIKE, side)
        s.cfx.pop(0)
        for i in enemy:
            if target == "enemy_ships" or info[i].cls == FIGHTER:
                if s.loud:
                    s.rec("hit", f"  {source} hits {info[i].name} for {amount}", card=info[i].id, damage=amount)
                s.hurt(i, amount)
    s.cstage = "swarm"
    s.swarm_i = 0
    return False


def _swarm(s: "Board") -> bool:
    # each Asteroid Swarm on this planet hits each fleet there (priority's fleet first)
    hits = [(sp, n) for sp, n in s.swarm if sp == s.cpos]
    k = s.swarm_i
    if k >= 2 * len(hits):
        s.cstage = "start"
        return False
    s.swarm_i += 1
    q = s.priority if k % 2 == 0 else 1 - s.priority
    if s.cf[q]:
        amt = s.d6("asteroid swarm") + hits[k // 2][1]
        if s.loud:
            s.rec("swarm", f"  Asteroid Swarm deals {amt} damage to P{q}'s fleet", seat=q, damage=amt)
        s.pd_amt = amt
        s.cstage = "swarm_place"
        return s.ask(SWARM, q)
    return False


def _swarm_place(s: "Board") -> bool:
    if s.pd_amt > 0 and s.cf[s.current_player]:
        s.dec = SWARM
        return True
    s.cstage = "swarm"
    return False


def _start(s: "Board") -> bool:
    f0, f1 = s.cf
    if f0 and f1:
        s.cstage = "point"
    elif f0 or f1:
        s.cwinner = 0 if f0 else 1
        if s.loud:
            s.rec("unopposed", f"  P{s.cwinner} is unopposed", seat=s.cwinner)
        s.cstage = "won"
    else:
        if s.loud:
            s.rec("result", "  no ships remain; control is unchanged", **_result(s, None))
        s.cstage = "next"
    return False


def _point(s: "Board") -> bool:
    for q in (s.priority, 1 - s.priority):
        if s.point[q] < 0:
            return s.ask(POINT, q)
    info = s.t.info
    c0, c1 = info[s.point[0]].cls, info[s.point[1]].cls
    s.cfirst = s.priority if c0 == c1 else (0 if c0 < c1 else 1)
    if s.loud:
        s.rec("first", f"  P{s.cfirst} fires first", seat=s.cfirst)
    s.cstage = "choice"
    return False


def _choice(s: "Board") -> bool:
    if s.cshots >= SHOT_CAP:
        if s.loud:
            s.rec("result", f"  {SHOT_CAP} shots without a result: both fleets break off; control is unchanged",
                  **_result(s, None))
        for q in SEATS:
            for i in s.cf[q]:
                s.at[i] = -1
            s.cf[q] = []
        s.cstage = "next"
        return False
    a = s.cfirst if s.cshots % 2 == 0 else 1 - s.cfirst
    s.catt = a
    if s.cshots >= 2:
        return s.ask(FIRE, a)
    s.cstage = "shoot"
    return False


def _shoot(s: "Board") -> bool:
    roll_attack(s)
    a = s.catt
    s.pd_forced = -1
    info = s.t.info
    targets = s.cf[1 - a]
    # (with one enemy ship left, or no damage, where the damage goes is not a choice)
    if s.pd_amt > 0 and len(targets) > 1 and any(info[i].cls == FIGHTER for i in targets) \
            and any(info[i].interceptor for i in s.cf[a]):
        s.cstage = "intercept_wait"
        return s.ask(INTERCEPT, a)
    s.cstage = "place"
    return False


def _place(s: "Board") -> bool:
    d = 1 - s.catt
    f = s.pd_forced
    if f >= 0:
        s.pd_forced = -1
        put = min(s.t.info[f].armour - s.dmg[f], s.pd_amt)
        s.pd_amt -= put
        if s.loud:
            s.rec("damage", f"  interceptors force {put} damage onto {s.name(f)}", card=s.t.info[f].id, damage=put)
        s.hurt(f, put)
    if s.pd_amt > 0 and s.cf[d]:
        return s.ask(DAMAGE, d)
    s.cstage = "after"
    return False


def _after(s: "Board") -> bool:
    d = 1 - s.catt
    s.cshots += 1
    fleet = s.cf[d]
    if not fleet:
        s.cwinner = s.catt
        s.cstage = "won"
        return False
    pt = s.point[d]
    if pt not in fleet:
        info = s.t.info
        old = info[pt].cls
        if not any(info[i].cls <= old for i in fleet):
            if s.loud:
                s.rec("withdraw", f"  P{d} has no ship to take the point and withdraws", seat=d)
            withdraw(s, d)
            return False
        s.point[d] = -1
        s.point_max[d] = old
        s.cstage = "newpoint"
        return s.ask(POINT, d)
    s.cstage = "choice"
    return False


def _newpoint(s: "Board") -> bool:
    s.point_max = [-1, -1]
    s.cstage = "choice"
    return False


def _won(s: "Board") -> bool:
    w, pos = s.cwinner, s.cpos
    info = s.t.info
    prev = s.cprev = s.ctrl[pos]
    if s.loud:
        s.rec("result", f"  P{w} wins the combat and controls position {pos + 1}", seat=w, **_result(s, w))
    if prev != w:
        s.ctrl[pos] = w
        # (support changes only with control: the winner's, and the loser's if it held the planet)
        s.table_changed(w if prev < 0 else -1)
        n = sum([fx["cards"] for fx in s.event_fx(w, "draw_on_capture")]) if s.events[w] else 0
        if n:
            s.draw(w, n)
            if s.loud:
                s.rec("draw", f"  P{w} draws {n} (Battlefield Reclamation)", seat=w, cards=n)
    if s.t.devour[w]:
        for i in s.cf[w]:
            if "devour_planet" in info[i].fx:
                s.cstage = "world_eater_wait"
                return s.ask(WORLD_EATER, w)
    s.cstage = "building"
    return False


def _building(s: "Board") -> bool:
    s.cstage = "next"
    w = s.cwinner
    loser = 1 - w
    if s.bldg[s.cpos] >= 0 and s.cprev == loser:
        if s.event_fx(loser, "fail_lost_building_saves"):
            s.cstage = "order101_wait"
            return s.ask(ORDER101, loser)
        building_save(s, s.cpos, w)
    return False


def _result(s: "Board", winner: int | None) -> dict:
    """The `result` event's data for the combat ending now (docs/rules/solar-empires.md, "Result
    events"): each seat's ships left in it, by design, and the winner, whose fleet is left standing."""
    info = s.t.info
    sides = []
    for q in SEATS:
        ships: dict[str, int] = {}
        for i in s.cf[q]:
            ships[info[i].id] = ships.get(info[i].id, 0) + 1
        sides.append({"seat": q, "role": "priority" if q == s.priority else "other", "total": len(s.cf[q]),
                      "parts": ships})
    return {"resolution": "combat", "winner": winner, "position": s.cpos + 1, "shots": s.cshots, "sides": sides}


def _waiting(s: "Board") -> bool:
    raise AssertionError(f"combat step {s.cstage} has no pending decision")


_STEPS: dict[str, Callable[["Board"], bool]] = {
    "effects": _effects, "swarm": _swarm, "swarm_place": _swarm_place, "start": _start, "point": _point,
    "choice": _choice, "shoot": _shoot, "place": _place, "after": _after, "newpoint": _newpoint,
    "won": _won, "building": _building, "effect_wait": _waiting, "intercept_wait": _waiting,
    "world_eater_wait": _waiting, "order101_wait": _waiting,
}


def step(s: "Board") -> bool:
    """Advance the combat at s.cpos; True when a decision is pending or the combat is over."""
    while s.cstage != "next":
        if _STEPS[s.cstage](s):
            return True
    return True


# ---------------------------------------------------------------------- combat decisions
def _damage_actions(s: "Board", p: int) -> tuple:
    """A ship of seat p's fleet here to put damage on (one per distinguishable copy; at a shot the
    point ship is told apart from its copies)."""
    pt = s.point[p] if s.dec == DAMAGE else -1
    return _fleet_choices(s, "damage", s.cf[p], pt)


def _fleet_choices(s: "Board", verb: str, insts: list[int], apart: int = -1) -> tuple:
    """(verb, instance, card id) for one ship per distinguishable copy among `insts` (same design,
    same damage), `apart` (a point ship) counted as a copy of its own: `SolarState.dedup` written
    out, as combat lists these after nearly every shot."""
    info, design, dmg = s.t.info, s.t.design, s.dmg
    seen = set()
    out = []
    for i in insts:
        k = design[i] | dmg[i] << 4 | (2 if i == apart else 1)
        if k not in seen:
            seen.add(k)
            out.append((verb, i, info[i].id))
    return tuple(out)


def _point_actions(s: "Board", p: int) -> tuple:
    info = s.t.info
    cands = s.cf[p]
    if s.point_max[p] >= 0:
        cands = [i for i in cands if info[i].cls <= s.point_max[p]]
    return _fleet_choices(s, "point", cands)


def _intercept_actions(s: "Board", p: int) -> tuple:
    info = s.t.info
    pt = s.point[1 - p]
    fighters = [i for i in s.cf[1 - p] if info[i].cls == FIGHTER]
    return (("no-intercept",),) + tuple(("intercept", i, info[i].id) for i in s.dedup(fighters, lambda i: i == pt))


def _strike_actions(s: "Board", p: int) -> tuple:
    return _fleet_choices(s, "strike", s.cf[1 - p])


LEGAL: dict[str | None, Callable[["Board", int], tuple]] = {
    DAMAGE: _damage_actions, SWARM: _damage_actions, POINT: _point_actions, INTERCEPT: _intercept_actions,
    STRIKE: _strike_actions, FIRE: lambda s, p: (("fire",), ("withdraw",)),
    WORLD_EATER: lambda s, p: (("world-eater", "destroy"), ("world-eater", "spare")),
    ORDER101: lambda s, p: (("order-101", "self-destruct"), ("order-101", "roll")),
}


def _place_damage(s: "Board", p: int, a: tuple) -> None:
    inst = a[1]
    put = min(s.t.info[inst].armour - s.dmg[inst], s.pd_amt)
    s.pd_amt -= put
    if s.loud:
        s.rec("damage", f"  P{p} puts {put} damage on {s.name(inst)}", seat=p, card=a[2], damage=put)
    s.hurt(inst, put)


def _choose_point(s: "Board", p: int, a: tuple) -> None:
    s.point[p] = a[1]
    if s.loud:
        s.rec("point", f"  P{p} point ship: {s.name(a[1])}", seat=p, card=a[2])


def _fire(s: "Board", p: int, a: tuple) -> None:
    if a[0] == "withdraw":
        if s.loud:
            s.rec("withdraw", f"  P{p} withdraws", seat=p)
        withdraw(s, p)
    else:
        s.cstage = "shoot"


def _intercept(s: "Board", p: int, a: tuple) -> None:
    s.pd_forced = a[1] if a[0] == "intercept" else -1
    s.cstage = "place"


def _strike(s: "Board", p: int, a: tuple) -> None:
    amount, source = s.cfx[0][1], s.cfx[0][3]
    s.cfx.pop(0)
    if s.loud:
        s.rec("hit", f"  {source} hits {s.name(a[1])} for {amount}", card=a[2], damage=amount)
    s.hurt(a[1], amount)
    s.cstage = "effects"


def _world_eater(s: "Board", p: int, a: tuple) -> None:
    if a[1] == "spare":
        s.cstage = "building"
        return
    if s.loud:
        s.rec("world eater", f"  P{p}'s World Eater destroys the planet", seat=p, position=s.cpos + 1)
    info = s.t.info
    count = next(info[i].fx["devour_planet"]["revive"] for i in s.cf[p] if "devour_planet" in info[i].fx)
    s.destroy_planet(s.cpos)
    s.cstage = "next"
    if not s.end_reason:
        resolve.open_pick(s, Pick("discard", p, count, may_stop=True, then="combat"))


def _order101(s: "Board", p: int, a: tuple) -> None:
    s.cstage = "next"
    if a[1] == "self-destruct":
        if s.loud:
            s.rec("order 101", f"  P{p} triggers Order 101", seat=p)
        s.destroy_building(s.cpos)
    else:
        building_save(s, s.cpos, s.cwinner)


HANDLE: dict[str | None, Callable[["Board", int, tuple], None]] = {
    DAMAGE: _place_damage, SWARM: _place_damage, POINT: _choose_point, FIRE: _fire, INTERCEPT: _intercept,
    STRIKE: _strike, WORLD_EATER: _world_eater, ORDER101: _order101,
}
