"""The turn, phase by phase: which actions are legal and what each does.

Actions are plain tuples: ("draw",), ("planet", card), ("buy", card), ("revive", card),
("activate", planet_uid, *target), ("join", individual_uid, fleet_uid), ("leave", uid),
("ability", uid, *target), ("account", *target), ("ooc", card, *target), ("attack",),
("no_attack",), ("declare", uid), ("block", blocker_uid, attacker_uid), ("fight",),
("assign", fleet_uid, planet_uid), ("pass",) and ("done",).
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.kit import EventRecorder
import cardsmith.games.trf.fights as fights
from cardsmith.games.trf.board import TIMING, Board
from cardsmith.games.trf.dead import is_dead
from cardsmith.games.trf.effects import new_char, resolve, targets


def legal(s: Board) -> list[tuple]:
    return LISTINGS[s.d["phase"]](s)


def do(s: Board, a: tuple, rec: EventRecorder) -> None:
    HANDLERS[a[0]](s, a, rec)


def _draw(s: Board, a: tuple, rec: EventRecorder) -> None:
    s.draw(s.d["active"], 1, rec)
    s.d["phase"] = "planet"


def _planet(s: Board, a: tuple, rec: EventRecorder) -> None:
    seat = s.d["active"]
    p = s.d["p"][seat]
    p["hand"].remove(a[1])
    p["planets"].append({"uid": s.new_uid(), "card": a[1], "home": False})
    p["played"].append(a[1])
    if rec:  # (muted: no event to build)
        rec("planet", f"seat {seat} plays the planet {s.info(a[1]).name}", card=a[1], seat=seat)
    s.d["phase"] = "buy"


def _buy(s: Board, a: tuple, rec: EventRecorder) -> None:
    seat = s.d["active"]
    p = s.d["p"][seat]
    p["spent_m"] += s.char_cost(seat, a[1]) or 0
    p["hand"].remove(a[1])
    p["played"].append(a[1])
    s.d["chars"].append(new_char(s.new_uid(), a[1], seat, bought=s.turn))
    if rec:
        rec("buy", f"seat {seat} buys {s.info(a[1]).name}", card=a[1], seat=seat)


def _revive(s: Board, a: tuple, rec: EventRecorder) -> None:
    seat = s.d["active"]
    p = s.d["p"][seat]
    p["spent_m"] += 2 * (s.char_cost(seat, a[1]) or 0)
    p["discard"].remove(a[1])
    s.d["chars"].append(new_char(s.new_uid(), a[1], seat, bought=s.turn))
    if rec:  # (muted: no event text to build)
        rec("revive", f"seat {seat} revives {s.info(a[1]).name} at double cost", card=a[1], seat=seat)


def _activate(s: Board, a: tuple, rec: EventRecorder) -> None:
    seat = s.d["active"]
    p = s.d["p"][seat]
    planet = next(pl for pl in p["planets"] if pl["uid"] == a[1])
    p["activated"].append(a[1])
    if rec:  # (muted: no event text to build)
        rec("activate", f"seat {seat} activates {s.info(planet['card']).name}", uid=a[1], seat=seat)
    resolve(s, seat, tuple(s.info(planet["card"]).activated()), a[2:], rec, s.info(planet["card"]).name)


def _join_leave(s: Board, a: tuple, rec: EventRecorder) -> None:
    kind = a[0]
    c = s.char(a[1])
    c["fleet"], c["moved"] = (a[2] if kind == "join" else None), s.turn
    if rec:
        rec(kind, f"{s.info(c['card']).name} {'joins' if kind == 'join' else 'leaves'} a fleet", uid=a[1])


def _account(s: Board, a: tuple, rec: EventRecorder) -> None:
    seat = s.d["active"]
    s.d["p"][seat]["account_used"] = True
    acc = s.account(seat)
    resolve(s, seat, tuple(acc.activated()), a[1:], rec, acc.name)


# The actions that move the turn on: pass, attack, declare, block, fight, assign, done.
def _pass(s: Board, a: tuple, rec: EventRecorder) -> None:
    phase = s.d["phase"]
    if phase == "post":
        end_turn(s, rec)
    else:
        s.d["phase"] = PASS_TO[phase]


def _attack(s: Board, a: tuple, rec: EventRecorder) -> None:
    s.d["phase"] = "declare"


def _no_attack(s: Board, a: tuple, rec: EventRecorder) -> None:
    s.d["phase"] = "combat" if s.d["fights"] else "post"


def _declare(s: Board, a: tuple, rec: EventRecorder) -> None:
    s.d["declared"].append(a[1])


def _block(s: Board, a: tuple, rec: EventRecorder) -> None:
    s.d["blocks"].append([a[1], a[2]])


def _fight(s: Board, a: tuple, rec: EventRecorder) -> None:
    fights.resolve_fights(s, rec)


def _assign(s: Board, a: tuple, rec: EventRecorder) -> None:
    s.d["assign"].append([a[1], a[2]])


def _done(s: Board, a: tuple, rec: EventRecorder) -> None:
    phase = s.d["phase"]
    if phase == "declare":
        s.d["phase"] = "block" if s.d["declared"] else ("combat" if s.d["fights"] else "post")
        if rec:
            rec("declare", f"seat {s.active} attacks with {len(s.d['declared'])}", n=len(s.d["declared"]))
    elif phase == "block":
        fights.form_fights(s, rec)
    elif phase == "capture":
        fights.capture(s, rec)


PASS_TO = {"draw": "planet", "planet": "buy", "buy": "roleplay", "roleplay": "post"}


def _legal_draw(s: Board) -> list[tuple]:
    return ([("draw",)] if s.d["p"][s.active]["deck"] else []) + [("pass",)]


def _legal_planet(s: Board) -> list[tuple]:
    hand = s.d["p"][s.active]["hand"]
    return [("planet", cid) for cid in sorted(s.g.planets.intersection(hand))] + [("pass",)]


def _legal_buy(s: Board) -> list[tuple]:
    seat = s.d["active"]
    p = s.d["p"][seat]
    infos = s.g.infos
    out: list[tuple] = []
    buyable = sorted(s.g.characters.intersection(p["hand"]))
    revivable = sorted(s.g.unique_characters.intersection(p["discard"]))  # (only Unique characters revive)
    if not buyable and not revivable:  # (the pools are worked out only when a planet could be activated)
        return _legal_activate(s) + [("pass",)]
    pool = s.pools(seat)
    meters = pool[0]
    # A Unique character may not be in play twice for one player: the ones it has in play, read once
    # (and only when a Unique one could be bought or revived: mostly the hand holds none).
    held: set[str] | frozenset[str] = frozenset()
    if revivable or not s.g.unique_characters.isdisjoint(buyable):
        held = {c["card"] for c in s.d["chars"] if c["owner"] == seat and infos[c["card"]].unique}
    for cid in buyable:
        if cid not in held:
            cost = s.char_cost(seat, cid)
            if cost is not None and cost <= meters:
                out.append(("buy", cid))
    for cid in revivable:
        if cid not in held:  # (`revivable` holds Unique characters only)
            cost = s.char_cost(seat, cid)
            if cost is not None and 2 * cost <= meters:
                out.append(("revive", cid))
    return out + _legal_activate(s, pool) + [("pass",)]


def _legal_activate(s: Board, pool: tuple[int, int] | None = None) -> list[tuple]:
    """Planets with an activated ability, while the pool (meters, words) can spare what the planet
    would give. `pool`: the caller's `s.pools(seat)` when it has it."""
    seat = s.d["active"]
    p = s.d["p"][seat]
    out: list[tuple] = []
    infos = s.g.infos
    acting, activated = s.g.acting_planets, p["activated"]
    for pl in p["planets"]:
        if pl["card"] not in acting or pl["uid"] in activated:
            continue
        info = infos[pl["card"]]
        # The targets before the pools: a homeworld's discard_revive (Azguard's) mostly has none,
        # and then the pools are not worked out at all.
        chosen = targets(s, seat, info.acts, pl["uid"])
        if not chosen:
            continue
        pool = pool or s.pools(seat)
        if pool[0] < info.meters or pool[1] < info.words:
            continue
        out += [("activate", pl["uid"], *t) for t in chosen]
    return out


