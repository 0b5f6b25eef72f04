"""The decisions an Alien Empires game asks for, by name (`AlienState.decision()`; docs/rules/alien-empires.md):
the kind of the step on top of the stack."""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Decision

KINDS = {
    "homeworld": "set-up: choose a homeworld",
    "destiny": "play a Race card face up into the Racial Destiny",
    "discard": "discard a card down to the hand limit (or as a power asks)",
    "time_control": "Time Control: choose the player who starts the round",
    "fate": "the Fate phase: draw, play a card, use a power, or done",
    "genesis": "Breeder, in the Genesis phase: discard a card to add 2 tokens on a colonised world, or not",
    "migrate": "the Migration phase: move a stack, or done",
    "move_to": "choose where the moving tokens go",
    "contagion": "Contagion: move your tokens with an opponent's moving token, or not",
    "strategy": "Strategy: choose a stack for a second Migration and Attack phase, or not",
    "restack": "Strategy's second Migration: move the stack, or stay",
    "attack": "the Attack phase: start a conflict, or done",
    "pacify": "Pacifist: discard a Force card of 8 or more to stop the conflict, or not",
    "commit": "how many tokens take part: those of adjacent spaces too, or only the contested space's",
    "ally": "join the conflict as an ally of the attacker (A) or the defender (D), or none",
    "allow": "the primary player allows an ally to join, or refuses",
    "neutralize": "Neutralize: choose the opposing Race power that does not work in this conflict",
    "emulate": "Emulate: borrow the Race power of a player not in the conflict, or none",
    "copycat": "Copycat: borrow the opponent's Race power for the conflict, or none",
    "rearguard": "Rearguard: retreat all tokens of the stack but one, or not",
    "anarchy": "Anarchy, at the start of a conflict: exchange hands with the opponent (swap), or keep",
    "clean_slate": "Clean Slate: discard up to 5 cards and draw as many, or not",
    "distress": "Distress Call: give a card to the player with the power, or keep it",
    "cards": "the conflict's card play: play an Event, or pass (two passes in a row end it)",
    "reveal": "every primary player of the conflict chooses the Force cards to reveal, all at once",
}


def decision(st: Any) -> Decision | None:
    """`st`: the game's state (not imported: the state imports this module)."""
    seats = st.to_act()
    if not seats:
        return None
    kind = st.stack[-1]["kind"]
    who = " and ".join(f"P{s}" for s in seats)
    return Decision(kind, seats, f"{who}: {KINDS[kind]}")
