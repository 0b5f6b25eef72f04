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

from cardsmith.decks.costs import as_list as _as_list
from cardsmith.decks.costs import card_cost, cost_fields, cost_function
from cardsmith.base.diagnostics import Diagnostic, did_you_mean, path_text
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Card, CardSet
from cardsmith.sets.model import slugify as slug

if TYPE_CHECKING:
    from cardsmith.decks.plays import PlayedBy
    import jsonschema

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "sets" / "schemas"
NONE = "none"  # `race: none` matches cards without a race
# Filter keys other than group dimensions (`faction: jedi`, `race: chain`, `class: ...`).
FILTER_KEYS = ("type", "tag", "keyword", "card", "fields", "attributes", "not", "any")

Path_ = tuple[str | int, ...]


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




# --------------------------------------------------------------------------------------------- filters

@dataclass(frozen=True)
class Filter:
    """A compiled card filter; `text` is a short description for messages ("keyword legendary")."""

    test: Callable[[Card], bool]
    text: str

    def __call__(self, card: Card) -> bool:
        return self.test(card)


ALL_CARDS = Filter(lambda c: True, "any card")




class _Compiler:
    """Turns rule data into objects, collecting every problem with its place in set.yaml."""

    def __init__(self, cardset: CardSet, where: Callable[[Path_], tuple[Path | None, int, int]]):
        self.cardset = cardset
        self.where = where
        self.problems: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.cards_by_key: dict[str, str] = {}
        for c in cardset.cards:
            self.cards_by_key.setdefault(c.id.lower(), c.id)
            self.cards_by_key.setdefault(c.name.lower(), c.id)
            self.cards_by_key.setdefault(slug(c.name), c.id)
        self.fields = {f for t in cardset.types.values() for f in t.fields}

    def problem(self, path: Path_, message: str, hint: str | None = None) -> None:
        file, line, col = self.where(path)
        self.problems.append(Diagnostic("error", file, line, col, message, hint, path_text(("deck_rules",) + path)))

    def warn_unmatched(self, path: Path_, what: str, wanted: Any, present: set[str]) -> None:
        """A filter value no card of the set has: the rule would silently never match (a typo?)."""
        for v in _as_list(wanted):
            if str(v).lower() not in {p.lower() for p in present} and str(v).lower() != NONE:
                file, line, col = self.where(path)
                hint = did_you_mean(str(v), sorted(present)) or (
                    f"the cards have: {', '.join(sorted(present)[:12])}" if present else f"no card has any {what}")
                self.warnings.append(Diagnostic("warning", file, line, col,
                                                f"deck rule names {what} '{v}', which no card of set {self.cardset.id} has",
                                                hint, path_text(("deck_rules",) + path)))

    def card_id(self, name: Any, path: Path_) -> str | None:
        key = str(name).lower()
        cid = self.cards_by_key.get(key) or self.cards_by_key.get(slug(key))
        if cid is None:
            self.problem(path, f"no card named '{name}' in set {self.cardset.id}",
                         did_you_mean(str(name), [c.name for c in self.cardset.cards]) or "use a card's name or id")
        return cid

    def _known(self, what: str, values: list, known: Mapping[str, Any], path: Path_, allow_none: bool) -> list[str]:
        ids = []
        for v in values:
            v = str(v)
            if allow_none and v.lower() == NONE:
                ids.append(NONE)
                continue
            match = next((k for k in known if k.lower() == v.lower()), None)
            if match is None:
                match = next((k for k, g in known.items() if getattr(g, "name", "").lower() == v.lower()), None)
            if match is None:
                hint = did_you_mean(v, list(known)) or (f"known: {', '.join(known)}" if known else f"the set declares no {what}s")
                self.problem(path, f"unknown {what} '{v}'", hint)
            else:
                ids.append(match)
        return ids

    def filter(self, data: Mapping[str, Any] | None, path: Path_) -> Filter:
        if not data:
            return ALL_CARDS
        tests: list[Callable[..., bool]] = []  # each called with a card; the rest are bound defaults
        words: list[str] = []
        cs = self.cardset
        if "type" in data:
            types = set(self._known("type", _as_list(data["type"]), cs.types, path + ("type",), False))
            self.warn_unmatched(path + ("type",), "type", sorted(types), {c.type for c in cs.cards})
            tests.append(lambda c, s=types: c.type in s)
            words.append("type " + "/".join(sorted(types)))
        for key in data:
            if key not in FILTER_KEYS:
                self._group_filter(key, data[key], path + (key,), tests, words)
        if "keyword" in data:
            kws = set(self._known("keyword", _as_list(data["keyword"]), cs.keywords, path + ("keyword",), False))
            self.warn_unmatched(path + ("keyword",), "keyword", sorted(kws), {k.id for c in cs.cards for k in c.keywords})
            tests.append(lambda c, s=kws: any(k.id in s for k in c.keywords))
            words.append("keyword " + "/".join(sorted(kws)))
        if "tag" in data:
            tags = {str(t).lower() for t in _as_list(data["tag"])}
            self.warn_unmatched(path + ("tag",), "tag", data["tag"], {t for c in cs.cards for t in c.tags})
            tests.append(lambda c, s=tags: any(t.lower() in s for t in c.tags))
            words.append("tag " + "/".join(sorted(tags)))
        if "card" in data:
            ids = {cid for i, n in enumerate(_as_list(data["card"]))
                   if (cid := self.card_id(n, path + ("card",) + ((i,) if isinstance(data["card"], list) else ()))) is not None}
            tests.append(lambda c, s=ids: c.id in s)
            words.append("card " + "/".join(sorted(ids)))
        for fname, test in (data.get("fields") or {}).items():
            if fname not in self.fields:
                self.problem(path + ("fields", fname), f"no card type declares a field '{fname}'",
                             did_you_mean(fname, self.fields) or f"fields: {', '.join(sorted(self.fields))}")
                continue
            values = [c.fields[fname] for c in cs.cards if c.fields.get(fname) is not None]
            if not values:
                self.warn_unmatched(path + ("fields", fname), "field", fname, set())
            elif not isinstance(test, dict) and all(isinstance(v, str | list | tuple) for v in values):
                present = {str(x) for v in values for x in (v if isinstance(v, list | tuple) else [v])}
                self.warn_unmatched(path + ("fields", fname), f"{fname} value", test, present)
            tests.append(lambda c, n=fname, t=_value_test(test): t(c.fields.get(n)))
            words.append(f"{fname} {_field_text(test)}")
        attrs = self.fields | {a for d in cs.dimensions.values() for a in d.attributes}
        for aname, test in (data.get("attributes") or {}).items():
            if aname not in attrs:
                self.problem(path + ("attributes", aname), f"no field or group attribute is called '{aname}'",
                             did_you_mean(aname, attrs) or f"fields and attributes: {', '.join(sorted(attrs))}")
                continue
            tests.append(lambda c, n=aname, t=_value_test(test): t(cs.attribute(c, n)))
            words.append(f"{aname} {_field_text(test)}")
        if "not" in data:
            inner = self.filter(data["not"], path + ("not",))
            tests.append(lambda c, f=inner: not f(c))
            words.append(f"not ({inner.text})")
        if "any" in data:
            alts = [self.filter(d, path + ("any", i)) for i, d in enumerate(data["any"])]
            tests.append(lambda c, fs=alts: any(f(c) for f in fs))
            words.append("(" + " or ".join(f.text for f in alts) + ")")
        checks = tuple(tests)
        return Filter(lambda c: all(t(c) for t in checks), ", ".join(words) or "any card")

    def _group_filter(self, key: str, value: Any, path: Path_, tests: list, words: list) -> None:
        """`faction: [jedi, sith]` (groups, `none` for cards of no faction) or `faction: {alignment: light}`
        (an attribute of the card's faction)."""
        dims = self.cardset.dimensions
        dim = dims.get(key)
        if dim is None and key not in ("race", "faction"):
            self.problem(path, f"unknown filter key '{key}'",
                         did_you_mean(key, [*FILTER_KEYS, *dims]) or f"filters take {', '.join(FILTER_KEYS)} or a group dimension "
                         f"({', '.join(dims) or 'the set declares none'})")
            return
        if isinstance(value, dict):
            attrs = dim.attributes if dim else {}
            for aname, test in value.items():
                if aname not in attrs:
                    self.problem(path + (aname,), f"dimension '{key}' has no attribute '{aname}'",
                                 did_you_mean(aname, attrs) or (f"attributes: {', '.join(attrs)}" if attrs else f"declare it under groups.{key}.attributes"))
                    continue
                groups = dim.groups if dim else {}
                tests.append(lambda c, k=key, a=aname, t=_value_test(test), g=groups:
                             t(g[c.groups[k]].attributes.get(a) if c.groups.get(k) in g else None))
                words.append(f"{key} {aname} {_field_text(test)}")
            return
        ids = set(self._known(key, _as_list(value), dim.groups if dim else {}, path, True))
        tests.append(lambda c, s=ids, k=key: (c.groups.get(k) or NONE) in s)
        words.append(f"{key} " + "/".join(sorted(ids)))

    def zones(self, data: Mapping[str, Any], path: Path_, declared: Sequence[str]) -> tuple[str, ...]:
        """The zones a rule names (`zone:` or `zones:`), or () for the whole deck."""
        names = [data["zone"]] if "zone" in data else list(data.get("zones") or [])
        for i, z in enumerate(names):
            if declared and z not in declared:
                p = path + (("zone",) if "zone" in data else ("zones", i))
                self.problem(p, f"unknown zone '{z}'", did_you_mean(z, declared) or f"zones: {', '.join(declared)}")
        return tuple(names)


