"""The validated set as JSON checked by a digest: a cache file is data, never code.

A pickle names any callable to run when it is read; anyone who can write `output/` (a shared project
archive, a synced drive) could plant one. This format names only cardsmith's own dataclasses, and
reading builds them field by field (no `__init__`, no `__reduce__`, no import of anything new), so the
worst a planted file can do is fail its digest or its shape, and be validated again.

Tags (a one-key object; a real dict is always tagged, so plain objects never collide):
`{"t": [...]}` tuple, `{"d": [[k, v], ...]}` dict, `{"m": [[k, v], ...]}` read-only mapping,
`{"p": "..."}` path, `{"s"|"f": [...]}` set / frozenset, `{"c": "module:Class", "v": {field: value}}`
dataclass; lists, strings, numbers, booleans and null are themselves.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path, PurePath
from types import MappingProxyType
from typing import Any

MAGIC = b"cardsmith-cache-json 1\n"


class CacheFormatError(ValueError):
    """A cache file that is not what cardsmith wrote (damaged, foreign or planted)."""


def _enc(o: Any) -> Any:
    if o is None or isinstance(o, (bool, int, float, str)):
        return o
    if isinstance(o, list):
        return [_enc(v) for v in o]
    if isinstance(o, tuple):
        return {"t": [_enc(v) for v in o]}
    if isinstance(o, dict):
        return {"d": [[_enc(k), _enc(v)] for k, v in o.items()]}
    if isinstance(o, MappingProxyType):
        return {"m": [[_enc(k), _enc(v)] for k, v in o.items()]}
    if isinstance(o, PurePath):
        return {"p": str(o)}
    if isinstance(o, (set, frozenset)):
        return {"f" if isinstance(o, frozenset) else "s": [_enc(v) for v in o]}
    if dataclasses.is_dataclass(o) and not isinstance(o, type) and type(o).__module__.startswith("cardsmith."):
        cls = type(o)
        return {"c": f"{cls.__module__}:{cls.__qualname__}",
                "v": {f.name: _enc(getattr(o, f.name)) for f in dataclasses.fields(o)}}
    raise TypeError(f"{type(o).__qualname__} is not kept in a cardsmith cache")


def dumps(value: Any) -> bytes:
    """`value` as JSON behind a SHA-256 digest of it; TypeError for anything but the model's plain data."""
    body = json.dumps(_enc(value), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return MAGIC + hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body


def _model_class(name: Any) -> type:
    """A dataclass defined in an already-imported cardsmith module: nothing else is built, nothing imported."""
    if not isinstance(name, str) or ":" not in name:
        raise CacheFormatError(f"bad class name {name!r}")
    module, qualname = name.split(":", 1)
    mod = sys.modules.get(module) if module.startswith("cardsmith.") else None
    cls = getattr(mod, qualname, None) if mod is not None and qualname.isidentifier() else None
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module):
        raise CacheFormatError(f"{name} is not one of cardsmith's model classes")
    return cls


def _pairs(v: Any) -> list:
    if not isinstance(v, list) or not all(isinstance(p, list) and len(p) == 2 for p in v):
        raise CacheFormatError("a mapping that is not a list of pairs")
    return v


def _dec(o: Any) -> Any:
    if o is None or isinstance(o, (bool, int, float, str)):
        return o
    if isinstance(o, list):
        return [_dec(v) for v in o]
    if not isinstance(o, dict) or not o or len(o) > 2:
        raise CacheFormatError("an untagged object")
    if "c" in o:
        cls, values = _model_class(o["c"]), o.get("v")
        names = {f.name for f in dataclasses.fields(cls)}
        if not isinstance(values, dict) or set(values) != names:
            raise CacheFormatError(f"the fields of {o['c']} do not match")
        obj: Any = object.__new__(cls)
        for k, v in values.items():
            object.__setattr__(obj, k, _dec(v))
        return obj
    if len(o) != 1:
        raise CacheFormatError("an object with more than one tag")
    (tag, v), = o.items()
    if tag == "p" and isinstance(v, str):
        return Path(v)
    if tag in ("d", "m"):
        d = {_dec(k): _dec(x) for k, x in _pairs(v)}
        return d if tag == "d" else MappingProxyType(d)
    if not isinstance(v, list):
        raise CacheFormatError(f"tag {tag!r} without a list")
    items = [_dec(x) for x in v]
    kinds = {"t": tuple, "s": set, "f": frozenset}
    if tag not in kinds:
        raise CacheFormatError(f"unknown tag {tag!r}")
    return kinds[tag](items)


def loads(data: bytes) -> Any:
    """What `dumps` wrote; CacheFormatError when the digest or the shape is not cardsmith's."""
    if not data.startswith(MAGIC):
        raise CacheFormatError("not a cardsmith cache file")
    digest, _, body = data[len(MAGIC):].partition(b"\n")
    if hashlib.sha256(body).hexdigest().encode("ascii") != digest:
        raise CacheFormatError("the digest does not match: the file is damaged or was changed")
    try:
        return _dec(json.loads(body))
    except (ValueError, TypeError, RecursionError) as e:
        raise CacheFormatError(str(e)) from None
