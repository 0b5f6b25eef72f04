"""Solar Empires cards as the rules read them: one immutable record per design, and a game's table of
card instances (which design each instance is, who owns it, each seat's fleet and solar bodies).

Everything a card does in play comes from its fields, keywords and `effect:` mappings; the English
`text` is never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from cardsmith.engine.contract import PositionError, card_effects
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Card, Deck

FIGHTER, CRUISER, BATTLESHIP = 0, 1, 2
CLASS_NAMES = ("fighter", "cruiser", "battleship")
SHIP, EVENT, BUILDING, STAR, BODY = range(5)
TYPE_CODES = {"ship": SHIP, "event": EVENT, "building": BUILDING, "star": STAR, "solar_body": BODY}
RESOURCES = ("energy", "minerals", "organics")
RESOURCE_ALIASES = {"energy": 0, "minerals": 1, "mineral": 1, "metal": 1, "organics": 2, "organic": 2}
SEATS = (0, 1)
HAND_SIZE = 6
POSITIONS = 6
NAME = "solar_empires"


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One card design, precomputed for the rules (shared by every copy and every game; immutable).

    `fx` maps each effect handler the card names (`do:`) to its parameters (defaults filled in)."""

    id: str
    name: str
    type: int
    cls: int
    attack: int
    armour: int
    cost: tuple[int, int, int]
    shield: int
    accurate: bool
    bomber: bool
    interceptor: bool
    spell: bool
    legendary: bool
    save: int
    plus: tuple[int, int, int]
    race: str | None
    fx: Mapping[str, Mapping[str, Any]]
    star_pos: int
    star_res: int
    star_amt: int
    value: int  # material worth of a ship for the heuristic
    # the construction actions that play it: ("play", id), and ("play", id, position) for 1-6
    # (made once: legal sets are listed after every action)
    play: tuple = ()
    play_at: tuple = ()

    @classmethod
    def of(cls, card: Card, defaults: Mapping[str, Mapping[str, Any]]) -> "CardInfo":
        """The record for `card`; `defaults` gives each handler's parameter defaults."""
        f = card.fields
        fx: dict[str, Mapping[str, Any]] = {}
        for effect in card_effects(card):
            name = str(effect.get("do"))
            params = dict(defaults.get(name, {}))
            params.update({k: v for k, v in effect.items() if k != "do"})
            fx.setdefault(name, MappingProxyType(params))
        attack = int(f.get("attack") or 0)
        armour = int(f.get("armour") or 1)
        return cls(
            id=card.id, name=card.name, type=TYPE_CODES.get(card.type, -1),
            cls=CLASS_NAMES.index(f["class"]) if f.get("class") in CLASS_NAMES else FIGHTER,
            attack=attack, armour=armour,
            cost=(int(f.get("energy") or 0), int(f.get("minerals") or 0), int(f.get("organics") or 0)),
            shield=int(card.keyword_value("shield") or 0) if card.has_keyword("shield") else 0,
            accurate=card.has_keyword("accurate"), bomber=card.has_keyword("bomber"),
            interceptor=card.has_keyword("interceptor"), spell=card.has_keyword("spell"),
            legendary=card.has_keyword("legendary"), save=int(f.get("save") or 1),
            plus=(int(f.get("plus_energy") or 0), int(f.get("plus_minerals") or 0), int(f.get("plus_organics") or 0)),
            race=card.race, fx=MappingProxyType(fx),
            star_pos=int(f.get("position") or 0) - 1,
            star_res=RESOURCE_ALIASES.get(str(f.get("resource", "")).lower(), -1),
            star_amt=int(f.get("amount") or 0), value=attack + armour,
            play=("play", card.id), play_at=tuple(("play", card.id, pos) for pos in range(1, POSITIONS + 1)))


