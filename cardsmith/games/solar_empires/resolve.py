"""Playing cards and resolving their effects: ships, buildings, events and spells, the choices an
effect asks for (`board.Pick`), and building saves. Effects are found by handler name in `CardInfo.fx`,
with the parameters the card's YAML gives."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from cardsmith.games.solar_empires.board import Pick
from cardsmith.games.solar_empires.cards import BUILDING, CLASS_NAMES, FIGHTER, POSITIONS, SHIP
from cardsmith.games.solar_empires.names import CONSTRUCT, PICK

if TYPE_CHECKING:
    from cardsmith.games.solar_empires.board import Board


def max_class(params: Mapping[str, Any]) -> int:
    return CLASS_NAMES.index(params.get("max_class", "battleship"))


def save_penalty(s: "Board", saboteur: int) -> int:
    """What `saboteur`'s events deduct from the opponent's building saves this turn."""
    return sum(fx["amount"] for fx in s.event_fx(saboteur, "save_penalty"))


# ---------------------------------------------------------------------- playing a card
def play(s: "Board", p: int, a: tuple) -> None:
    info = s.t.info
    cid = a[1]
    for inst in s.hand[p]:  # the first copy in hand (copies are alike)
        ci = info[inst]
        if ci.id == cid:
            break
    if ci.type == SHIP:
        s.into_play(p, inst, s.hand[p])
        if s.loud:
            s.rec("build", f"P{p} builds {ci.name}", seat=p, card=cid)
        return
    s.hand[p].remove(inst)
    s.mark_played(p, inst)
    if ci.type == BUILDING:
        pos = a[2] - 1
        if s.bldg[pos] >= 0:
            if s.loud:
                s.rec("replace", f"  the new building replaces {s.name(s.bldg[pos])}", position=a[2])
            s.destroy_building(pos)
        s.bldg[pos] = inst
        s.table_changed(p)  # (built on a planet seat p controls)
        if s.loud:
            s.rec("build", f"P{p} builds {ci.name} on position {pos + 1}", seat=p, card=cid, position=a[2])
        return
    if ci.spell:
        s.sp_done[p] = True
        s.disc[p].append(inst)
        if s.loud:
            s.rec("cast", f"P{p} casts {ci.name}{_targets_text(s, a)}", seat=p, card=cid, targets=a[2:])
    else:
        s.ev_done[p] = True
        s.events[p].append(inst)
        if s.loud:
            s.rec("event", f"P{p} plays {ci.name}{_targets_text(s, a)}", seat=p, card=cid, targets=a[2:])
    for handler, params in ci.fx.items():
        _ON_PLAY.get(handler, _passive)(s, p, a, params)


def _targets_text(s: "Board", a: tuple) -> str:
    if len(a) <= 2:
        return ""
    if len(a) == 4 and isinstance(a[2], int) and isinstance(a[3], str):
        return f" on {s.name(a[2])} (P{s.t.owner[a[2]]})"
    return " on positions " + ", ".join(str(x) for x in a[2:])


def _passive(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    """Effects that act later while the event is in play (read with `s.event_fx`)."""


def _block(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    s.flare.extend(x - 1 for x in a[2:])


def _swarm(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    s.swarm.extend((x - 1, params["bonus"]) for x in a[2:])


def _damage(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    if params.get("when") != "played":
        return  # before attacks: combat reads it from the events in play
    if params["target"] == "fighters":
        open_pick(s, Pick("fighters", p, params["count"], may_stop=True, amount=params["amount"]))
        return
    target = a[2]
    tcls = s.t.info[target].cls
    if s.hurt(target, params["amount"]) and params.get("revive_on_kill", 0) > 0:
        open_pick(s, Pick("discard", p, params["revive_on_kill"], limit=tcls))


def _destroy(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    s.destroy_ship(a[2])


def _shield(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    s.gaze[a[2]] = max(s.gaze.get(a[2], 0), params["amount"])


def _revive(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    open_pick(s, Pick("discard", p, params["count"]))


def _search(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    open_pick(s, Pick("deck", p, params["count"]))


def _rift(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    info = s.t.info
    for pos in range(POSITIONS):
        b = s.bldg[pos]
        if b >= 0 and s.ctrl[pos] != p:
            minus = save_penalty(s, p)
            roll = s.d6("building save") - minus
            ok = roll >= info[b].save
            if not ok and s.ctrl[pos] >= 0:  # its controller's Precision Bombing re-rolls these saves too
                roll, ok = _reroll(s, s.ctrl[pos], b, roll, minus)
            if s.loud:
                s.rec("save", f"  save roll for {info[b].name}: {roll} vs {info[b].save}+ {'survives' if ok else 'fails'}",
                      card=info[b].id, roll=roll, survives=ok)
            if not ok:
                s.destroy_building(pos)


def _black_hole(s: "Board", p: int, a: tuple, params: Mapping[str, Any]) -> None:
    if not s.black_hole:
        s.black_hole = True
        s.table_changed()
        if s.loud:
            s.rec("black hole", "  the star becomes a black hole")


_ON_PLAY = {
    "block_deployment": _block, "fleet_damage": _swarm, "damage": _damage, "destroy_ship": _destroy,
    "grant_shield": _shield, "revive": _revive, "search_deck": _search, "roll_enemy_building_saves": _rift,
    "black_hole": _black_hole,
}


# ---------------------------------------------------------------------- an effect's choices
def pick_actions(s: "Board", p: int) -> tuple:
    pk = s.pick
    assert pk is not None
    info = s.t.info
    if pk.kind == "fighters":
        pool = [i for i in s.ships[0] + s.ships[1] if info[i].cls == FIGHTER and i not in pk.chosen]
        owner = s.t.owner
        return (("stop",),) + tuple(("target", i, info[i].id) for i in s.dedup(pool, lambda i: owner[i]))
    zone = s.deck[p] if pk.kind == "deck" else s.disc[p]
    seen = set()
    acts: list = [("stop",)] if pk.may_stop else []
    for i in zone:
        ci = info[i]
        if ci.type == SHIP and ci.cls <= pk.limit and ci.id not in seen:
            seen.add(ci.id)
            acts.append(("take", ci.id))
    return tuple(acts)


def open_pick(s: "Board", pick: Pick) -> None:
    s.pick = pick
    s.dec = PICK
    s.current_player = pick.seat
    if pick.left <= 0 or (pick.kind != "fighters" and not pick_actions(s, pick.seat)):
        close_pick(s)


def close_pick(s: "Board") -> None:
    pk = s.pick
    assert pk is not None
    s.pick = None
    if pk.then == "construct":
        s.dec = CONSTRUCT
        s.current_player = pk.seat
    else:
        s.dec = None


def pick_handle(s: "Board", p: int, a: tuple) -> None:
    pk = s.pick
    assert pk is not None
    info = s.t.info
    if a[0] == "stop":
        close_pick(s)
        return
    if pk.kind == "fighters":
        inst = a[1]
        pk = pk._replace(chosen=pk.chosen + (inst,))
        if s.loud:
            s.rec("hit", f"  {info[inst].name} (P{s.t.owner[inst]}) takes {pk.amount} damage", card=a[2], damage=pk.amount)
        s.hurt(inst, pk.amount)
    else:
        zone = s.deck[p] if pk.kind == "deck" else s.disc[p]
        inst = next(i for i in reversed(zone) if info[i].id == a[1])
        s.into_play(p, inst, zone)
        if s.loud:
            s.rec("into play", f"  P{p} puts {info[inst].name} into play from the "
                               f"{'fleet deck' if pk.kind == 'deck' else 'discard pile'}", seat=p, card=a[1])
    s.pick = pk = pk._replace(left=pk.left - 1)
    if pk.left <= 0 or (pk.kind != "fighters" and not pick_actions(s, p)):
        close_pick(s)
    else:
        s.dec = PICK


# ---------------------------------------------------------------------- buildings on conquest
def _reroll(s: "Board", seat: int, b: int, roll: int, minus: int) -> tuple[int, bool]:
    """A failed save of building `b` rolled for `seat`: re-rolled once if seat's Precision Bombing is in play."""
    info = s.t.info
    if not s.event_fx(seat, "reroll_failed_saves"):
        return roll, False
    roll = s.d6("building save re-roll") - minus
    source = next(info[i].name for i in s.events[seat] if "reroll_failed_saves" in info[i].fx)
    if s.loud:
        s.rec("re-roll", f"  {source} re-roll: {roll}", roll=roll)
    return roll, roll >= info[b].save


def building_save(s: "Board", pos: int, winner: int) -> None:
    """The conqueror rolls d6 (less the loser's Sabotage) against the building's save; Precision
    Bombing re-rolls a failure once."""
    b = s.bldg[pos]
    info = s.t.info
    minus = save_penalty(s, 1 - winner)
    roll = s.d6("building save") - minus
    ok = roll >= info[b].save
    if not ok:
        roll, ok = _reroll(s, winner, b, roll, minus)
    if s.loud:
        s.rec("save", f"  P{winner} rolls {roll} to save {info[b].name} ({info[b].save}+): "
                      f"{'it survives' if ok else 'destroyed'}", card=info[b].id, roll=roll, survives=ok)
    if not ok:
        s.destroy_building(pos)
