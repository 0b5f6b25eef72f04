"""The decisions a Solar Empires game asks for, by name (`SolarState.decision()`; docs/rules/solar-empires.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardsmith.engine.contract import Decision

if TYPE_CHECKING:
    from cardsmith.games.solar_empires.board import Board

KINDS = {
    "order_deck": "set-up: a player orders their fleet deck (shuffled, curve or listed)",
    "priority": "the coin toss's winner takes or gives priority for the first turn",
    "construct": "a construction phase: play a ship, building, event or spell, fire the Solaris Cannon, or done",
    "choose_cards": "an effect's choices: Ion Storm's fighters, ships to revive or search the fleet deck for",
    "deploy": "deployment: send a ship from reinforcements to a planet, or done",
    "spy_network": "Spy Network: move one deployed ship, or keep the deployment",
    "combat_order": "the priority player picks the planet whose combat is fought next",
    "effect_target": "a pre-combat effect's one target (Missile Silos)",
    "swarm_damage": "Asteroid Swarm: place the damage it deals on your own ships",
    "point_ship": "a fleet names its point ship",
    "fire_or_withdraw": "a fleet fires at the enemy fleet or withdraws",
    "intercept": "an Interceptor's owner assigns the damage of a destroyed ship",
    "place_damage": "the fleet hit places the attack's damage on its ships",
    "world_eater": "World Eater won a combat: destroy the planet (and revive ships) or keep it",
    "order_101": "Order 101: the player losing a building lets it fail its save, or rolls",
}


def decision(s: "Board") -> Decision | None:
    if s.end_reason or s.dec is None:
        return None
    seat = s.current_player
    return Decision(s.dec, (seat,), f"P{seat}: {KINDS[s.dec]}")