@dataclass(frozen=True, slots=True)
class Table:
    """A game's fixed facts, shared by its states, clones and observations (never changed).

    Instance `i` is the card `info[i]`, owned by seat `owner[i]`. `fleet[p]` is seat p's fleet in
    deck-file order, `solar[p]` its solar bodies deck; `chain[p]` says the fleet holds a Chain card."""

    info: tuple[CardInfo, ...]
    owner: tuple[int, ...]
    fleet: tuple[tuple[int, ...], tuple[int, ...]]
    solar: tuple[tuple[int, ...], tuple[int, ...]]
    chain: tuple[bool, bool]
    turn_cap: int
    # ("deploy", card, position, instance) for each ship instance and position 1-6, made once
    deploy: tuple[tuple[tuple, ...], ...] = ()
    value: tuple[int, ...] = ()  # each instance's material worth (attack + armour) for the heuristic
    # each instance's design as a number shifted left 32 bits (copies of a card share it): `dedup`
    # keys on it plus the damage, an int where a tuple would cost an allocation per ship
    design: tuple[int, ...] = ()
    # `devour[p]`: seat p's fleet holds a ship that may devour a planet (World Eater); most fleets
    # hold none, and then a combat won needs no look for one
    devour: tuple[bool, bool] = (False, False)
    # each seat's fleet by mana curve (cheapest total cost first, ties in deck-file order), for the
    # "curve" deck order, and the solar bodies' instances by card id (both decks, in order): made
    # once, as every game between these decks starts from them
    curve: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    solar_by_id: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: MappingProxyType({}))

    def ids(self, insts: Sequence[int]) -> list[str]:
        info = self.info
        return [info[i].id for i in insts]


def build_table(infos: Mapping[str, CardInfo], fleets: Sequence[Sequence[str]], solars: Sequence[Sequence[str]],
                turn_cap: int, where: Sequence[str], *, position: bool = False) -> Table:
    """Number every card of both seats: seat 0's fleet then solar bodies, then seat 1's.

    `where[p]` names seat p's source in errors (a deck file, or a position's entry)."""
    info: list[CardInfo] = []
    owner: list[int] = []
    fleet: list[list[int]] = [[], []]
    solar: list[list[int]] = [[], []]
    for p in SEATS:
        for zone, ids, out in (("fleet", fleets[p], fleet[p]), ("solar_bodies", solars[p], solar[p])):
            for cid in ids:
                ci = infos.get(cid)
                if ci is None:
                    text = f"{where[p]} names card '{cid}', which the set does not have"
                    if position:
                        raise PositionError(text)
                    raise CardsmithError(text, hint=f"check the {zone} zone of {where[p]}")
                out.append(len(info))
                info.append(ci)
                owner.append(p)
    chain = tuple(any(info[i].race == "chain" for i in fleet[p]) for p in SEATS)
    deploy = tuple(tuple(("deploy", ci.id, pos, i) for pos in range(1, POSITIONS + 1)) if ci.type == SHIP else ()
                   for i, ci in enumerate(info))
    designs: dict[str, int] = {}
    design = tuple(designs.setdefault(ci.id, len(designs)) << 32 for ci in info)
    devour = tuple(any("devour_planet" in info[i].fx for i in fleet[p]) for p in SEATS)
    curve = tuple(tuple(sorted(fleet[p], key=lambda i: sum(info[i].cost))) for p in SEATS)
    by_id: dict[str, list[int]] = {}
    for i in solar[0] + solar[1]:
        by_id.setdefault(info[i].id, []).append(i)
    return Table(tuple(info), tuple(owner), (tuple(fleet[0]), tuple(fleet[1])),
                 (tuple(solar[0]), tuple(solar[1])), (chain[0], chain[1]), turn_cap, deploy,
                 tuple(ci.value for ci in info), design, (devour[0], devour[1]), (curve[0], curve[1]),
                 MappingProxyType({cid: tuple(v) for cid, v in by_id.items()}))


def deck_lists(decks: Sequence[Deck]) -> tuple[list[list[str]], list[list[str]]]:
    """Each deck's fleet and solar bodies as card id lists in deck-file order."""
    if len(decks) != 2:
        raise CardsmithError(f"Solar Empires is played by two decks, not {len(decks)}")
    return [d.in_order("fleet") for d in decks], [list(d.cards("solar_bodies")) for d in decks]
