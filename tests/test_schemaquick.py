"""`cardsmith.sets._schemaquick` proves values valid without jsonschema, and never wrongly.

The property that matters: `quick_valid(...) is True` implies jsonschema finds no error (checked on
every schema cardsmith ships and every bundled game's play, effect and card-field schemas, with
random values and with the files of the bundled sets and three test fixtures, mutated). Because
those schemas use only keywords schemaquick implements, it must also agree exactly on plain JSON
values (else the fast path is lost).
A valid set then validates without importing jsonschema at all (one subprocess test).
"""

from __future__ import annotations

import copy
import datetime
import json
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from jsonschema import Draft202012Validator

from cardsmith.sets._schemaquick import ANNOTATIONS, KEYWORDS, _is_json, equal, quick_valid, verdict
from tests.conftest import ROOT

SETS = [*sorted(p for p in (ROOT / "cards").iterdir() if (p / "set.yaml").is_file()),
        *(ROOT / "tests" / "fixtures" / f for f in ("star-map", "mini-empires", "decks/cards/space"))]


# ---- what is checked against what ---------------------------------------------------------------

class Case:
    """One schema, jsonschema's validator of it, and the values the bundled sets give it."""

    def __init__(self, label: str, schema: Any, resources: dict | None, validator: Draft202012Validator):
        self.label, self.schema, self.resources, self.validator = label, schema, resources, validator
        self.values: list[Any] = []

    def verdict(self, value: Any) -> Any:
        return verdict(self.schema, value, resources=self.resources)

    def __repr__(self) -> str:
        return self.label


def _plain(value: Any) -> Any:
    """Model values (read-only mappings, tuples) as the JSON data they were read from."""
    if isinstance(value, (dict, MappingProxyType)):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@lru_cache(maxsize=1)
def cases() -> dict[str, Case]:
    """Every package schema (and a card item's rule), every bundled game's schemas, and their values."""
    from cardsmith.sets import validate
    from cardsmith.engine.registry import get_rules
    from cardsmith.sets.loader import load_yaml

    resources = validate._schemas()
    registry = validate._registry()
    out: dict[str, Case] = {}
    for name, schema in resources.items():
        out[name] = Case(name, schema, resources, Draft202012Validator(schema, registry=registry))
    item = validate._item_schema()
    out["card item"] = Case("card item", item, resources, Draft202012Validator(item, registry=registry))

    def game_case(label: str, schema: Any) -> Case:
        schema = dict(schema)
        return out.setdefault(label, Case(label, schema, None, Draft202012Validator(schema)))

    for set_dir in SETS:
        sdoc = load_yaml(set_dir / "set.yaml").data
        out["set.schema.json"].values.append(sdoc)
        for key in ("deck_rules",):
            if key in sdoc:
                out["deck-rules.schema.json"].values.append(sdoc[key])
        comp = {k: sdoc[k] for k in ("players", "boards", "tokens") if k in sdoc}
        if comp:
            out["components.schema.json"].values.append(comp)
        for f in validate.card_files(set_dir):
            data = load_yaml(f).data
            out["card.schema.json"].values.append(data)
            out["card item"].values.extend(data.get("cards") or [])
        for f in sorted((set_dir / "decks").glob("*.yaml")):
            out["deck.schema.json"].values.append(load_yaml(f).data)
        rules = get_rules(sdoc["rules"]) if sdoc.get("rules") else None
        cardset = validate.load_set(set_dir)
        out["layout.schema.json"].values.extend(_layout_trees(cardset))
        if rules is None:
            continue
        game = rules.name
        game_case(f"{game} play", rules.play_schema).values.append(sdoc.get("play") or {})
        for card in cardset.cards:
            for eff in card.effects:
                spec = rules.effects.get(str(eff.get("do")))
                for param, schema in (spec.params.items() if spec else ()):
                    c = game_case(f"{game} effect {spec.name}.{param}", schema)
                    if param in eff:
                        c.values.append(_plain(eff[param]))
            for field, schema in (rules.card_fields.get(card.type) or {}).items():
                c = game_case(f"{game} field {card.type}.{field}", schema)
                if field in card.fields:
                    c.values.append(_plain(card.fields[field]))
        for spec in rules.effects.values():  # effects no bundled card uses: random values still reach them
            for param, schema in spec.params.items():
                game_case(f"{game} effect {spec.name}.{param}", schema)
    return out


