"""The neutral stand-in for a Solar Empires card in balance tests by intervention.

A ship becomes a plain ship of the same class and cost: no keywords, no effect, and the attack and
armour that are typical (the median) for its class in the set, so a card that is strong for its
cost shows a positive effect and one that is weak shows a negative one. A building or an event
becomes a building of the same cost that gives nothing (a card that takes a slot and resources and
does nothing). Stars and solar bodies have no stand-in: the game deals them at random, and the
balance report measures them through that randomness.
"""

from __future__ import annotations

import statistics

from cardsmith.model import Card, CardSet, frozen_map

FILLER_SUFFIX = "~filler"
_COST = ("energy", "minerals", "organics")


def _typical(cardset: CardSet, cls: str, stat: str, default: int) -> int:
    values = [int(c.fields.get(stat) or 0) for c in cardset.cards
              if c.type == "ship" and c.fields.get("class") == cls and not c.id.endswith(FILLER_SUFFIX)]
    return int(round(statistics.median(values))) if values else default


def filler(card: Card, cardset: CardSet) -> Card | None:
    """A plain ship of the card's class and cost, or a do-nothing building of its cost; None for
    stars and solar bodies."""
    cost = {k: int(card.fields.get(k) or 0) for k in _COST}
    if card.type == "ship":
        cls = str(card.fields.get("class") or "fighter")
        fields = {"class": cls, "attack": _typical(cardset, cls, "attack", 2),
                  "armour": max(1, _typical(cardset, cls, "armour", 5)), **cost}
        name = f"plain {cls}"
    elif card.type in ("building", "event"):
        fields = {**cost, "save": int(card.fields.get("save") or 3)}
        name = "plain building"
    else:
        return None
    return Card(id=card.id + FILLER_SUFFIX, name=f"{name} for {card.name}", type="ship" if card.type == "ship" else "building",
                fields=frozen_map(fields), race=card.race)
