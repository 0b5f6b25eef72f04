"""The registry of TransWar's steps: each decision kind has a legal-actions function and an apply
function; each automatic step (kind starting with "@") has a run function.

The state keeps a stack of plain-data entries ({"kind": ..., "seat": ...}); the top one is what
happens next. flow.py (turns, Transform, Going Out) and fight.py (the attack sequence) register
their steps here, so the state's code does not depend on either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from cardsmith.games.transwar.state import TransWarState

Entry = dict[str, Any]
LegalFn = Callable[["TransWarState", Entry], tuple]
ApplyFn = Callable[["TransWarState", Entry, tuple], None]
AutoFn = Callable[["TransWarState", Entry], None]

DECISIONS: dict[str, tuple[LegalFn, ApplyFn]] = {}
AUTOS: dict[str, AutoFn] = {}


def decision(kind: str, legal: LegalFn) -> Callable[[ApplyFn], ApplyFn]:
    """Register the apply function of decision `kind`, with its legal-actions function."""
    def deco(fn: ApplyFn) -> ApplyFn:
        DECISIONS[kind] = (legal, fn)
        return fn
    return deco


def auto(kind: str) -> Callable[[AutoFn], AutoFn]:
    """Register an automatic step (its kind starts with "@")."""
    if not kind.startswith("@"):
        raise ValueError(f"automatic step names start with @: {kind}")

    def deco(fn: AutoFn) -> AutoFn:
        AUTOS[kind] = fn
        return fn
    return deco


def distinct(cards: list[str]) -> list[str]:
    """The different card ids among `cards`, sorted (one action per kind of card, in a fixed order)."""
    return sorted(set(cards))


def closes(st: "TransWarState", action: tuple, word: str) -> bool:
    """True (and the decision is popped) when `action` is the word that ends a repeated decision
    (`("done",)`, `("ask_done",)`): the caller returns at once."""
    if action[0] == word:
        st.stack.pop()
        return True
    return False
