"""How good a position looks for a seat (greedy choices, search rollouts and the game's own players).

The score counts progress toward the game's own victories, mine minus the opponent's: Victory Points
(10 win), the Main User's Goal (a fraction of its requirement met), Users in play (Domination),
Bandwidth that stays (Pingout), and the Syncing cards under way, each worth the share of its Cost
already paid, and one User left free to play cards at once. Lag costs little while the User's Bandwidth clears it next turn, and more beyond that
or where the opponent's Goal or a lag-free card counts it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from cardsmith.games.rm2k_anime.cards import ATTACH, CHALLENGE, EVENT, USER, VICTORY
from cardsmith.games.rm2k_anime.challenge import _can_attack, _once

if TYPE_CHECKING:
    from cardsmith.games.rm2k_anime.board import Board, Slot

_SKILLS = ("roleplay", "otaku", "argue", "script", "gamer")
# What a completed card of each type is worth, in the score's units (a User in play is about 7).
_CARD_WORTH = {USER: 5.0, ATTACH: 3.0, EVENT: 2.0, CHALLENGE: 2.5}
# Every User in play busy Syncing: nothing can be Instantaneously Synced, nothing new begun, and a
# card waiting for its moment (a Victory Condition not met, a Challenge-only Event) can stall a
# game to its turn cap. One User kept free is worth this much.
BLOCKED = 2.0


def progress(s: "Board", seat: int, params: Mapping[str, Any]) -> int:
    """How much of a requirement (`require`, as a Goal or a Victory Condition states it) `seat` has."""
    me = s.p[seat]
    r = params["require"]
    if r == "users":
        return sum(1 for u in me.users if not u.limbo)
    if r == "attached":
        return sum(len(u.attached) for u in me.users if not u.limbo)
    if r == "skill":
        k = _SKILLS.index(params["skill"])
        return sum(s.skill(u, k) for u in me.users if not u.limbo)
    if r == "opponent_lag":
        return sum(u.lag for u in s.p[1 - seat].users)
    if r == "challenges_won":
        return me.won
    if r == "vp":
        return me.vp
    if r == "hand":
        return len(me.hand)
    if r == "lag_free":
        return sum(1 for u in me.users if not u.limbo and u.lag == 0)
    return 0


def _goal(s: "Board", seat: int) -> tuple[float, Mapping[str, Any] | None]:
    """(share of the Main User's Goal met, 0-1; its parameters) for `seat`."""
    for u in s.p[seat].users:
        if u.main:
            g = s.info(u.card).effect("goal")
            if g is None:
                return 0.0, None
            need = max(1, int(g["at_least"]))
            return min(1.0, progress(s, seat, g) / need), g
    return 0.0, None


def _sync_worth(s: "Board", seat: int, u: "Slot") -> float:
    ci = s.info(u.sync) if u.sync is not None else None
    if ci is None:
        return 0.0
    if ci.type == VICTORY:
        p = ci.effect("score")
        ok = p is None or progress(s, seat, p) >= int(p["at_least"])
        worth = 4.0 * ci.vp * (1.0 if ok else 0.5)
    else:
        worth = _CARD_WORTH.get(ci.type, 2.0)
    return worth * (1 + min(u.tokens, ci.cost)) / (1 + ci.cost)


def _worth(s: "Board", seat: int, opp_goal: Mapping[str, Any] | None) -> float:
    me = s.p[seat]
    goal, g = _goal(s, seat)
    v = 4.0 * me.vp + 0.5 * min(len(me.hand), 8) + 25.0 * goal * goal + 0.5 * me.won
    lag_hurts = 0.4 if opp_goal is not None and opp_goal["require"] == "opponent_lag" else 0.0
    if g is not None and g["require"] == "lag_free":
        lag_hurts += 0.5
    free = False
    for u in me.users:
        ci = s.info(u.card)
        if u.limbo:
            v += 5.0
            continue
        free = free or u.sync is None
        bw = s.bandwidth(u)
        v += 5 + sum(s.skill(u, k) for k in range(5)) / 4 + 1.0 * bw + 1.5 * len(u.attached)
        v -= 0.15 * u.lag + 1.0 * max(0, u.lag - bw) + lag_hurts * u.lag
        if u.lag and ci.effect("idle_vp") is not None:
            v -= 2.0
        if ci.bandwidth - u.ping <= 0:
            v -= 6
        v += _sync_worth(s, seat, u)
    if not free:
        v -= BLOCKED
    return v


def _side(s: "Board", seat: int, k: int, bonus: int, users: list[int], many: bool, least: bool) -> int:
    """A side's total from `users`: every positive one (`many`), else the strongest (the weakest if
    `least`: the Challenger names the lone Defender)."""
    each = [s.skill(s.p[seat].users[i], k) + bonus for i in users]
    if not each:
        return -99
    if many:
        return max(sum(x for x in each if x > 0), max(each))
    return min(each) if least else max(each)


def _stakes(ci: Any, winner: bool) -> float:
    """What winning (for the winner) or losing (for the losing side) a Challenge is worth."""
    v = 0.0
    for n, p in ci.fx:
        if winner and n == "winner_vp":
            v += 4.0 * int(p["amount"]) + 0.5
        elif winner and n == "winner_draw":
            v += 0.5 * int(p["cards"])
        elif not winner and n == "loser_lag":
            v += 0.3 * int(p["amount"])
        elif not winner and n == "loser_ping":
            v += 1.5 * int(p["amount"])
        elif not winner and n == "loser_delete":
            v += 9.0
        elif not winner and n == "loser_discard":
            v += 0.5 * int(p["cards"])
    return v


def challenge_outlook(s: "Board") -> float:
    """The expected swing of the Challenge under way, for its Challenger: sides not chosen yet are
    projected (the Challenger's best, the Defender the Challenger names the weakest, a Defender the
    opponent names the strongest), then whoever totals more gets the card's stakes."""
    ch = s.ch
    assert ch is not None
    ci = s.info(ch["card"])
    a, d, k, kind = ch["seat"], 1 - ch["seat"], ci.skill, ci.kind
    if ch["att"] or s.dec not in ("attackers",):
        att = sum(s.skill(s.p[a].users[i], k) for i in ch["att"]) + ci.attacker_bonus * len(ch["att"])
        att += _once(s, a, ch["att"], "attacking")
    else:
        att = _side(s, a, k, ci.attacker_bonus, _can_attack(s, a), kind in ("multi_tech", "team"), False)
    if kind == "personal":
        dfn = ci.defense_value
    elif ch["dfn"] or s.dec in ("window",):
        dfn = sum(s.skill(s.p[d].users[j], k) for j in ch["dfn"]) + ci.defender_bonus * len(ch["dfn"])
        dfn += _once(s, d, ch["dfn"], "defending")
    else:
        dfn = _side(s, d, k, ci.defender_bonus, s.in_play(d), kind == "team", kind in ("attack", "multi_tech"))
    att += ch["bonus"][a]
    dfn += ch["bonus"][d]
    if att == dfn:
        return 0.0
    if att > dfn:
        return _stakes(ci, True) + (_stakes(ci, False) * max(1, len(ch["dfn"])) if kind != "personal" else 0.0)
    return -_stakes(ci, False) * max(1, len(ch["att"])) - (_stakes(ci, True) if kind != "personal" else 0.0)


def heuristic(s: "Board", seat: int) -> float:
    if s.end_reason:
        return 1000.0 if s.winner == seat else (-1000.0 if s.winner == 1 - seat else 0.0)
    g0, g1 = _goal(s, seat)[1], _goal(s, 1 - seat)[1]
    v = _worth(s, seat, g1) - _worth(s, 1 - seat, g0)
    if s.ch is not None:
        swing = challenge_outlook(s)
        v += swing if s.ch["seat"] == seat else -swing
    return v
