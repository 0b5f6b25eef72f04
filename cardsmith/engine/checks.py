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


class _NotAnAction:
    """An action no game offers (to check that apply refuses it)."""

    def __repr__(self) -> str:
        return "<not an action>"

    def __str__(self) -> str:
        return "<not an action>"


def protocol_problems(game: Any, decks: Any, seeds: Iterable[int] = range(5), max_actions: int = 20_000,
                      shared_ok: Any = None) -> list[str]:
    """Play random games and report every breach of the engine contract found (empty: none).

    Checked after every action: legal actions are offered (never empty, same list when asked twice)
    while the game runs; `end_reason` and `winner` only when it is over; turns never go back; an
    action not offered raises IllegalAction; applying to a clone leaves the original alone;
    observations share nothing mutable with the state; a determinization of the acting player's
    observation offers that player the same actions. Per game: the same seed gives the same game,
    `(seed, actions)` replays it, and it ends within `max_actions`.
    `shared_ok(state)` may return static objects observations are allowed to share.
    """
    import random as _random

    from cardsmith.engine.core import IllegalAction

    problems: list[str] = []

    def fail(seed: int, step: int, text: str) -> None:
        if len(problems) < 50:
            problems.append(f"seed {seed}, action {step}: {text}")

    for seed in seeds:
        state = game.new_game(list(decks), seed)
        twin = game.new_game(list(decks), seed)
        if list(state.log) != list(twin.log) or state.legal_actions() != twin.legal_actions():
            fail(seed, 0, "new_game with the same seed gave a different game")
        rng = _random.Random(seed)
        actions = []
        for step in range(max_actions + 1):
            if state.is_terminal():
                if not state.end_reason:
                    fail(seed, step, "the game is over but end_reason is empty")
                break
            if step == max_actions:
                fail(seed, step, f"the game did not end within {max_actions} actions")
                break
            if state.end_reason or state.winner is not None:
                fail(seed, step, "end_reason or winner set while the game goes on")
            legal = state.legal_actions()
            if not legal:
                fail(seed, step, "no legal action while the game goes on")
                break
            if list(state.legal_actions()) != list(legal):
                fail(seed, step, "legal_actions() changed when asked twice")
            ok = shared_ok(state) if shared_ok else ()
            for seat in (0, 1):
                leaks = observation_leaks(state, state.observation(seat), ok)
                if leaks:
                    fail(seed, step, f"the observation of seat {seat} shares {leaks[0]}")
            me = state.current_player
            sample = game.sample_state(state.observation(me), _random.Random(step))
            if list(sample.legal_actions()) != list(legal):
                fail(seed, step, f"a determinization offers seat {me} other actions than the real state")
            before = (state.turn, state.current_player, len(state.log), list(legal))
            try:
                state.apply(_NotAnAction())
                fail(seed, step, "apply accepted an action that was not offered")
            except IllegalAction:
                pass
            if (state.turn, state.current_player, len(state.log), list(state.legal_actions())) != before:
                fail(seed, step, "a refused action changed the state")
            action = legal[rng.randrange(len(legal))]
            other = state.clone()
            other.apply(action)
            if (state.turn, state.current_player, len(state.log), list(state.legal_actions())) != before:
                fail(seed, step, f"applying {action} to a clone changed the original")
                actions = None
                break
            turn = state.turn
            try:
                state.apply(action)
            except IllegalAction as e:
                fail(seed, step, f"an offered action {action} was refused: {e}")
                actions = None
                break
            actions.append(action)
            if state.turn < turn:
                fail(seed, step, "the turn number went back")
        if actions is None:
            continue
        replayed = game.new_game(list(decks), seed)
        try:
            for a in actions:
                replayed.apply(a)
            if list(replayed.log) != list(state.log) or replayed.winner != state.winner:
                fail(seed, len(actions), "replaying (seed, actions) gave a different game")
        except IllegalAction as e:
            fail(seed, len(actions), f"replaying (seed, actions) failed: {e}")
    return problems
