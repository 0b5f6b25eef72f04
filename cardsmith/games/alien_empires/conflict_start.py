"""Race powers at the start of a conflict: Neutralize, Emulate and Copycat (which powers act), then
Tactician, Opportunists, Mind Control, Reinforcement, Plea Maker and Limit, then Distress Call, Clean
Slate, Anarchy and Rearguard. conflict.py pushes the steps (`@start_early`, `@start_autos`,
`@start_late`); the readings are in docs/rules/alien-empires.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cardsmith.games.alien_empires.powers as P
from cardsmith.games.alien_empires.conflict import area, convert, opponent, primaries, steal
from cardsmith.games.alien_empires.state import STEPS
from cardsmith.games.alien_empires.turns import hx, lbl

if TYPE_CHECKING:
    from cardsmith.games.alien_empires.state import AlienState

Entry = dict[str, Any]


# The powers each step reads: a primary with none of them is skipped without asking for each.
_EARLY = frozenset({"copycat", "emulate", "neutralize"})
_AUTOS = frozenset({"conflict_draw", "opportunists", "mind_control", "reinforcement", "plea_maker"})
_LATE = frozenset({"distress_call", "clean_slate", "anarchy", "rearguard"})
_ANY_AUTO = _AUTOS | {"conflict_discard"}  # (Limit acts at the end of `@start_autos`)


@STEPS.auto("@start_early")
def _start_early(st: "AlienState", e: Entry) -> None:
    """Neutralize, Emulate and Copycat first: they decide which powers act in this conflict."""
    c = st.conflict
    assert c is not None
    for p in reversed(primaries(c)):
        does = P.handlers(st, p)  # (`P.has` for each power, asked once: pushing a step changes no power)
        if _EARLY.isdisjoint(does):
            continue
        for kind in ("copycat", "emulate", "neutralize"):
            if kind in does:
                st.push(kind, p)


def _neutralize_legal(st: "AlienState", e: Entry) -> tuple:
    c = st.conflict
    assert c is not None
    o = opponent(c, e["seat"])
    return tuple(("neutralize", x) for x in P.active_cards(st, o)) or (("neutralize", "none"),)


@STEPS.decision("neutralize", _neutralize_legal)
def _neutralize(st: "AlienState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    c = st.conflict
    assert c is not None
    if action[1] != "none":
        c["cancelled"][opponent(c, e["seat"])].append(action[1])
        if st.loud:
            st.rec("neutralize", f"P{e['seat']} (Neutralize) cancels {st.table[action[1]].name}", seat=e["seat"])


def _borrowable(st: "AlienState", seat: int, kind: str) -> list[str]:
    c = st.conflict
    assert c is not None
    mine = set(P.active_cards(st, seat))
    if kind == "copycat":
        o = opponent(c, seat)
        h = hx(st, c["hex"])
        if h not in st.worlds or not (st.tokens[h][seat] and st.tokens[h][o]):
            return []
        pool = P.active_cards(st, o)
    else:
        pool = [x for s in st.alive() if c["side"][s] is None for x in st.destiny[s]]
    return sorted({x for x in pool if x not in mine and st.table[x].does[0] not in ("emulate", "copycat")})


def _borrow_legal(st: "AlienState", e: Entry) -> tuple:
    return (("borrow", "none"),) + tuple(("borrow", x) for x in _borrowable(st, e["seat"], e["kind"]))


def _borrow(st: "AlienState", e: Entry, action: tuple) -> None:
    """Emulate (a power of a player not in the conflict) or Copycat (the opponent's, when both have
    tokens on the contested world): the power works for the copier for this conflict."""
    st.stack.pop()
    c = st.conflict
    assert c is not None
    if action[1] != "none":
        c["borrowed"][e["seat"]].append(action[1])
        st.rec("borrow", f"P{e['seat']} ({e['kind'].title()}) copies {st.table[action[1]].name}", seat=e["seat"])


STEPS.decision("emulate", _borrow_legal)(_borrow)
STEPS.decision("copycat", _borrow_legal)(_borrow)


@STEPS.auto("@start_autos")
def _start_autos(st: "AlienState", e: Entry) -> None:
    c = st.conflict
    assert c is not None
    a, d = primaries(c)
    # (the primaries' handlers, asked once: nothing below cancels or borrows a power)
    does_of = {a: P.handlers(st, a), d: P.handlers(st, d)}
    if _ANY_AUTO.isdisjoint(does_of[a]) and _ANY_AUTO.isdisjoint(does_of[d]):
        return  # (most conflicts: neither primary has a power acting here)
    for p in (a, d):
        does = does_of[p]
        if _AUTOS.isdisjoint(does):
            continue
        o = opponent(c, p)
        # (each power asked only of a primary that has it: the same draws, steals and moves)
        if "conflict_draw" in does:
            st.draw(p, P.amount(st, p, "conflict_draw"), "Tactician")
        if "opportunists" in does:
            steal(st, p, o, P.amount(st, p, "opportunists"), "Opportunists")
        if "mind_control" in does:
            for _ in range(P.amount(st, p, "mind_control")):
                convert(st, o, p, "Mind Control")
        if "reinforcement" in does:
            for x in P.effects(st, p, "reinforcement"):
                reinforce(st, p, int(x.get("range", 3)), int(x.get("amount", 1)))
        if "plea_maker" in does:
            plea(st, p, P.amount(st, p, "plea_maker"))
    for p in (d, a):
        o = opponent(c, p)
        if "conflict_discard" in does_of[p] and st.hands[o]:
            st.push("discard", o, count=P.amount(st, p, "conflict_discard"), why="Limit")


def reinforce(st: "AlienState", p: int, reach: int, n: int) -> None:
    """Reinforcement: tokens not taking part, from the nearest stack up to `reach` away, join in the contested space."""
    c = st.conflict
    assert c is not None
    h = hx(st, c["hex"])
    for _ in range(n):
        spare = [a for a in range(len(st.map)) if 0 < st.map.dist[h][a] <= reach
                 and st.tokens[a][p] > c["commit"][p].get(lbl(st, a), 0)]
        if not spare:
            return
        a = min(spare, key=lambda x: (st.map.dist[h][x], x))
        st.move_tokens(p, a, h, 1)
        c["commit"][p][c["hex"]] = c["commit"][p].get(c["hex"], 0) + 1
        st.rec("reinforce", f"P{p} (Reinforcement) brings a token from {lbl(st, a)}", seat=p)


def plea(st: "AlienState", p: int, n: int) -> None:
    """Plea Maker: up to `n` tokens of players not in the conflict, in or next to the space, ally with p."""
    c = st.conflict
    assert c is not None
    side = c["side"][p]
    for s in st.alive():
        if n <= 0:
            return
        if c["side"][s] is not None:
            continue
        for a in area(st):
            k = min(n, st.tokens[a][s])
            if k:
                c["side"][s] = side
                c["commit"][s][lbl(st, a)] = c["commit"][s].get(lbl(st, a), 0) + k
                n -= k
                st.rec("plea", f"P{p} (Plea Maker) forces {k} of P{s}'s tokens to ally", seat=p, ally=s)


@STEPS.auto("@start_late")
def _start_late(st: "AlienState", e: Entry) -> None:
    c = st.conflict
    assert c is not None
    for p in reversed(primaries(c)):
        does = P.handlers(st, p)  # (`P.has` for each power, asked once: pushing a step changes no power)
        if _LATE.isdisjoint(does):
            continue
        if "distress_call" in does:
            for s in reversed(st.alive()):
                if s not in primaries(c) and st.hands[s]:
                    st.push("distress", s, to=p)
        if "clean_slate" in does:
            st.push("clean_slate", p)
        if "anarchy" in does:
            st.push("anarchy", p)
        if p == c["defender"] and "rearguard" in does and c["commit"][p].get(c["hex"], 0) > 1:
            st.push("rearguard", p)


def _rearguard_legal(st: "AlienState", e: Entry) -> tuple:
    c = st.conflict
    assert c is not None
    return (("stand",),) + tuple(("rearguard", lbl(st, a)) for a in st.map.adjacent[hx(st, c["hex"])])


@STEPS.decision("rearguard", _rearguard_legal)
def _rearguard(st: "AlienState", e: Entry, action: tuple) -> None:
    """Rearguard: every token of the stack but one retreats 1 space and takes no part."""
    st.stack.pop()
    if action[0] == "stand":
        return
    c = st.conflict
    assert c is not None
    p, h, d = e["seat"], hx(st, c["hex"]), hx(st, action[1])
    keep = max(int(x.get("keep", 1)) for x in P.effects(st, p, "rearguard"))
    n = c["commit"][p][c["hex"]] - keep
    st.move_tokens(p, h, d, n)
    c["commit"][p][c["hex"]] = keep
    st.rec("rearguard", f"P{p} (Rearguard) retreats {n} tokens to {action[1]}", seat=p)


def _anarchy_legal(st: "AlienState", e: Entry) -> tuple:
    return (("keep",), ("swap",))


@STEPS.decision("anarchy", _anarchy_legal)
def _anarchy(st: "AlienState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    if action[0] == "swap":
        c = st.conflict
        assert c is not None
        p, o = e["seat"], opponent(c, e["seat"])
        st.hands[p], st.hands[o] = st.hands[o], st.hands[p]
        st.rec("anarchy", f"P{p} (Anarchy) exchanges hands with P{o}", seat=p)


def _clean_legal(st: "AlienState", e: Entry) -> tuple:
    cap = max(int(x.get("amount", 5)) for x in P.effects(st, e["seat"], "clean_slate"))
    return tuple(("clean", k) for k in range(min(cap, len(st.hands[e["seat"]])) + 1))


def least_useful(st: "AlienState", hand: list[str]) -> list[str]:
    """Cards in the order Clean Slate lets go of them: Race cards, then Events, then Force cards, lowest first."""
    rank = {"race": 0, "event": 1, "force": 2}
    return sorted(hand, key=lambda c: (rank[st.table.kind(c)], st.table.value(c), c))


@STEPS.decision("clean_slate", _clean_legal)
def _clean(st: "AlienState", e: Entry, action: tuple) -> None:
    """Clean Slate: discard up to 5 cards (the least useful: see `least_useful`) and draw as many."""
    st.stack.pop()
    k, p = action[1], e["seat"]
    for card in least_useful(st, st.hands[p])[:k]:
        st.discard_card(p, card)
    if k:
        st.draw(p, k, "Clean Slate")


def _distress_legal(st: "AlienState", e: Entry) -> tuple:
    return (("keep",),) + tuple(("give", x) for x in sorted(set(st.hands[e["seat"]])))


@STEPS.decision("distress", _distress_legal)
def _distress(st: "AlienState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    if action[0] == "give":
        st.hands[e["seat"]].remove(action[1])
        st.hands[e["to"]].append(action[1])
        if st.loud:
            st.rec("give", f"P{e['seat']} answers P{e['to']}'s Distress Call with a card", seat=e["seat"])
