"""A base for small turn-based card games whose whole state is zones, a turn order and a few plain fields.

A game built on it writes only its rules: `TableState.actions(seat)` (what the seat to act may do),
`TableState.play(seat, action)` (what an action does, ending with `self.result = ...` when the game
is over) and `TableGame.setup(state, decks)` (the zones, the deal, who starts). The base supplies the
rest of the contract: `to_act`, a checked `apply` that returns the events, the turn cap
(`play: {turn_cap: N}`), `observation` (the position with what the seat may not see masked),
`position` / `from_position`, `clone`, `cards_played` (a seat's `played:<seat>` zone), and
`sample_state`. How hidden cards are dealt in a determinization follows the game's declared
`deck_mode`: `COMMON` (the default: one pool, such as a common deck; every hidden slot is dealt from
the cards the observer has not seen) or `PER_SEAT` (each seat plays its own deck: a hidden card in a
zone of seat s is dealt only from seat s's own cards, so no seat is ever imagined holding a rival's
card). A per-seat game keeps each seat's cards in zones that seat owns (`Zones.for_seats(..., each=...)`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import Action, Chance, Event, IllegalAction, Outcome, PositionError, card_effects
from cardsmith.engine.kit.events import EventRecorder
from cardsmith.engine.kit.positions import plain_copy, position_header
from cardsmith.engine.kit.results import CAP_REASON, ResultState
from cardsmith.engine.kit.turns import TurnOrder
from cardsmith.engine.kit.zones import HIDDEN, Zones
from cardsmith.sets.model import CardSet, Deck


COMMON, PER_SEAT = "common", "per seat"  # TableGame.deck_mode: one pool of hidden cards, or one per seat


def ranked(scores: Sequence[float], reason: str) -> Outcome:
    """The outcome of a game won on points: seats placed by score, equal scores sharing a place."""
    best_first = sorted(set(scores), reverse=True)
    return Outcome.placing([[s for s, v in enumerate(scores) if v == b] for b in best_first], len(scores), reason)


class TableState(ResultState):
    """One game in progress. Subclasses name their plain-data attributes in `fields` (kept in positions)
    and write `actions` and `play`; `self.say(kind, text)` records an event."""

    fields: tuple[str, ...] = ()

    def __init__(self, game: "TableGame", seats: int, chance: Chance, log: Sequence[str] = ()):
        self.game, self.seats, self.chance = game, seats, chance
        self.log: list[str] = list(log)
        self.say = EventRecorder(self.log)
        self.zones, self.order, self.result = Zones(), TurnOrder(range(seats)), None
        # Every card of the game (the public deck lists), for determinizations: one list (COMMON), or
        # one list per seat (PER_SEAT: the cards in that seat's zones at setup).
        self.cards: list[Any] = []

    @property
    def turn(self) -> int:
        return self.order.turn

    def actions(self, seat: int) -> Sequence[Action]:
        """The actions open to `seat`, the seat to act, in a deterministic order."""
        raise NotImplementedError

    def play(self, seat: int, action: Action) -> None:
        """Do `action` for `seat` (already checked legal): move cards, score, `self.order.advance()`."""
        raise NotImplementedError

    def to_act(self) -> tuple[int, ...]:
        return () if self.result else (self.order.seat,)

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        if self.result or seat not in (None, self.order.seat):
            return ()
        return tuple(self.actions(self.order.seat))

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"{action} is not legal for seat {seat} now")
        self.play(self.order.seat, action)
        if self.result is None and self.order.turn > self.game.cap:
            self.result = Outcome.draw(self.seats, CAP_REASON, capped=True)
        if self.result:
            self.say("end", f"Game over ({self.result.reason})")
        return self.say.take()

    def observation(self, seat: int) -> dict[str, Any]:
        """The position as `seat` may know it: cards it may not see are HIDDEN (counts stay visible)."""
        return {"seat": seat, "position": self._data(self.zones.masked(seat))}

    def position(self) -> dict[str, Any]:
        return self._data(self.zones)

    def clone(self) -> "TableState":
        return self.game.from_position(self.position(), chance=self.chance.fork(), log=self.log)

    def cards_played(self, seat: int) -> frozenset[str]:
        name = f"played:{seat}"
        return frozenset(self.zones[name].cards) if name in self.zones else frozenset()

    def _data(self, zones: Zones) -> dict[str, Any]:
        r = self.result
        ended = r and {"ranks": list(r.ranks), "reason": r.reason, "capped": r.capped}
        return {**position_header(self.game.name, self.seats), "cards": plain_copy(self.cards), "order": self.order.to_data(),
                **{f: plain_copy(getattr(self, f)) for f in self.fields}, "zones": zones.to_data(), "ended": ended}


class TableGame:
    """A `TableState` game bound to one set: `effects[card id]` (the card's `effect:` entries as a tuple)
    and `cap` (the set's `play: {turn_cap: N}`, default `turn_cap`). Subclasses set `name`, `state`
    (their TableState class), `turn_cap` and `deck_mode` (COMMON or PER_SEAT), and write `setup` and
    `heuristic`."""

    name: str
    state: type[TableState] = TableState
    turn_cap = 100
    deck_mode = COMMON

    def __init__(self, rules: Any, cardset: CardSet):
        self.rules = rules
        self.effects = {card.id: card_effects(card) for card in cardset.cards}
        self.cap = int(dict(cardset.meta.get("play") or {}).get("turn_cap", self.turn_cap))

    def setup(self, state: TableState, decks: Sequence[Deck]) -> None:
        """Fill `state.zones`, deal, set the plain fields and `state.order` (who starts) through `state.chance`."""
        raise NotImplementedError

    def heuristic(self, state: TableState, seat: int) -> float:
        raise NotImplementedError

    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None) -> TableState:
        state = self.state(self, len(decks), chance or SeededChance(seed))
        self.setup(state, decks)
        if self.deck_mode == PER_SEAT:
            shared = [z.name for z in state.zones if z.owner is None and z.cards]
            if shared:
                raise ValueError(f"{self.name}: deck_mode is PER_SEAT but setup put cards in the shared zone "
                                 f"{shared[0]!r}; every card must start in a zone of its owner's")
            state.cards = [sorted(c for z in state.zones if z.owner == s for c in z.cards) for s in range(state.seats)]
        else:
            state.cards = sorted(c for zone in state.zones for c in zone.cards)
        return state

    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None, seed: int = 0,
                      log: Sequence[str] = ()) -> TableState:
        try:
            state = self.state(self, int(position["seats"]), chance or SeededChance(seed), log)
            state.order, state.cards = TurnOrder.from_data(position["order"]), plain_copy(list(position["cards"]))
            state.zones = Zones.from_data(position["zones"])
            for f in state.fields:
                setattr(state, f, plain_copy(position[f]))
            ended = position.get("ended")
            state.result = Outcome(tuple(ended["ranks"]), ended["reason"], bool(ended["capped"])) if ended else None
        except (KeyError, TypeError, ValueError) as e:
            raise PositionError(f"{self.name} position: bad or missing entry {e}") from None
        unknown = sorted({c for z in state.zones for c in z.cards} - set(self.effects) - {HIDDEN})
        if unknown:
            raise PositionError(f"{self.name} position: {unknown[0]!r} is not a card of the set")
        return state

    def sample_state(self, observation: Mapping[str, Any], rng: random.Random) -> TableState:
        """A full state that agrees with the observation, every hidden slot dealt from the unseen cards
        (PER_SEAT: a seat's hidden slots from its own deck's unseen cards only)."""
        position = observation["position"]
        masked = Zones.from_data(position["zones"])
        state = self.from_position(position, seed=rng.getrandbits(64))
        if self.deck_mode == PER_SEAT:
            pools = {}
            for seat, own in enumerate(position["cards"]):
                seen = Counter(c for z in masked if z.owner == seat for c in z.cards if c != HIDDEN)
                pools[seat] = list((Counter(own) - seen).elements())
            state.zones = masked.redeal_by_owner(pools, rng)
            return state
        seen = Counter(c for zone in masked for c in zone.cards if c != HIDDEN)
        state.zones = masked.redeal((Counter(position["cards"]) - seen).elements(), rng)
        return state
