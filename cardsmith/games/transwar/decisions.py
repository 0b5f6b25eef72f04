"""The decisions a TransWar game asks for, by name (`TransWarState.decision()`; docs/rules/transwar.md):
the kind of the step on top of the stack."""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Decision

KINDS = {
    "first_form": "set-up: choose a first Form from the hand",
    "pay": "discard a card from the hand to pay a cost",
    "bookkeeping": "Bookkeeping: take to the air, use a ready ability, then done (end Bookkeeping)",
    "action": "the action of the turn: transform, attack a player, discard two cards, or build",
    "ask": "a side of the attack asks other players to ally, then ask_done",
    "answer": "an asked player joins the side that asked, or declines",
    "ready": "the defender, before the attack: take to the air, roar and the like, or ready",
    "mode": "choose the attack mode",
    "cards": "play Attack, Defense or Special cards into the fight, or done (stop playing cards)",
    "draw": "an ally's reward: how many cards to draw (up to its most)",
    "take": "the winner takes how many cards from the beaten player's hand",
    "going_out": "a beaten player re-forms from a Form in hand, or gives up",
    "rescue_ask": "a player short of cards asks others to rescue them, then ask_done",
    "pledge": "an asked player pledges how many cards to the rescue",
}


def decision(st: Any) -> Decision | None:
    """`st`: the game's state (not imported: the state imports this module)."""
    seats = st.to_act()
    if not seats:
        return None
    kind = st.stack[-1]["kind"]
    return Decision(kind, seats, f"P{seats[0]}: {KINDS[kind]}")
