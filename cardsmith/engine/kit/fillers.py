"""Helpers for a rules module's `filler` (the neutral stand-in of balance tests by intervention):
the typical value of a field among comparable cards, and a plain copy of a card.

A fair filler is a card of the same kind and cost with no keywords, tags or effects, whose numbers
are what the set's comparable cards typically have: an average card then reads about 0 against it.
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from cardsmith.sets.model import Card, frozen_map

SUFFIX = "~filler"


def real(cards: Iterable[Card], keep: Callable[[Card], bool]) -> list[Card]:
    """The set's own cards (no fillers) that `keep` accepts."""
    return [c for c in cards if not c.id.endswith(SUFFIX) and keep(c)]


def median(values: Iterable[Any], default: int = 0) -> int:
    """The median of the numbers among `values` (ints; non-numbers such as "-" are left out)."""
    nums = []
    for v in values:
        try:
            nums.append(int(v))
        except (TypeError, ValueError):
            continue
    return int(round(statistics.median(nums))) if nums else default


def plain(card: Card, name: str, fields: Mapping[str, Any], effects: tuple[Mapping[str, Any], ...] = ()) -> Card:
    """`card` as a filler: a new id, `name` ("plain character"; the card's name is added), these
    fields, no keywords, tags, text or effects (unless given); its type and groups are kept."""
    return replace(card, id=card.id + SUFFIX, name=f"{name} for {card.name}", fields=frozen_map(dict(fields)),
                   keywords=(), tags=(), text="", flavor="", effects=tuple(effects), copies=1)


def hands_cards(state: Any, seat: int) -> frozenset[str]:
    """`RulesModule.cards_in_hand` for a state that keeps each seat's hand as card ids in
    `state.hands[seat]` (TransWar, Alien Empires). Those games deal from one common deck, so they
    have no filler: the report measures their cards through the opening deal instead."""
    return frozenset(state.hands[seat])
