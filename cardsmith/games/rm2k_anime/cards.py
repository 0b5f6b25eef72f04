"""#rm2k_anime cards as the rules read them: one immutable record per card design.

Everything a card does in play comes from its fields and its `effect:` mappings; the English `text`
is never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from cardsmith.engine.contract import card_effects
from cardsmith.base.errors import CardsmithError
from cardsmith.games.rm2k_anime.effects import SKILLS, defaults
from cardsmith.sets.model import Card, Deck

NAME = "rm2k_anime"
USER, ATTACH, EVENT, CHALLENGE, VICTORY = "user", "attach", "event", "challenge", "victory"
KINDS = ("attack", "multi_tech", "duel", "team", "personal")
DECK_ZONE = "deck"


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One card design, precomputed for the rules (shared by every copy and every game).

    `skills` are the five skill levels (Roleplay, Otaku, Argue, Script, Gamer; an immunity "-" is
    0 with `immune` set); `skill` is the card's skill symbol (-1 for none). `fx` lists the card's
    effects as (handler, parameters with defaults filled in)."""

    id: str
    name: str
    type: str
    cost: int
    bandwidth: int
    skills: tuple[int, ...]
    immune: tuple[bool, ...]
    skill: int
    kind: str
    attacker_bonus: int
    defender_bonus: int
    defense_value: int
    vp: int
    react: bool
    fx: tuple[tuple[str, Mapping[str, Any]], ...]

    @classmethod
    def of(cls, card: Card) -> "CardInfo":
        f = card.fields
        dflt = defaults()
        fx = tuple((str(e.get("do")), MappingProxyType({**dflt.get(str(e.get("do")), {}),
                                                        **{k: v for k, v in e.items() if k != "do"}}))
                   for e in card_effects(card))
        levels = [str(f.get(s, "0")) for s in SKILLS]
        symbol = f.get("skill")
        return cls(
            id=card.id, name=card.name, type=card.type, cost=int(f.get("cost") or 0),
            bandwidth=int(f.get("bandwidth") or 0),
            skills=tuple(0 if v == "-" else int(v) for v in levels), immune=tuple(v == "-" for v in levels),
            skill=SKILLS.index(symbol) if symbol in SKILLS else -1, kind=str(f.get("kind") or ""),
            attacker_bonus=int(f.get("attacker_bonus") or 0), defender_bonus=int(f.get("defender_bonus") or 0),
            defense_value=int(f.get("defense_value") or 0), vp=int(f.get("vp") or 0),
            react=card.has_keyword("react"), fx=fx)

    def effect(self, name: str) -> Mapping[str, Any] | None:
        """The parameters of this card's first `name` effect, or None."""
        for n, p in self.fx:
            if n == name:
                return p
        return None

    def timed(self, when: str) -> list[tuple[str, Mapping[str, Any]]]:
        return [(n, p) for n, p in self.fx if p.get("when") == when]

    @property
    def event_timing(self) -> str:
        """An Event's window: "react", "challenge" (only during a Challenge) or "played"."""
        whens = {p.get("when") for _, p in self.fx}
        return "react" if "react" in whens else ("challenge" if "challenge" in whens else "played")


def deck_lists(decks: Sequence[Deck], infos: Mapping[str, CardInfo]) -> list[list[str]]:
    """Each seat's deck as card ids (deck-file order); an unknown card is an error naming the deck."""
    if len(decks) != 2:
        raise CardsmithError(f"#rm2k_anime is played by two decks, not {len(decks)}")
    out = []
    for d in decks:
        ids = list(d.cards())
        for cid in ids:
            if cid not in infos:
                raise CardsmithError(f"deck '{d.name}' names card '{cid}', which the set does not have")
        if not any(infos[c].type == USER for c in ids):
            raise CardsmithError(f"deck '{d.name}' holds no Users, so it cannot choose a Main User",
                                 hint="a deck needs Users (the set's deck rules ask for at least six)")
        out.append(ids)
    return out