def _legal_roleplay(s: Board) -> list[tuple]:
    d = s.d
    seat, t, p = d["active"], d["turn"], d["p"][d["active"]]
    mine = s.chars_of(seat)
    infos = s.g.infos
    # (Listed on every roleplay action of a game: one pass over the seat's characters, the card
    # tables read once per character, and the fights looked into only when there are some.)
    fighting = {u for f in d["fights"] for u in f["att"] + f["def"]} if d["fights"] else ()
    out: list[tuple] = []  # joins and leaves, then abilities (in table order each)
    uses: list[tuple] = []
    free_fleets: list[int] | None = None
    for c in mine:
        uid = c["uid"]
        if uid in fighting:
            continue
        info = infos[c["card"]]
        if not info.fleeter and t != c["moved"] and t != c["acted"] and t != c["done"]:
            if c["fleet"] is not None:
                out.append(("leave", uid))
            else:
                if free_fleets is None:
                    taken = {x["fleet"] for x in mine}
                    free_fleets = [f["uid"] for f in mine if infos[f["card"]].fleeter and f["uid"] not in taken
                                   and f["uid"] not in fighting and f["acted"] != t]
                out += [("join", uid, f) for f in free_fleets]
        if info.acts and c["acted"] != t and c["done"] != t:
            uses += [("ability", uid, *x) for x in targets(s, seat, info.acts)]
    out += uses
    acc = s.account(seat)
    if acc.acts and not p["account_used"]:
        out += [("account", *x) for x in targets(s, seat, acc.acts)]
    # (The pools are worked out only when a planet could be activated or an OOC card played.)
    out += _legal_activate(s) + _legal_ooc(s)
    if _attackers(s, mine):
        out.append(("attack",))
    return out + [("no_attack",)]


