"""Proof that a value fits a JSON Schema (2020-12), without importing jsonschema.

jsonschema (with referencing, attrs and rpds) costs 100-150 ms to import; a command that validates
a valid set needs no error words, only the answer "valid". `quick_valid` gives that answer when it
can prove it and says False otherwise: when the value is invalid, and also when it is unsure (the
schema uses a keyword this module does not implement, the value is not plain JSON data, a $ref
leads somewhere it cannot follow). A caller then runs jsonschema, which stays the authority that
words every error. So `quick_valid(...) is True` must imply that jsonschema finds no error; the
tests check that on every schema cardsmith ships and on random and near-valid values.

Internally a schema's verdict is three-valued (True valid, False invalid, None unsure), so that
`oneOf`, which needs every other branch proven *invalid*, stays sound when a branch is unsure.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Mapping

Verdict = bool | None  # True: proven valid; False: proven invalid; None: unsure (let jsonschema decide)

# Keywords that annotate and never constrain a value (2020-12 core and meta-data vocabularies, plus
# `$defs`, which only holds schemas for `$ref`). Two more are handled apart: `$id` is an annotation
# only at the root of a document (elsewhere it would change where `$ref`s resolve), `$schema` only
# when it names 2020-12 (another dialect reads some keywords otherwise).
ANNOTATIONS = frozenset({"$comment", "$defs", "title", "description", "default", "examples",
                         "deprecated", "readOnly", "writeOnly"})
DIALECT = "https://json-schema.org/draft/2020-12/schema"  # the only `$schema` taken as an annotation
MAX_DEPTH = 200  # deeper values are left to jsonschema (the YAML loader refuses far less already)
_JSON_SCALARS = (str, int, bool, type(None))


class _Ctx:
    """Where `$ref`s resolve: the current document (for `#/...`) and the named documents."""

    __slots__ = ("root", "resources")

    def __init__(self, root: Mapping[str, Any], resources: Mapping[str, Any]):
        self.root = root
        self.resources = resources


def quick_valid(schema: Mapping[str, Any] | bool, value: Any, defs: Mapping[str, Any] | None = None,
                resources: Mapping[str, Any] | None = None) -> bool:
    """True only when `value` is proven valid under `schema`; False when invalid or unsure.

    `defs`: the `$defs` that `#/$defs/NAME` refers to, when `schema` is a piece of a larger
    document (as if `schema` carried them). `resources`: other documents by the name a `$ref`
    gives them (`"deck-rules.schema.json"`, `"components.schema.json#/$defs/boards"`).
    """
    return verdict(schema, value, defs, resources) is True


def verdict(schema: Mapping[str, Any] | bool, value: Any, defs: Mapping[str, Any] | None = None,
            resources: Mapping[str, Any] | None = None) -> Verdict:
    """`quick_valid`'s three-valued answer: True valid, False invalid, None unsure."""
    if not _is_json(value, 0):
        return None
    if isinstance(schema, bool):
        return schema
    root = schema if defs is None else {**schema, "$defs": defs}
    try:
        return _check(root, value, _Ctx(root, resources if resources is not None else {}))
    except (RecursionError, re.error, TypeError, ValueError, KeyError, AttributeError):
        return None  # a schema this module misreads, or a `$ref` loop: jsonschema decides


def _is_json(value: Any, depth: int) -> bool:
    """Whether `value` is plain JSON data: dict with str keys, list, str, int, finite float, bool, None
    (not a date from YAML, a tuple, bytes, a read-only mapping...), at most MAX_DEPTH deep."""
    t = type(value)
    if t in _JSON_SCALARS:
        return True
    if t is float:
        return math.isfinite(value)
    if depth >= MAX_DEPTH:
        return False
    if t is list:
        return all(_is_json(v, depth + 1) for v in value)
    if t is dict:
        return all(type(k) is str and _is_json(v, depth + 1) for k, v in value.items())
    return False


def _check(schema: Any, value: Any, ctx: _Ctx) -> Verdict:
    """The verdict of one schema: every keyword must hold (one False decides; else one None)."""
    if schema is True or schema is False:
        return schema
    unsure = False
    for key, arg in schema.items():
        if key in ANNOTATIONS:
            continue
        rule = _RULES.get(key)
        if rule is None:
            if (key == "$id" and schema is ctx.root) or (key == "$schema" and arg == DIALECT):
                continue
            unsure = True  # a keyword this module does not know: it may constrain
            continue
        v = rule(arg, value, schema, ctx)
        if v is False:
            return False
        if v is None:
            unsure = True
    return None if unsure else True


# ---- types and values

_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int or (type(v) is float and v.is_integer()),  # as jsonschema: 1.0 is one
    "number": lambda v: type(v) is int or type(v) is float,  # true is no number
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
}


