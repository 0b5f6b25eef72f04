"""Deck rules as data: read the `deck_rules:` section of set.yaml into checkable objects.

The section is checked against `cardsmith/sets/schemas/deck-rules.schema.json` and then against the set
itself (zones, types, races, factions, keywords, fields and cards it names must exist), so a typo in
set.yaml is reported with its line instead of silently matching no card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from cardsmith.base.diagnostics import Diagnostic, did_you_mean, path_text
from cardsmith.base.errors import CardsmithError
from cardsmith.decks._compiler import ALL_CARDS, Compiler, Filter, Path_
from cardsmith.decks.costs import card_cost, cost_fields, cost_function
from cardsmith.sets.model import Card, CardSet
from cardsmith.sets.model import slugify as slug

if TYPE_CHECKING:  # for type names only: jsonschema words errors (deck rules the quick check proves valid
    # never import it), and `played_by:` is compiled only for sets that have one
    import jsonschema

    from cardsmith.decks._played_by import PlayedBy

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "sets" / "schemas"


@lru_cache(maxsize=None)
def rules_schema() -> dict:
    """The JSON Schema of the `deck_rules:` section."""
    return json.loads((SCHEMA_DIR / "deck-rules.schema.json").read_text(encoding="utf-8"))


class RulesInvalid(CardsmithError):
    """The set's `deck_rules:` section is wrong; `.diagnostics` says where."""

    located = True

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(f"the deck rules of the set have {len(self.diagnostics)} problem(s)")

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


# ----------------------------------------------------------------------------------------------- rules

@dataclass(frozen=True)
class Zone:
    id: str
    name: str
    min: int | None = None
    max: int | None = None
    accepts: Filter = ALL_CARDS
    has_accepts: bool = False

    def size_text(self) -> str:
        if self.min is not None and self.min == self.max:
            return f"exactly {self.min}"
        if self.max is None:
            return f"at least {self.min}"
        if self.min is None or self.min == 0:
            return f"at most {self.max}"
        return f"{self.min} to {self.max}"


@dataclass(frozen=True)
class Count:
    """How many cards matching `cards` the `zones` (() = whole deck) hold, and the bounds on that."""

    cards: Filter
    zones: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None

    def ok(self, n: int) -> bool:
        return (self.min is None or n >= self.min) and (self.max is None or n <= self.max)

    def bound_text(self) -> str:
        if self.min is not None and self.min == self.max:
            return f"exactly {self.min}"
        if self.max is None:
            return f"at least {self.min}"
        if not self.min:
            return f"at most {self.max}"
        return f"{self.min} to {self.max}"


@dataclass(frozen=True)
class Rule:
    """One rule of the set. `kind` is one of: zone-size, zone-accepts, copies, unique, same-<dimension>
    (same-race, same-faction...), limit, requires, predicate, played-by. `id` is what `Violation.rule`
    carries (for played-by, each refusing term is a rule of its own)."""

    kind: str
    id: str
    name: str
    zones: tuple[str, ...] = ()
    count: Count | None = None       # limit
    when: Count | None = None        # limit
    cards: Filter | None = None      # unique, requires
    also_in: str | None = None       # requires
    copies: int | None = None        # copies
    overrides: Mapping[str, int] = field(default_factory=dict)  # copies: card id -> limit
    check: str | None = None         # predicate name; for same-<dimension>, the dimension id
    params: Mapping[str, Any] = field(default_factory=dict)
    path: Path_ = ()                 # where in deck_rules it is written

    def copy_limit(self, card_id: str) -> int:
        return self.overrides.get(card_id, self.copies or 0)


@dataclass(frozen=True)
class DeckRules:
    """A set's deck rules, ready to check decks against."""

    zones: Mapping[str, Zone]
    rules: tuple[Rule, ...]
    cost_fields: tuple[str, ...] = ()  # every field that makes up some card's cost
    cost_by_type: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # when `cost:` is per type
    played_by: PlayedBy | None = None
    warnings: tuple[Diagnostic, ...] = ()  # filters that match no card of the set (likely typos)

    def cost_of(self, card: Card) -> int | None:
        """The card's printed cost (the sum of its cost fields), or None if it has none."""
        return card_cost(card, self.cost_by_type.get(card.type, ()) if self.cost_by_type else self.cost_fields)

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def of_kind(self, kind: str) -> list[Rule]:
        return [r for r in self.rules if r.kind == kind]

    def zone_name(self, zone: str) -> str:
        return self.zones[zone].name if zone in self.zones else zone


def _where_in_set(cardset: CardSet, doc: Any = None) -> Callable[[Path_], tuple[Path | None, int, int]]:
    """Where a node of deck_rules is written: positions from `doc` (set.yaml as validation read it), else
    set.yaml read again (only when reporting)."""
    file = cardset.source.file if cardset.source else (cardset.path / "set.yaml")

    def where(path: Path_) -> tuple[Path | None, int, int]:
        nonlocal doc
        if doc is None:
            try:
                from cardsmith.sets.loader import load_yaml
                doc = load_yaml(file)
            except Exception:  # positions are a courtesy; the message still says what is wrong
                return (file, 0, 0)
        line, col = doc.position(("deck_rules",) + tuple(path))
        return (file, line, col)
    return where