def _value_test(test: Any) -> Callable[[Any], bool]:
    """A test of one value (a field's, an attribute's): a value, a list of values, or {min, max, not, present}."""
    if isinstance(test, dict):
        lo, hi = test.get("min"), test.get("max")
        present = test.get("present")
        has_not = "not" in test
        bad = test.get("not")

        def check(v: Any) -> bool:
            if present is not None and (v is not None) != present:
                return False
            if lo is not None or hi is not None:
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    return False
                if (lo is not None and v < lo) or (hi is not None and v > hi):
                    return False
            if has_not and _same(v, bad):
                return False
            return True
        return check
    options = _as_list(test)
    return lambda v: any(_same(v, o) for o in options)


def _same(value: Any, wanted: Any) -> bool:
    if isinstance(value, list | tuple):
        return any(_same(v, wanted) for v in value)
    if isinstance(value, str) and isinstance(wanted, str):
        return value.lower() == wanted.lower()
    return value == wanted and isinstance(value, bool) == isinstance(wanted, bool)


def _field_text(test: Any) -> str:
    if isinstance(test, dict):
        parts = [f">= {test['min']}" if "min" in test else "", f"<= {test['max']}" if "max" in test else "",
                 f"!= {test['not']}" if "not" in test else "",
                 ("present" if test["present"] else "absent") if "present" in test else ""]
        return " ".join(p for p in parts if p)
    return "/".join(str(v) for v in _as_list(test))


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
    where = _where_in_set(cardset, set_doc)
    comp = _Compiler(cardset, where)
    for err in sorted(_schema_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        comp.problem(tuple(err.absolute_path), f"deck rules: {_schema_message(err)}",
                     "see docs/decks.md for the shape of deck_rules")
    if comp.problems:
        raise RulesInvalid(comp.problems)

    zones: dict[str, Zone] = {}
    rules: list[Rule] = []
    taken: set[str] = set()
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
    declared = list(zones)

    if "copies" in data:
        c = data["copies"]
        c = {"max": c} if isinstance(c, int) else c
        overrides = {}
        for name, n in (c.get("except") or {}).items():
            cid = comp.card_id(name, ("copies", "except", name))
            if cid is not None:
                overrides[cid] = n
        rules.append(Rule("copies", _rule_id(c, "copies", taken), c.get("name") or f"at most {c['max']} copies of a card",
                          comp.zones(c, ("copies",), declared), copies=c["max"], overrides=overrides, path=("copies",)))
    if "unique" in data:
        f = comp.filter(data["unique"], ("unique",))
        rules.append(Rule("unique", _rule_id({}, "unique", taken), f"one copy of each unique card ({f.text})",
                          cards=f, path=("unique",)))
    rules.extend(_same_group_rules(comp, data, declared, taken))
    for i, lim in enumerate(data.get("limits") or []):
        p = ("limits", i)
        count = _count(comp, lim, p, declared)
        when = _count(comp, lim["when"], p + ("when",), declared) if "when" in lim else None
        if count.min is not None and count.max is not None and count.min > count.max:
            comp.problem(p, f"min {count.min} is more than max {count.max}")
        name = lim.get("name") or f"{count.bound_text()} cards of {count.cards.text}"
        rules.append(Rule("limit", _rule_id(lim, f"limit-{i + 1}", taken), name, count.zones, count=count, when=when, path=p))
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
    for i, pred in enumerate(data.get("predicates") or []):
        rules.append(Rule("predicate", _rule_id(pred, pred["check"].replace("_", "-"), taken), pred.get("name") or pred["check"],
                          check=pred["check"], params=dict(pred.get("with") or {}), path=("predicates", i)))

    played_by = None
    if "played_by" in data:
        from cardsmith.decks.plays import compile_played_by  # only sets whose decks name who plays a card

        played_by = compile_played_by(comp, data["played_by"], declared, lambda d, fb: _rule_id(d, fb, taken),
                                      lambda name, p: cost_function(comp, name, p))
        rules.extend(Rule("played-by", t.id, t.name, played_by.zones, path=("played_by",))
                     for t in (*played_by.access, *played_by.costs) if t.refuse)
    fields, by_type = cost_fields(comp, data.get("cost"))
    if comp.problems:
        raise RulesInvalid(comp.problems)
    return DeckRules(zones, tuple(rules), fields, by_type, played_by, tuple(comp.warnings))


def _same_group_rules(comp: _Compiler, data: Mapping[str, Any], declared: Sequence[str], taken: set[str]) -> list[Rule]:
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


def _count(comp: _Compiler, data: Mapping[str, Any], path: Path_, declared: Sequence[str]) -> Count:
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
