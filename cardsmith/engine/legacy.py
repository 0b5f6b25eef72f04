"""A bridge for game modules written before the contract (two seats, `current_player`, `winner`).

It lets the runner, agents and reports speak only `cardsmith.engine.contract` while a bundled game
is still being moved onto it. Such a game cannot start from a position; everything else maps:
`to_act()` is `(current_player,)`, legal actions become a tuple, `apply` checks them afresh, the end
becomes an `Outcome` (a "turn cap" end is a capped draw). Remove this module when no game needs it.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

from cardsmith.engine.contract import Chance, Event, Game, IllegalAction, Outcome, PositionError, RulesModule
from cardsmith.model import CardSet, Deck

SEATS = 2


class LegacyState:
    """A contract `GameState` around an old two-player state."""

    __slots__ = ("inner", "seats")

    def __init__(self, inner: Any):
        self.inner = inner
        self.seats = SEATS

    @property
    def turn(self) -> int:
        return self.inner.turn

    @property
    def log(self) -> list[str]:
        return self.inner.log

    def to_act(self) -> tuple[int, ...]:
        return () if self.inner.is_terminal() else (self.inner.current_player,)

    def legal_actions(self, seat: int | None = None) -> tuple:
        acting = self.to_act()
        if not acting or (seat is not None and seat not in acting):
            return ()
        return tuple(self.inner.legal_actions())

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        acting = self.to_act()
        if not acting:
            raise IllegalAction(f"the game is over; {action} is not legal")
        if seat is not None and seat not in acting:
            raise IllegalAction(f"seat {seat} is not to act (seat {acting[0]} is)")
        if action not in self.inner.legal_actions():
            raise IllegalAction(f"{action} is not a legal action for seat {acting[0]} now")
        self.inner.apply(action)
        return ()

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def outcome(self) -> Outcome | None:
        if not self.inner.is_terminal():
            return None
        reason = self.inner.end_reason
        if self.inner.winner is None:
            return Outcome.draw(SEATS, reason, capped=reason == "turn cap")
        return Outcome.win(self.inner.winner, SEATS, reason)

    def returns(self) -> tuple[float, ...]:
        o = self.outcome()
        return o.returns() if o else (0.5,) * SEATS

    def observation(self, seat: int) -> Any:
        return self.inner.observation(seat)

    def clone(self) -> "LegacyState":
        return LegacyState(self.inner.clone())

    def position(self) -> dict[str, Any]:
        raise PositionError("this game has not moved onto the game contract yet, so it has no positions")

    def cards_played(self, seat: int) -> frozenset[str]:
        return frozenset(self.inner.cards_played(seat))


class LegacyGame:
    """A contract `Game` around an old game object (`new_game(decks, seed)`)."""

    def __init__(self, inner: Any, rules: RulesModule):
        self.inner = inner
        self.rules = rules
        self.name = inner.name

    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None) -> LegacyState:
        return LegacyState(self.inner.new_game(list(decks), seed))

    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None, seed: int = 0) -> LegacyState:
        raise PositionError(f"{self.name} has not moved onto the game contract yet: it cannot start from a position")

    def sample_state(self, observation: Any, rng: Any) -> LegacyState:
        return LegacyState(self.inner.sample_state(observation, rng))

    def heuristic(self, state: LegacyState, seat: int) -> float:
        return self.inner.heuristic(state.inner, seat)


def legacy_rules(name: str, module: Any) -> RulesModule:
    """A `RulesModule` for an old module exposing `make_game(cardset)`."""
    holder: dict[str, RulesModule] = {}

    def make_game(cardset: CardSet) -> Game:
        return cast(Game, LegacyGame(module.make_game(cardset), holder["rules"]))

    rules = RulesModule(name=name, title=name.replace("_", " ").title(), players=(2, 2), make_game=make_game,
                        play_schema={"type": "object", "properties": {"turn_cap": {"type": "integer", "minimum": 1}}},
                        doc="(a game module from before the contract, played through cardsmith.engine.legacy)")
    holder["rules"] = rules
    return rules
