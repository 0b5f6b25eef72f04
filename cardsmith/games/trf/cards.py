"""TRF cards as the rules read them: one `Info` per card, and what an account pays for a card.

Only typed fields and `effect:` data are read, never a card's English text. Costs follow the
text's faction rules (docs/rules/trf.md): own faction and Universal at normal cost, other factions
of the same alignment at double, any other alignment never; a character whose
alignment is not its faction's only for that faction's or a Universal account. OOC title cards
cost double words for accounts without the title.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from cardsmith.engine.contract import card_effects
from cardsmith.model import CardSet

UNIVERSAL = "universal"
# Who escapes a title card's doubled cost: Mod cards are fine for Mods and Admins.
TITLE_EXEMPT = {"mod": ("mod", "admin"), "admin": ("admin",), "troublemaker": ("troublemaker",)}
RANKS = {"admin": 2, "mod": 1}


@dataclass(frozen=True)
class Info:
    """What the rules need to know about one card."""

    id: str
    name: str
    type: str  # account, planet, character, ooc
    faction: str = UNIVERSAL
    alignment: str = UNIVERSAL  # the card's own (a character's printed one, else its faction's)
    odd: bool = False  # a character whose alignment is not its faction's (Gash)
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

    def effect(self, name: str, when: str | None = None) -> list[Mapping[str, Any]]:
        return [e for e in self.effects if e.get("do") == name and (when is None or e.get("when") == when)]

    def activated(self) -> tuple[Mapping[str, Any], ...]:
        return self.acts

    @property
    def rank(self) -> int:
        return max((RANKS.get(t, 0) for t in self.titles), default=0)


def alignments(cardset: CardSet) -> dict[str, str]:
    """Faction -> alignment (light, dark, neutral, universal) from the set's `play: alignments:`."""
    play = cardset.meta.get("play") or {}
    table = dict(play.get("alignments") or {})
    for fid, group in cardset.factions.items():
        # once factions carry attributes in set.yaml, those win over `play: alignments:`
        attrs = getattr(group, "attributes", None) or {}
        value = attrs.get("alignment") or getattr(group, "alignment", None)
        if value:
            table[fid] = value
    table.setdefault(UNIVERSAL, UNIVERSAL)
    return table


def card_infos(cardset: CardSet) -> dict[str, Info]:
    """Every card of the set as an `Info`."""
    sides = alignments(cardset)
    out: dict[str, Info] = {}
    for c in cardset.cards:
        faction = c.faction or UNIVERSAL
        side = sides.get(faction, "neutral")
        own = c.get("alignment") or side
        out[c.id] = Info(
            id=c.id, name=c.name, type=c.type, faction=faction, alignment=own,
            odd=c.type == "character" and own != side and faction != UNIVERSAL,
            cost=int(c.get("cost", 0) or 0), combat=int(c.get("combat", 0) or 0),
            capture=int(c.get("capture", 0) or 0), fleeter=c.get("kind") == "fleeter",
            unique="unique" in c.tags, tags=tuple(c.tags), meters=int(c.get("meters", 0) or 0),
            words=int(c.get("words", 0) or 0), homeworld=int(c.get("homeworld", 0) or 0),
            titles=tuple(c.get("titles") or ()), title=c.get("title"), timing=c.get("timing"),
            effects=tuple(dict(e) for e in card_effects(c)),
            acts=tuple(dict(e) for e in card_effects(c) if e.get("when") == "activated"),
        )
    return out


def faction_factor(account: Info, card: Info, sides: Mapping[str, str]) -> int | None:
    """1 (normal cost), 2 (double) or None (this account may not play the card)."""
    if card.type in ("planet", "account"):
        return 1  # "This does not affect his choice of planets"
    if account.faction == UNIVERSAL or card.faction == UNIVERSAL or card.faction == account.faction:
        return 1
    if card.odd:
        return None  # Gash: only his faction's accounts or Universal ones
    if any(e.get("faction") == card.faction for e in account.effect("affinity")):
        return 1
    # Another faction of the account's alignment: double; any other alignment (neutral included for
    # a light or dark account, "some cards will let him use Neutrals"): never.
    return 2 if sides.get(account.faction, "neutral") == card.alignment else None


def title_factor(account: Info, card: Info) -> int:
    """2 when an OOC title card is played by an account without the title, else 1."""
    if card.title and not set(account.titles) & set(TITLE_EXEMPT.get(card.title, (card.title,))):
        return 2
    return 1


def base_cost(account: Info, card: Info, sides: Mapping[str, str]) -> int | None:
    """What the account pays before planet discounts: printed cost x faction x title factor."""
    f = faction_factor(account, card, sides)
    if f is None:
        return None
    return card.cost * f * (title_factor(account, card) if card.type == "ooc" else 1)
