"""Helpers for the TransWar tests: the bundled set, positions built from plain data, and playing a
list of public actions."""

from __future__ import annotations

from typing import Any, Iterable

from cardsmith.games.transwar import RULES
from tests.bundled_set import BundledSet

BUNDLED = BundledSet("transwar", RULES)
SET_DIR = BUNDLED.dir


def cardset():
    return BUNDLED.cardset


def game():
    return BUNDLED.game


standard_deck = BUNDLED.standard_deck
start = BUNDLED.start


def status(**kw: Any) -> dict[str, Any]:
    s = {"lost": 0, "sprayed": False, "broken": False, "bleeding": 0, "berserk": False}
    s.update(kw)
    return s


def position(forms: Iterable[str | None], hands: list[list[str]], *, active: int = 0, deck: list[str] | None = None,
             discard: list[str] | None = None, damage: list[int] | None = None, started: list[bool] | None = None,
             statuses: list[dict] | None = None, out: list[int] | None = None, turn: int = 10,
             turn_cap: int = 400) -> dict[str, Any]:
    """The start of `active`'s turn (empty stack: the game starts the turn itself)."""
    forms = list(forms)
    n = len(forms)
    return {
        "game": "transwar", "format": 1, "seats": n, "dealer": (active - 1) % n, "active": active, "turn": turn,
        "turn_cap": turn_cap, "out": list(out or []), "forms": forms, "damage": list(damage or [0] * n),
        "status": statuses or [status() for _ in range(n)], "started": started or [True] * n,
        "hands": [list(h) for h in hands], "deck": list(deck if deck is not None else ["scream"] * 10),
        "discard": list(discard or []), "prep": {}, "attack": None, "rescue": None, "stack": [],
        "played": [[] for _ in range(n)],
    }


def play(st, *actions) -> list:
    """Apply each action for the seat to act; returns every event."""
    events = []
    for a in actions:
        events.extend(st.apply(a))
    return events


def kinds(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]
