"""Fights and captures.

A fight is {"seats": [attacker, defender], "att": [uids], "def": [uids], "bicker": bool,
"bonus": [attacker's, defender's]}; a bickering fight stays in `fights` and is rolled again in the
next turn's fight step, whoever's turn it is.
"""

from __future__ import annotations

from cardsmith.engine.kit import EventRecorder
from cardsmith.games.trf.board import Board

BICKER_MAX = 2  # "on a one or two, the cards stay committed, but the fight is not resolved this turn"


def form_fights(s: Board, rec: EventRecorder) -> None:
    """After the defender's blocks: one fight per blocked attacker, every blocker of it ganging up."""
    a, d = s.active, 1 - s.active
    for leader in s.d["declared"]:
        blockers = [b for b, x in s.d["blocks"] if x == leader]
        if blockers:
            defenders = [u for b in blockers for u in s.unit(b)]
            s.d["fights"].append({"seats": [a, d], "att": s.unit(leader), "def": defenders,
                                  "bicker": False, "bonus": [0, 0]})
            if rec:  # (a muted state's recorder is false: the names are not looked up)
                rec("block", f"{_names(s, defenders)} block {_names(s, s.unit(leader))}", att=leader, blockers=blockers)
    s.d["phase"] = "combat"


def side_total(s: Board, fight: dict, side: int) -> int:
    """A side's combat: its characters' combat, their bonuses, card bonuses, less a weakness."""
    return sum(side_parts(s, fight, side).values())


def side_parts(s: Board, fight: dict, side: int) -> dict[str, int]:
    """A side's combat by its parts (the `result` event's `parts`; docs/rules/trf.md): each
    character's combat with its bonuses, card bonuses, less a weakness."""
    seat = fight["seats"][side]
    uids = fight["att"] if side == 0 else fight["def"]
    # (Every fight asks: Persistent cards and an account's weaknesses are read only when there are some.)
    morale = sum(e["amount"] for e in s.persistent(seat, "morale")) if s.d["p"][seat]["persistent"] else 0
    parts: dict[str, int] = {}
    for uid in uids:
        c = s.char(uid)
        info = s.info(c["card"])
        own = info.combat + morale
        if side == 1:
            own += sum(e["amount"] for e in info.effect("defend_bonus"))
        if c["fleet"] is not None:
            own += sum(e["amount"] for e in info.effect("fleet_bonus"))
        parts[f"{c['card']} {uid}"] = own
    parts["cards"] = fight["bonus"][side]
    kneels = s.account(seat).effect("kneels")
    foe = s.account(1 - seat)
    parts["weakness"] = -sum(e["amount"] for e in kneels if e["title"] in foe.titles) if kneels else 0
    return parts


def resolve_fights(s: Board, rec: EventRecorder) -> None:
    """Roll every committed fight: 1-2 bickers, else combat + d6 each side, the higher wins."""
    for fight in list(s.d["fights"]):
        roll = s.chance.roll(6, "bickering")
        if roll <= BICKER_MAX:
            fight["bicker"] = True
            if rec:
                rec("bicker", f"the fight of {_names(s, fight['att'])} bickers (rolled {roll})", roll=roll)
            continue
        parts = (side_parts(s, fight, 0), side_parts(s, fight, 1))
        totals = (sum(parts[0].values()), sum(parts[1].values()))
        while True:  # a tied total is rolled again (docs/rules/trf.md)
            ra, rd = s.chance.roll(6, "fight: attacker"), s.chance.roll(6, "fight: defender")
            if totals[0] + ra != totals[1] + rd:
                break
            rec("tie", f"tied at {totals[0] + ra}: roll again", total=totals[0] + ra)
        won = 0 if totals[0] + ra > totals[1] + rd else 1
        winners, losers = (fight["att"], fight["def"]) if won == 0 else (fight["def"], fight["att"])
        if rec:
            rec("result", f"{_names(s, winners)} beat {_names(s, losers)} ({totals[0]}+{ra} against {totals[1]}+{rd})",
                resolution="fight", winner=fight["seats"][won], totals=list(totals), rolls=[ra, rd],
                sides=[{"seat": fight["seats"][i], "role": ("attack", "defend")[i], "total": totals[i] + r,
                        "parts": {**parts[i], "roll": r}} for i, r in enumerate((ra, rd))])
        s.d["fights"].remove(fight)
        for uid in losers:
            s.discard_char(uid, rec, "defeated")
        for uid in winners:
            c = s.char(uid)
            c["rest"], c["done"] = s.turn + 1, s.turn  # "can do nothing else that turn, and can't defend"
    for fight in s.d["fights"]:
        fight["bonus"] = [0, 0]
    s.d["phase"] = "capture" if unblocked_fleets(s) else "post"
    if s.d["phase"] == "post":
        rest_attackers(s)


def unblocked_fleets(s: Board) -> list[int]:
    """Declared attackers nobody blocked that are fleets (individuals cannot take planets)."""
    blocked = {x for _, x in s.d["blocks"]}
    alive = {c["uid"] for c in s.d["chars"]}
    return [u for u in s.d["declared"] if u not in blocked and u in alive and s.info(s.char(u)["card"]).fleeter]


def capturable(s: Board) -> list[int]:
    """The defender's planets that may be attacked: every other planet before the homeworld."""
    planets = s.d["p"][1 - s.active]["planets"]
    others = [pl["uid"] for pl in planets if not pl["home"]]
    return others or [pl["uid"] for pl in planets if pl["home"]]


def planet_value(s: Board, seat: int, planet: dict) -> int:
    info = s.info(planet["card"])
    base = info.homeworld if planet["home"] else info.capture
    return base + sum(e["amount"] for e in s.persistent(seat, "fortify"))


def capture(s: Board, rec: EventRecorder) -> None:
    """Each planet falls if the capture total of the fleets sent to it equals or exceeds its value."""
    a, d = s.active, 1 - s.active
    owner = s.d["p"][d]
    for planet in list(owner["planets"]):
        fleets = [u for u, pl in s.d["assign"] if pl == planet["uid"]]
        if not fleets:
            continue
        total = sum(s.info(s.char(u)["card"]).capture + s.d["capture_bonus"] for u in fleets)
        value = planet_value(s, d, planet)
        name = s.info(planet["card"]).name
        if total < value:
            if rec:  # (muted: no event text to build)
                rec("hold", f"{name} holds ({total} against {value})", planet=planet["card"], total=total, value=value)
            continue
        owner["planets"].remove(planet)
        owner["discard"].append(planet["card"])
        if rec:  # (muted: no event text to build)
            rec("capture", f"seat {a} captures {name} ({total} against {value})", planet=planet["card"], seat=a)
        s.expire(d, "planet_lost", rec)
        if planet["home"]:
            s.finish(a, "homeworld taken", rec)
            return
    rest_attackers(s)
    s.d["phase"] = "post"


def rest_attackers(s: Board) -> None:
    """Everyone who attacked cannot attack or defend on the next player's turn."""
    alive = {c["uid"]: c for c in s.d["chars"]}
    for leader in s.d["declared"]:
        for uid in s.unit(leader) if leader in alive else ():
            if s.in_fight(uid) is None:
                alive[uid]["rest"] = s.turn + 1


def _names(s: Board, uids: list[int]) -> str:
    return " + ".join(s.info(s.char(u)["card"]).name for u in uids)
