"""The shape of a position written by hand: a JSON Schema per game, checked before the state is built.

A game describes its position with the helpers below (`seat`, `card`, `count`, `cards`, `per_seat`,
`obj`) and calls `check_position(data, schema, cards)` first thing in `from_position`. A mistake comes
back as a `PositionError` that names the entry (`p[0].hand[2]`), says what was found and what is
expected, and offers the nearest key or card for a typo, instead of a crash deep inside the rules.
Entries a schema gives a `default` may be left out; `check_position` fills them in.

`guarded(build)` is the net under the schema: anything a position's values break while the state
is built and its first legal actions listed becomes a `PositionError` too (naming the exception), so
a hand-written position never ends in a traceback.
"""

from __future__ import annotations

import difflib
import json
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Mapping, TypeVar

from cardsmith.engine.contract import PositionError

if TYPE_CHECKING:  # imported when a position is checked: registering a game (as validate does) needs none
    from jsonschema.exceptions import ValidationError

T = TypeVar("T")
Schema = dict[str, Any]

HEADER = ("game", "format", "seats")


def seat(n: int, *, nullable: bool = False) -> Schema:
    """A seat number of an n-seat game (0 to n-1)."""
    s: Schema = {"type": "integer", "minimum": 0, "maximum": n - 1, "x-what": f"a seat (0 to {n - 1})"}
    return {"anyOf": [s, {"type": "null"}], "x-what": f"a seat (0 to {n - 1}) or null"} if nullable else s


def count(lo: int = 0, hi: int | None = None, default: int | None = None) -> Schema:
    """A whole number from lo (to hi)."""
    s: Schema = {"type": "integer", "minimum": lo}
    if hi is not None:
        s["maximum"] = hi
    if default is not None:
        s["default"] = default
    return s


def flag(default: bool | None = None) -> Schema:
    s: Schema = {"type": "boolean"}
    if default is not None:
        s["default"] = default
    return s


def card(*, nullable: bool = False) -> Schema:
    """A card id of the set."""
    s: Schema = {"type": "string", "format": "card"}
    return {"anyOf": [s, {"type": "null"}], "x-what": "a card id of the set or null"} if nullable else s


def cards(default: bool = True) -> Schema:
    """A pile: a list of card ids (empty by default)."""
    s: Schema = {"type": "array", "items": card()}
    if default:
        s["default"] = []
    return s


def per_seat(n: int, item: Schema, default: Any = None) -> Schema:
    """A list with one entry per seat."""
    s: Schema = {"type": "array", "items": item, "minItems": n, "maxItems": n, "x-what": f"a list of {n} entries, one per seat"}
    if default is not None:
        s["default"] = default
    return s


def enum(values: Iterable[Any], default: Any = None) -> Schema:
    s: Schema = {"enum": list(values)}
    if default is not None:
        s["default"] = default
    return s


def obj(required: Mapping[str, Schema], optional: Mapping[str, Schema] | None = None, *, open_: bool = False) -> Schema:
    """A mapping with these entries; an entry not named is refused unless `open_`."""
    props = {**required, **(optional or {})}
    s: Schema = {"type": "object", "properties": props, "required": list(required)}
    if not open_:
        s["additionalProperties"] = False
    return s


def anything(default: Any = None, types: tuple[str, ...] = ()) -> Schema:
    """An entry the rules read as a whole (a decision in progress): only its type is checked."""
    s: Schema = {"type": list(types)} if types else {}
    if default is not None or "null" in types:
        s["default"] = default
    return s


def position_schema(n: int, body: Mapping[str, Schema], optional: Mapping[str, Schema] | None = None) -> Schema:
    """The whole position: the header and the game's entries."""
    header = {"game": {"type": "string"}, "format": {"type": "integer"}, "seats": {}}
    return obj({**header, **body}, optional)