def _layout_trees(cardset: Any, count: int = 6) -> list[Any]:
    """The layer trees the first cards' layouts give (without the file each layer came from)."""
    from cardsmith.layout.template import card_context, layouts_for, set_context
    from cardsmith.base.project import Project
    from cardsmith.render.batch import card_layout

    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "_file"}
        return [strip(v) for v in x] if isinstance(x, list) else x

    lay = layouts_for(Project(ROOT), cardset)
    setctx = set_context(cardset)
    return [strip(lay.render(card_layout(cardset, c, lay), card_context(cardset, c, setctx), "test")[0])
            for c in cardset.cards[:count]]


def schema_keywords(schema: Any) -> Iterator[tuple[str, Any]]:
    """Every (keyword, value) pair in `schema` and its subschemas (not inside enum, const or required)."""
    if isinstance(schema, (dict, MappingProxyType)):
        for k, v in schema.items():
            yield k, v
            if k in ("properties", "patternProperties", "$defs"):
                for sub in v.values():
                    yield from schema_keywords(sub)
            elif k not in ANNOTATIONS and k not in ("enum", "const", "required"):
                yield from schema_keywords(v)
    elif isinstance(schema, list):
        for x in schema:
            yield from schema_keywords(x)


@lru_cache(maxsize=1)
def vocabulary() -> tuple[list[str], list[Any]]:
    """Words and values the schemas name (property names, enum and const values, numeric bounds), so
    random values hit what the schemas check rather than only their `type`."""
    words: set[str] = set()
    scalars: list[Any] = []
    for case in cases().values():
        for k, v in schema_keywords(case.schema):
            if k in ("properties", "patternProperties", "$defs", "required"):
                words.update(v)
            elif k == "enum":
                scalars.extend(x for x in v if not isinstance(x, (dict, list)))
            elif k == "const":
                scalars.append(v)
            elif k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
                       "minItems", "maxItems", "minProperties", "maxProperties") and isinstance(v, (int, float)):
                scalars.extend([v, v - 1, v + 1, float(v), v + 0.5])
    unique = {(type(x).__name__, repr(x)): x for x in [*scalars, *words]}  # 1, 1.0 and True all kept
    return sorted(words), list(unique.values())


def scalar_values() -> st.SearchStrategy[Any]:
    words, scalars = vocabulary()
    return st.one_of(
        st.sampled_from(scalars),
        st.sampled_from(words), st.none(), st.booleans(), st.integers(-5, 1000), st.integers(),
        st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.0, 1.0, -1.0, 2.5, 1e300]),
        st.text(max_size=6), st.sampled_from(["", " ", "a-b", "A", "x-y", "10mm", "5%", "#ff0000", "red", "é", "🂡"]))


def json_values() -> st.SearchStrategy[Any]:
    words, _ = vocabulary()
    keys = st.one_of(st.sampled_from(words), st.text(max_size=4), st.sampled_from(["x-note", "X", "a b"]))
    return st.recursive(scalar_values(), lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)), max_leaves=20)


# ---- the property -------------------------------------------------------------------------------

def agree(case: Case, value: Any) -> None:
    """quick True implies jsonschema finds no error; on plain JSON data the answers are the same."""
    v = case.verdict(value)
    errors = list(case.validator.iter_errors(value))
    if v is True:
        assert not errors, (case, value, errors[0].message)
    if _is_json(value, 0):
        assert v is (not errors), (case, value, v, [e.message for e in errors[:2]])
    else:
        assert quick_valid(case.schema, value, resources=case.resources) is False


def a_case(only_valued: bool = False) -> st.SearchStrategy[Case]:
    """A package schema half the time (there are few, and they are large), else a game's schema."""
    names = [k for k, c in cases().items() if c.values or not only_valued]
    package = [k for k in names if k.endswith(".schema.json") or k == "card item"]
    games = [k for k in names if k not in package]
    return st.one_of(st.sampled_from(package), st.sampled_from(games)).map(cases().__getitem__)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_values_never_fool_the_quick_check(data):
    case = data.draw(a_case(), label="schema")
    agree(case, data.draw(json_values(), label="value"))


