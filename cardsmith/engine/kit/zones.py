"""Zones of cards, each public, seen by its owner only, or secret (a deck: nobody sees the order).

`Zones.masked(seat)` is what that seat may know: cards it may not see become `HIDDEN` (so counts
stay visible). `Zones.redeal(masked, unseen, rng)` is the determinization a search agent needs: the
hidden slots filled at random from the cards the observer has not seen; `redeal_by_owner` does it
per seat, for games where each seat has its own deck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping

PUBLIC, OWNER, SECRET = "public", "owner", "secret"
VISIBILITIES = (PUBLIC, OWNER, SECRET)
HIDDEN = "?"  # a card the observer cannot see


@dataclass
class Zone:
    """An ordered pile of card ids. The top of a pile is the end of `cards` (draw pops the end)."""

    name: str
    owner: int | None = None
    visibility: str = PUBLIC
    cards: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"zone {self.name}: visibility must be one of {VISIBILITIES}")

    def visible_to(self, seat: int) -> bool:
        return self.visibility == PUBLIC or (self.visibility == OWNER and self.owner == seat)

    def copy(self) -> "Zone":
        return Zone(self.name, self.owner, self.visibility, list(self.cards))

    def __len__(self) -> int:
        return len(self.cards)


class Zones:
    """Named zones; a seat's own zone is named `"<kind>:<seat>"` (`zones.of(1, "hand")`)."""

    def __init__(self, zones: Iterable[Zone] = ()):
        self._z: dict[str, Zone] = {z.name: z for z in zones}

    @classmethod
    def for_seats(cls, seats: int, shared: Mapping[str, str] | None = None, each: Mapping[str, str] | None = None) -> "Zones":
        """Zones named in `shared` (name -> visibility, no owner) and, per seat, one `"<kind>:<seat>"` zone
        owned by it for each kind in `each`: `Zones.for_seats(3, {"deck": SECRET}, {"hand": OWNER})`."""
        out = cls(Zone(name, None, vis) for name, vis in (shared or {}).items())
        for s in range(seats):
            for kind, vis in (each or {}).items():
                out.add(Zone(f"{kind}:{s}", s, vis))
        return out

    def add(self, zone: Zone) -> Zone:
        self._z[zone.name] = zone
        return zone

    def __getitem__(self, name: str) -> Zone:
        return self._z[name]

    def __contains__(self, name: str) -> bool:
        return name in self._z

    def __iter__(self) -> Iterator[Zone]:
        return iter(self._z.values())

    def of(self, seat: int, kind: str) -> Zone:
        return self._z[f"{kind}:{seat}"]

    def move(self, card: str, src: str, dst: str, *, to_bottom: bool = False) -> None:
        """Move one copy of `card` (the topmost) from `src` to the top (or bottom) of `dst`."""
        pile = self._z[src].cards
        for i in range(len(pile) - 1, -1, -1):
            if pile[i] == card:
                del pile[i]
                break
        else:
            raise ValueError(f"no {card} in zone {src}")
        if to_bottom:
            self._z[dst].cards.insert(0, card)
        else:
            self._z[dst].cards.append(card)

    def draw(self, src: str, dst: str, n: int = 1) -> list[str]:
        """Move up to `n` cards from the top of `src` to `dst`; returns the cards moved."""
        pile, out = self._z[src].cards, []
        for _ in range(min(n, len(pile))):
            card = pile.pop()
            self._z[dst].cards.append(card)
            out.append(card)
        return out

    def copy(self) -> "Zones":
        return Zones(z.copy() for z in self._z.values())

    def masked(self, seat: int) -> "Zones":
        """A copy in which every card `seat` may not see is HIDDEN."""
        out = Zones()
        for z in self._z.values():
            # A hidden zone is never read, only measured: what the seat may not see is not even copied.
            out.add(z.copy() if z.visible_to(seat) else Zone(z.name, z.owner, z.visibility, [HIDDEN] * len(z.cards)))
        return out

    def redeal(self, unseen: Iterable[str], rng: random.Random) -> "Zones":
        """A copy of a masked view with each HIDDEN slot filled from `unseen`, shuffled with `rng`.

        `unseen` must hold exactly as many cards as there are hidden slots (the game knows which
        cards the observer has not seen: all its cards less those in zones it sees).
        """
        pool = list(unseen)
        rng.shuffle(pool)
        out = self.copy()
        slots = sum(z.cards.count(HIDDEN) for z in out)
        if slots != len(pool):
            raise ValueError(f"{slots} hidden slots but {len(pool)} unseen cards")
        for z in out:
            z.cards = [pool.pop() if c == HIDDEN else c for c in z.cards]
        return out

    def redeal_by_owner(self, unseen: Mapping[int, Iterable[str]], rng: random.Random) -> "Zones":
        """A copy of a masked view with each HIDDEN slot of a zone owned by seat s filled from `unseen[s]`
        (per-seat decks: a hidden card never leaves its owner's zones), each pool shuffled with `rng`.

        Every pool must hold exactly as many cards as its seat's zones have hidden slots, and no
        shared zone (owner None) may hold a hidden card: a ValueError says which seat or zone breaks it.
        """
        out = self.copy()
        for z in out:
            if z.owner is None and HIDDEN in z.cards:
                raise ValueError(f"zone {z.name} has no owner but hides cards: with per-seat decks every zone "
                                 "that hides cards belongs to a seat")
        for seat in sorted({z.owner for z in out if z.owner is not None} | set(unseen)):
            pool = list(unseen.get(seat, ()))
            rng.shuffle(pool)
            mine = [z for z in out if z.owner == seat]
            slots = sum(z.cards.count(HIDDEN) for z in mine)
            if slots != len(pool):
                raise ValueError(f"seat {seat}: {slots} hidden slots in its zones but {len(pool)} unseen cards "
                                 "of its deck (with per-seat decks a seat's cards stay in its own zones)")
            for z in mine:
                z.cards = [pool.pop() if c == HIDDEN else c for c in z.cards]
        return out

    def to_data(self) -> dict[str, Any]:
        return {z.name: {"owner": z.owner, "visibility": z.visibility, "cards": list(z.cards)} for z in self._z.values()}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Zones":
        return cls(Zone(name, d.get("owner"), d.get("visibility", PUBLIC), list(d.get("cards", []))) for name, d in data.items())
