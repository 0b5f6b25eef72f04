"""A registry of a game's steps, for games that keep their pending work as a stack of plain-data entries.

Each entry is a mapping with a `kind` (and the `seat` that decides, for a decision). A decision kind
has a legal-actions function and an apply function; an automatic step (kind starting with "@") has
a run function; `on_empty` names what runs when the stack is empty (the next turn). Rules modules
register their steps on one `Steps` object, so a state's code does not depend on (nor import) the
modules that define them, and positions hold only plain data.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

S = TypeVar("S")
Entry = dict[str, Any]


class Steps(Generic[S]):
    """`decisions[kind] = (legal, apply)`; `autos[kind] = run`; `empty(state)` when the stack is empty."""

    def __init__(self) -> None:
        self.decisions: dict[str, tuple[Callable[[S, Entry], tuple], Callable[[S, Entry, tuple], None]]] = {}
        self.autos: dict[str, Callable[[S, Entry], None]] = {}
        self.empty: Callable[[S], None] = _nothing_registered

    def on_empty(self, fn: Callable[[S], None]) -> Callable[[S], None]:
        """Register what runs when the stack is empty (as a rule, the next turn: it pushes its steps)."""
        self.empty = fn
        return fn

    def decision(self, kind: str, legal: Callable[[S, Entry], tuple]) -> Callable[[Callable[[S, Entry, tuple], None]], Callable[[S, Entry, tuple], None]]:
        """Register the apply function of decision `kind`, with its legal-actions function."""
        def deco(fn: Callable[[S, Entry, tuple], None]) -> Callable[[S, Entry, tuple], None]:
            self.decisions[kind] = (legal, fn)
            return fn
        return deco

    def auto(self, kind: str) -> Callable[[Callable[[S, Entry], None]], Callable[[S, Entry], None]]:
        """Register an automatic step (its kind starts with "@")."""
        if not kind.startswith("@"):
            raise ValueError(f"automatic step names start with @: {kind}")

        def deco(fn: Callable[[S, Entry], None]) -> Callable[[S, Entry], None]:
            self.autos[kind] = fn
            return fn
        return deco


def _nothing_registered(state: Any) -> None:
    raise RuntimeError("the stack of steps is empty and no module registered what comes next (Steps.on_empty)")
