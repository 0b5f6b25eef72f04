"""TRF's neutral stand-in for a card in balance tests by intervention, and its hands.

- A character becomes a plain character of its kind (fleeter or individual), faction and cost
  with the median combat and capture of the set's other characters of that kind, not Unique, no
  effect (every other character where fewer than three of its kind remain; its name says so).
- A planet becomes a plain planet with the median meters, words, capture and homeworld values of
  the set's other planets, no effect (also where the deck names it as its homeworld).
- An OOC card becomes an OOC card of its cost and timing with no effect: OOC effects differ too
  much for one typical effect, so the test asks whether the card is worth its slot and words.
- An account has no stand-in (a deck has exactly one, chosen, and the rules read its titles).
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.kit.fillers import alike, median, plain
from cardsmith.sets.model import Card, CardSet


def filler(card: Card, cardset: CardSet) -> Card | None:
    """The card's neutral stand-in (see the module notes), or None."""
    f = card.fields
    if card.type == "character":
        kind = f.get("kind")
        same, note = alike(cardset.cards, card, lambda c: c.type == "character" and c.fields.get("kind") == kind)
        stats = {k: median((c.fields.get(k) for c in same), int(f.get(k) or 0)) for k in ("combat", "capture")}
        return plain(card, f"plain {kind or 'character'}{note}", {"kind": kind, "cost": f.get("cost", 0), **stats})
    if card.type == "planet":
        same, note = alike(cardset.cards, card, lambda c: c.type == "planet")
        return plain(card, f"plain planet{note}", {k: median((c.fields.get(k) for c in same), 0)
                                                   for k in ("meters", "words", "capture", "homeworld")})
    if card.type == "ooc":
        return plain(card, "blank OOC card", {"cost": f.get("cost", 0), "timing": f.get("timing"), "persistent": False})
    return None


def cards_in_hand(state: Any, seat: int) -> frozenset[str]:
    """The card ids `seat` holds in hand now."""
    return frozenset(state.d["p"][seat]["hand"])
