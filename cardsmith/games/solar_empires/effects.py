"""The effect handlers Solar Empires cards may name (`effect: {do: NAME, ...}` in a card's YAML).

Each handler is declared as an `EffectSpec` (its parameters as JSON Schemas, with defaults) so that
`cardsmith validate` checks every card's effects; `solar_problems` adds the checks a schema cannot
express (which card types and targets go together). The rules (`flow`, `combat`, `resolve`) read
the parameters from `CardInfo.fx`; changing a number in the YAML changes play.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from cardsmith.engine.contract import EffectSpec, Problem
from cardsmith.sets.model import CardSet

_COUNT = {"type": "integer", "minimum": 1, "maximum": 20}
_AMOUNT = {"type": "integer", "minimum": 0, "maximum": 99}
_CLASS = {"enum": ["fighter", "cruiser", "battleship"], "default": "battleship"}

PLAYED_TARGETS = ("ship", "fighters")  # chosen by the caster when the card is played
COMBAT_TARGETS = ("enemy_ships", "enemy_fighters", "enemy_ship")  # at a combat, before attacks

EFFECTS: dict[str, EffectSpec] = {spec.name: spec for spec in (
    EffectSpec("damage", {
        "amount": _AMOUNT,
        "target": {"enum": list(PLAYED_TARGETS + COMBAT_TARGETS)},
        "count": {**_COUNT, "default": 1},
        "max_class": _CLASS,
        "revive_on_kill": {"type": "integer", "minimum": 0, "maximum": 9, "default": 0},
    }, when=("played", "before_attacks"), doc=(
        "Deal `amount` damage. When played: to one `ship` in play (either player's, up to `max_class`; if "
        "it is destroyed and `revive_on_kill` > 0, that many ships of its size or smaller come back from "
        "the caster's discard) or to up to `count` different `fighters`. Before attacks, at each combat: "
        "to every `enemy_ships` / `enemy_fighters` there, or to one `enemy_ship` its controller picks. A "
        "building acts for whoever controls its planet; an event only where its owner has ships too.")),
    EffectSpec("destroy_ship", {"max_class": _CLASS}, doc="Destroy one ship in play of `max_class` or smaller."),
    EffectSpec("grant_shield", {"amount": _AMOUNT}, doc="One of your ships gains Shield `amount` until the end of combat."),
    EffectSpec("block_deployment", {"planets": _COUNT}, doc="Choose `planets` planets: no ships may be deployed to them this turn."),
    EffectSpec("fleet_damage", {"planets": _COUNT, "bonus": _AMOUNT}, doc=(
        "Choose `planets` planets: every fleet deployed there takes d6 + `bonus` damage before combat "
        "attacks, placed by its owner.")),
    EffectSpec("redeploy", doc="After all ships are deployed, move one of your ships (or keep the deployment)."),
    EffectSpec("draw_on_capture", {"cards": _COUNT}, doc="Each time you capture a planet this turn draw `cards` cards."),
    EffectSpec("save_penalty", {"amount": _AMOUNT}, doc="The opponent's building saves this turn are `amount` lower."),
    EffectSpec("reroll_failed_saves", doc="Re-roll your failed building saves this turn (once)."),
    EffectSpec("fail_lost_building_saves", doc="A building you lose control of this turn may fail its save at once."),
    EffectSpec("revive", {"count": _COUNT}, doc="Put up to `count` ships from your discard pile into play."),
    EffectSpec("search_deck", {"count": _COUNT}, doc="Search your fleet deck for up to `count` ships and put them into play."),
    EffectSpec("roll_enemy_building_saves", doc="Roll a save for each building not under your control; failures are destroyed."),
    EffectSpec("black_hole", doc=(
        "The star becomes a black hole for good: star effects end; each clean-up the planet closest to "
        "the star is destroyed; when the last goes, most ships in play wins.")),
    EffectSpec("attack_bonus", {"amount": _AMOUNT}, doc="Attacks by your fleets deployed here get +`amount`."),
    EffectSpec("planet_cannon", doc=(
        "Once per turn in a construction phase, if your support covers this building's cost, destroy one planet.")),
    EffectSpec("devour_planet", {"revive": {**_AMOUNT, "default": 3}}, doc=(
        "When a fleet with this ship wins a combat, its owner may destroy the planet and put up to `revive` "
        "ships from their discard pile into play.")),
)}

# Which card types may carry each handler (the rules only look for it there).
HANDLER_TYPES: dict[str, tuple[str, ...]] = {
    "damage": ("event", "building"), "destroy_ship": ("event",), "grant_shield": ("event",),
    "block_deployment": ("event",), "fleet_damage": ("event",), "redeploy": ("event",),
    "draw_on_capture": ("event",), "save_penalty": ("event",), "reroll_failed_saves": ("event",),
    "fail_lost_building_saves": ("event",), "revive": ("event",), "search_deck": ("event",),
    "roll_enemy_building_saves": ("event",), "black_hole": ("event",), "attack_bonus": ("building",),
    "planet_cannon": ("building",), "devour_planet": ("ship",),
}


def defaults() -> dict[str, dict[str, Any]]:
    """Each handler's parameter defaults."""
    return {name: {k: s["default"] for k, s in spec.params.items() if "default" in s} for name, spec in EFFECTS.items()}


def _damage_problems(card_id: str, ctype: str, i: int, effect: Mapping[str, Any]) -> Iterable[Problem]:
    target, when = effect.get("target"), effect.get("when")
    if ctype == "building" and when != "before_attacks":
        yield Problem("a building's damage acts at combats: it needs `when: before_attacks`", card=card_id,
                      path=("effect", i, "when"), hint="write `when: before_attacks`")
    if when == "played" and target not in PLAYED_TARGETS:
        yield Problem(f"damage when played needs a target chosen on play ({', '.join(PLAYED_TARGETS)}), not {target!r}",
                      card=card_id, path=("effect", i, "target"), hint="or use `when: before_attacks`")
    if when == "before_attacks" and target not in COMBAT_TARGETS:
        yield Problem(f"damage before attacks hits ships at the combat ({', '.join(COMBAT_TARGETS)}), not {target!r}",
                      card=card_id, path=("effect", i, "target"), hint="or use `when: played`")


def solar_problems(cardset: CardSet) -> Iterable[Problem]:
    """Checks of the set's effects beyond their schemas: the card types each handler acts on, and the
    damage targets that fit its timing."""
    for card in cardset.cards:
        for i, effect in enumerate(card.effects):
            name = effect.get("do")
            allowed = HANDLER_TYPES.get(str(name))
            if allowed is not None and card.type not in allowed:
                yield Problem(f"effect '{name}' acts only on {' or '.join(allowed)} cards, not on a {card.type}",
                              card=card.id, path=("effect", i, "do"), hint="move the effect to a card of that type")
            if name == "damage":
                yield from _damage_problems(card.id, card.type, i, effect)
