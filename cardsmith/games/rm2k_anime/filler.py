"""#rm2k_anime's neutral stand-in for a card in balance tests by intervention, and its hands.

- The card under test is never among the cards its filler's medians come from; with fewer than
  three comparable cards left, the type's typical card is used (its name says so in the report).
- A User becomes a plain User of its cost with the median Bandwidth and skill levels of the set's
  Users, no attributes and no effect but its own Goal (the rules give every User one; keeping it
  leaves the Goal out of the test).
- An Attach card keeps its cost, skill symbol and kind and gives the median skill bonus of the
  set's Attach cards to its own skill.
- A Challenge keeps its cost, skill and kind, with the median bonuses (and defence value) of the
  set's Challenges of that kind and the median Victory Points for its winner.
- An Event becomes an Event of its cost and skill that only draws a card (it replaces itself):
  events differ too much for one typical effect, and the rules play no Event without one, so the
  test asks whether the card is worth more than its slot and Lag.
- A Victory card has no stand-in (its condition is the card); the report measures it through the
  opening hand instead.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.kit.fillers import alike, median, plain
from cardsmith.games.rm2k_anime.effects import SKILLS
from cardsmith.sets.model import Card, CardSet


def _amounts(cards: list[Card], do: str) -> list[Any]:
    return [e.get("amount") for c in cards for e in c.effects if e.get("do") == do]


def filler(card: Card, cardset: CardSet) -> Card | None:
    """The card's neutral stand-in (see the module notes), or None."""
    f = card.fields
    same, note = alike(cardset.cards, card, lambda c: c.type == card.type)
    base = {"watermark": f.get("watermark"), "cost": f.get("cost", 0)}
    if card.type == "user":
        levels = {s: str(median(c.fields.get(s) for c in same)) for s in SKILLS}
        goal = tuple(e for e in card.effects if e.get("do") == "goal")
        return plain(card, f"plain User{note}", {**base, "bandwidth": median(c.fields.get("bandwidth") for c in same),
                                                 **levels, "goal": f.get("goal")}, goal)
    if card.type == "attach":
        bonus = {"do": "skill_bonus", "skill": f.get("skill"), "amount": median(_amounts(same, "skill_bonus"), 1)}
        return plain(card, f"plain Attach{note}", {**base, "skill": f.get("skill"), "kind": f.get("kind")}, (bonus,))
    if card.type == "challenge":
        kin, note = alike(cardset.cards, card, lambda c: c.type == "challenge" and c.fields.get("kind") == f.get("kind"))
        numbers = {k: median((c.fields.get(k) for c in kin), 0) for k in ("attacker_bonus", "defender_bonus", "defense_value")
                   if k in f}
        vp = {"do": "winner_vp", "amount": median(_amounts(same, "winner_vp"), 1)}
        return plain(card, f"plain Challenge{note}", {**base, "skill": f.get("skill"), "kind": f.get("kind"), **numbers},
                     (vp,))
    if card.type == "event":
        draw = {"do": "draw", "cards": 1, "when": "played"}
        return plain(card, "card-drawing Event", {**base, "skill": f.get("skill")}, (draw,))
    return None


def cards_in_hand(state: Any, seat: int) -> frozenset[str]:
    """The card ids `seat` holds in hand now."""
    return frozenset(state.p[seat].hand)
