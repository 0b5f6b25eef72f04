"""The rules' view of an Alien Empires card: its kind (race, force, event), a Force card's value, an
Event's timing, and every card's effects as the set declares them (`effect:`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

from cardsmith.engine.contract import card_effects
from cardsmith.engine.kit.cards import CardTable as KitCardTable
from cardsmith.sets.model import Card, CardSet

KINDS = ("race", "force", "event")
EVENT_TIMINGS = ("conflict", "migration", "fate")


class CardError(ValueError):
    """A card the rules cannot read."""


@dataclass(frozen=True)
class CardInfo:
    id: str
    name: str
    kind: str
    value: int = 0                      # a Force card's value
    timing: str = ""                    # an Event's timing
    effects: tuple[Mapping[str, Any], ...] = ()

    @cached_property
    def does(self) -> tuple[str, ...]:
        return tuple(str(e.get("do", "")) for e in self.effects)


def card_info(card: Card) -> CardInfo:
    """The rules' record of one card; CardError says what is missing."""
    if card.type not in KINDS:
        raise CardError(f"card {card.id}: Alien Empires has no card type {card.type!r} ({', '.join(KINDS)})")
    effects = tuple(dict(e) for e in card_effects(card))
    if card.type == "force":
        value = card.get("value")
        if not isinstance(value, int) or value < 0:
            raise CardError(f"card {card.id}: a Force card needs a whole-number `value:`")
        return CardInfo(card.id, card.name, "force", value=value)
    if not effects:
        raise CardError(f"card {card.id}: a {card.type} card needs `effect: {{do: ...}}`")
    timing = str(card.get("timing", "") or "")
    if card.type == "event" and timing not in EVENT_TIMINGS:
        raise CardError(f"card {card.id}: an Event needs a `timing:` of {', '.join(EVENT_TIMINGS)}")
    return CardInfo(card.id, card.name, card.type, timing=timing, effects=effects)


class CardTable(KitCardTable[CardInfo]):
    """Every card of a set by id."""

    @classmethod
    def from_set(cls, cardset: CardSet) -> "CardTable":
        return cls({c.id: card_info(c) for c in cardset.cards})

    def kind(self, cid: str) -> str:
        return self.cards[cid].kind

    @cached_property
    def force_order(self) -> dict[str, tuple[int, str]]:
        """Force card -> its place in a reveal's order (highest value first, then by id)."""
        return {cid: (-info.value, cid) for cid, info in self.cards.items() if info.kind == "force"}

    @cached_property
    def events(self) -> dict[str, frozenset[str]]:
        """The Event cards by timing ("fate", "migration", "conflict"): a hand holding none of a
        phase's has no Event to play in it, which the legal lists test before looking at each card."""
        out: dict[str, set[str]] = {}
        for cid, info in self.cards.items():
            if info.kind == "event":
                out.setdefault(info.timing, set()).add(cid)
        return {t: frozenset(out.get(t, ())) for t in EVENT_TIMINGS}

    def value(self, cid: str) -> int:
        return self.cards[cid].value