def _attackers(s: Board, mine: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The active seat's characters (`mine`, in table order) that `Board.can_attack`: the same test
    in one pass over the table for all of them (asked on every roleplay and declare listing)."""
    d = s.d
    t = d["turn"]
    # (Plain comparisons, not `t in (...)`: no tuple built per character and listing.)
    ready = [c for c in mine if c["fleet"] is None and c["bought"] != t and c["rest"] != t
             and c["acted"] != t and c["done"] != t]
    if not ready:  # (the table is read for held-back fleets and fights only when someone is ready)
        return ready
    held = {x["fleet"] for x in d["chars"] if x["fleet"] is not None
            and (x["bought"] == t or x["rest"] == t or x["acted"] == t or x["done"] == t)}
    fighting = {u for f in d["fights"] for u in f["att"] + f["def"]} if d["fights"] else ()
    return [c for c in ready if c["uid"] not in held and c["uid"] not in fighting]


def _legal_ooc(s: Board, words: int | None = None) -> list[tuple]:
    """OOC cards of this step's timing the words pay for (`words`: the caller's `s.words(seat)`)."""
    seat = s.d["active"]
    timing = TIMING[s.d["phase"]]
    held = s.g.oocs_at[timing].intersection(s.d["p"][seat]["hand"])
    if not held:  # (mostly so: most steps pass)
        return []
    out: list[tuple] = []
    infos = s.g.infos
    for cid in sorted(held):
        info = infos[cid]
        cost = s.ooc_cost(seat, cid)
        words = s.pools(seat)[1] if words is None else words  # (`s.words(seat)`: the same sum, table-driven)
        if cost is None or cost > words:
            continue
        out += [("ooc", cid, *x) for x in targets(s, seat, info.used_at(timing))]
    return out


def _legal_timed(s: Board) -> list[tuple]:
    return _legal_ooc(s) + [("fight",) if s.d["phase"] == "combat" else ("pass",)]


def _legal_declare(s: Board) -> list[tuple]:
    # "If a player does choose to attack, they move their chosen attacking characters forwards": an
    # attack declares at least one character (declaring nobody would be `no_attack` by another name).
    chosen = set(s.d["declared"])
    done = [("done",)] if chosen else []
    return [("declare", c["uid"]) for c in _attackers(s, s.chars_of(s.active)) if c["uid"] not in chosen] + done


def _legal_block(s: Board) -> list[tuple]:
    # `Board.can_block` for every defender in one pass over the table (asked after every block).
    d = s.d
    t, used = d["turn"], {b for b, _ in d["blocks"]}
    ready = [c for c in s.chars_of(1 - d["active"]) if c["fleet"] is None and c["rest"] != t and c["uid"] not in used]
    if ready:
        held = {x["fleet"] for x in d["chars"] if x["fleet"] is not None and x["rest"] == t}
        fighting = {u for f in d["fights"] for u in f["att"] + f["def"]} if d["fights"] else ()
        ready = [c for c in ready if c["uid"] not in held and c["uid"] not in fighting]
    return [("block", c["uid"], a) for c in ready for a in d["declared"]] + [("done",)]


def _legal_capture(s: Board) -> list[tuple]:
    used = {u for u, _ in s.d["assign"]}
    open_planets = fights.capturable(s)
    # "any and all unblocked characters are assigned to a planet or planets of the attacker's choice":
    # every unblocked fleet goes to some planet before the capture is worked out.
    out = [("assign", u, pl) for u in fights.unblocked_fleets(s) if u not in used for pl in open_planets]
    return out or [("done",)]


# A declare, a block or an assign only adds to the list of choices made (`declared`, `blocks`,
# `assign`); what the listing reads besides is as it was. So the next listing is the last one less the
# choices that action used up, in the same order (the state asks here instead of listing again:
# about half the listings of an attack).
def _after_declare(listed: tuple, a: tuple) -> tuple:
    rest = tuple(x for x in listed if x != a)
    return rest if rest and rest[-1] == ("done",) else rest + (("done",),)  # someone is declared now


def _after_block(listed: tuple, a: tuple) -> tuple:
    return tuple(x for x in listed if x[0] != "block" or x[1] != a[1])  # the blocker is used


def _after_assign(listed: tuple, a: tuple) -> tuple:
    return tuple(x for x in listed if x[1] != a[1]) or (("done",),)  # the fleet is sent


FOLLOW_UPS = {"declare": _after_declare, "block": _after_block, "assign": _after_assign}


# The legal-action listing of each phase (`legal`; the state looks its phase up here directly).
LISTINGS = {"draw": _legal_draw, "planet": _legal_planet, "buy": _legal_buy, "roleplay": _legal_roleplay,
          "declare": _legal_declare, "block": _legal_block, "combat": _legal_timed,
          "capture": _legal_capture, "post": _legal_timed}


def _ability(s: Board, a: tuple, rec: EventRecorder) -> None:
    """A character's activated ability: it, and the fleet it is joined to, do nothing else this turn."""
    c = s.char(a[1])
    c["acted"] = s.turn
    if c["fleet"] is not None:
        s.char(c["fleet"])["acted"] = s.turn
    info = s.info(c["card"])
    if rec:  # (muted: no event text to build)
        rec("ability", f"seat {c['owner']} uses {info.name}'s ability", uid=a[1])
    resolve(s, c["owner"], tuple(info.activated()), a[2:], rec, info.name)


