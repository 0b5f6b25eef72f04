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