def _type(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    test = _TYPES.get(arg) if isinstance(arg, str) else None
    if test is not None:
        return test(value)
    found = [(_TYPES[name](value) if name in _TYPES else None) for name in ([arg] if isinstance(arg, str) else arg)]
    return True if True in found else (None if None in found else False)  # an unknown name: jsonschema raises


def equal(a: Any, b: Any) -> bool:
    """JSON equality as jsonschema judges it: true is not 1, 1 is 1.0, lists and maps compared deeply."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if ta is bool or tb is bool:
        return ta is tb and a == b
    if ta is list or tb is list:
        return ta is tb and len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if ta is dict or tb is dict:
        return ta is tb and len(a) == len(b) and all(k in b and equal(v, b[k]) for k, v in a.items())
    if ta is str or tb is str:
        return ta is tb and a == b
    return bool(a == b)


def _enum(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return any(equal(each, value) for each in arg)


def _const(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return equal(arg, value)


# ---- numbers and strings

def _number_rule(test: Callable[[Any, Any], bool]) -> Callable[[Any, Any, Any, _Ctx], Verdict]:
    def rule(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
        if type(value) is not int and type(value) is not float:
            return True
        return bool(test(value, arg))
    return rule


def _min_length(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not str or len(value) >= arg  # code points, as jsonschema counts


def _max_length(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not str or len(value) <= arg


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _regex(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled once (jsonschema uses `re.search` on the same Python syntax)."""
    found = _PATTERNS.get(pattern)
    if found is None:
        found = _PATTERNS[pattern] = re.compile(pattern)
    return found


def _pattern(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not str or _regex(arg).search(value) is not None


# ---- arrays

def _items(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    if type(value) is not list:
        return True
    if "prefixItems" in schema:
        return None  # not implemented (`prefixItems` itself makes the schema unsure anyway)
    return _all(_check(arg, v, ctx) for v in value)


def _min_items(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not list or len(value) >= arg


def _max_items(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not list or len(value) <= arg


# ---- objects

def _properties(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    if type(value) is not dict:
        return True
    return _all(_check(arg[k], v, ctx) for k, v in value.items() if k in arg)


def _pattern_properties(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    if type(value) is not dict:
        return True
    return _all(_check(sub, v, ctx) for p, sub in arg.items() for k, v in value.items() if _regex(p).search(k))


def _additional_properties(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    if type(value) is not dict:
        return True
    props = schema.get("properties", {})
    patterns = "|".join(schema.get("patternProperties", {}))  # one alternation, as jsonschema joins them
    extras = [v for k, v in value.items() if k not in props and not (patterns and _regex(patterns).search(k))]
    if arg is True or not extras:
        return True
    if arg is False:
        return False
    return _all(_check(arg, v, ctx) for v in extras)


def _required(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not dict or all(k in value for k in arg)


def _property_names(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return True if type(value) is not dict else _all(_check(arg, k, ctx) for k in value)


def _min_properties(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not dict or len(value) >= arg


def _max_properties(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return type(value) is not dict or len(value) <= arg


# ---- combining schemas

def _all(verdicts: Any) -> Verdict:
    """True if every verdict is True; False as soon as one is False; else None."""
    unsure = False
    for v in verdicts:
        if v is False:
            return False
        if v is None:
            unsure = True
    return None if unsure else True


def _all_of(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    return _all(_check(sub, value, ctx) for sub in arg)


def _any_of(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    # one branch proven valid is enough; every branch proven invalid is needed for False
    return _not(_all(_not(_check(sub, value, ctx)) for sub in arg))


def _not(v: Verdict) -> Verdict:
    return None if v is None else not v


def _one_of(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    valid = 0
    unsure = False
    for sub in arg:
        v = _check(sub, value, ctx)
        if v is True:
            valid += 1
            if valid > 1:
                return False
        elif v is None:
            unsure = True  # an unsure branch might be a second valid one, or the only one
    return None if unsure else valid == 1


def _ref(arg: Any, value: Any, schema: Any, ctx: _Ctx) -> Verdict:
    if arg.startswith("#/$defs/") and "/" not in arg[8:] and "~" not in arg and "%" not in arg:
        return _check(ctx.root["$defs"][arg[8:]], value, ctx)  # the common case, without parsing a pointer
    doc, _, pointer = arg.partition("#")
    root = ctx.root if not doc else ctx.resources.get(doc)
    if root is None or "%" in pointer or (pointer and not pointer.startswith("/")):
        return None  # another document, an escaped pointer or an anchor: not followed here
    target: Any = root
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        target = target[int(part)] if isinstance(target, list) else target[part]
    return _check(target, value, ctx if root is ctx.root else _Ctx(root, ctx.resources))


_RULES: dict[str, Callable[[Any, Any, Any, _Ctx], Verdict]] = {
    "type": _type, "enum": _enum, "const": _const,
    "minimum": _number_rule(lambda v, a: v >= a), "maximum": _number_rule(lambda v, a: v <= a),
    "exclusiveMinimum": _number_rule(lambda v, a: v > a), "exclusiveMaximum": _number_rule(lambda v, a: v < a),
    "minLength": _min_length, "maxLength": _max_length, "pattern": _pattern,
    "items": _items, "minItems": _min_items, "maxItems": _max_items,
    "properties": _properties, "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties, "required": _required, "propertyNames": _property_names,
    "minProperties": _min_properties, "maxProperties": _max_properties,
    "allOf": _all_of, "anyOf": _any_of, "oneOf": _one_of, "$ref": _ref,
}
KEYWORDS = frozenset(_RULES)  # the constraining keywords implemented (any other one means "unsure")
