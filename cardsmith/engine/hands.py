"""Which cards each seat held during a game, followed as it is played (for observational figures).

A `HandTracker` is handed the state after setup and after every action. It reads the rules module's
`cards_in_hand(state, seat)`: a card counts as drawn if it was ever in the seat's hand; the opening
hand is the hand when the state first names its `first_player` (straight after setup for a game
whose state does not say)."""

from __future__ import annotations

from typing import Any, Callable

from cardsmith.engine.contract import first_player, names_first_player

Hand = Callable[[Any, int], frozenset[str]]
Hands = tuple[tuple[frozenset[str], ...], tuple[frozenset[str], ...]]  # (opening, drawn) per seat


class HandTracker:
    """Call it with the state after setup and after each action; `result()` gives (opening, drawn)."""

    def __init__(self, hand: Hand, seats: int):
        self.hand, self.seats = hand, range(seats)
        self.seen: list[set[str]] = [set() for _ in self.seats]
        self.opening: tuple[frozenset[str], ...] | None = None
        self.timed: bool | None = None

    def __call__(self, state: Any) -> None:
        if self.timed is None:  # the state after setup
            self.timed = names_first_player(state)
            self.seen = [set(self.hand(state, s)) for s in self.seats]
            if not self.timed:
                self.opening = tuple(frozenset(x) for x in self.seen)
            return
        for s in self.seats:
            self.seen[s] |= self.hand(state, s)
        if self.opening is None and first_player(state) is not None:
            self.opening = tuple(self.hand(state, s) for s in self.seats)

    def result(self) -> Hands:
        final = tuple(frozenset(x) for x in self.seen)
        return (self.opening if self.opening is not None else final), final
