"""Moves outside the ordinary Migration: Strategy's second Migration and Attack phase for one stack,
and Contagion's tokens that move with an opponent's moving tokens. Readings: docs/rules/alien-empires.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cardsmith.games.alien_empires.powers as P
from cardsmith.games.alien_empires.state import STEPS

if TYPE_CHECKING:
    from cardsmith.games.alien_empires.state import AlienState

Entry = dict[str, Any]


def toll_blocked(st: "AlienState", seat: int, h: int) -> bool:
    """Toll Keeper: `seat`'s tokens on a world where an opponent with Toll Keeper has tokens cannot move."""
    return h in st.worlds and any(st.tokens[h][s] and P.has(st, s, "toll_keeper") for s in st.alive() if s != seat)


_COUNTS: dict[int, tuple[int, ...]] = {}


def counts(n: int) -> tuple[int, ...]:
    """How many tokens a move may take: one, half, or all of those free to move."""
    got = _COUNTS.get(n)
    if got is None:
        got = _COUNTS[n] = tuple(sorted({1, n, n // 2} - {0}))
    return got


# ---- Contagion -------------------------------------------------------------------------------
def moved(st: "AlienState", seat: int, src: int, dst: int, n: int) -> None:
    """After `seat` moved `n` tokens from `src` to `dst`: each opponent with Contagion and tokens on
    `src` may move up to `n` of them along (lowest seat decides first)."""
    row = st.tokens[src]
    if sum(row) == row[seat]:  # nobody else is there (the usual case): no one follows
        return
    for s in reversed(st.alive()):
        if s != seat and row[s] and P.has(st, s, "contagion") and not toll_blocked(st, s, src):
            st.push("contagion", s, src=st.map.labels[src], dst=st.map.labels[dst], most=n)


def _contagion_legal(st: "AlienState", e: Entry) -> tuple:
    n = min(st.tokens[st.map.index(e["src"])][e["seat"]], int(e["most"]))
    return (("stay",),) + tuple(("follow", k) for k in counts(n))


@STEPS.decision("contagion", _contagion_legal)
def _contagion(st: "AlienState", e: Entry, action: tuple) -> None:
    """"Your tokens can move with an opponents moving token": up to one of yours per moving token,
    from the space it left to the space it reached."""
    st.stack.pop()
    if action[0] == "follow":
        seat, k = e["seat"], action[1]
        st.move_tokens(seat, st.map.index(e["src"]), st.map.index(e["dst"]), k)
        st.rec("contagion", f"P{seat} (Contagion) moves {k} token(s) with them from {e['src']} to {e['dst']}",
               seat=seat, src=e["src"], dst=e["dst"], count=k)


# ---- Strategy --------------------------------------------------------------------------------
@STEPS.auto("@strategy")
def _strategy_start(st: "AlienState", e: Entry) -> None:
    """After the Conflict phase, a player with Strategy may pick one of its stacks."""
    seat = e["seat"]
    if P.has(st, seat, "strategy") and seat in st.alive() and any(st.stacks(seat)):
        st.push("strategy", seat)


def _strategy_legal(st: "AlienState", e: Entry) -> tuple:
    return (("pass",),) + tuple(("strategy", st.map.labels[h]) for h in sorted(st.stacks(e["seat"])))


@STEPS.decision("strategy", _strategy_legal)
def _strategy(st: "AlienState", e: Entry, action: tuple) -> None:
    """"One target stack you control gets a second Migration and Attack Phase": the stack (every
    token of yours on the hex) may move once more as one, then fights a second Conflict phase (its
    own limit of conflicts; still one per space a turn) in or next to the hex it reached, alone."""
    st.stack.pop()
    if action[0] == "pass":
        return
    seat, label = e["seat"], action[1]
    st.turnstate["attacks"] = 0
    st.turnstate["strategy"] = label
    st.rec("strategy", f"P{seat} (Strategy): the stack at {label} gets a second Migration and Attack phase", seat=seat, hex=label)
    st.push("attack", seat, stack=label)
    if not toll_blocked(st, seat, st.map.index(label)):
        st.push("restack", seat, stack=label)


def _restack_legal(st: "AlienState", e: Entry) -> tuple:
    h = st.map.index(e["stack"])
    labels = st.map.labels
    return (("stay",),) + tuple(("move", e["stack"], labels[d]) for d in st.map.within(h, P.move_range(st, e["seat"])))


@STEPS.decision("restack", _restack_legal)
def _restack(st: "AlienState", e: Entry, action: tuple) -> None:
    """Strategy's second Migration: the whole stack moves to a space within its range (or stays)."""
    st.stack.pop()
    if action[0] == "stay":
        return
    seat = e["seat"]
    src, dst = st.map.index(action[1]), st.map.index(action[2])
    n = st.tokens[src][seat]
    st.move_tokens(seat, src, dst, n)
    st.turnstate["strategy"] = action[2]
    top = st.stack[-1]
    if top["kind"] == "attack" and top.get("stack") == action[1]:
        top["stack"] = action[2]
    st.rec("move", f"P{seat} (Strategy) moves its stack of {n} from {action[1]} to {action[2]}",
           seat=seat, src=action[1], dst=action[2], count=n)
    moved(st, seat, src, dst, n)
