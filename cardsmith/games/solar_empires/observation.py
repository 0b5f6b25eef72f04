"""What one seat may know, and determinization: a full state consistent with an observation."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from cardsmith.engine.chance import LookaheadChance, shuffled
from cardsmith.games.solar_empires.cards import POSITIONS, SEATS

if TYPE_CHECKING:
    from cardsmith.engine.contract import Chance
    from cardsmith.games.solar_empires.cards import Table

S = TypeVar("S", bound="Copyable")


class Copyable(Protocol):
    """What an observation reads of a state: the board's zones (`board.Board`) and the contract's
    `clone` (`state.SolarState` has both; named by this protocol, as the state imports this module)."""

    t: Table
    chance: Chance
    _legal: tuple | None
    turn: int
    priority: int
    current_player: int
    dec: str | None
    deck: list[list[int]]
    hand: list[list[int]]
    disc: list[list[int]]
    ships: list[list[int]]
    events: list[list[int]]
    at: list[int]
    dmg: list[int]
    planet: list[int]
    ctrl: list[int]
    bldg: list[int]

    def clone(self: S, keep_log: bool = True, keep_chance: bool = True) -> S: ...


class Observation(Generic[S]):
    """What one seat may know: a copy of the state without chance, the log, or the opponent's hand
    and deck (only their sizes). `hand` and `deck` (top first) are the seat's own card ids; `public()`
    summarises the table for readable agents. Deck lists are open (as with registered tournament
    lists): the opponent's fleet is known, not where its cards are."""

    __slots__ = ("player", "turn", "current_player", "decision", "opp_hand", "opp_deck", "_masked")

    def __init__(self, state: S, player: int):
        o = 1 - player
        self.player = player
        self.turn = state.turn
        self.current_player = state.current_player
        self.decision = state.dec
        self.opp_hand = len(state.hand[o])
        self.opp_deck = len(state.deck[o])
        m = state.clone(keep_log=False, keep_chance=False)
        m._legal = None
        m.hand[o] = []
        m.deck[o] = []
        self._masked = m

    @property
    def seat(self) -> int:
        return self.player

    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(self._masked.t.ids(self._masked.hand[self.player]))

    @property
    def deck(self) -> tuple[str, ...]:
        """The seat's own fleet deck, top card first (they chose its order)."""
        return tuple(self._masked.t.ids(self._masked.deck[self.player][::-1]))

    def public(self) -> dict[str, Any]:
        """A readable summary of the table (planets, ships in play, discards, counts)."""
        s = self._masked
        info = s.t.info
        return {
            "turn": self.turn, "priority": s.priority, "decision": self.decision,
            "planets": [None if s.planet[i] < 0 else {
                "position": i + 1, "planet": info[s.planet[i]].id, "controller": s.ctrl[i],
                "building": info[s.bldg[i]].id if s.bldg[i] >= 0 else None} for i in range(POSITIONS)],
            "ships": [[(info[i].id, s.at[i] + 1 if s.at[i] >= 0 else None, s.dmg[i]) for i in s.ships[p]] for p in SEATS],
            "discard": [s.t.ids(s.disc[p]) for p in SEATS],
            "hand": list(self.hand), "deck": list(self.deck),
            "hand_counts": [len(s.hand[p]) if p == self.player else self.opp_hand for p in SEATS],
            "deck_counts": [len(s.deck[p]) if p == self.player else self.opp_deck for p in SEATS],
        }


def sample_state(observation: Observation[S], rng: random.Random) -> S:
    """A full state consistent with `observation`: the opponent's unseen cards (their deck list minus
    every public card) dealt at random into their hand and deck; fresh chance drawn from `rng`
    (`LookaheadChance`: the agent's own imagined dice)."""
    s = observation._masked.clone(keep_log=False, keep_chance=False)
    s.chance = LookaheadChance(rng.getrandbits(64))
    s._legal = None
    o = 1 - observation.player
    public = set(s.disc[o])
    public.update(s.ships[o], s.events[o], s.bldg)
    pool = shuffled([i for i in s.t.fleet[o] if i not in public], rng)
    k = observation.opp_hand
    s.hand[o] = pool[:k]
    # Only as many as the opponent's deck holds: before the fleets are ordered it holds none.
    s.deck[o] = pool[k:k + observation.opp_deck]
    return s
