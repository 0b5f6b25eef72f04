"""#rm2k_anime test situations written as positions (the YAML a designer would write, as dicts) and
played through the public game API only: `legal_actions`, `apply`, `position`, `observation`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardsmith.engine.chance import ScriptedChance
from cardsmith.games import rm2k_anime as rm
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parents[1]
CS = load_set(ROOT / "cards" / "rm2k-anime")
GAME = rm.make_game(CS)
FILLER = ["all-nighter"] * 10


def user(card: str, **kw: Any) -> dict[str, Any]:
    return {"card": card, **kw}


def table(users0: list, users1: list, *, hands: tuple = ((), ()), decks: tuple = (FILLER, FILLER),
          decision: str = "main", active: int = 0, vp: tuple = (0, 0), **extra: Any) -> dict[str, Any]:
    """A position in `active`'s Main Phase (or the given stage/decision); users are `user(...)` dicts
    or card ids; the first User of each seat is its Main User."""
    seats = []
    for p, users in enumerate((users0, users1)):
        seats.append({"vp": vp[p], "deck": list(decks[p]), "hand": list(hands[p]),
                      "users": [user(u) if isinstance(u, str) else u for u in users]})
    stage = extra.pop("stage", {"main": "main", "challenge": "challenge", "victory": "victory"}.get(decision, "main"))
    pos = {"game": "rm2k_anime", "format": 1, "seats": seats, "turn": extra.pop("turn", 3), "active": active,
           "stage": stage, "decision": decision, "actor": extra.pop("actor", active)}
    pos.update(extra)
    return pos


def start(pos: dict[str, Any], **chance: Any) -> Any:
    return GAME.from_position(pos, chance=ScriptedChance(**chance))


def seat(s: Any, p: int) -> dict[str, Any]:
    return s.position()["seats"][p]


def users(s: Any, p: int) -> list[dict[str, Any]]:
    return seat(s, p)["users"]


def play(s: Any, *actions: tuple) -> Any:
    for a in actions:
        s.apply(a)
    return s


def verbs(s: Any) -> set[str]:
    return {a[0] for a in s.legal_actions()}


def to_phase(s: Any, decision: str, limit: int = 50) -> Any:
    """End phases ("end"/"pass") until `decision` is asked."""
    for _ in range(limit):
        if s.position()["decision"] == decision or s.is_terminal():
            return s
        acts = s.legal_actions()
        s.apply(next(a for a in acts if a[0] in ("end", "pass", "ready")))
    raise AssertionError(f"never reached {decision}")
