"""The end of a conflict: the simultaneous Force reveal (Precognition chooses second) and the outcome
(losses, Second Chances, Escape Artist, Evacuation, Booby Trap, Repatriations, the winner's rewards).
conflict.py pushes `@reveal` and `@resolve`; force totals are in force.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cardsmith.games.alien_empires.powers as P
from cardsmith.games.alien_empires.conflict import kill_taking_part, opponent, primaries, steal
from cardsmith.games.alien_empires.force import (
    handlers_by_side, other_side, primary, role_of, side_force, side_parts, winner_side)
from cardsmith.games.alien_empires.state import STEPS
from cardsmith.games.alien_empires.turns import hx, lbl

if TYPE_CHECKING:
    from cardsmith.games.alien_empires.state import AlienState

Entry = dict[str, Any]


# ---- the reveal ------------------------------------------------------------------------------
@STEPS.auto("@reveal")
def _reveal_start(st: "AlienState", e: Entry) -> None:
    """Both primaries commit their Force cards at once; with Precognition (one side only) the other
    commits first and the holder chooses after seeing it."""
    c = st.conflict
    assert c is not None
    a, d = primaries(c)
    c["reveal"] = [None] * st.seats
    c["shown"] = False
    seer_a, seer_d = "precognition" in P.handlers(st, a), "precognition" in P.handlers(st, d)
    if seer_a != seer_d:
        st.push("reveal", waiting=[d] if seer_a else [a], then=[a] if seer_a else [d])
    else:
        st.push("reveal", waiting=[a, d], then=[])
    _forced_reveals(st)


def _forced_reveals(st: "AlienState") -> None:
    """A seat with one way to reveal (no Force card, or one) commits it as the reveal begins. Only
    here, never later: a determinization must offer the same seats as the state it came from. With
    `keep_forced` every seat reveals by its own action."""
    if st.keep_forced:
        return
    top = st.stack[-1]
    order = st.table.force_order
    for s in list(top["waiting"]):
        if len(set(filter(order.__contains__, st.hands[s]))) >= 2:
            continue  # two different Force cards: two single reveals at least (`reveal_options`)
        options = reveal_options(st, s)
        if len(options) == 1 and top["kind"] == "reveal":
            _revealed(st, s, options[0])
            if not st.stack or st.stack[-1] is not top:
                return


def reveal_options(st: "AlienState", seat: int) -> list[tuple]:
    c = st.conflict
    assert c is not None
    order = st.table.force_order
    forces = list(filter(order.__contains__, st.hands[seat]))
    if len(forces) < 2:  # (no Force card, or one: the one reveal there is; both primaries, every conflict)
        return [("reveal", *forces)]
    forces.sort(key=order.__getitem__)
    singles = [("reveal", x) for x in dict.fromkeys(forces)]  # (each card once, in the same order)
    if P.amount(st, opponent(c, seat), "force_card_limit"):
        return singles
    return singles + [("reveal",) + tuple(forces[:k]) for k in range(2, len(forces) + 1)]


def _reveal_legal(st: "AlienState", e: Entry) -> tuple:
    return tuple(reveal_options(st, e["seat"]))


@STEPS.decision("reveal", _reveal_legal)
def _reveal(st: "AlienState", e: Entry, action: tuple) -> None:
    _revealed(st, e["seat"], action)


def _revealed(st: "AlienState", seat: int, action: tuple) -> None:
    """`seat` commits the Force cards `action` names; once every seat has, they are shown."""
    c = st.conflict
    assert c is not None
    top = st.stack[-1]
    c["reveal"][seat] = list(action[1:])
    top["waiting"] = [s for s in top["waiting"] if s != seat]
    if top["waiting"]:
        return
    c["shown"] = True
    if top["then"]:
        top["waiting"], top["then"] = top["then"], []
        _forced_reveals(st)
        return
    st.stack.pop()
    if not st.loud:
        return
    for s in primaries(c):
        cards = c["reveal"][s]
        st.rec("reveal", f"P{s} reveals " + (", ".join(st.table[x].name for x in cards) or "no Force card"), seat=s, cards=list(cards))


# ---- the outcome -----------------------------------------------------------------------------
@STEPS.auto("@resolve")
def _resolve(st: "AlienState", e: Entry) -> None:
    c = st.conflict
    assert c is not None
    a, d = primaries(c)
    loud = st.loud
    does_of = handlers_by_side(st)  # (for every power read below: nothing here cancels or borrows one)
    if loud:  # (the `result` event names each part; a muted game needs only the totals)
        parts = {"A": side_parts(st, "A", does_of), "D": side_parts(st, "D", does_of)}
        totals = {x: (sum(parts[x][0].values()), parts[x][1]) for x in parts}
    else:
        totals = {"A": side_force(st, "A", does_of), "D": side_force(st, "D", does_of)}
    win = winner_side(totals, does_of)
    lose = other_side(win)
    w, l = (a, d) if win == "A" else (d, a)
    if loud:  # (a muted game builds no event: a random game is a few hundred of them)
        _record_result(st, parts, totals, w)
    reveal, played = c["reveal"], st.played
    for s in (a, d):
        for x in reveal[s] or ():
            st.discard_card(s, x)
            played[s].append(x)
    if "second_chance" in does_of[lose] and not c["second"]:
        c["second"] = True
        st.rec("second_chance", f"P{l} (Second Chances): its tokens remain and a second conflict is fought", seat=l)
        st.push("@resolve")
        st.push("@reveal")
        return
    losses(st, lose, l, w, does_of[lose])
    rewards(st, win, w, does_of[win])
    st.conflict = None
    st.check_end()


def _record_result(st: "AlienState", parts: dict, totals: dict, w: int) -> None:
    """The `result` event: both totals, their parts and what decided the conflict."""
    c = st.conflict
    assert c is not None
    by_card = any(P.has(st, primary(c, x), "minimalist") for x in totals) and any(
        totals[x][1] is not None for x in totals)
    st.rec("result", f"force {totals['A'][0]} (P{c['attacker']}) against {totals['D'][0]} (P{c['defender']}): P{w} wins",
           attack=totals["A"][0], defend=totals["D"][0], winner=w, resolution="conflict",
           decided_by="lowest force card" if by_card else "total",
           sides=[{"seat": primary(c, x), "role": role_of(x), "total": totals[x][0], "parts": parts[x][0],
                   "lowest force card": totals[x][1]} for x in ("A", "D")])


def losses(st: "AlienState", lose: str, l: int, w: int, does: frozenset[str]) -> None:
    """The losing side's tokens taking part are destroyed (Escape Artist saves one, Evacuation
    retreats the loser's tokens in the space); Booby Trap then kills half the winner's. `l`, `w`:
    the losing and the winning primary; `does`: the loser's handlers."""
    c = st.conflict
    assert c is not None
    if c["flags"][lose].get("evacuate") and c["commit"][l].get(c["hex"]):
        h = hx(st, c["hex"])
        back = _retreat_hex(st, l, h)
        n = c["commit"][l].pop(c["hex"])
        st.move_tokens(l, h, back, n)
        st.rec("evacuate", f"P{l} evacuates {n} tokens to {lbl(st, back)}", seat=l)
    if "escape" in does:
        for label in sorted(c["commit"][l], key=lambda k: k != c["hex"]):
            if c["commit"][l][label]:
                c["commit"][l][label] -= 1
                st.add_tokens(hx(st, label), l, -1)
                st.add_tokens(_retreat_hex(st, l, hx(st, label)), l, 1)
                st.rec("escape", f"P{l} (Escape Artist) retreats one token from {label}", seat=l)
                break
    at = st.map.at  # (labels the rules wrote themselves: no check)
    for s, side in enumerate(c["side"]):
        if side == lose:
            for label, n in c["commit"][s].items():
                st.kill(at[label], s, n, "lost the conflict")
    if "booby_trap" in does:
        for x in P.effects(st, l, "booby_trap"):
            n = sum(c["commit"][w].values()) // int(x.get("divisor", 2))
            kill_taking_part(st, w, n, "Booby Trap")
    if "lose_steal" in does:
        steal(st, l, w, P.amount(st, l, "lose_steal"), "Repatriations")


def _retreat_hex(st: "AlienState", seat: int, h: int) -> int:
    """Where a retreat goes: the adjacent space with most of the seat's tokens (then the first)."""
    return max(st.map.adjacent[h], key=lambda a: (st.tokens[a][seat], -a))


def rewards(st: "AlienState", win: str, w: int, does: frozenset[str]) -> None:
    """The winning primary `w` (handlers `does`) gains its powers' tokens and cards; the winning
    allies draw one each."""
    c = st.conflict
    assert c is not None
    n = P.amount(st, w, "win_tokens") if "win_tokens" in does else 0
    if n:
        st.add_tokens(hx(st, c["hex"]), w, n)
        st.rec("vampirism", f"P{w} (Vampirism) gains {n} token(s) at {c['hex']}", seat=w)
    draw = (P.amount(st, w, "win_draw") if "win_draw" in does else 0) + c["flags"][win].get("win_draw", 0)
    if draw:
        st.draw(w, draw, "won the conflict")
    for s, side in enumerate(c["side"]):
        if side == win and s != w:
            st.draw(s, 1, "ally of the winner")
