"""Events: played from a completed Syncing card or Instantaneously Synced from the hand (2.4.1), in
the Main Phase or during a Challenge; a React answers an Event before it takes effect (3.3.1).

A React is an Event too, so it may be answered in turn: the Event played and the Reacts stacked on it
(`pending["reacts"]`, the last one played last) form a chain. The players take turns to React to the
last Event of the chain; the first pass resolves it, last in, first out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardsmith.games.rm2k_anime.cards import EVENT, CardInfo
from cardsmith.games.rm2k_anime.effects import TARGETED

if TYPE_CHECKING:
    from cardsmith.games.rm2k_anime.board import Board


def playable(ci: CardInfo, where: str) -> bool:
    """May this Event be played here: "main" (your Main Phase), "window" (during a Challenge),
    "react" (after an opponent's Event, before it takes effect) or "react_challenge" (the same during a
    Challenge, where a React that cancels the Challenge may answer too)?"""
    if ci.type != EVENT:
        return False
    timing = ci.event_timing
    if where == "main":
        return timing == "played"
    if where == "window":
        return timing in ("played", "challenge") or ci.effect("cancel_challenge") is not None
    return ci.effect("cancel") is not None or (where == "react_challenge" and ci.effect("cancel_challenge") is not None)


def _targets(s: "Board", seat: int, ci: CardInfo) -> list[tuple]:
    """() for an untargeted Event, else one (target,) per opposing User in play it may name."""
    name = next((n for n, _ in ci.fx if n in TARGETED), None)
    if name is None:
        return [()]
    opp = s.p[1 - seat].users
    return [(j,) for j, u in enumerate(opp) if not u.limbo and (name != "delete_sync" or u.sync is not None)]


def event_actions(s: "Board", seat: int, where: str) -> list[tuple]:
    """("activate", user[, target]) for completed Syncing Events, ("instant", card, user[, target]) for
    Events from the hand a User with no Syncing card can pay for alone."""
    me = s.p[seat]
    out: list[tuple] = []
    for i, u in enumerate(me.users):
        if u.sync is not None:
            ci = s.info(u.sync)
            if u.tokens >= ci.cost and playable(ci, where):
                out += [("activate", i) + t for t in _targets(s, seat, ci)]
    free_users = [i for i, u in enumerate(me.users) if u.sync is None and not u.limbo]
    for cid in sorted(set(me.hand)):
        ci = s.info(cid)
        if not playable(ci, where):
            continue
        payers = [i for i in free_users if s.free(me.users[i]) >= ci.cost and not s.immune(me.users[i], ci.skill)]
        if payers:
            targets = _targets(s, seat, ci)
            out += [("instant", cid, i) + t for i in payers for t in targets]
    return out


def _take(s: "Board", seat: int, a: tuple) -> tuple[str, int]:
    """Pay for an Event being played: the card and the User that Synced it."""
    me = s.p[seat]
    ui = a[2] if a[0] == "instant" else a[1]
    u = me.users[ui]
    if a[0] == "instant":
        cid = a[1]
        me.hand.remove(cid)
        u.lag += s.info(cid).cost
    else:
        cid = u.sync
        assert cid is not None
        u.sync, u.tokens = None, 0
    s.mark_played(seat, cid)
    return cid, ui


def handle_event_play(s: "Board", a: tuple, resume: tuple[str, int]) -> None:
    """Play an Event; the opponent may React before it takes effect."""
    seat = s.actor
    cid, ui = _take(s, seat, a)
    target = a[3] if a[0] == "instant" and len(a) == 4 else (a[2] if a[0] == "activate" and len(a) == 3 else None)
    how = "Instantaneously Syncs" if a[0] == "instant" else "plays"
    s.rec("event", f"  P{seat} {how} {s.info(cid).name}", seat=seat, card=cid)
    s.pending = {"seat": seat, "card": cid, "user": ui, "target": target, "resume": list(resume), "reacts": []}
    s.ask("react", 1 - seat)


def react_legal(s: "Board") -> tuple:
    where = "react_challenge" if s.ch is not None else "react"
    return tuple(("react",) + x[1:] if x[0] == "activate" else x
                 for x in event_actions(s, s.actor, where)) + (("pass",),)


def handle_react(s: "Board", a: tuple) -> None:
    """A React joins the chain and the other player may React to it; a pass resolves the chain."""
    seat = s.actor
    pend = s.pending
    assert pend is not None
    if a[0] == "pass":
        resolve_pending(s)
        return
    cid, _ = _take(s, seat, ("activate",) + a[1:] if a[0] == "react" else a)
    s.p[seat].disc.append(cid)  # played: it is public, and its card is spent whatever befalls it
    chain = pend.setdefault("reacts", [])
    last = chain[-1]["card"] if chain else pend["card"]
    s.rec("react", f"  P{seat} Reacts with {s.info(cid).name} to {s.info(last).name}", seat=seat, card=cid)
    chain.append({"seat": seat, "card": cid})
    s.ask("react", 1 - seat)


def _resume(s: "Board", pend: dict[str, Any]) -> None:
    dec, who = pend["resume"]
    if dec == "window":
        s.passes = 0
    s.ask(dec, who)


def resolve_pending(s: "Board") -> None:
    """The chain resolves last in, first out: each React that is not itself cancelled cancels the
    Event under it (or the Challenge); the Event played first then takes effect unless cancelled."""
    pend = s.pending
    assert pend is not None
    s.pending = None
    chain = pend.get("reacts") or []
    cancelled = False  # is the entry under the one resolving cancelled?
    for i in range(len(chain) - 1, -1, -1):
        item, under = chain[i], (chain[i - 1]["card"] if i else pend["card"])
        if cancelled:
            cancelled = False
            s.rec("cancelled", f"  {s.info(item['card']).name} is cancelled", seat=item["seat"], card=item["card"])
            continue
        for name, _ in s.info(item["card"]).fx:
            if name == "cancel":
                cancelled = True
                s.rec("resolved", f"  {s.info(item['card']).name} takes effect: {s.info(under).name} is cancelled",
                      seat=item["seat"], card=item["card"], cancels=under)
            elif name == "cancel_challenge" and s.ch is not None:
                s.ch["cancelled"] = True
                s.rec("resolved", f"  {s.info(item['card']).name} takes effect: the Challenge is cancelled",
                      seat=item["seat"], card=item["card"])
    if cancelled:
        s.p[pend["seat"]].disc.append(pend["card"])
        s.rec("cancelled", f"  {s.info(pend['card']).name} is cancelled", seat=pend["seat"], card=pend["card"])
    else:
        _take_effect(s, pend)
    if s.ch is not None and s.ch.get("cancelled"):
        s.finish_challenge("cancelled by a React")
        return
    _resume(s, pend)


def _take_effect(s: "Board", pend: dict[str, Any]) -> None:
    """The Event played first takes effect and is discarded."""
    seat, cid = pend["seat"], pend["card"]
    me, opp = s.p[seat], s.p[1 - seat]
    for name, p in s.info(cid).fx:
        tgt = opp.users[pend["target"]] if pend["target"] is not None and pend["target"] < len(opp.users) else None
        if name == "draw":
            s.draw(seat, int(p["cards"]))
        elif name == "clear_lag" and pend["user"] < len(me.users):
            u = me.users[pend["user"]]
            u.lag = max(0, u.lag - int(p["amount"]))
        elif name == "vp":
            me.vp += int(p["amount"])
        elif name == "lag" and tgt is not None:
            tgt.lag += int(p["amount"])
        elif name == "ping" and tgt is not None:
            tgt.ping += int(p["amount"])
        elif name == "delete_sync" and tgt is not None:
            s.delete_sync(1 - seat, tgt)
        elif name == "challenge_bonus" and s.ch is not None:
            s.ch["bonus"][seat] += int(p["amount"])
        elif name == "cancel_challenge" and s.ch is not None:
            s.ch["cancelled"] = True
    me.disc.append(cid)
    s.rec("resolved", f"  {s.info(cid).name} takes effect", seat=seat, card=cid)
