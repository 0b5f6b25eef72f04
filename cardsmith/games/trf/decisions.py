"""The decisions a TRF game asks for, by name (`TRFState.decision()`; docs/rules/trf.md): one per step of the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardsmith.engine.contract import Decision

if TYPE_CHECKING:
    from cardsmith.games.trf.board import Board

KINDS = {
    "draw": "draw a card from the asset deck, or pass",
    "planet": "put down up to one planet, or pass",
    "buy": "buy characters, revive a Unique, activate a planet, or pass",
    "roleplay": "join or leave fleets, use abilities and non-combat OOC cards, then attack or no_attack",
    "declare": "declare the attacking characters one by one, then done",
    "block": "the defender assigns blockers to the declared attackers, then done",
    "combat": "play combat OOC cards, then fight",
    "capture": "assign each unblocked fleet to a planet, then done",
    "post": "play post-combat OOC cards, then pass to end the turn",
}


def decision(s: "Board") -> Decision | None:
    if s.d["end"] is not None:
        return None
    phase = s.d["phase"]
    seat = 1 - s.active if phase == "block" else s.active
    return Decision(phase, (seat,), f"Seat {seat}: {KINDS[phase]}")
