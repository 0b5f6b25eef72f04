"""Helpers for a rules module's `filler` (the neutral stand-in of balance tests by intervention):
the typical value of a field among comparable cards, and a plain copy of a card.

A fair filler is a card of the same kind and cost with no keywords, tags or effects, whose numbers
are what the set's comparable cards typically have: an average card then reads about 0 against it.
The card under test is never one of its own comparable cards (`alike`): a strong card would
otherwise raise its own filler, and its neighbours' (with three cards at a cost, a planted card is
a third of every median there). Where fewer than `MIN_ALIKE` comparable cards remain, `alike`
falls back to every other card of the type (the set's typical card of that type) and says so in a
note the filler's name carries into the report.
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from cardsmith.sets.model import Card, frozen_map

SUFFIX = "~filler"
MIN_ALIKE = 3  # fewer comparable cards than this (the tested card left out): use the type's typical card


def real(cards: Iterable[Card], keep: Callable[[Card], bool]) -> list[Card]:
    """The set's own cards (no fillers) that `keep` accepts."""
    return [c for c in cards if not c.id.endswith(SUFFIX) and keep(c)]


def alike(cards: Iterable[Card], card: Card, keep: Callable[[Card], bool]) -> tuple[list[Card], str]:
    """The set's cards comparable to `card` (those `keep` accepts, never `card` itself nor a filler) and a
    note: "" when there are at least MIN_ALIKE, else every other card of `card`'s type and the note
    " (typical <type>: fewer than 3 alike)" to add to the filler's name, which the report shows."""
    cards = list(cards)
    same = [c for c in real(cards, keep) if c.id != card.id]
    if len(same) >= MIN_ALIKE:
        return same, ""
    typed = [c for c in real(cards, lambda c: c.type == card.type) if c.id != card.id]
    return typed, f" (typical {card.type}: fewer than {MIN_ALIKE} alike)"


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