def _ooc(s: Board, a: tuple, rec: EventRecorder) -> None:
    seat, p, cid = s.active, s.d["p"][s.active], a[1]
    info = s.info(cid)
    p["spent_w"] += s.ooc_cost(seat, cid) or 0
    p["hand"].remove(cid)
    p["played"].append(cid)
    if rec:  # (muted: no event text to build)
        rec("ooc", f"seat {seat} plays {info.name}", card=cid, seat=seat)
    effects = tuple(e for e in info.effects if e.get("when") == TIMING[s.d["phase"]])
    lasting = next((e["until"] for e in effects if e.get("until")), None)
    if any(e["do"] == "ruling" for e in effects):
        _overrule(s, seat, rec)
    if lasting:
        p["persistent"].append({"card": cid, "until": lasting, "rank": s.account(seat).rank})
    else:
        p["discard"].append(cid)
    resolve(s, seat, effects, a[2:], rec, info.name)


def _overrule(s: Board, seat: int, rec: EventRecorder) -> None:
    """A Staff Ruling discards the opponent's rulings played by a lower rank (Admin over Mod)."""
    mine, opp = s.account(seat).rank, s.d["p"][1 - seat]
    for item in list(opp["persistent"]):
        if any(e.get("do") == "ruling" for e in s.info(item["card"]).effects) and item["rank"] < mine:
            opp["persistent"].remove(item)
            opp["discard"].append(item["card"])
            rec("overruled", f"{s.info(item['card']).name} is overruled", card=item["card"])


def start_turn(s: Board, rec: EventRecorder) -> Any:
    """A new turn for the active seat: fresh pools, its next-turn Persistent cards end, Lurker draws."""
    seat, p = s.active, s.d["p"][s.active]
    p.update(spent_m=0, spent_w=0, bonus_m=0, bonus_w=0, activated=[], account_used=False)
    s.d.update(phase="draw", declared=[], blocks=[], assign=[], capture_bonus=0)
    if rec:  # (a muted state's recorder is false)
        rec("turn", f"-- turn {s.turn}: seat {seat} --", seat=seat, turn=s.turn)
    s.expire(seat, "next_turn", rec)
    lurker = s.account(seat).effect("extra_draw")  # (most accounts have none)
    extra = sum(e["amount"] for e in lurker) if lurker else 0
    if extra:
        s.draw(seat, extra, rec)


def end_turn(s: Board, rec: EventRecorder) -> None:
    """The turn passes to the other seat (or the game ends: a dead position, or the turn cap)."""
    s.d["active"] = 1 - s.active
    s.d["turn"] += 1
    if is_dead(s):  # neither homeworld can ever be taken: a draw, not a cap (docs/rules/trf.md)
        s.finish(None, "dead position", rec)
        return
    if s.d["turn"] > s.g.turn_cap:
        s.finish(None, "turn cap", rec)
        return
    start_turn(s, rec)


# What each action does (`do`; the state's `apply` looks an action's handler up here directly).
HANDLERS = {"draw": _draw, "planet": _planet, "buy": _buy, "revive": _revive, "activate": _activate, "join": _join_leave,
            "leave": _join_leave, "ability": _ability, "account": _account, "ooc": _ooc, "pass": _pass, "attack": _attack,
            "no_attack": _no_attack, "declare": _declare, "block": _block, "fight": _fight, "assign": _assign, "done": _done}