def _rule_id(data: Mapping[str, Any], fallback: str, taken: set[str]) -> str:
    rid = data.get("id") or (slug(data["name"]) if data.get("name") else fallback)
    base, n = rid, 2
    while rid in taken:
        rid, n = f"{base}-{n}", n + 1
    taken.add(rid)
    return rid


def parse_rules(cardset: CardSet, set_doc: Any = None) -> DeckRules:
    """Compile `cardset.deck_rules`; raise `RulesInvalid` (with set.yaml lines) if it is wrong.
    `set_doc`: set.yaml's `loader.Document`, if the caller has read it (its positions place problems)."""
    data = _plain(cardset.deck_rules or {})
    comp = Compiler(cardset, _where_in_set(cardset, set_doc))
    for err in sorted(_schema_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        comp.problem(tuple(err.absolute_path), f"deck rules: {_schema_message(err)}",
                     "see docs/decks.md for the shape of deck_rules")
    if comp.problems:  # the shape is wrong: compiling it would only add confusing problems
        raise RulesInvalid(comp.problems)

    taken: set[str] = set()  # rule ids given so far; ids are made unique in the order rules are written
    zones, rules = _zone_rules(comp, data, taken)
    declared = list(zones)
    rules += _copies_rules(comp, data, declared, taken)
    rules += _unique_rules(comp, data, taken)
    rules += _same_group_rules(comp, data, declared, taken)
    rules += _limit_rules(comp, data, declared, taken)
    rules += _requires_rules(comp, data, declared, taken)
    rules += _predicate_rules(data, taken)
    played_by = None
    if "played_by" in data:
        from cardsmith.decks._played_by import compile_played_by  # only sets whose decks name who plays a card

        played_by = compile_played_by(comp, data["played_by"], declared, lambda d, fb: _rule_id(d, fb, taken),
                                      lambda name, p: cost_function(comp, name, p))
        rules.extend(Rule("played-by", t.id, t.name, played_by.zones, path=("played_by",))
                     for t in (*played_by.access, *played_by.costs) if t.refuse)
    fields, by_type = cost_fields(comp, data.get("cost"))
    if comp.problems:
        raise RulesInvalid(comp.problems)
    return DeckRules(zones, tuple(rules), fields, by_type, played_by, tuple(comp.warnings))


def _zone_rules(comp: Compiler, data: Mapping[str, Any], taken: set[str]) -> tuple[dict[str, Zone], list[Rule]]:
    """The declared zones, and a size rule and an accepts rule for each zone that says so."""
    zones: dict[str, Zone] = {}
    rules: list[Rule] = []
    for zid, z in (data.get("zones") or {}).items():
        size = z.get("size")
        lo, hi = (size, size) if isinstance(size, int) else ((size or {}).get("min"), (size or {}).get("max"))
        if lo is not None and hi is not None and lo > hi:
            comp.problem(("zones", zid, "size"), f"zone {zid}: min {lo} is more than max {hi}")
        accepts = comp.filter(z.get("accepts"), ("zones", zid, "accepts"))
        zone = Zone(zid, z.get("name") or zid.replace("_", " "), lo, hi, accepts, bool(z.get("accepts")))
        zones[zid] = zone
        if size is not None:
            rules.append(Rule("zone-size", _rule_id({}, f"{zid}-size", taken), f"{zone.name} size",
                              (zid,), path=("zones", zid, "size")))
        if z.get("accepts"):
            rules.append(Rule("zone-accepts", _rule_id({}, f"{zid}-cards", taken), f"cards allowed in {zone.name}",
                              (zid,), cards=accepts, path=("zones", zid, "accepts")))
    return zones, rules


def _copies_rules(comp: Compiler, data: Mapping[str, Any], declared: Sequence[str], taken: set[str]) -> list[Rule]:
    """`copies: 3` or `copies: {max: 3, except: {Card: 1}, zones: [...]}`: at most one rule."""
    if "copies" not in data:
        return []
    c = data["copies"]
    c = {"max": c} if isinstance(c, int) else c
    overrides = {}
    for name, n in (c.get("except") or {}).items():
        cid = comp.card_id(name, ("copies", "except", name))
        if cid is not None:
            overrides[cid] = n
    return [Rule("copies", _rule_id(c, "copies", taken), c.get("name") or f"at most {c['max']} copies of a card",
                 comp.zones(c, ("copies",), declared), copies=c["max"], overrides=overrides, path=("copies",))]


def _unique_rules(comp: Compiler, data: Mapping[str, Any], taken: set[str]) -> list[Rule]:
    """`unique: FILTER`: one copy of each card the filter matches."""
    if "unique" not in data:
        return []
    f = comp.filter(data["unique"], ("unique",))
    return [Rule("unique", _rule_id({}, "unique", taken), f"one copy of each unique card ({f.text})",
                 cards=f, path=("unique",))]


def _limit_rules(comp: Compiler, data: Mapping[str, Any], declared: Sequence[str], taken: set[str]) -> list[Rule]:
    """`limits:`: bounds on how many cards match a filter, each perhaps only `when` another count holds."""
    rules = []
    for i, lim in enumerate(data.get("limits") or []):
        p = ("limits", i)
        count = _count(comp, lim, p, declared)
        when = _count(comp, lim["when"], p + ("when",), declared) if "when" in lim else None
        if count.min is not None and count.max is not None and count.min > count.max:
            comp.problem(p, f"min {count.min} is more than max {count.max}")
        name = lim.get("name") or f"{count.bound_text()} cards of {count.cards.text}"
        rules.append(Rule("limit", _rule_id(lim, f"limit-{i + 1}", taken), name, count.zones, count=count, when=when, path=p))
    return rules


def _requires_rules(comp: Compiler, data: Mapping[str, Any], declared: Sequence[str], taken: set[str]) -> list[Rule]:
    """`requires:`: every card of a zone matches a filter and/or is also in another zone."""
    rules = []
    for i, req in enumerate(data.get("requires") or []):
        p = ("requires", i)
        zid = req["zone"]
        comp.zones({"zone": zid}, p, declared)
        if "also_in" in req:
            comp.zones({"zone": req["also_in"]}, p + ("also_in",), declared)
        f = comp.filter(req.get("cards"), p + ("cards",))
        what = " and ".join(filter(None, [f"of {f.text}" if req.get("cards") else "",
                                          f"also in {req['also_in']}" if req.get("also_in") else ""]))
        rules.append(Rule("requires", _rule_id(req, f"requires-{i + 1}", taken), req.get("name") or f"every card of {zid} {what}",
                          (zid,), cards=f, also_in=req.get("also_in"), path=p))
    return rules


def _predicate_rules(data: Mapping[str, Any], taken: set[str]) -> list[Rule]:
    """`predicates:`: named checks a rules package registers (their names are checked when run)."""
    return [Rule("predicate", _rule_id(pred, pred["check"].replace("_", "-"), taken), pred.get("name") or pred["check"],
                 check=pred["check"], params=dict(pred.get("with") or {}), path=("predicates", i))
            for i, pred in enumerate(data.get("predicates") or [])]


def _same_group_rules(comp: Compiler, data: Mapping[str, Any], declared: Sequence[str], taken: set[str]) -> list[Rule]:
    """`same_race: true`, `same_class: {zone: ...}`: one rule per `same_<dimension>` key."""
    rules = []
    for key in [k for k in data if k.startswith("same_")]:
        dim_id = key.removeprefix("same_")
        dim = comp.cardset.dimensions.get(dim_id)
        if dim is None and dim_id not in ("race", "faction"):
            comp.problem((key,), f"{key}: the set has no group dimension '{dim_id}'",
                         did_you_mean(dim_id, comp.cardset.dimensions) or f"dimensions: {', '.join(comp.cardset.dimensions) or 'none'}")
        elif data[key]:
            g = data[key] if isinstance(data[key], dict) else {}
            what = dim.name.lower() if dim else dim_id
            kind = "same-" + dim_id.replace("_", "-")
            rules.append(Rule(kind, _rule_id(g, kind, taken), g.get("name") or f"all cards of one {what} or of no {what}",
                              comp.zones(g, (key,), declared), check=dim_id, path=(key,)))
    return rules


def _count(comp: Compiler, data: Mapping[str, Any], path: Path_, declared: Sequence[str]) -> Count:
    lo, hi = data.get("min"), data.get("max")
    if "exactly" in data:
        lo = hi = data["exactly"]
    return Count(comp.filter(data.get("cards"), path + ("cards",)), comp.zones(data, path, declared), lo, hi)


def _plain(value: Any) -> Any:
    """MappingProxy and tuples (from the frozen model) back into JSON-like dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _schema_errors(data: Any) -> list[jsonschema.ValidationError]:
    """jsonschema's errors for the deck rules `data`."""
    return list(_rules_validator().iter_errors(data))


@lru_cache(maxsize=None)
def _rules_validator() -> jsonschema.Draft202012Validator:
    """The validator of `deck_rules:`, built once per process."""
    import jsonschema

    return jsonschema.Draft202012Validator(rules_schema())


def _schema_message(err: jsonschema.ValidationError) -> str:
    where = path_text(list(err.absolute_path)) or "deck_rules"
    if err.validator == "additionalProperties":
        return f"{where}: {err.message}"
    if err.validator == "oneOf":
        return f"{where}: {err.instance!r} has the wrong shape (see the schema's description)"
    return f"{where}: {err.message}"
