"""TRF cards as the rules read them: one `Info` per card, and what an account pays for a card.

Only typed fields and `effect:` data are read, never a card's English text. What an account pays
(own faction, same alignment at double, never another alignment, Gash, *Affinity*, title cards) is
written as deck rules in the set's set.yaml (`played_by:`); `Costs` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from cardsmith.engine.contract import card_effects
from cardsmith.sets.model import CardSet

UNIVERSAL = "universal"
RANKS = {"admin": 2, "mod": 1}


@dataclass(frozen=True)
class Info:
    """What the rules need to know about one card."""

    id: str
    name: str
    type: str  # account, planet, character, ooc
    faction: str = UNIVERSAL
    cost: int = 0  # meters (characters) or words (OOC)
    combat: int = 0
    capture: int = 0
    fleeter: bool = False
    unique: bool = False
    tags: tuple[str, ...] = ()
    meters: int = 0
    words: int = 0
    homeworld: int = 0
    titles: tuple[str, ...] = ()  # an account's titles
    title: str | None = None  # an OOC card's title restriction
    timing: str | None = None
    effects: tuple[Mapping[str, Any], ...] = field(default=())
    acts: tuple[Mapping[str, Any], ...] = ()  # the effects used on purpose (`when: activated`)
    # Filled in by __post_init__: the effects by name, and the `discount` ones (read on every buy).
    _by_do: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _by_when: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict, init=False, repr=False, compare=False)
    discounts: tuple[Mapping[str, Any], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The rules ask a card for its effects by name thousands of times a game: group them once.
        by_do: dict[str, tuple[Mapping[str, Any], ...]] = {}
        for e in self.effects:
            do = str(e.get("do"))
            by_do[do] = by_do.get(do, ()) + (e,)
        object.__setattr__(self, "_by_do", by_do)
        by_when: dict[str, tuple[Mapping[str, Any], ...]] = {}
        for e in self.effects:
            when = str(e.get("when"))
            by_when[when] = by_when.get(when, ()) + (e,)
        object.__setattr__(self, "_by_when", by_when)
        object.__setattr__(self, "discounts", by_do.get("discount", ()))

    def effect(self, name: str, when: str | None = None) -> tuple[Mapping[str, Any], ...]:
        found = self._by_do.get(name, ())
        return found if when is None else tuple(e for e in found if e.get("when") == when)

    def used_at(self, when: str) -> tuple[Mapping[str, Any], ...]:
        """The effects with this `when:` (an OOC card's effects at its timing), in the card's order."""
        return self._by_when.get(when, ())

    def activated(self) -> tuple[Mapping[str, Any], ...]:
        return self.acts

    @property
    def rank(self) -> int:
        return max((RANKS.get(t, 0) for t in self.titles), default=0)


def card_infos(cardset: CardSet) -> dict[str, Info]:
    """Every card of the set as an `Info`."""
    out: dict[str, Info] = {}
    for c in cardset.cards:
        out[c.id] = Info(
            id=c.id, name=c.name, type=c.type, faction=c.faction or UNIVERSAL,
            cost=int(c.get("cost", 0) or 0), combat=int(c.get("combat", 0) or 0),
            capture=int(c.get("capture", 0) or 0), fleeter=c.get("kind") == "fleeter",
            unique="unique" in c.tags, tags=tuple(c.tags), meters=int(c.get("meters", 0) or 0),
            words=int(c.get("words", 0) or 0), homeworld=int(c.get("homeworld", 0) or 0),
            titles=tuple(c.get("titles") or ()), title=c.get("title"), timing=c.get("timing"),
            effects=tuple(dict(e) for e in card_effects(c)),
            acts=tuple(dict(e) for e in card_effects(c) if e.get("when") == "activated"),
        )
    return out


_UNKNOWN = object()


class Costs:
    """What an account pays for a card, from the set's own deck rules (`deck_rules: played_by:`):
    the faction, alignment, *Affinity* and title rules are data in set.yaml, read here through
    `cardsmith.decks.plays.play_terms`, so a deck check and a game charge the same. Planets' discounts
    (a game-time matter) are the state's business. Answers are cached per (account, card)."""

    def __init__(self, cardset: CardSet):
        from cardsmith.decks.rules import parse_rules

        self.cardset = cardset
        self.cards = cardset.by_id()
        self.rules = parse_rules(cardset)
        self._cache: dict[tuple[str, str], int | None] = {}

    def __call__(self, account: str, card: str) -> int | None:
        """The cost `account` pays for `card` (its printed cost when no rule changes it); None when it may not play it."""
        key = (account, card)
        known = self._cache.get(key, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]
        if key not in self._cache:
            from cardsmith.decks.plays import play_terms

            terms = play_terms(self.cards[card], self.cards[account], self.rules, self.cardset)
            self._cache[key] = (terms.paid or 0) if terms.playable else None
        return self._cache[key]
