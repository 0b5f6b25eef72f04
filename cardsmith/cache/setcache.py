"""The validated set, kept between commands: a command after an unchanged set skips YAML and schema
validation.

`validated_set` keeps what `validate.check_set` returned under a `freshness` stamp of the set's
folder, cardsmith's code and the libraries validation uses, as JSON behind a digest
(`cardsmith.cache._modeljson`): it is read back only as cardsmith's own model dataclasses and plain
data, so a planted cache file cannot run code (a pickle could). When the set changed,
the cards it read last time (parsed and checked against the schema, by file, text and place) are
kept beside it, so an edit to one card of a long file re-reads that card only (`cardsmith.sets._cardfile`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cardsmith.base.atomic import write_bytes
from cardsmith.cache import _modeljson, off
from cardsmith.cache.freshness import PACKAGE_DIR, fingerprint, key_of, library_files, snapshot, stamp_for


def _set_key() -> str:
    """What validation depends on besides files: the bounds in `cardsmith.base.limits` (a tiny module)."""
    from cardsmith.base import limits

    return key_of("set", {k: v for k, v in vars(limits).items() if k.isupper()})


def _cacheable(cardset: Any) -> bool:
    """A set whose validation reads only its own folder and cardsmith's code (a game from a plugin
    or registered in-process is not: its code lies outside the roots)."""
    rules = getattr(cardset, "rules", None)
    if not rules:
        return True
    name = str(rules).strip().replace("-", "_").lower()
    registry = sys.modules.get("cardsmith.engine.registry")
    if registry is not None and name in getattr(registry, "_EXTRA", {}):
        return False
    games = PACKAGE_DIR / "games"
    return (games / f"{name}.py").is_file() or (games / name / "__init__.py").is_file()


def validation_inputs(project: Any, set_dir: Path | str) -> Any:
    """What a validation of the set is made from (its folder, cardsmith's code and the libraries it uses),
    fingerprinted now."""
    return snapshot([set_dir, PACKAGE_DIR, *library_files()], skip=project.output_dir)


def validated_set(project: Any, set_dir: Path | str) -> tuple[Any, list[Any]]:
    """`validate.check_set(set_dir)`, read from the cache when the set and cardsmith are unchanged.
    With caches off the set is validated from its files and nothing is read from or written to the cache."""
    if off():
        from cardsmith.sets.validate import check_set

        return check_set(set_dir, {}, {})
    stamp = stamp_for(project, set_dir, "set")
    blob = stamp.path.with_name(stamp.path.stem + "-model.json")
    key = _set_key()
    hit = stamp.fresh(key)
    if hit is not None:
        try:
            cardset, diags = loads(blob.read_bytes())
            return cardset, diags
        except Exception:  # damaged or foreign: validate again
            pass
    from cardsmith.sets.validate import check_set

    inputs = validation_inputs(project, set_dir)
    items_file = stamp.path.with_name(stamp.path.stem + "-items.json")
    code = key_of("items", fingerprint([str(PACKAGE_DIR), *library_files()]))  # how cards are read and checked
    items, used = _read_items(items_file, code), {}  # type: dict, dict
    cardset, diags = check_set(set_dir, items, used)
    if cardset is not None and _cacheable(cardset):
        try:
            write_bytes(blob, dumps((cardset, diags)))
            stamp.record(key, inputs, [blob], {})
        except Exception:  # a cache that cannot be written only costs time next run
            stamp.forget()
    else:
        stamp.forget()
    _write_items(items_file, code, used)
    return cardset, diags


def dumps(value: Any) -> bytes:
    """`value` (a validated set, its diagnostics) as bytes that `loads` reads back."""
    return _modeljson.dumps(value)


def loads(data: bytes) -> Any:
    """What `dumps` wrote, read back as cardsmith's own model classes and plain data only."""
    return _modeljson.loads(data)


def _read_items(path: Path, code: str) -> dict:
    """The cards read by the last validation (`cardsmith.sets._cardfile`), if cardsmith and its libraries are
    as they were then; else none."""
    try:
        data = loads(path.read_bytes())
        return data["items"] if isinstance(data, dict) and data.get("code") == code and isinstance(data.get("items"), dict) else {}
    except Exception:  # missing, damaged or foreign: read every card
        return {}


def _write_items(path: Path, code: str, items: dict) -> None:
    """Keep the cards this validation read (only these: the file does not grow with old versions)."""
    try:
        write_bytes(path, dumps({"code": code, "items": items}))
    except Exception:  # a cache that cannot be written only costs time next run
        pass
