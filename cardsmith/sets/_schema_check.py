"""The package's JSON Schemas (`schemas/`), their validators (built once per process), and schema errors
worded as diagnostics with file, line and column.

Both the set's validation and card files read card by card use it, so neither imports the other.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from cardsmith.base.diagnostics import Diagnostic, did_you_mean, path_text
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.loader import Document
from cardsmith.sets.model import slugify

if TYPE_CHECKING:
    import jsonschema
    from referencing import Registry

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def schema_names() -> list[str]:
    """Names `cardsmith schema NAME` accepts (set, card, deck, ...)."""
    return sorted(p.name.removesuffix(".schema.json") for p in SCHEMA_DIR.glob("*.schema.json"))


def schema_text(name: str) -> str:
    path = SCHEMA_DIR / f"{name}.schema.json"
    if not path.is_file():
        raise CardsmithError(f"no schema named '{name}'", hint=f"choose one of: {', '.join(schema_names())}")
    return path.read_text(encoding="utf-8")


class _PackageSchemas(Mapping[str, Any]):
    """The package schemas by file name (`set.schema.json`, the name a `$ref` gives one), each read
    on first use: checking a card reads card.schema.json only."""

    def __getitem__(self, file: str) -> Any:
        return _schema_file(file)

    def __iter__(self) -> Iterator[str]:
        return iter(_schema_files())

    def __len__(self) -> int:
        return len(_schema_files())


@lru_cache(maxsize=1)
def _schema_files() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json")))


@lru_cache(maxsize=None)
def _schema_file(file: str) -> Any:
    path = SCHEMA_DIR / file
    if not file.endswith(".schema.json") or path.parent != SCHEMA_DIR or not path.is_file():
        raise KeyError(file)
    return json.loads(path.read_text(encoding="utf-8"))


_SCHEMAS = _PackageSchemas()


def _schemas() -> Mapping[str, Any]:
    return _SCHEMAS


@lru_cache(maxsize=None)
def _registry() -> Registry:
    from referencing import Registry, Resource

    return Registry().with_resources((n, Resource.from_contents(s)) for n, s in _schemas().items())


@lru_cache(maxsize=None)
def validator(name: str) -> jsonschema.Draft202012Validator:
    """jsonschema's validator of the package schema `name`, built once per process."""
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads(schema_text(name)), registry=_registry())


def schema_diagnostics(doc: Document, name: str) -> list[Diagnostic]:
    """Every schema error in `doc`, worded for a person, at the line and column of the offending value."""
    return [_schema_diagnostic(doc, err) for err in validator(name).iter_errors(doc.data)]


@lru_cache(maxsize=None)
def _item_validator() -> jsonschema.Draft202012Validator:
    """The card schema's rule for one item of `cards:`, built once per process."""
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads(schema_text("card"))["properties"]["cards"]["items"],
                                           registry=_registry())


def item_schema_diagnostics(doc: Document, value: Any, index: int) -> list[Diagnostic]:
    """The card schema's errors for item `index` of a card file's `cards:` (`value`), worded and placed
    as `schema_diagnostics` places them for the whole file (`cardsmith.sets._cardfile` reads items one by one)."""
    return [_schema_diagnostic(doc, err, ("cards", index)) for err in _item_validator().iter_errors(value)]


def _schema_diagnostic(doc: Document, err: jsonschema.ValidationError, prefix: tuple = ()) -> Diagnostic:
    path = prefix + tuple(err.absolute_path)
    where = path_text(path) or "the file"
    line, col = doc.position(path)
    hint = None
    v = err.validator
    if v == "additionalProperties":
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed and not any(re.match(p, k) for p in err.schema.get("patternProperties", {}))]
        key = extra[0] if extra else "?"
        line, col = doc.position(path + (key,), key=True)
        msg = f"unknown key '{key}' in {where}"
        hint = did_you_mean(key, allowed) or f"allowed keys: {', '.join(allowed)}"
    elif v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        msg = f"{where} is missing the required key '{missing}'"
        hint = f"add `{missing}: ...`"
    elif v == "type":
        expected = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        words = {"object": "a map (key: value lines)", "array": "a list ('- item' lines or [a, b])", "string": "text",
                 "integer": "a whole number", "number": "a number", "boolean": "true or false"}
        expected = " or ".join(words.get(e, e) for e in expected.split(" or "))
        msg = f"{where} must be {expected}, not {describe(err.instance)}"
    elif v == "enum":
        msg = f"{where}: '{err.instance}' is not one of {', '.join(map(str, err.validator_value))}"
        hint = did_you_mean(str(err.instance), [str(x) for x in err.validator_value])
    elif v == "pattern" and path and path[-1] == "id" or (v == "pattern" and err.validator_value == SLUG.pattern):
        msg = f"{where}: '{err.instance}' is not a slug"
        hint = f"use lower-case letters, digits and single hyphens, e.g. '{slugify(str(err.instance)) or 'card'}'"
    elif v == "propertyNames":
        msg = f"{where}: the key {err.message.split(' does not')[0]} is not a valid name"
        hint = "use lower-case letters, digits and hyphens (fields: letters, digits and underscores)"
    elif v == "pattern" and err.schema.get("description"):
        msg = f"{where}: '{err.instance}' is not valid: write {err.schema['description']}"
    elif v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
                "exclusiveMaximum": "less than"}[v]
        msg = f"{where} must be {word} {err.validator_value}, not {err.instance}"
    elif v == "anyOf" and (fitting := [e for e in err.context if e.validator != "type" and e.validator != "anyOf"]):
        # the branch whose type fits the value says best what is wrong with it (an enum, a pattern...)
        return _schema_diagnostic(doc, fitting[0], prefix)
    elif v == "anyOf" and err.schema.get("description"):
        msg = f"{where}: {err.instance!r} is not valid: {err.schema['description']}"
    elif v == "minProperties":
        msg = f"{where} must not be empty"
    else:
        msg = f"{where}: {err.message}"
    return Diagnostic("error", doc.path, line, col, msg, hint, path_text(path))


def describe(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    return f"'{value}'" if isinstance(value, str) else str(value)
