"""Compiling deck rules: card filters (`Filter`) and the `Compiler` that turns rule data into objects,
collecting every problem with its place in set.yaml. `rules`, `costs` and `_played_by` all compile
through it; it imports none of them, so data flows one way (issue 28)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardsmith.base.diagnostics import Diagnostic, did_you_mean, path_text
from cardsmith.sets.model import Card, CardSet
from cardsmith.sets.model import slugify as slug

NONE = "none"  # `race: none` matches cards without a race
# Filter keys other than group dimensions (`faction: jedi`, `race: chain`, `class: ...`).
FILTER_KEYS = ("type", "tag", "keyword", "card", "fields", "attributes", "not", "any")

Path_ = tuple[str | int, ...]


def as_list(value: Any) -> list:
    """A list as it is; anything else as a list of one."""
    return list(value) if isinstance(value, list) else [value]


# --------------------------------------------------------------------------------------------- filters

@dataclass(frozen=True)
class Filter:
    """A compiled card filter; `text` is a short description for messages ("keyword legendary")."""

    test: Callable[[Card], bool]
    text: str

    def __call__(self, card: Card) -> bool:
        return self.test(card)


ALL_CARDS = Filter(lambda c: True, "any card")


class Compiler:
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
        for v in as_list(wanted):
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
            types = set(self._known("type", as_list(data["type"]), cs.types, path + ("type",), False))
            self.warn_unmatched(path + ("type",), "type", sorted(types), {c.type for c in cs.cards})
            tests.append(lambda c, s=types: c.type in s)
            words.append("type " + "/".join(sorted(types)))
        for key in data:
            if key not in FILTER_KEYS:
                self._group_filter(key, data[key], path + (key,), tests, words)
        if "keyword" in data:
            kws = set(self._known("keyword", as_list(data["keyword"]), cs.keywords, path + ("keyword",), False))
            self.warn_unmatched(path + ("keyword",), "keyword", sorted(kws), {k.id for c in cs.cards for k in c.keywords})
            tests.append(lambda c, s=kws: any(k.id in s for k in c.keywords))
            words.append("keyword " + "/".join(sorted(kws)))
        if "tag" in data:
            tags = {str(t).lower() for t in as_list(data["tag"])}
            self.warn_unmatched(path + ("tag",), "tag", data["tag"], {t for c in cs.cards for t in c.tags})
            tests.append(lambda c, s=tags: any(t.lower() in s for t in c.tags))
            words.append("tag " + "/".join(sorted(tags)))
        if "card" in data:
            ids = {cid for i, n in enumerate(as_list(data["card"]))
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
        ids = set(self._known(key, as_list(value), dim.groups if dim else {}, path, True))
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
    options = as_list(test)
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
    return "/".join(str(v) for v in as_list(test))
