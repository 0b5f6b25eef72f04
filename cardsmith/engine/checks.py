"""Checks that keep simulations honest; rules modules use them in their own tests too.

`observation_leaks(state, observation)` finds every mutable object an observation shares with the
true state (the state itself, its lists, dicts, generators...). An observation that shares none
cannot be used to read the state's hidden zones or to predict its chance, now or later.
"""

from __future__ import annotations

import dataclasses
import random
import types
from typing import Any, Iterable, Iterator

_ATOMS = (str, bytes, int, float, complex, bool, type(None), range, types.FunctionType, types.BuiltinFunctionType,
          types.ModuleType, type)


def _is_mutable(obj: Any) -> bool:
    if isinstance(obj, (tuple, frozenset, types.MappingProxyType)) or isinstance(obj, _ATOMS):
        return False
    if dataclasses.is_dataclass(obj) and obj.__dataclass_params__.frozen:
        return False
    if hasattr(obj, "__dict__") or isinstance(obj, (list, dict, set, bytearray, random.Random)):
        return True
    return hasattr(obj, "__slots__")


def _children(obj: Any) -> Iterator[Any]:
    if isinstance(obj, _ATOMS):
        return
    if isinstance(obj, (dict, types.MappingProxyType)):
        for k, v in obj.items():
            yield k
            yield v
        return
    if isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
        return
    if hasattr(obj, "__dict__"):
        yield from vars(obj).values()
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                yield getattr(obj, name)


def reachable(root: Any, skip: Iterable[Any] = ()) -> dict[int, Any]:
    """Every object reachable from `root` through containers and attributes, by id (not into `skip`)."""
    seen: dict[int, Any] = {}
    skipped = {id(o) for o in skip}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in skipped or isinstance(obj, _ATOMS):
            continue
        seen[id(obj)] = obj
        stack.extend(_children(obj))
    return seen


def observation_leaks(state: Any, observation: Any, shared_ok: Iterable[Any] = ()) -> list[str]:
    """Descriptions of the mutable objects `observation` shares with `state` (empty: none).

    `shared_ok`: objects both may hold because they never change during a game and hide nothing
    (a game's static card table, say); they and what they hold are not searched.
    """
    in_state = {i: o for i, o in reachable(state, shared_ok).items() if _is_mutable(o)}
    leaks = []
    for i, obj in reachable(observation, shared_ok).items():
        if i in in_state:
            what = "the state itself" if obj is state else f"a {type(obj).__name__} of the state"
            leaks.append(f"{what}: {repr(obj)[:80]}")
    return leaks
