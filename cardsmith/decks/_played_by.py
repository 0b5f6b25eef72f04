"""The `played_by:` section of deck rules as data, and compiling it (see `plays` for the questions it
answers about a card):

    deck_rules:
      played_by:
        zone: account          # the zone holding the one chosen card (an account, a commander...)
        access:                # the first line that matches a card decides: play it (maybe at a
          - ...                #   changed cost) or refuse it; no line matching: play at normal cost
        costs:                 # every line that matches changes the cost (after access)
          - ...

A line (a "term") matches when all its conditions hold: `card:` and `chosen:` filters, `holds:`
filters on the one card of other zones (`holds: {homeworld: {card: Azguard}}`), and `same:` /
`differ:` comparisons of references such as `faction`, `faction.alignment` (an attribute of the
card's faction), `card.alignment` (the card's own alignment, else its groups') or
`homeworld.faction` (of the one card in the zone `homeworld`). It then refuses
the card (`refuse: true`) or changes its cost: `times: 2`, `plus: 100`, or a cost function a rules
module declares (`function: NAME`, `with: {...}`). See docs/decks.md.

`rules.parse_rules` compiles the section through `compile_played_by`; this module imports nothing of
`rules`, so data flows one way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from cardsmith.base.diagnostics import did_you_mean
from cardsmith.sets.model import Card, CardSet

if TYPE_CHECKING:
    from cardsmith.decks._compiler import Compiler, Filter

SIDES = ("card", "chosen")


@dataclass(frozen=True)
class Ref:
    """A value of the card (`side` "card"), of the chosen card ("chosen") or of the one card of another
    zone (its id, "homeworld"): a dimension's group id (`faction`), a
    group attribute (`faction.alignment`), the card type (`type`), or a field / attribute (`alignment`:
    the card's own field, else the attribute of its groups)."""

    side: str
    path: tuple[str, ...]

    @property
    def text(self) -> str:
        return ".".join((self.side, *self.path))

    def value(self, cardset: CardSet, card: Card | None) -> Any:
        if card is None:
            return None
        head = self.path[0]
        if head in cardset.dimensions:
            gid = card.groups.get(head)
            if len(self.path) == 1:
                return gid
            group = cardset.dimensions[head].groups.get(gid) if gid else None
            return group.attributes.get(self.path[1]) if group else None
        if head == "type":
            return card.type
        return cardset.attribute(card, head)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    return a == b


@dataclass(frozen=True)
class Term:
    """One line of `access:` or `costs:`."""

    id: str
    name: str
    card: "Filter | None" = None
    chosen: "Filter | None" = None
    holds: tuple[tuple[str, "Filter"], ...] = ()  # (zone, filter its one card must match)
    same: tuple[tuple[Ref, Ref], ...] = ()
    differ: tuple[tuple[Ref, Ref], ...] = ()
    refuse: bool = False
    times: float = 1
    plus: int = 0
    function: Callable[..., Any] | None = None
    function_name: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def matches(self, cardset: CardSet, card: Card, chosen: Card, others: Mapping[str, Card | None] | None = None) -> bool:
        if self.card is not None and not self.card(card):
            return False
        if self.chosen is not None and not self.chosen(chosen):
            return False
        pick: dict[str, Card | None] = {**(others or {}), "card": card, "chosen": chosen}
        for zone, f in self.holds:
            held = pick.get(zone)
            if held is None or not f(held):
                return False
        for a, b in self.same:
            va, vb = a.value(cardset, pick.get(a.side)), b.value(cardset, pick.get(b.side))
            if va is None or vb is None or not _same(va, vb):
                return False
        for a, b in self.differ:
            va, vb = a.value(cardset, pick.get(a.side)), b.value(cardset, pick.get(b.side))
            if va is None or vb is None or _same(va, vb):
                return False
        return True

    def apply(self, cost: int, cardset: CardSet, card: Card, chosen: Card) -> int:
        """The cost after this term (a refusing term leaves it as it is)."""
        if self.times != 1 or self.plus:
            scaled = cost * self.times
            cost = (int(scaled) if float(scaled).is_integer() else int(scaled + 0.5)) + self.plus  # halves round up
        if self.function is not None:
            cost = int(self.function(cost, card=card, chosen=chosen, cardset=cardset, **dict(self.params)))
        return max(cost, 0)

    def effect_text(self) -> str:
        if self.refuse:
            return "refused"
        parts = ([f"x{self.times:g}"] if self.times != 1 else []) + ([f"{self.plus:+d}"] if self.plus else []) \
            + ([self.function_name] if self.function_name else [])
        return " ".join(parts) or "normal cost"


@dataclass(frozen=True)
class PlayedBy:
    """The compiled `played_by:` section."""

    zone: str
    zones: tuple[str, ...]  # the zones whose cards the chosen card must be able to play
    access: tuple[Term, ...] = ()
    costs: tuple[Term, ...] = ()
    others: tuple[str, ...] = ()  # other zones whose one card the terms look at (`holds:`, `homeworld.x`)

    def checks(self, zone: str) -> bool:
        return zone != self.zone and (not self.zones or zone in self.zones)


# ------------------------------------------------------------------------------------------ compiling

def _refs(comp: "Compiler", value: Any, path: tuple, names: set[str], zones: Sequence[str]) -> tuple[Ref, Ref] | None:
    """`faction` -> (card.faction, chosen.faction); `[card.alignment, card.faction.alignment]` as written
    (an item without `card.`/`chosen.`/`<zone>.` is the card's when first, the chosen card's when second)."""
    if isinstance(value, str):
        parts = value.split(".")
        if (parts[0] in zones or parts[0] in SIDES) and parts[0] not in comp.cardset.dimensions:
            comp.problem(path, f"'{value}' names a card; one value here means the same value on both cards",
                         f"compare two cards with a pair, e.g. [card.{'.'.join(parts[1:]) or 'faction'}, {value}]")
            return None
        return (Ref("card", tuple(parts)), Ref("chosen", tuple(parts))) if _check_ref(comp, parts, path, names) else None
    refs = []
    for i, text in enumerate(value):
        parts = str(text).split(".")
        side = parts.pop(0) if len(parts) > 1 and (parts[0] in SIDES or parts[0] in zones) else SIDES[i]
        if not _check_ref(comp, parts, path + (i,), names):
            return None
        refs.append(Ref(side, tuple(parts)))
    return refs[0], refs[1]


def _check_ref(comp: "Compiler", parts: list[str], path: tuple, names: set[str]) -> bool:
    dims = comp.cardset.dimensions
    if len(parts) == 2:
        dim = dims.get(parts[0])
        if dim is None:
            comp.problem(path, f"unknown group dimension '{parts[0]}'",
                         did_you_mean(parts[0], dims) or (f"dimensions: {', '.join(dims)}" if dims else "the set declares no groups"))
            return False
        if parts[1] not in dim.attributes:
            comp.problem(path, f"dimension '{parts[0]}' has no attribute '{parts[1]}'",
                         did_you_mean(parts[1], dim.attributes) or (f"attributes: {', '.join(dim.attributes)}" if dim.attributes
                                                                    else f"declare it under groups.{parts[0]}.attributes"))
            return False
        return True
    if len(parts) != 1 or parts[0] not in names:
        comp.problem(path, f"unknown reference '{'.'.join(parts)}'",
                     did_you_mean(parts[-1], names) or "name a dimension (faction), dimension.attribute, type, or a field")
        return False
    return True


def _term(comp: "Compiler", data: Mapping[str, Any], path: tuple, rule_id: Callable[[Mapping[str, Any], str], str],
          functions: Callable[[str, tuple], Callable[..., Any] | None], declared: Sequence[str]) -> Term:
    dims = comp.cardset.dimensions
    names = set(dims) | {"type"} | comp.fields | {a for d in dims.values() for a in d.attributes}
    pairs: dict[str, list[tuple[Ref, Ref]]] = {"same": [], "differ": []}
    for key in pairs:
        if key in data:
            refs = _refs(comp, data[key], path + (key,), names, declared)
            if refs:
                pairs[key].append(refs)
    fn = functions(data["function"], path + ("function",)) if "function" in data else None
    holds = []
    for zone, f in (data.get("holds") or {}).items():
        if zone not in declared:
            comp.problem(path + ("holds", zone), f"unknown zone '{zone}'", did_you_mean(zone, declared) or f"zones: {', '.join(declared)}")
            continue
        holds.append((zone, comp.filter(f, path + ("holds", zone))))
    name = data.get("name") or " ".join(filter(None, [
        f"{key} {'/'.join(r.text for r in refs)}" for key in pairs for refs in pairs[key]])) or "any card"
    return Term(rule_id(data, "played-by"), name,
                comp.filter(data["card"], path + ("card",)) if "card" in data else None,
                comp.filter(data["chosen"], path + ("chosen",)) if "chosen" in data else None, tuple(holds),
                tuple(pairs["same"]), tuple(pairs["differ"]), bool(data.get("refuse")), data.get("times", 1),
                int(data.get("plus", 0)), fn, str(data.get("function", "")), dict(data.get("with") or {}))


def compile_played_by(comp: "Compiler", data: Mapping[str, Any], declared: Sequence[str],
                      rule_id: Callable[[Mapping[str, Any], str], str],
                      functions: Callable[[str, tuple], Callable[..., Any] | None]) -> PlayedBy:
    """The `played_by:` section, its problems reported through `comp` (at their set.yaml lines)."""
    path = ("played_by",)
    zone = data["zone"]
    comp.zones({"zone": zone}, path, declared)
    zones = comp.zones({"zones": data["zones"]}, path, declared) if "zones" in data else ()
    if zone in zones:
        comp.problem(path + ("zones",), f"zone '{zone}' holds the chosen card; it cannot also be a zone it plays from")
    access = tuple(_term(comp, t, path + ("access", i), rule_id, functions, declared) for i, t in enumerate(data.get("access") or []))
    costs = tuple(_term(comp, t, path + ("costs", i), rule_id, functions, declared) for i, t in enumerate(data.get("costs") or []))
    others = {z for t in (*access, *costs) for z, _ in t.holds} | \
        {r.side for t in (*access, *costs) for pair in (*t.same, *t.differ) for r in pair} - set(SIDES)
    return PlayedBy(zone, zones, access, costs, tuple(sorted(others)))
