"""The Challenge Phase (2.2.3, 3.4.1): activating a Synced Challenge, choosing Attackers and
Defenders by kind, the window for Events, and the totals (bonuses, ties, All-Fail)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardsmith.games.rm2k_anime.cards import CHALLENGE, CardInfo
from cardsmith.games.rm2k_anime.events import event_actions, handle_event_play

if TYPE_CHECKING:
    from cardsmith.games.rm2k_anime.board import Board

SINGLE_ATTACKER = ("attack", "duel", "personal")


def _can_attack(s: "Board", seat: int) -> list[int]:
    """Users that may still be Attackers this turn ("only one Challenge each turn"), in play."""
    return [i for i, u in enumerate(s.p[seat].users) if not u.limbo and not u.attacked]


def _feasible(s: "Board", seat: int, ci: CardInfo) -> bool:
    return bool(_can_attack(s, seat)) and (ci.kind == "personal" or bool(s.in_play(1 - seat)))


def _activations(s: "Board", seat: int) -> list[tuple]:
    me = s.p[seat]
    out: list[tuple] = []
    for i, u in enumerate(me.users):
        if u.sync is not None:
            ci = s.info(u.sync)
            if ci.type == CHALLENGE and u.tokens >= ci.cost and _feasible(s, seat, ci):
                out.append(("challenge", i))
    for cid in sorted(set(me.hand)):
        ci = s.info(cid)
        if ci.type != CHALLENGE or not _feasible(s, seat, ci):
            continue
        out += [("instant", cid, i) for i, u in enumerate(me.users)
                if u.sync is None and not u.limbo and not s.immune(u, ci.skill) and s.free(u) >= ci.cost]
    return out + [("end",)]


def challenge_legal(s: "Board") -> tuple:
    d, ch = s.dec, s.ch
    if d == "challenge":
        return tuple(_activations(s, s.actor))
    assert ch is not None
    if d == "attackers":
        last = max(ch["att"], default=-1)
        out = [("attacker", i) for i in _can_attack(s, ch["seat"]) if i > last]
        return tuple(out + ([("done",)] if ch["att"] else []))
    if d in ("defender", "defenders"):
        last = max(ch["dfn"], default=-1) if d == "defenders" else -1
        out = [("defender", j) for j in s.in_play(1 - ch["seat"]) if j > last]
        return tuple(out + ([("done",)] if ch["dfn"] and d == "defenders" else []))
    return tuple(event_actions(s, s.actor, "window")) + (("pass",),)  # window


def start_challenge(s: "Board", a: tuple) -> None:
    seat = s.actor
    me = s.p[seat]
    if a[0] == "instant":
        cid, u = a[1], me.users[a[2]]
        me.hand.remove(cid)
        u.lag += s.info(cid).cost
    else:
        u = me.users[a[1]]
        cid = u.sync
        assert cid is not None
        u.sync, u.tokens = None, 0
    s.mark_played(seat, cid)
    ci = s.info(cid)
    s.ch = {"card": cid, "seat": seat, "att": [], "dfn": [], "bonus": [0, 0], "cancelled": False}
    s.rec("challenge", f"  P{seat} activates {ci.name} ({ci.kind.replace('_', ' ')}, {_SKILLS[ci.skill]})",
          seat=seat, card=cid, challenge=ci.kind)
    s.ask("attackers", seat)


def handle_challenge(s: "Board", a: tuple) -> None:
    ch = s.ch
    assert ch is not None
    seat, kind = ch["seat"], s.info(ch["card"]).kind
    if s.dec == "window":
        if a[0] == "pass":
            s.passes += 1
            if s.passes >= 2:
                resolve_challenge(s)
            else:
                s.ask("window", 1 - s.actor)
            return
        handle_event_play(s, a, ("window", 1 - s.actor))
        return
    if s.dec == "attackers":
        if a[0] == "attacker":
            ch["att"].append(a[1])
        if a[0] == "done" or kind in SINGLE_ATTACKER:
            if kind in ("attack", "multi_tech"):
                s.ask("defender", seat)
            elif kind == "duel":
                s.ask("defender", 1 - seat)
            elif kind == "team":
                s.ask("defenders", 1 - seat)
            else:
                _open_window(s)
        return
    if a[0] == "defender":
        ch["dfn"].append(a[1])
    if a[0] == "done" or s.dec == "defender":
        _open_window(s)


def _open_window(s: "Board") -> None:
    ch = s.ch
    assert ch is not None
    names = lambda p, ids: ", ".join(s.info(s.p[p].users[i].card).name for i in ids) or "none"  # noqa: E731
    s.rec("sides", f"  Attackers: {names(ch['seat'], ch['att'])}; Defenders: {names(1 - ch['seat'], ch['dfn'])}",
          attackers=list(ch["att"]), defenders=list(ch["dfn"]))
    s.passes = 0
    s.ask("window", 1 - ch["seat"])


def _once(s: "Board", seat: int, users: list[int], when: str) -> int:
    """Bonuses stated on other cards, each card counted once: the Users' own and their Attach cards'."""
    total = 0
    for i in users:
        u = s.p[seat].users[i]
        for cid in [u.card] + u.attached:
            total += sum(int(p["amount"]) for n, p in s.info(cid).fx if n == "challenge_bonus" and p.get("when") == when)
    return total


def totals(s: "Board") -> tuple[int, int]:
    """(Attacker total, Defender total): skills summed, the card's bonus per User, other bonuses once."""
    att, dfn = parts(s)
    return sum(att.values()), sum(dfn.values())


