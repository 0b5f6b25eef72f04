"""The neutral stand-in for a Solar Empires card in balance tests by intervention.

The rule for every card class: the filler is a card of the same type and cost with no keywords and
no effect, whose numbers are what the set's other cards of that class and cost typically give, so
that a card of average strength for its cost reads about 0, a strong one positive and a weak one
negative. The card under test is never among the cards its filler's medians are taken from; where
fewer than three comparable cards remain, the filler is the set's typical card of the type (all
its other ships, or buildings), and its name says so in the report.

- A ship becomes a plain ship of its class and cost with the class's median attack and armour.
- A building becomes a plain building of its cost and save whose output (support points a turn)
  totals the median output of the set's buildings of the same total cost (the nearest cost when
  none has it), given in the resources the card itself produces, or spread over all three when it
  produces none. A building that does nothing would flag every economy building as too strong.
- An event becomes a building of its cost that gives nothing: events differ too much for one
  "typical" event effect, so their test asks whether the event is worth its slot and cost at all.
- Stars and solar bodies have no stand-in: the game deals them at random, and the balance report
  measures them through that randomness.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.kit.fillers import SUFFIX as FILLER_SUFFIX, alike, median, real
from cardsmith.sets.model import Card, CardSet, frozen_map

_COST = ("energy", "minerals", "organics")
_PLUS = ("plus_energy", "plus_minerals", "plus_organics")


def _real(cardset: CardSet, kind: str) -> list[Card]:
    return real(cardset.cards, lambda c: c.type == kind)


def _ints(card: Card, keys: tuple[str, ...]) -> list[int]:
    return [int(card.fields.get(k) or 0) for k in keys]


def _typical(ships: list[Card], stat: str, default: int) -> int:
    return median((int(c.fields.get(stat) or 0) for c in ships), default)


def typical_output(cardset: CardSet, card: Card) -> tuple[int, str]:
    """Median support a turn of the set's other buildings whose total cost is the card's (or the
    nearest), and the note `alike` gives when fewer than three remain."""
    cost = sum(_ints(card, _COST))
    costs = {sum(_ints(c, _COST)) for c in _real(cardset, "building") if c.id != card.id}
    if not costs:
        return 0, ""
    nearest = min(costs, key=lambda k: (abs(k - cost), k))
    others, note = alike(cardset.cards, card, lambda c: c.type == "building" and sum(_ints(c, _COST)) == nearest)
    return median(sum(_ints(c, _PLUS)) for c in others), note


def spread(total: int, weights: list[int]) -> list[int]:
    """`total` split over energy, minerals, organics in proportion to `weights` (largest remainder;
    ties to the earlier resource); evenly when every weight is 0."""
    w = weights if any(weights) else [1, 1, 1]
    exact = [total * x / sum(w) for x in w]
    out = [int(x) for x in exact]
    order = sorted(range(3), key=lambda i: (-(exact[i] - out[i]), i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return out


def filler(card: Card, cardset: CardSet) -> Card | None:
    """The card's neutral stand-in (see the module notes); None for stars and solar bodies."""
    cost = dict(zip(_COST, _ints(card, _COST)))
    if card.type == "ship":
        cls = str(card.fields.get("class") or "fighter")
        ships, note = alike(cardset.cards, card, lambda c: c.type == "ship" and c.fields.get("class") == cls)
        fields = {"class": cls, "attack": _typical(ships, "attack", 2), "armour": max(1, _typical(ships, "armour", 5)), **cost}
        name = f"plain {cls}{note}"
    elif card.type == "building":
        total, note = typical_output(cardset, card)
        output = spread(total, _ints(card, _PLUS))
        fields = {**cost, "save": int(card.fields.get("save") or 3),
                  **{k: v for k, v in zip(_PLUS, output) if v}}
        name = f"plain building (+{sum(output)} support){note}"
    elif card.type == "event":
        fields = {**cost, "save": 3}
        name = "blank building"
    else:
        return None
    return Card(id=card.id + FILLER_SUFFIX, name=f"{name} for {card.name}", type="ship" if card.type == "ship" else "building",
                fields=frozen_map(fields), race=card.race)


def cards_in_hand(state: Any, seat: int) -> frozenset[str]:
    """The card ids `seat` holds in hand now (the report's observational figures replay games and
    read this after every action)."""
    info = state.t.info
    return frozenset(info[i].id for i in state.hand[seat])
