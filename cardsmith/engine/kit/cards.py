"""A game's immutable table of card records, by card id (shared by every state of a game)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Mapping, TypeVar

Info = TypeVar("Info")


@dataclass(frozen=True)
class CardTable(Generic[Info]):
    """Every card of a set by id, as the game's own record type; games subclass it for their lookups."""

    cards: Mapping[str, Info] = field(default_factory=dict)

    def __getitem__(self, cid: str) -> Info:
        return self.cards[cid]

    def __contains__(self, cid: object) -> bool:
        return cid in self.cards