def where(path: Iterable[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the position"


def _nearest(word: str, options: Collection[str]) -> str:
    near = difflib.get_close_matches(str(word), list(options), n=1)
    return f" (did you mean '{near[0]}'?)" if near else ""


def _what(schema: Schema) -> str:
    if "x-what" in schema:
        return str(schema["x-what"])
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    kind: Any = schema.get("type")
    names: dict[Any, str] = {"integer": "a whole number", "string": "text", "array": "a list", "object": "a mapping",
             "boolean": "true or false", "null": "null"}
    if isinstance(kind, list):
        return " or ".join(names.get(k, str(k)) for k in kind)
    text = names.get(kind, "something else")
    if kind == "integer" and "minimum" in schema:
        text += f" from {schema['minimum']}" + (f" to {schema['maximum']}" if "maximum" in schema else " up")
    if kind == "string" and schema.get("format") == "card":
        text = "a card id of the set"
    return text


def _message(e: ValidationError, card_ids: Collection[str]) -> str:
    at = where(e.absolute_path)
    if e.validator == "required":
        missing = [k for k in e.validator_value if k not in e.instance]
        sub = e.schema.get("properties", {}).get(missing[0])
        return f"{at}: the entry `{missing[0]}:` is missing" + (f" (it is {_what(sub)})" if sub is not None else "")
    if e.validator == "additionalProperties":
        known = e.schema.get("properties", {})
        extra = [k for k in e.instance if k not in known]
        return f"{at}: `{extra[0]}:` is not an entry of this position{_nearest(extra[0], known)}"
    if e.validator == "format":
        return f"{at}: '{e.instance}' is not a card of the set{_nearest(e.instance, card_ids)}"
    if e.validator in ("minItems", "maxItems"):
        return f"{at}: has {len(e.instance)} entries; it needs {_what(e.schema)}"
    if e.validator == "anyOf" and isinstance(e.instance, str) and any(
            s.get("format") == "card" for s in e.schema["anyOf"]):
        return f"{at}: '{e.instance}' is not a card of the set{_nearest(e.instance, card_ids)}"
    near = _nearest(e.instance, [v for v in e.schema["enum"] if isinstance(v, str)]) if (
        e.validator == "enum" and isinstance(e.instance, str)) else ""
    return f"{at} is {e.instance!r}: it should be {_what(e.schema)}{near}"


def _fill(data: Any, schema: Schema) -> None:
    """Put in the defaults of entries left out (mappings and lists of mappings, recursively)."""
    if isinstance(data, dict) and "anyOf" in schema:
        for alt in schema["anyOf"]:
            if alt.get("type") == "object":
                _fill(data, alt)
    elif isinstance(data, dict) and "properties" in schema:
        for k, sub in schema["properties"].items():
            if k not in data and "default" in sub:
                data[k] = _copy(sub["default"])
            if k in data:
                _fill(data[k], sub)
    elif isinstance(data, list) and isinstance(schema.get("items"), dict):
        for item in data:
            _fill(item, schema["items"])


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _relevance(e: ValidationError) -> tuple[int, int]:
    # The deepest error first (it names the entry); among equals, a missing/unknown key first.
    return (-len(e.absolute_path), 0 if e.validator in ("required", "additionalProperties") else 1)


# Positions that passed, by the JSON text of (schema, data) and the card ids' object (kept, so its id
# is not reused): `play --from` reads one position once per game, and the check costs ~10 ms CPU on a
# full position (jsonschema's own validation), as long as a short game. Callers get a copy to change.
_PASSED: dict[tuple[int, str], tuple[Collection[str], dict[str, Any]]] = {}


def check_position(data: Mapping[str, Any], schema: Schema, card_ids: Collection[str]) -> dict[str, Any]:
    """`data` with the defaults filled in, or a PositionError naming the first bad entry."""
    try:
        key: tuple[int, str] | None = (id(card_ids), json.dumps([schema, data], sort_keys=True))
    except (TypeError, ValueError):  # not plain JSON data: check it, remember nothing
        key = None
    hit = _PASSED.get(key) if key else None
    if hit is not None and hit[0] is card_ids:
        return _copy(hit[1])
    out = _checked(data, schema, card_ids)
    if key:
        if len(_PASSED) >= 16:
            _PASSED.clear()
        _PASSED[key] = (card_ids, _copy(out))
    return out


def _checked(data: Mapping[str, Any], schema: Schema, card_ids: Collection[str]) -> dict[str, Any]:
    out = _copy(dict(data))
    _fill(out, schema)
    from jsonschema import Draft202012Validator, FormatChecker

    checker = FormatChecker(formats=())
    checker.checks("card")(lambda v: not isinstance(v, str) or v in card_ids)
    errors = list(Draft202012Validator(schema, format_checker=checker).iter_errors(out))
    if errors:
        e = min(errors, key=_relevance)
        # Inside anyOf, a nested error names the entry better than "not valid under any".
        while e.validator == "anyOf" and e.context and not isinstance(e.instance, (str, int, type(None))):
            e = min(e.context, key=_relevance)
        raise PositionError(_message(e, card_ids))
    return out


def guarded(build: Callable[[], T], probe: Callable[[T], Any] | None = None) -> T:
    """`build()` (then `probe(state)`), turning a crash on the position's values into a PositionError."""
    try:
        state = build()
        if probe is not None:
            probe(state)
        return state
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError, RuntimeError) as e:
        raise PositionError(f"the entries do not fit together ({type(e).__name__}: {e}); compare them with a "
                            f"position the game writes (--log-position) and the format in docs/rules/") from None


def first_moves(state: Any) -> None:
    """A probe for `guarded`: the seats to act and their legal actions can be listed."""
    for s in state.to_act():
        state.legal_actions(s)
