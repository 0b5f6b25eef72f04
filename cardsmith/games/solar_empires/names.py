"""Names of the decisions, turn stages and combat steps (as positions write them), and fixed numbers."""

from __future__ import annotations

# Decisions: what `current_player` is choosing now (`SolarState.dec`; None when nobody is).
ORDER = "order_deck"
PRIORITY = "priority"
CONSTRUCT = "construct"
PICK = "choose_cards"  # an effect's choices (Ion Storm targets, ships to revive or search for)
DEPLOY = "deploy"
SPY = "spy_network"
COMBAT = "combat_order"
STRIKE = "effect_target"  # a pre-combat effect's one target (Missile Silos)
SWARM = "swarm_damage"
POINT = "point_ship"
FIRE = "fire_or_withdraw"
INTERCEPT = "intercept"
DAMAGE = "place_damage"
WORLD_EATER = "world_eater"
ORDER101 = "order_101"
DECISIONS = (ORDER, PRIORITY, CONSTRUCT, PICK, DEPLOY, SPY, COMBAT, STRIKE, SWARM, POINT, FIRE, INTERCEPT,
             DAMAGE, WORLD_EATER, ORDER101)

# Turn stages (`SolarState.stage`), in playing order.
STAGES = ("setup", "coin", "draw", "construct1", "deploy", "spy", "combat", "construct2", "cleanup")

# Steps of the combat at `SolarState.cpos` (`SolarState.cstage`).
COMBAT_STEPS = ("effects", "effect_wait", "swarm", "swarm_place", "start", "point", "choice", "shoot",
                "intercept_wait", "place", "after", "newpoint", "won", "world_eater_wait", "building",
                "order101_wait", "next")

ORDERINGS = ("shuffled", "curve", "listed")
DEFAULT_TURN_CAP = 40
BOMBER_BONUS = 2
# Invented: a combat in which neither side can hurt the other (a custom set with huge shields) would
# never end under agents that never withdraw; after this many shots both fleets break off.
SHOT_CAP = 100
