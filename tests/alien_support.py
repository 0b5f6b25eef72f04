"""Helpers for the Alien Empires tests: the bundled set, positions built from plain data, playing actions."""

from __future__ import annotations

from typing import Any

from cardsmith.games.alien_empires import RULES
from tests.bundled_set import BundledSet

BUNDLED = BundledSet("alien-empires", RULES)
SET_DIR = BUNDLED.dir


def cardset():
    return BUNDLED.cardset


def game():
    return BUNDLED.game


standard_deck = BUNDLED.standard_deck
start = BUNDLED.start
STACKS = {
    "fate": ["@strategy", "attack", "migrate", "genesis", "@genesis", "@hand_limit", "fate"],
    "migrate": ["@strategy", "attack", "migrate"],
    "attack": ["@strategy", "attack"],
}


def turnstate(**kw: Any) -> dict[str, Any]:
    ts = {"moved": {}, "attacks": 0, "fought": [], "range_bonus": 0, "drawn": False, "used": [], "resurrected": []}
    ts.update(kw)
    return ts


def position(tokens: dict[str, list[int]], *, worlds: dict[str, str] | None = None, hands: list[list[str]] | None = None,
             destiny: list[list[str]] | None = None, deck: list[str] | None = None, phase: str = "attack", active: int = 0,
             order: list[int] | None = None, discard: list[str] | None = None, ts: dict | None = None) -> dict[str, Any]:
    """Seat `active` in phase `phase` of its turn (seats from the length of the token lists)."""
    n = len(next(iter(tokens.values())))
    order = order or list(range(n))
    seat = order[active]
    stack = [{"kind": "@end_turn"}] + [{"kind": k, "seat": seat} for k in STACKS[phase]]
    return {
        "game": "alien_empires", "format": 1, "seats": n,
        "worlds": dict(worlds if worlds is not None else {"0,0": "sirius", "4,-4": "vega"}),
        "tokens": {k: list(v) for k, v in tokens.items()},
        "order": order, "active": active, "turn": 5, "round": 3, "out": [],
        "hands": [list(h) for h in (hands or [[] for _ in range(n)])],
        "deck": list(deck if deck is not None else ["windfall"] * 20), "discard": list(discard or []),
        "destiny": [list(d) for d in (destiny or [[] for _ in range(n)])],
        "turnstate": ts or turnstate(), "conflict": None, "stack": stack, "played": [[] for _ in range(n)], "neutral": [],
    }


def play(st, *actions) -> None:
    """Apply each action for the seat to act (a (seat, action) pair for a simultaneous choice)."""
    for a in actions:
        if isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], int) and isinstance(a[1], tuple):
            st.apply(a[1], a[0])
        else:
            st.apply(a)


def tokens(st, label: str) -> list[int]:
    return list(st.tokens[st.map.index(label)])


def fight(st, label: str, defender: int, *, commits=("all", "all"), reveal=((), ())) -> None:
    """Attack `label`, commit, pass the card play and reveal (attacker, defender) Force cards."""
    a = st.seat
    st.apply(("attack", label, defender))
    for who, how in zip((a, defender), commits):
        if st.to_act() == (who,) and st.stack[-1]["kind"] == "commit":
            st.apply(("commit", how))
    while st.to_act() and st.stack[-1]["kind"] == "cards":
        st.apply(("pass",))
    for who, cards in zip((a, defender), reveal):
        if who in st.to_act() and st.stack[-1]["kind"] == "reveal":
            st.apply(("reveal",) + tuple(cards), who)


def moves(st, src: str) -> tuple:
    """The moves the active player may make from stack `src` (after choosing it, on a clone)."""
    twin = st.clone()
    twin.apply(("stack", src))
    return twin.legal_actions()


def move(st, src: str, dst: str, n: int) -> None:
    """Choose stack `src`, then move `n` of its tokens to `dst`."""
    st.apply(("stack", src))
    st.apply(("move", src, dst, n))
