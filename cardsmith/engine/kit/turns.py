"""Turn order among N seats: clockwise or reversed, seats leaving the game, the turn count."""

from __future__ import annotations

from typing import Any, Sequence


class TurnOrder:
    """Whose turn it is. `order` lists the seats in playing order; `active` indexes it.

    `advance()` moves to the next seat still in the game and counts a new round when the order wraps
    (`round`); `turn` counts every turn taken (what statistics call game length).
    """

    __slots__ = ("order", "active", "out", "turn", "round")

    def __init__(self, order: Sequence[int], active: int = 0, out: Sequence[int] = (), turn: int = 1, round: int = 1):
        self.order = list(order)
        self.active = active
        self.out = set(out)
        self.turn = turn
        self.round = round

    @property
    def seat(self) -> int:
        return self.order[self.active]

    def alive(self) -> list[int]:
        return [s for s in self.order if s not in self.out]

    def eliminate(self, seat: int) -> None:
        self.out.add(seat)

    def next_seat(self, seat: int | None = None) -> int:
        """The seat after `seat` (default: the active one) that is still in the game."""
        i = self.order.index(self.seat if seat is None else seat)
        for step in range(1, len(self.order) + 1):
            s = self.order[(i + step) % len(self.order)]
            if s not in self.out:
                return s
        raise ValueError("no seat left in the game")

    def advance(self) -> int:
        nxt = self.next_seat()
        j = self.order.index(nxt)
        if j <= self.active:
            self.round += 1
        self.active = j
        self.turn += 1
        return nxt

    def copy(self) -> "TurnOrder":
        return TurnOrder(self.order, self.active, sorted(self.out), self.turn, self.round)

    def to_data(self) -> dict[str, Any]:
        return {"order": list(self.order), "active": self.active, "out": sorted(self.out), "turn": self.turn, "round": self.round}

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> "TurnOrder":
        return cls(d["order"], d.get("active", 0), d.get("out", ()), d.get("turn", 1), d.get("round", 1))
