"""The validated card database: plain frozen data, no I/O.

`cardsmith.sets.validate.load_set` builds a `CardSet` from a set folder; every other stage (rendering,
printing, decks, games) reads only these objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator, Mapping, TypeVar

FIELD_KINDS = ("int", "text", "enum", "list", "bool")

# Keys a card may always carry, whatever its type declares.
RESERVED_CARD_KEYS = (
    "id", "name", "type", "faction", "race", "art", "text", "flavor",
    "copies", "tags", "keywords", "back", "effect",
)


def slugify(text: str) -> str:
    """'TCS-13 Rapier' -> 'tcs-13-rapier'; '"Streaker" Drone' -> 'streaker-drone' (how ids are made from names)."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


_K = TypeVar("_K")
_V = TypeVar("_V")


def frozen_map(data: Mapping[_K, _V] | None = None) -> Mapping[_K, _V]:
    """A read-only view of a copy of `data` (so a frozen dataclass really is frozen)."""
    return MappingProxyType(dict(data or {}))


@dataclass(frozen=True)
class SourceRef:
    """Where something was written: file, 1-based line and column."""

    file: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class FieldSpec:
    """One field a card type declares in set.yaml."""

    name: str
    kind: str  # one of FIELD_KINDS
    required: bool = False
    values: tuple[str, ...] = ()  # allowed values for enum (and list items, if given)
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None
    label: str = ""
    description: str = ""


@dataclass(frozen=True)
class CardType:
    """A kind of card (ship, event, planet...) and the fields it declares."""

    id: str
    name: str
    fields: Mapping[str, FieldSpec] = field(default_factory=frozen_map)
    description: str = ""
    back: str | None = None  # id of the back this type prints with, if any


@dataclass(frozen=True)
class Group:
    """One group of a dimension (the faction Coalition, the race Terracorp): a named colour, an optional
    icon, and the values of the attributes its dimension declares (`{"alignment": "light"}`)."""

    id: str
    name: str
    color: str = "#777777"
    icon: str | None = None
    description: str = ""
    attributes: Mapping[str, Any] = field(default_factory=frozen_map)
    dimension: str = ""  # the id of the dimension it belongs to ("faction")


@dataclass(frozen=True)
class Dimension:
    """A way a set groups its cards (factions, races, classes...): each card belongs to at most one
    group of each dimension, written on the card as `<dimension id>: <group id>`."""

    id: str
    name: str
    groups: Mapping[str, Group] = field(default_factory=frozen_map)
    attributes: Mapping[str, "FieldSpec"] = field(default_factory=frozen_map)
    description: str = ""

    def group(self, key: str) -> Group | None:
        """The group with this id or name (any case), or None."""
        if key in self.groups:
            return self.groups[key]
        low = str(key).lower()
        return next((g for g in self.groups.values() if g.id.lower() == low or g.name.lower() == low), None)


def legacy_dimension(dim_id: str, groups: Mapping[str, Group]) -> Dimension:
    """The dimension a set's old-style `races:` / `factions:` declaration stands for."""
    named = {gid: (g if g.dimension == dim_id else Group(g.id, g.name, g.color, g.icon, g.description, g.attributes, dim_id))
             for gid, g in groups.items()}
    return Dimension(dim_id, dim_id.capitalize(), frozen_map(named))


@dataclass(frozen=True)
class Keyword:
    """A keyword such as `Shield X` or `Accurate`, with the reminder text printed on cards."""

    id: str
    name: str
    reminder: str = ""
    param: str | None = None  # "int" when the keyword takes a number (Shield 3)

    def reminder_for(self, value: int | None) -> str:
        """The reminder with its value for X wherever X stands as a word or number: "+X", "(X)",
        "X+1", "X glow" (not the X inside a word such as "Xenon"); as written when there is no value."""
        return self.reminder if value is None else re.sub(r"(?<![A-Za-z0-9_])X(?![A-Za-z0-9_])", str(value), self.reminder)


@dataclass(frozen=True)
class KeywordUse:
    """A keyword on a card, with its number when it takes one."""

    id: str
    value: int | None = None

    def __str__(self) -> str:
        return self.id if self.value is None else f"{self.id} {self.value}"


@dataclass(frozen=True)
class Card:
    """One card design. `copies` is how many a printed set holds."""

    id: str
    name: str
    type: str
    fields: Mapping[str, Any] = field(default_factory=frozen_map)
    faction: str | None = None
    race: str | None = None
    text: str = ""
    flavor: str = ""
    art: Path | None = None
    copies: int = 1
    tags: tuple[str, ...] = ()
    keywords: tuple[KeywordUse, ...] = ()
    back: str | None = None
    source: SourceRef | None = None
    # Dimension id -> group id, for every dimension the card belongs to. `race` and `faction` are the
    # same data for the two classic dimensions: either may be given, the other is filled in.
    groups: Mapping[str, str] = field(default_factory=frozen_map)

    # What the card does in play, for the set's rules module: each `effect:` mapping of the YAML
    # (`{do: damage, amount: 4, when: ...}`), read-only. The English `text` is for people only.
    effects: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        merged = {k: v for k, v in self.groups.items() if v}
        merged.update({k: v for k, v in (("race", self.race), ("faction", self.faction)) if v})
        object.__setattr__(self, "groups", frozen_map(merged))
        object.__setattr__(self, "race", merged.get("race"))
        object.__setattr__(self, "faction", merged.get("faction"))

    def group_id(self, dimension: str) -> str | None:
        """The id of the card's group in `dimension` ("faction" -> "coalition"), or None."""
        return self.groups.get(dimension)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def get(self, name: str, default: Any = None) -> Any:
        """A type-declared field's value, or `default`."""
        return self.fields.get(name, default)

    def has_keyword(self, keyword_id: str) -> bool:
        return any(k.id == keyword_id for k in self.keywords)

    def keyword_value(self, keyword_id: str) -> int | None:
        """The number of a parametrised keyword (Shield 3 -> 3), or None."""
        for k in self.keywords:
            if k.id == keyword_id:
                return k.value
        return None


