"""TRF effects as data: the handlers cards may name (`effect: {do: NAME, ...}`), what each targets,
and what each does. `SPECS` is what the rules module declares; `targets` and `resolve` are what the
phases call when an OOC card, a planet, a character or an account ability is used.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Mapping

from cardsmith.engine.contract import EffectSpec
from cardsmith.engine.kit import EventRecorder

if TYPE_CHECKING:
    from cardsmith.games.trf.board import Board

_INT = {"type": "integer"}
_POS = {"type": "integer", "minimum": 1}
_RES = {"enum": ["meters", "words"]}
_UNTIL = {"enum": ["next_turn", "planet_lost", "character_lost", "countered"]}
USE = ("non-combat", "combat", "post-combat", "activated")
PASSIVE = ("passive",)


def _spec(name: str, doc: str, when: tuple[str, ...], **params: Mapping[str, Any]) -> EffectSpec:
    return EffectSpec(name, params, when, doc)


SPECS: dict[str, EffectSpec] = {s.name: s for s in (
    _spec("draw", "Draw `amount` cards.", USE, amount=_POS),
    _spec("gain", "Gain `amount` meters or words this turn.", USE, resource=_RES, amount=_POS),
    _spec("fight_bonus", "+`amount` combat to one of your fights (every one with `all`).", ("combat",),
          amount=_POS, all={"type": "boolean", "default": False}),
    _spec("capture_bonus", "Your fleets get +`amount` capture this turn.", ("combat",), amount=_POS),
    _spec("destroy", "Discard an opposing character costing at most `max_cost` that is not in a fight.",
          ("non-combat", "activated"), max_cost=_POS),
    _spec("revive", "A character from your discard pile returns to play, spent.", ("post-combat",)),
    _spec("recover_planet", "A planet from your discard pile returns to play.", ("post-combat",)),
    _spec("join_fight", "One of your free characters joins a bickering fight.", ("combat",)),
    _spec("discard_hand", "Your opponent discards `amount` cards at random.", ("non-combat", "post-combat"), amount=_POS),
    _spec("counter", "Discard a Persistent card your opponent has in play.", ("non-combat", "combat")),
    _spec("ruling", "Persistent: your opponent's OOC cards cost double words; a higher rank's ruling discards it.",
          ("non-combat",), until=_UNTIL),
    _spec("fortify", "Persistent: your planets' capture and homeworld values are `amount` higher.",
          ("non-combat",), amount=_POS, until=_UNTIL),
    _spec("morale", "Persistent: your characters get +`amount` combat.", ("non-combat",), amount=_POS, until=_UNTIL),
    _spec("income", "Your planets give `amount` more (or fewer) meters or words each turn.",
          ("passive", "non-combat"), resource=_RES, amount=_INT, until={**_UNTIL, "default": "countered"}),
    _spec("affinity", "*Affinity*: the account plays `faction`'s cards at normal cost.", PASSIVE, faction={"type": "string"}),
    _spec("extra_draw", "*Lurker*: draw `amount` more cards at the start of your turn.", PASSIVE, amount=_POS),
    _spec("start_hand", "Start with `amount` more (or fewer) cards.", PASSIVE, amount=_INT),
    _spec("kneels", "Against an account with `title`, your fights get -`amount` combat.", PASSIVE,
          title={"type": "string"}, amount=_POS),
    _spec("discount", "Cards of `faction` (or with `tag`) cost `amount` meters less.", PASSIVE,
          amount=_POS, faction={"type": "string", "default": ""}, tag={"type": "string", "default": ""}),
    _spec("discard_revive", "As your homeworld with `account`: discard `discard` cards to bring back a `tag` character.",
          ("activated",), tag={"type": "string"}, discard=_POS, account={"type": "string"}),
    _spec("defend_bonus", "+`amount` combat when defending.", PASSIVE, amount=_POS),
    _spec("fleet_bonus", "+`amount` combat while joined to a fleet.", PASSIVE, amount=_POS),
)}
# (A set: asked of every effect listed or resolved, mostly of an untargeted one that matches none.)
TARGETED = frozenset(("destroy", "fight_bonus", "revive", "recover_planet", "join_fight", "counter", "discard_revive",
                      "discard_hand"))


def targets(s: "Board", seat: int, effects: tuple[Mapping[str, Any], ...], source: int | None = None) -> list[tuple]:
    """The target choices for using these effects ([()] when none is needed, [] when none is possible)."""
    out: list[tuple] = [()]
    for e in effects:
        if e.get("do") in TARGETED:
            out = _targets(s, seat, e, source)
            break
    return out


def _targets(s: "Board", seat: int, e: Mapping[str, Any], source: int | None) -> list[tuple]:
    do, p, t = e["do"], s.d["p"][seat], s.turn
    if do == "destroy":
        return [(c["uid"],) for c in s.chars_of(1 - seat)
                if s.info(c["card"]).cost <= e["max_cost"] and s.in_fight(c["uid"]) is None]
    if do == "fight_bonus":
        mine = [i for i, f in enumerate(s.d["fights"]) if seat in f["seats"]]
        return ([()] if mine else []) if e.get("all") else [(i,) for i in mine]
    if do == "revive":
        return [(cid,) for cid in sorted(set(p["discard"])) if s.info(cid).type == "character"]
    if do == "recover_planet":
        return [(cid,) for cid in sorted(set(p["discard"])) if s.info(cid).type == "planet"]
    if do == "join_fight":
        attacking = {u for leader in s.d["declared"] for u in s.unit(leader)}
        free = [c["uid"] for c in s.chars_of(seat) if c["fleet"] is None and s.in_fight(c["uid"]) is None
                and c["done"] != t and c["rest"] != t and c["bought"] != t and c["uid"] not in attacking]
        bick = [i for i, f in enumerate(s.d["fights"]) if f["bicker"] and seat in f["seats"]]
        return [(u, i) for u in free for i in bick]
    if do == "counter":
        return [(i,) for i in range(len(s.d["p"][1 - seat]["persistent"]))]
    if do == "discard_hand":
        return [()] if s.d["p"][1 - seat]["hand"] else []
    if do == "discard_revive":
        if p["account"] != e["account"] or len(p["hand"]) < e["discard"]:  # (asked on every buy and roleplay listing)
            return []
        home = next((pl for pl in p["planets"] if pl["home"]), None)
        if home is None or home["uid"] != source:
            return []
        back = sorted(s.g.tagged.get(e["tag"], frozenset()).intersection(p["discard"]))  # (characters only)
        if not back:  # nothing to bring back: skip listing the ways to pay
            return []
        pays = sorted(set(combinations(sorted(p["hand"]), e["discard"])))
        return [(cid, *pay) for cid in back for pay in pays]
    return [()]


def resolve(s: "Board", seat: int, effects: tuple[Mapping[str, Any], ...], target: tuple, rec: EventRecorder,
            source: str) -> None:
    """Do each effect in order; the targeted one (at most one per card) takes `target`."""
    for e in effects:
        _resolve(s, seat, e, target if e.get("do") in TARGETED else (), rec, source)


def _resolve(s: "Board", seat: int, e: Mapping[str, Any], target: tuple, rec: EventRecorder, source: str) -> None:
    do, p, opp = e["do"], s.d["p"][seat], s.d["p"][1 - seat]
    if do == "draw":
        s.draw(seat, e["amount"], rec)
    elif do == "gain":
        p["bonus_m" if e["resource"] == "meters" else "bonus_w"] += e["amount"]
        if rec:  # (muted: no event text to build)
            rec("gain", f"seat {seat} gains {e['amount']} {e['resource']} ({source})", seat=seat, amount=e["amount"])
    elif do == "fight_bonus":
        for i in (range(len(s.d["fights"])) if e.get("all") else target[:1]):
            f = s.d["fights"][i]
            if seat in f["seats"]:
                f["bonus"][f["seats"].index(seat)] += e["amount"]
        rec("bonus", f"seat {seat}: +{e['amount']} combat ({source})", seat=seat)
    elif do == "capture_bonus":
        s.d["capture_bonus"] += e["amount"]
        rec("bonus", f"seat {seat}: fleets +{e['amount']} capture this turn ({source})", seat=seat)
    elif do == "destroy":
        s.discard_char(target[0], rec, source)
    elif do == "revive":
        uid = s.new_uid()
        p["discard"].remove(target[0])
        s.d["chars"].append(new_char(uid, target[0], seat, bought=0, rest=s.turn + 1, done=s.turn))
        rec("revive", f"{s.info(target[0]).name} returns to play for seat {seat} ({source})", card=target[0], seat=seat)
    elif do == "recover_planet":
        p["discard"].remove(target[0])
        p["planets"].append({"uid": s.new_uid(), "card": target[0], "home": False})
        rec("planet", f"{s.info(target[0]).name} returns to play for seat {seat} ({source})", card=target[0], seat=seat)
    elif do == "join_fight":
        uid, i = target
        f = s.d["fights"][i]
        f["att" if f["seats"][0] == seat else "def"].append(uid)
        rec("join", f"{s.info(s.char(uid)['card']).name} joins a bickering fight ({source})", uid=uid, fight=i)
    elif do == "discard_hand":
        for _ in range(min(e["amount"], len(opp["hand"]))):
            card = opp["hand"].pop(s.chance.randrange(len(opp["hand"]), "discard at random"))
            opp["discard"].append(card)
            rec("discard", f"seat {1 - seat} discards {s.info(card).name} at random ({source})", card=card, seat=1 - seat)
    elif do == "counter":
        item = opp["persistent"].pop(target[0])
        opp["discard"].append(item["card"])
        rec("counter", f"{s.info(item['card']).name} is countered ({source})", card=item["card"])
    elif do == "discard_revive":
        cid, *paid = target
        for card in paid:
            p["hand"].remove(card)
            p["discard"].append(card)
        p["discard"].remove(cid)
        s.d["chars"].append(new_char(s.new_uid(), cid, seat, bought=s.turn))
        rec("revive", f"{s.info(cid).name} returns to play for seat {seat} ({source}, discarding {len(paid)})", card=cid, seat=seat)


def new_char(uid: int, card: str, owner: int, *, bought: int, rest: int = 0, done: int = 0) -> dict[str, Any]:
    """A character entering play. `rest`: the turn it may neither attack nor defend; `done`: the turn
    it may do nothing more in; `acted`: the turn it used its ability; `moved`: joined or left a fleet."""
    return {"uid": uid, "card": card, "owner": owner, "bought": bought, "rest": rest, "done": done,
            "acted": 0, "moved": 0, "fleet": None}
