"""A decision stack for choices that take several steps (choose blockers, assign damage, ask allies).

The rules push a `Decision` for the seat that must choose; `legal_actions` answers the top one; the
choice pops it (and may push the next). A decision that interrupts another (a defender asked to
answer an ally request in the middle of an attack) goes on top and is answered first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Decision:
    """Seat `seat` must choose `kind` (a name the game's legal-action code knows); `data` gives the
    particulars (which attack, how much damage is left to place), as plain data for positions."""

    seat: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "data": dict(self.data)}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> "Decision":
        return cls(int(d["seat"]), str(d["kind"]), dict(d.get("data") or {}))


class DecisionStack:
    """Pending decisions, the one to answer now on top."""

    __slots__ = ("_items",)

    def __init__(self, items: list[Decision] | None = None):
        self._items: list[Decision] = list(items or [])

    def push(self, decision: Decision) -> None:
        self._items.append(decision)

    def pop(self) -> Decision:
        return self._items.pop()

    def top(self) -> Decision | None:
        return self._items[-1] if self._items else None

    def replace_top(self, decision: Decision) -> None:
        self._items[-1] = decision

    def __bool__(self) -> bool:
        return bool(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def copy(self) -> "DecisionStack":
        return DecisionStack(self._items)

    def to_data(self) -> list[dict[str, Any]]:
        return [d.to_data() for d in self._items]

    @classmethod
    def from_data(cls, data: list) -> "DecisionStack":
        return cls([Decision.from_data(d) for d in data])