def parts(s: "Board") -> tuple[dict[str, int], dict[str, int]]:
    """Both sides' totals by their parts (the `result` event's `parts`; docs/rules/rm2k-anime.md)."""
    ch = s.ch
    assert ch is not None
    ci = s.info(ch["card"])
    a, d = ch["seat"], 1 - ch["seat"]
    k = ci.skill
    att = {f"{s.p[a].users[i].card} {i}": s.skill(s.p[a].users[i], k) for i in ch["att"]}
    att.update({"challenge bonus": ci.attacker_bonus * len(ch["att"]), "cards": _once(s, a, ch["att"], "attacking"),
                "events": ch["bonus"][a]})
    if ci.kind == "personal":
        return att, {"defense value": ci.defense_value, "events": ch["bonus"][d]}
    dfn = {f"{s.p[d].users[j].card} {j}": s.skill(s.p[d].users[j], k) for j in ch["dfn"]}
    dfn.update({"challenge bonus": ci.defender_bonus * len(ch["dfn"]), "cards": _once(s, d, ch["dfn"], "defending"),
                "events": ch["bonus"][d]})
    return att, dfn


def resolve_challenge(s: "Board") -> None:
    ch = s.ch
    assert ch is not None
    ci = s.info(ch["card"])
    a, d = ch["seat"], 1 - ch["seat"]
    for i in ch["att"]:
        s.p[a].users[i].attacked = True
    ch["marked"] = True  # before any User is deleted and the indices move
    shares = parts(s)
    att, dfn = sum(shares[0].values()), sum(shares[1].values())
    # the `result` event of every resolved Challenge (docs/engine.md, "Result events")
    sides = [{"seat": a, "role": "attack", "total": att, "parts": shares[0]},
             {"seat": d, "role": "defend", "total": dfn, "parts": shares[1]}]
    if att < 0 and dfn < 0:
        s.rec("result", f"  {att} to {dfn}: All-Fail, both sides lose", attack=att, defense=dfn,
              resolution="challenge", winner=None, sides=sides, card=ch["card"])
        _losers(s, ci, [(a, ch["att"]), (d, ch["dfn"])])
    elif att == dfn:
        s.finish_challenge(f"{att} to {dfn}: a draw, discarded without effect",
                           {"resolution": "challenge", "winner": None, "sides": sides})
        return
    else:
        win = a if att > dfn else d
        s.rec("result", f"  {att} to {dfn}: " + (f"player {win} wins" if ci.kind != "personal" or win == a
                                                 else "the Defense Value holds"),
              attack=att, defense=dfn, winner=win, resolution="challenge", sides=sides, card=ch["card"])
        if ci.kind != "personal" or win == a:
            _winner(s, ci, win)
        _losers(s, ci, [(d, ch["dfn"])] if win == a else [(a, ch["att"])])
    s.finish_challenge("resolved")


def _winner(s: "Board", ci: CardInfo, seat: int) -> None:
    me = s.p[seat]
    me.won += 1
    for n, p in ci.fx:
        if n == "winner_vp":
            me.vp += int(p["amount"])
            s.rec("vp", f"  P{seat} gains {p['amount']} VP ({me.vp})", seat=seat)
        elif n == "winner_draw":
            s.draw(seat, int(p["cards"]))


def _losers(s: "Board", ci: CardInfo, sides: list[tuple[int, list[int]]]) -> None:
    for seat, idx in sides:
        users = s.p[seat].users
        for n, p in ci.fx:
            if n == "loser_lag":
                for i in idx:
                    users[i].lag += int(p["amount"])
            elif n == "loser_ping":
                for i in idx:
                    users[i].ping += int(p["amount"])
            elif n == "loser_discard":
                hand = s.p[seat].hand
                for _ in range(min(int(p["cards"]), len(hand))):
                    s.p[seat].disc.append(hand.pop(s.chance.randrange(len(hand), "random discard")))
        if ci.effect("loser_delete") is not None:
            for i in sorted(idx, reverse=True):
                s.remove_user(seat, i)


_SKILLS = ("Roleplay", "Otaku", "Argue", "Script", "Gamer")
