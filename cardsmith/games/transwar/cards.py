"""TransWar's cards as the rules read them: a table of frozen records built once per card set.

Forms carry their numbers in declared fields (hp, cost, attack, defense, one field per mode,
`combined`) and their abilities as keywords (Fly X, Evade, Skunk Spray, Breath Weapon X, Roar).
Attack cards carry `mode` and `multiple`, Defense cards `bonus`. A Special's effect is data: the
card's `effect:` mapping (`{do: evade, amount: 5}`); its `timing` and `discard` are printed fields
the rules read too. The rules never read card text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from cardsmith.engine.contract import card_effects
from cardsmith.engine.kit.cards import CardTable as KitCardTable
from cardsmith.sets.model import Card, CardSet

MODES = ("swat", "bite", "claw", "trample", "gore", "kick")
ATTACK_MODES = ("base",) + MODES
TIMINGS = ("bookkeeping", "assault", "defend", "attacked", "either")
EFFECTS = ("evade", "leap", "base_multiple", "berserk", "ignore_base_defense", "cancel_attack", "per_ally",
           "halve_damage", "blind", "broken_limb", "luck", "bleeding")
BREATH = "breath"


@dataclass(frozen=True)
class FormStats:
    """A Form's numbers and abilities. `fly` is the fuel in cards (None: cannot fly)."""

    hp: int
    cost: int
    attack: int
    defense: int
    modes: Mapping[str, int]
    combined: tuple[tuple[str, ...], ...] = ()
    fly: int | None = None
    breath: int | None = None
    evade: bool = False
    spray: bool = False
    roar: bool = False

    def attack_options(self) -> tuple[str, ...]:
        """Attack modes as written in actions: single modes, then combined ones ("claw+bite")."""
        singles = tuple(m for m in MODES if m in self.modes)
        combos = tuple("+".join(c) for c in self.combined if all(m in self.modes for m in c))
        return singles + combos


@dataclass(frozen=True)
class CardInfo:
    """One card as the rules see it. `kind` is form, attack, defense or special."""

    id: str
    name: str
    kind: str
    form: FormStats | None = None
    mode: str = ""
    multiple: int = 0
    bonus: int = 0
    timing: str = ""
    discard: int = 0
    does: str = ""
    amount: int = 0


class CardError(ValueError):
    """A card the rules cannot read (a Form without numbers, a Special without an effect)."""


def _form(card: Card) -> FormStats:
    modes = {m: int(card.get(m)) for m in MODES if card.get(m) is not None}
    combined = tuple(tuple(c.split("+")) for c in (card.get("combined") or ()))
    return FormStats(
        hp=int(card["hp"]), cost=int(card["cost"]), attack=int(card["attack"]), defense=int(card["defense"]),
        modes=modes, combined=combined, fly=card.keyword_value("fly") if card.has_keyword("fly") else None,
        breath=card.keyword_value("breath-weapon") if card.has_keyword("breath-weapon") else None,
        evade=card.has_keyword("evade"), spray=card.has_keyword("skunk-spray"), roar=card.has_keyword("roar"))


def special_effect(card: Card) -> dict[str, Any]:
    """A Special as {does, amount, timing, discard}: the handler and its amount from the card's
    `effect:` (`{do: evade, amount: 5}`), the timing and the discard cost from its printed fields."""
    effects = card_effects(card)
    does, amount = (str(effects[0].get("do", "")), int(effects[0].get("amount", 0) or 0)) if effects else ("", 0)
    return {"does": does, "amount": amount, "timing": str(card.get("timing", "") or ""),
            "discard": int(card.get("discard", 0) or 0)}


def card_info(card: Card) -> CardInfo:
    """The rules' record of one card; CardError names what is missing."""
    try:
        if card.type == "form":
            return CardInfo(card.id, card.name, "form", form=_form(card))
        if card.type == "attack":
            return CardInfo(card.id, card.name, "attack", mode=str(card["mode"]), multiple=int(card["multiple"]))
        if card.type == "defense":
            return CardInfo(card.id, card.name, "defense", bonus=int(card["bonus"]))
    except KeyError as e:
        raise CardError(f"card {card.id}: a {card.type} card needs the field {e.args[0]}") from None
    if card.type == "special":
        eff = special_effect(card)
        if eff["does"] not in EFFECTS:
            raise CardError(f"card {card.id}: a Special needs `effect: {{do: ...}}` naming one of {', '.join(EFFECTS)}"
                            f" (it has {eff['does'] or 'none'})")
        if eff["timing"] not in TIMINGS:
            raise CardError(f"card {card.id}: unknown timing {eff['timing']!r} (known: {', '.join(TIMINGS)})")
        return CardInfo(card.id, card.name, "special", **eff)
    raise CardError(f"card {card.id}: TransWar has no card type {card.type!r} (form, attack, defense, special)")


class CardTable(KitCardTable[CardInfo]):
    """Every card of a set by id; `forms` is the ids of the Forms."""

    @classmethod
    def from_set(cls, cardset: CardSet) -> "CardTable":
        return cls({c.id: card_info(c) for c in cardset.cards})

    def form(self, cid: str) -> FormStats:
        info = self.cards[cid]
        if info.form is None:
            raise KeyError(f"{cid} is not a Form")
        return info.form

    def is_form(self, cid: str) -> bool:
        return self.cards[cid].kind == "form"