def _children(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return list(node)
    return list(range(len(node))) if isinstance(node, list) else []


def _mutated(data: st.DataObject, node: Any) -> Any:
    """`node` changed the way a designer's typo or a hostile file changes it."""
    words, _ = vocabulary()
    options: list[Any] = [lambda: data.draw(json_values()), lambda: data.draw(scalar_values()),
                          lambda: data.draw(st.sampled_from([datetime.date(2026, 1, 1), (1, 2), b"x", float("nan")]))]
    if isinstance(node, bool):
        options += [lambda: not node, lambda: int(node), lambda: str(node).lower()]
    elif isinstance(node, int):
        options += [lambda: node + 1, lambda: node - 1, lambda: -node, lambda: float(node), lambda: node + 0.5,
                    lambda: str(node), lambda: node == 1, lambda: node * 10**6]
    elif isinstance(node, float) and node == node:
        options += [lambda: int(node), lambda: str(node), lambda: -node]
    elif isinstance(node, str):
        options += [lambda: "", lambda: node + "!", lambda: node.upper(), lambda: " " + node, lambda: node[:1],
                    lambda: node.replace("-", "_"), lambda: [node], lambda: node * 40]
    elif isinstance(node, list):
        options += [lambda: [], lambda: node + node[-1:], lambda: node[:-1], lambda: node[0] if node else None,
                    lambda: {"a": node}, lambda: node[::-1]]
    elif isinstance(node, dict) and node:
        key = data.draw(st.sampled_from(sorted(node)))
        options += [lambda: {k: v for k, v in node.items() if k != key},
                    lambda: {**node, data.draw(st.sampled_from(words)): data.draw(json_values())},
                    lambda: {**{k: v for k, v in node.items() if k != key}, key + "s": node[key]},
                    lambda: {}, lambda: [node]]
    return data.draw(st.sampled_from(options))()


def _mutate(data: st.DataObject, root: Any) -> Any:
    """A copy of `root` with the node at a random place replaced by a mutation of it."""
    if not _children(root) or data.draw(st.integers(0, 4)) == 0:
        return _mutated(data, root)
    key = data.draw(st.sampled_from(_children(root)))
    root[key] = _mutate(data, root[key])
    return root


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_bundled_files_mutated_never_fool_the_quick_check(data):
    case = data.draw(a_case(only_valued=True), label="schema")
    value = copy.deepcopy(data.draw(st.sampled_from(case.values), label="bundled value"))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        value = _mutate(data, value)
    agree(case, value)


def test_every_bundled_file_is_proven_valid_so_the_fast_path_is_taken():
    checked = 0
    for case in cases().values():
        for value in case.values:
            assert case.verdict(value) is True, (case, value if len(repr(value)) < 400 else repr(value)[:400])
            checked += 1
    assert checked > 400  # sets, card files, each card, decks, layouts, play settings, effect parameters
    assert {"set.schema.json", "card.schema.json", "deck-rules.schema.json", "layout.schema.json",
            "components.schema.json"} <= {k for k, c in cases().items() if c.values}


def test_the_shipped_schemas_use_only_keywords_the_quick_check_knows():
    """A new keyword in a schema would silently send every file of that kind to jsonschema."""
    found = {k for case in cases().values() for k, _ in schema_keywords(case.schema)}
    assert found - KEYWORDS - ANNOTATIONS <= {"$id", "$schema"}


# ---- what jsonschema counts as valid, exactly -----------------------------------------------------

@pytest.mark.parametrize("schema, value, expected", [
    ({"type": "integer"}, 3, True),
    ({"type": "integer"}, 3.0, True),  # jsonschema counts 3.0 as an integer
    ({"type": "integer"}, 3.5, False),
    ({"type": "integer"}, True, False),  # a boolean is no number
    ({"type": "number"}, False, False),
    ({"type": ["string", "null"]}, None, True),
    ({"enum": [1, 2]}, True, False),  # true is not 1 ...
    ({"enum": [True]}, 1, False),  # ... nor 1 true
    ({"enum": [1]}, 1.0, True),
    ({"const": [1, {"a": False}]}, [1, {"a": 0}], False),
    ({"const": [1, {"a": False}]}, [1.0, {"a": False}], True),
    ({"minLength": 2}, "🂡é", True),  # code points, not bytes
    ({"maxLength": 1}, "🂡é", False),
    ({"pattern": "b"}, "abc", True),  # search, not match
    ({"pattern": "^b"}, "abc", False),
    ({"pattern": "^b"}, 5, True),  # only strings are matched
    ({"minimum": 1, "exclusiveMaximum": 3}, 3, False),
    ({"exclusiveMinimum": 1}, 1.0001, True),
    ({"items": {"type": "string"}, "minItems": 1, "maxItems": 2}, ["a", "b", "c"], False),
    ({"items": False}, [], True),
    ({"items": False}, [1], False),
    ({"properties": {"a": {"type": "string"}}, "patternProperties": {"^x-": True}, "additionalProperties": False},
     {"a": "1", "x-mine": [1]}, True),
    ({"properties": {"a": {"type": "string"}}, "patternProperties": {"^x-": True}, "additionalProperties": False},
     {"a": "1", "b": 2}, False),
    ({"patternProperties": {"^n": {"type": "integer"}}, "additionalProperties": {"type": "string"}},
     {"n1": 1, "s": "x"}, True),
    ({"patternProperties": {"^n": {"type": "integer"}}, "additionalProperties": {"type": "string"}},
     {"n1": "1"}, False),
    ({"propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1, "maxProperties": 2}, {"ab": 1}, True),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"aB": 1}, False),
    ({"required": ["a"]}, {"b": 1}, False),
    ({"required": ["a"]}, [1], True),  # only objects need keys
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1, False),  # both fit: not exactly one
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, 1, True),
    ({"anyOf": [{"type": "integer"}, {"minimum": 5}]}, 7.5, True),
    ({"allOf": [{"type": "integer"}, {"minimum": 5}]}, 4, False),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n", "minimum": 3}, 2, False),  # $ref and its siblings
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n", "minimum": 3}, 4, True),
    ({"$defs": {"a/b": {"const": 1}}, "$ref": "#/$defs/a~1b"}, 1, True),
    (True, {"any": ["thing"]}, True),
    (False, 1, False),
])
def test_the_quick_check_answers_as_jsonschema_does(schema, value, expected):
    assert Draft202012Validator(schema).is_valid(value) is expected
    assert quick_valid(schema, value) is expected
    assert verdict(schema, value) is expected


@pytest.mark.parametrize("schema, value", [
    ({"type": "object", "unevaluatedProperties": False}, {}),
    ({"type": "string", "format": "date"}, "2026-01-01"),
    ({"not": {"type": "string"}}, 1),
    ({"uniqueItems": True}, [1, 2]),
    ({"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}, [1, "a"]),
    ({"if": {"type": "integer"}, "then": {"minimum": 0}}, 1),
    ({"dependentRequired": {"a": ["b"]}}, {"a": 1, "b": 2}),
    ({"$defs": {"n": {"$anchor": "n", "type": "integer"}}, "$ref": "#n"}, 1),  # an anchor
    ({"properties": {"a": {"$id": "nested.json", "type": "integer"}}}, {"a": 1}),  # $id below the root
    ({"type": "integer", "multipleOf": 2}, 4),
    ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"}, 4),  # another dialect
])
def test_a_keyword_it_does_not_implement_means_unsure_never_valid(schema, value):
    assert Draft202012Validator(schema).is_valid(value)  # each value is valid: only jsonschema may say so
    assert verdict(schema, value) is None
    assert quick_valid(schema, value) is False


@pytest.mark.parametrize("schema", [{"$ref": "other.schema.json#/$defs/x"}, {"$ref": "#/$defs/missing"},
                                    {"$ref": "#/nowhere/0"}])
def test_a_ref_it_cannot_follow_is_left_to_jsonschema(schema):
    assert verdict(schema, 1) is None
    with pytest.raises(Exception, match="Unresolvable|PointerToNowhere"):
        Draft202012Validator(schema).is_valid(1)


def test_an_unknown_keyword_does_not_hide_a_proven_error_nor_fool_one_of():
    assert verdict({"type": "string", "format": "date"}, 3) is False  # wrong whatever `format` says
    # 4 fits both branches, so oneOf fails; a check that skipped multipleOf would count one fit
    schema = {"oneOf": [{"type": "integer"}, {"type": "number", "multipleOf": 2}]}
    assert not Draft202012Validator(schema).is_valid(4)
    assert verdict(schema, 4) is None and quick_valid(schema, 4) is False
    assert verdict(schema, "x") is False  # fits no branch, whatever multipleOf would say
    assert verdict({"anyOf": [{"format": "date"}, {"type": "string"}]}, "x") is True  # one branch proven is enough


@pytest.mark.parametrize("value", [datetime.date(2026, 1, 1), (1, 2), b"bytes", MappingProxyType({"a": 1}),
                                   {"a": [datetime.date(2026, 1, 1)]}, {1: "key that is no string"},
                                   float("nan"), float("inf"), {"deep": [[[[1]]]] * 2}])
def test_values_that_are_not_plain_json_are_never_proven(value):
    if value == {"deep": [[[[1]]]] * 2}:  # plain JSON, shared: fine
        assert quick_valid({}, value) is True
        return
    assert quick_valid({}, value) is False
    assert quick_valid(True, value) is False


def test_a_value_deeper_than_the_bound_is_left_to_jsonschema():
    value: Any = 1
    for _ in range(300):
        value = [value]
    assert quick_valid({}, value) is False
    loop = {"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}
    assert quick_valid(loop, 1) is False  # a $ref loop: unsure, not a crash


def test_refs_between_package_schemas_are_followed():
    from cardsmith.sets import validate

    resources = validate._schemas()
    sdoc = cases()["set.schema.json"].values[0]
    bad = copy.deepcopy(sdoc)
    bad["deck_rules"] = {"zones": "not a map"}  # set.schema.json -> deck-rules.schema.json
    assert quick_valid(resources["set.schema.json"], sdoc, resources=resources)
    assert not quick_valid(resources["set.schema.json"], bad, resources=resources)
    assert verdict(resources["set.schema.json"], sdoc) is None  # without the other documents: unsure


def test_equal_is_jsonschema_equality():
    assert equal(1, 1.0) and equal([1, {"a": "b"}], [1.0, {"a": "b"}])
    assert not equal(True, 1) and not equal([0], [False]) and not equal({"a": 1}, {"a": 1, "b": 2})
    assert not equal("1", 1) and not equal([], {})


# ---- the command line ---------------------------------------------------------------------------

_PROBE = """import sys
sys.argv = ['cardsmith', *sys.argv[1:]]
from cardsmith.cli import main
try:
    main(sys.argv[1:])  # from Python: it exits through SystemExit, so the lines below run
except SystemExit as e:
    print('exit', e.code, file=sys.stderr)
# the game's state and turn are for play: validating or drawing a set loads only what RULES checks
print('loaded:', *(m for m in ('jsonschema', 'referencing', 'cardsmith.games.solar_empires.state') if m in sys.modules),
      file=sys.stderr)
"""


def test_a_valid_set_validates_and_renders_without_jsonschema_and_an_invalid_one_is_worded_by_it(tmp_path):
    shutil.copytree(ROOT / "cards" / "solar-empires", tmp_path / "cards" / "solar-empires")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run(*args: str) -> tuple[str, set[str]]:
        p = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=300)
        last = p.stderr.strip().splitlines()[-1]
        assert last.startswith("loaded:"), p.stderr
        return p.stdout + p.stderr, set(last.split()[1:])

    out, loaded = run("validate", "solar-empires")
    assert "0 error(s)" in out and "exit 0" in out, out
    assert loaded == set()
    card_file = tmp_path / "cards" / "solar-empires" / "ships-chain.yaml"
    text = card_file.read_text()
    card_file.write_text(text.replace("name: Drone\n", "name: Drone Mk II\n", 1))  # this card is checked again
    out, loaded = run("render", "solar-empires", "--only", "drone")
    assert "exit 0" in out and "1 drawn" in out, out
    assert loaded == set()
    card_file.write_text(text.replace("name: Drone\n", "name: Drone\n    copies: lots\n", 1))
    out, loaded = run("validate", "solar-empires")
    assert "exit 1" in out and "card 'drone': copies must be a whole number, not 'lots'" in out, out
    assert loaded == {"jsonschema", "referencing"}
