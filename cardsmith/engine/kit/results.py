"""How a game that records its winner and end reason reports its `Outcome` and returns."""

from __future__ import annotations

from cardsmith.engine.contract import Outcome

CAP_REASON = "turn cap"


def ended(winner: int | None, reason: str, seats: int = 2) -> Outcome | None:
    """None while `reason` is empty; a win for `winner`, or a draw (capped when the reason is the turn cap)."""
    if not reason:
        return None
    if winner is None:
        return Outcome.draw(seats, reason, capped=reason == CAP_REASON)
    return Outcome.win(winner, seats, reason)


def returns_of(outcome: Outcome | None, seats: int = 2) -> tuple[float, ...]:
    """`outcome.returns()`, or an even share for every seat while the game goes on."""
    return (0.5,) * seats if outcome is None else outcome.returns()


class ResultState:
    """`is_terminal`, `outcome` and `returns` for a state that keeps its `Outcome` in `self.result`
    (None while the game goes on) and its seat count in `self.seats`."""

    __slots__ = ()  # so that a subclass with slots has no __dict__
    result: Outcome | None
    seats: int

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def returns(self) -> tuple[float, ...]:
        return returns_of(self.result, self.seats)


class WinnerState:
    """`is_terminal`, `outcome` and `returns` for a two-seat state that keeps its `winner` (a seat, or
    None for a draw) and `end_reason` (empty while the game goes on)."""

    __slots__ = ()  # so that a subclass with slots (Solar Empires' state) has no __dict__
    winner: int | None
    end_reason: str

    def is_terminal(self) -> bool:
        return bool(self.end_reason)

    def outcome(self) -> Outcome | None:
        return ended(self.winner, self.end_reason)

    def returns(self) -> tuple[float, ...]:
        return returns_of(self.outcome())
