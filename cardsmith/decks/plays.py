"""What the `played_by:` deck rules say about one card: may the chosen card play it, and what it pays.
(The section itself, its terms and how it is compiled: `_played_by`.)

`play_terms(card, chosen, rules, cardset, others)` answers for one card (`others`: the one card of
each other zone the rules name, from `zone_cards`); the engine may use it to charge what a player
pays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from cardsmith.decks._played_by import Term
from cardsmith.sets.model import Card, CardSet, Deck

if TYPE_CHECKING:
    from cardsmith.decks.rules import DeckRules


@dataclass(frozen=True)
class PlayTerms:
    """What playing `card` means for the chosen card: allowed or not, the printed and the paid cost,
    and the terms that decided (the access term first, then each cost term that applied)."""

    card: str
    playable: bool
    printed: int | None
    paid: int | None
    terms: tuple[Term, ...] = ()
    refused_by: Term | None = None

    @property
    def reasons(self) -> list[str]:
        return [t.name for t in self.terms if t.refuse or t.times != 1 or t.plus or t.function is not None]


def chosen_card(deck: Deck, rules: "DeckRules", cards: Mapping[str, Card]) -> Card | None:
    """The one card of the chosen zone; None when the zone holds none, several, or a card it does not
    accept (its size and accepts rules report that, and nothing is judged against a wrong card)."""
    pb = rules.played_by
    if pb is None:
        return None
    ids = [cid for cid, n in deck.zones.get(pb.zone, {}).items() if n and cid in cards]
    if len(ids) != 1:
        return None
    zone = rules.zones.get(pb.zone)
    return cards[ids[0]] if zone is None or zone.accepts(cards[ids[0]]) else None


def zone_cards(deck: Deck, rules: "DeckRules", cards: Mapping[str, Card]) -> dict[str, Card | None]:
    """The one card of each other zone the `played_by` terms look at (None: the zone holds none or several)."""
    out: dict[str, Card | None] = {}
    for zone in rules.played_by.others if rules.played_by else ():
        ids = [cid for cid, n in deck.zones.get(zone, {}).items() if n and cid in cards]
        out[zone] = cards[ids[0]] if len(ids) == 1 else None
    return out


def play_terms(card: Card, chosen: Card | None, rules: "DeckRules", cardset: CardSet,
               others: Mapping[str, Card | None] | None = None) -> PlayTerms:
    """Whether `chosen` may play `card` and what it pays (`printed` when nothing changes the cost).
    `others` gives the one card of other zones the terms look at (`zone_cards`); terms that need a
    zone not given do not match."""
    printed = rules.cost_of(card)
    pb = rules.played_by
    if pb is None or chosen is None:
        return PlayTerms(card.id, True, printed, printed)
    applied: list[Term] = []
    access = next((t for t in pb.access if t.matches(cardset, card, chosen, others)), None)
    if access is not None:
        applied.append(access)
        if access.refuse:
            return PlayTerms(card.id, False, printed, None, tuple(applied), access)
    for t in pb.costs:
        if t.matches(cardset, card, chosen, others):
            applied.append(t)
            if t.refuse:
                return PlayTerms(card.id, False, printed, None, tuple(applied), t)
    paid = printed
    if paid is not None:
        for t in applied:
            paid = t.apply(paid, cardset, card, chosen)
    return PlayTerms(card.id, True, printed, paid, tuple(applied))


def describe(card: Card, cardset: CardSet) -> str:
    """'Dolash (Coalition, alignment light)': a card with its groups and their attributes."""
    bits = []
    for dim, group in cardset.groups_of(card):
        bits.append(group.name + "".join(f", {k} {v}" for k, v in group.attributes.items()))
    own = [f"own {a} {card.fields[a]}" for dim, _ in cardset.groups_of(card) for a in dim.attributes
           if card.fields.get(a) is not None]
    return card.name + (f" ({'; '.join(bits + own)})" if bits or own else "")
