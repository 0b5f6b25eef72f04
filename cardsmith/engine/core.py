"""The rules engine contract: what a game's state and a game module provide.

The shape follows OpenSpiel and python-chess. A rules module under `cardsmith.games` implements
`Game` and `GameState`; agents, the match runner, statistics and reports use only this protocol.
"""

from __future__ import annotations

import random
from typing import Any, Hashable, Protocol, Sequence

from cardsmith.model import Deck


from cardsmith.engine.contract import IllegalAction  # noqa: E402  (one class for old and new games)


# Games choose their action type; it must have a readable str() and be picklable.
Action = Hashable


class GameState(Protocol):
    """One game in progress (or finished). All chance is drawn from the state's own seeded generator."""

    current_player: int  # 0 or 1 (a two-player game); meaningless when terminal
    turn: int  # 1-based turn number
    winner: int | None  # set when terminal; None = draw
    end_reason: str  # "" while playing; e.g. "conquest", "exhaustion", "turn cap", "black hole"
    log: list[str]  # readable account, one line per event (turn headers included)

    def legal_actions(self) -> list[Action]:
        """Never empty while not terminal; deterministic order."""
        ...

    def apply(self, action: Action) -> None:
        """Play `action`; game chance (dice, shuffles) comes from the state's own seeded random.Random."""
        ...

    def clone(self) -> "GameState":
        """Deep enough that applying to the clone never changes self."""
        ...

    def is_terminal(self) -> bool: ...

    def observation(self, player: int) -> Any:
        """Only what `player` may know: own hand and the deck contents/order they chose, public zones,
        counts of hidden zones; never the opponent's hand or deck order."""
        ...

    def cards_played(self, player: int) -> set[str]:
        """Card ids this player put into play (for per-card impact)."""
        ...


class Game(Protocol):
    """A game's rules for one card set."""

    name: str

    def new_game(self, decks: Sequence[Deck], seed: int) -> GameState:
        """decks[i] is seat i; seat 0 is the first player."""
        ...

    def sample_state(self, observation: Any, rng: random.Random) -> GameState:
        """Determinization: a full state consistent with the observation, hidden parts sampled with rng."""
        ...

    def heuristic(self, state: GameState, player: int) -> float:
        """Higher = better for player (greedy choices and search rollouts)."""
        ...
