"""Building TRF situations as positions (plain data) for the rules tests: the public way in."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from cardsmith import ScriptedChance
from cardsmith.games.trf import RULES
from cardsmith.games.trf.game import TRFGame
from cardsmith.games.trf.state import TRFState
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def trf_game() -> TRFGame:
    return RULES.make_game(load_set(ROOT / "cards" / "trf"))


def player(account: str, homeworld: str, *, hand: list[str] = (), deck: list[str] = (), discard: list[str] = (),
           planets: list[str] = (), seat: int = 0, **extra: Any) -> dict[str, Any]:
    """A seat: its homeworld (uid 10 or 20) and other planets (uids 11.. / 21..) in play."""
    base = 10 * (seat + 1)
    p = {"account": account, "homeworld": homeworld, "deck": list(deck), "hand": list(hand),
         "discard": list(discard),
         "planets": [{"uid": base, "card": homeworld, "home": True}]
         + [{"uid": base + 1 + i, "card": c, "home": False} for i, c in enumerate(planets)],
         "spent_m": 0, "spent_w": 0, "bonus_m": 0, "bonus_w": 0, "activated": [], "persistent": [],
         "account_used": False, "played": [], "list": sorted(list(deck) + list(hand))}
    p.update(extra)
    return p


def char(uid: int, card: str, owner: int, **kw: Any) -> dict[str, Any]:
    """A character in play bought long ago (turn 1), free to act; `kw` overrides."""
    c = {"uid": uid, "card": card, "owner": owner, "bought": 1, "rest": 0, "done": 0, "acted": 0, "moved": 0, "fleet": None}
    c.update(kw)
    return c


def position(p0: dict, p1: dict, *, chars: list[dict] = (), phase: str = "roleplay", turn: int = 5,
             active: int = 0, **kw: Any) -> dict[str, Any]:
    d = {"game": "trf", "format": 1, "seats": 2, "turn": turn, "active": active, "first": 0, "phase": phase,
         "p": [p0, p1], "chars": list(chars), "fights": [], "declared": [], "blocks": [], "assign": [],
         "capture_bonus": 0, "uid": 100, "winner": None, "end": None}
    d.update(kw)
    return d


def state(pos: dict[str, Any], rolls: list[int] = (), picks: list[int] = ()) -> TRFState:
    return trf_game().from_position(pos, chance=ScriptedChance(rolls=rolls, picks=picks))


def play(s: TRFState, *actions: tuple) -> TRFState:
    for a in actions:
        s.apply(a)
    return s
