"""Helpers TransWar's steps share. The steps themselves are registered on `state.STEPS`, the kit's
registry (`cardsmith.engine.kit.steps.Steps`): each decision kind with a legal-actions and an apply
function, each automatic step ("@...") with a run function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardsmith.games.transwar.state import TransWarState


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
