"""What `RULES` (in __init__.py) is made of: the `play:` settings, the card fields and effects the rules read,
and the set checks `cardsmith validate` runs."""

from __future__ import annotations

from typing import Any, Iterator

from cardsmith.engine.contract import EffectSpec, Problem
from cardsmith.games.transwar.cards import ATTACK_MODES, MODES, TIMINGS, CardError, card_info
from cardsmith.sets.model import CardSet

_INT: dict[str, Any] = {"type": "integer", "minimum": 0}
_MODE_VALUE: dict[str, Any] = {"type": "integer", "minimum": 1}

CARD_FIELDS: dict[str, dict[str, dict[str, Any]]] = {
    "form": {"hp": {"type": "integer", "minimum": 1}, "cost": _INT, "attack": _INT, "defense": _INT,
             **{m: _MODE_VALUE for m in MODES},
             "combined": {"type": "array", "items": {"enum": ["claw+bite", "trample+gore"]}}},
    "attack": {"mode": {"enum": list(ATTACK_MODES)}, "multiple": {"type": "integer", "minimum": 1}},
    "defense": {"bonus": {"type": "integer", "minimum": 1}},
    "special": {"timing": {"enum": list(TIMINGS)}, "discard": _INT},
}

_DOCS = {
    "evade": "+amount defense; twice that for a defender with Evade.",
    "leap": "The attacker's ground modes reach a flying defender this attack.",
    "base_multiple": "+amount x base attack in each mode of this turn's attack.",
    "berserk": "+amount x base attack in each mode this turn; base defense 0 until your next turn.",
    "ignore_base_defense": "The defender's base defense does not count this attack.",
    "cancel_attack": "The attack is called off.",
    "per_ally": "+amount to this side's total per ally helping it.",
    "halve_damage": "Damage taken from this attack is halved (rounded down).",
    "blind": "The defender plays no Defense cards this attack.",
    "broken_limb": "If the attack does damage, the defender's base attack is 0 until it transforms.",
    "luck": "Roll a d6: this side's total gains amount x the roll.",
    "bleeding": "If the attack does damage, the defender takes amount damage at the start of each of its turns.",
}
EFFECT_SPECS = {
    name: EffectSpec(name, params={"amount": {**_INT, "default": 0}}, doc=doc)
    for name, doc in _DOCS.items()
}

PLAY_SCHEMA = {
    "type": "object",
    "properties": {"turn_cap": {"type": "integer", "minimum": 1,
                                "description": "turns (of all players) after which the survivors tie"}},
    "additionalProperties": False,
}


def validate(cardset: CardSet) -> Iterator[Problem]:
    """Cards the rules could not play: unreadable data, Forms without modes, combined modes they lack."""
    forms = 0
    for card in cardset.cards:
        try:
            info = card_info(card)
        except CardError as e:
            yield Problem(str(e), card=card.id, hint="see docs/sets/transwar.md for the fields each type needs")
            continue
        if info.form is None:
            continue
        forms += 1
        if not info.form.modes:
            yield Problem(f"Form {card.id} has no attack mode", card=card.id, path=("swat",),
                          hint="give it at least one of " + ", ".join(MODES))
        for combo in info.form.combined:
            missing = [m for m in combo if m not in info.form.modes]
            if missing:
                yield Problem(f"Form {card.id} combines {'+'.join(combo)} but has no {', '.join(missing)} value",
                              card=card.id, path=("combined",), hint="add the mode's value or drop the combination")
    if forms < 6:
        yield Problem(f"the set has {forms} Forms; six players need at least six to choose a dealer",
                      hint="add Form cards")