@dataclass(frozen=True)
class CardSet:
    """A whole set: its declarations (types, races, keywords...) and its cards, in file order."""

    id: str
    name: str
    path: Path
    version: str = "0.1.0"
    description: str = ""
    card_size: tuple[float, float] = (63.5, 88.9)  # trim width, height in mm
    bleed: float = 3.175  # mm
    safe: float = 3.175  # mm inside the trim
    rules: str | None = None  # name of the rules module under cardsmith.games
    types: Mapping[str, CardType] = field(default_factory=frozen_map)
    factions: Mapping[str, Group] = field(default_factory=frozen_map)
    races: Mapping[str, Group] = field(default_factory=frozen_map)
    # The grouping dimensions in declaration order. `races` and `factions` are the groups of the
    # dimensions "race" and "faction" (either may be given, the other is filled in).
    dimensions: Mapping[str, Dimension] = field(default_factory=frozen_map)
    keywords: Mapping[str, Keyword] = field(default_factory=frozen_map)
    icons: Mapping[str, Path] = field(default_factory=frozen_map)
    layouts: Mapping[str, str] = field(default_factory=frozen_map)
    # The set's own layout folders (set.yaml `layout_folders:`, searched in order); () means `layouts/`.
    layout_folders: tuple[Path, ...] = ()
    backs: Mapping[str, Any] = field(default_factory=frozen_map)
    deck_rules: Mapping[str, Any] = field(default_factory=frozen_map)
    cards: tuple[Card, ...] = ()
    # Everything else set.yaml holds (source, invented numbers, fixes, print and play settings).
    meta: Mapping[str, Any] = field(default_factory=frozen_map)
    source: SourceRef | None = None
    components: Any = None  # boards, tokens and player colours: a cardsmith.components.base.Components

    def __post_init__(self) -> None:
        dims = dict(self.dimensions)
        for dim_id, groups in (("race", self.races), ("faction", self.factions)):
            if groups and dim_id not in dims:
                dims[dim_id] = legacy_dimension(dim_id, groups)
        object.__setattr__(self, "dimensions", frozen_map(dims))
        for dim_id, name in (("race", "races"), ("faction", "factions")):
            object.__setattr__(self, name, dims[dim_id].groups if dim_id in dims else frozen_map())

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, card_id: str) -> Card:
        """The card with this id; KeyError if there is none."""
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def of_type(self, type_id: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.type == type_id)

    def group_of(self, card: Card) -> Group | None:
        """The card's main group: its group in the first declared dimension it belongs to (what
        colours the card and names it in lists), if it has one."""
        return next((g for _, g in self.groups_of(card)), None)

    def groups_of(self, card: Card) -> list[tuple[Dimension, Group]]:
        """The card's groups, one per dimension it belongs to, in the set's dimension order."""
        out = []
        for dim in self.dimensions.values():
            gid = card.groups.get(dim.id)
            if gid is not None and gid in dim.groups:
                out.append((dim, dim.groups[gid]))
        return out

    def attribute(self, card: Card, name: str) -> Any:
        """A card's value for `name`: its own field of that name if it has one, else the attribute of
        the first of its groups that declares it ("alignment" of a Jedi character that sets no
        alignment of its own is the Jedi's). None if neither says."""
        if card.fields.get(name) is not None:
            return card.fields[name]
        for dim, group in self.groups_of(card):
            if name in dim.attributes and group.attributes.get(name) is not None:
                return group.attributes[name]
        return None


@dataclass(frozen=True)
class Deck:
    """A deck: for each zone (fleet, solar_bodies, ...) the card ids and how many of each, in order."""

    name: str
    set_id: str
    zones: Mapping[str, Mapping[str, int]] = field(default_factory=frozen_map)
    source: SourceRef | None = None

    def cards(self, zone: str | None = None) -> list[str]:
        """Card ids, one per copy, zone by zone in file order (or one zone)."""
        zones = [zone] if zone is not None else list(self.zones)
        return [cid for z in zones for cid, n in self.zones.get(z, {}).items() for _ in range(n)]

    def in_order(self, zone: str) -> list[str]:
        """A zone's card ids, one per copy, in the order the deck was written (a deck file keeps its
        lines' order, copies interleaved: see `LoadedDeck.order`); `cards(zone)` for a deck made in code."""
        return self.cards(zone)

    def count(self, zone: str | None = None) -> int:
        zones = [zone] if zone is not None else list(self.zones)
        return sum(sum(self.zones.get(z, {}).values()) for z in zones)
