"""Skirmish: a tiny but real card game for two to four players, with hidden hands, dice and
eliminations, for testing the engine without Solar Empires (it lives in tests/, not in cardsmith/games).

Each seat shuffles its deck (its own chance stream) and draws 3; life 10. A public die picks who
acts first; play goes round from there. On your turn you draw a card, then play up to two cards and
end the turn. Cards do what their `effect:` says: `{do: strike, power: K}` rolls a d6 against a seat
you choose and on roll + K >= 4 deals K + 1 damage (shield absorbs first); `{do: guard, amount: A}`
adds A shield; `{do: heal, amount: A}` adds A life (at most 12). A seat at 0 life is out; the last
seat in wins ("knockout"), the others ranked by when they went out. A seat with no cards at all at
the start of its turn ends the game: seats still in rank by life ("exhaustion"). After `turn_cap`
turns the game is a capped draw ("turn cap"). Hidden: other seats' hands, every deck's order.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import SeededChance, seat_stream
from cardsmith.engine.contract import (Chance, EffectSpec, Event, IllegalAction, Outcome, PositionError, RulesModule,
                                       card_effects)
from cardsmith.engine.kit import HIDDEN, OWNER, PUBLIC, SECRET, EventRecorder, TurnOrder, Zone, Zones, position_header
from cardsmith.sets.model import CardSet, Deck, frozen_map

NAME = "skirmish"
PLAYS_PER_TURN = 2
START_LIFE, MAX_LIFE, HAND = 10, 12, 3
# The effects of the fixture set's cards (tests/fixtures/engine/cards/skirmish), for tests without a set.
CARD_EFFECTS: dict[str, Mapping[str, Any]] = {
    "strike-1": {"do": "strike", "power": 1}, "strike-2": {"do": "strike", "power": 2},
    "strike-3": {"do": "strike", "power": 3}, "guard": {"do": "guard", "amount": 2}, "heal": {"do": "heal", "amount": 2},
}
CARDS = tuple(CARD_EFFECTS)
END = ("end",)


@dataclass(frozen=True)
class Obs:
    """What one seat may know."""

    seat: int
    to_act: tuple[int, ...]
    turn: tuple[tuple[str, Any], ...]
    plays_left: int
    life: tuple[int, ...]
    shield: tuple[int, ...]
    out_order: tuple[int, ...]
    zones: tuple[tuple[str, int | None, str, tuple[str, ...]], ...]  # masked: other seats' hidden cards are "?"
    decklists: tuple[tuple[str, ...], ...]  # public, sorted
    cap: int
    ended: tuple | None


class SkirmishState:
    def __init__(self, game: "Skirmish", seats: int, chance: Chance):
        self.game = game
        self.seats = seats
        self.chance = chance
        self.log: list[str] = []
        self.say = EventRecorder(self.log)
        self.zones = Zones()
        self.order = TurnOrder(range(seats))
        self.life = [START_LIFE] * seats
        self.shield = [0] * seats
        self.plays_left = PLAYS_PER_TURN
        self.out_order: list[int] = []
        self.decklists: tuple[tuple[str, ...], ...] = ()
        self._outcome: Outcome | None = None

    # -- the contract --
    @property
    def turn(self) -> int:
        return self.order.turn

    def to_act(self) -> tuple[int, ...]:
        return () if self._outcome else (self.order.seat,)

    def legal_actions(self, seat: int | None = None) -> tuple:
        if self._outcome or (seat is not None and seat != self.order.seat):
            return ()
        p = self.order.seat
        acts: list[tuple] = []
        if self.plays_left:
            foes = [s for s in self.order.alive() if s != p]
            for card in sorted(set(self.zones.of(p, "hand").cards)):
                if self.game.effect(card)["do"] == "strike":
                    acts += [("play", card, f) for f in foes]
                else:
                    acts.append(("play", card))
        return tuple(acts) + (END,)

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        if action not in self.legal_actions(self.order.seat if seat is None else seat):
            raise IllegalAction(f"{action} is not legal for seat {seat} now")
        p = self.order.seat
        if action == END:
            self.say("end", f"P{p} ends the turn")
            self._next_turn()
        else:
            self._play(p, action)
        return self.say.take()

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def returns(self) -> tuple[float, ...]:
        return self._outcome.returns() if self._outcome else (0.5,) * self.seats

    def observation(self, seat: int) -> Obs:
        masked = self.zones.masked(seat)
        return Obs(seat, self.to_act(), tuple(sorted(self.order.to_data().items(), key=str)), self.plays_left,
                   tuple(self.life), tuple(self.shield), tuple(self.out_order),
                   tuple((z.name, z.owner, z.visibility, tuple(sorted(z.cards) if z.visibility == SECRET and z.owner == seat else z.cards))
                         for z in masked),
                   self.decklists, self.game.cap, _outcome_data(self._outcome))

    def clone(self) -> "SkirmishState":
        c = SkirmishState(self.game, self.seats, self.chance.fork())
        c.log = list(self.log)
        c.say = EventRecorder(c.log)
        c.zones, c.order = self.zones.copy(), self.order.copy()
        c.life, c.shield, c.out_order = list(self.life), list(self.shield), list(self.out_order)
        c.plays_left, c.decklists, c._outcome = self.plays_left, self.decklists, self._outcome
        return c

    def position(self) -> dict[str, Any]:
        return {**position_header(NAME, self.seats), "turn_order": self.order.to_data(), "plays_left": self.plays_left,
                "life": list(self.life), "shield": list(self.shield), "out_order": list(self.out_order),
                "zones": self.zones.to_data(), "decklists": [list(d) for d in self.decklists],
                "ended": None if self._outcome is None else {"ranks": list(self._outcome.ranks), "reason": self._outcome.reason,
                                                             "capped": self._outcome.capped}}

    def cards_played(self, seat: int) -> frozenset[str]:
        return frozenset(self.zones.of(seat, "discard").cards)

    # -- the rules --
    def _play(self, p: int, action: tuple) -> None:
        card = action[1]
        self.zones.move(card, f"hand:{p}", f"discard:{p}")
        self.plays_left -= 1
        eff = self.game.effect(card)
        if eff["do"] == "strike":
            o, k = action[2], int(eff["power"])
            roll = self.chance.roll(6, f"P{p} strikes P{o}")
            if roll + k >= 4:
                damage = k + 1
                absorbed = min(self.shield[o], damage)
                self.shield[o] -= absorbed
                self.life[o] -= damage - absorbed
                self.say("damage", f"P{p} plays {card} at P{o}, rolls {roll}: hits for {damage} ({absorbed} absorbed), P{o} at {self.life[o]}",
                         seat=o, amount=damage - absorbed)
                if self.life[o] <= 0:
                    self._knock_out(o)
            else:
                self.say("miss", f"P{p} plays {card} at P{o}, rolls {roll}: misses")
        elif eff["do"] == "guard":
            self.shield[p] += int(eff["amount"])
            self.say("guard", f"P{p} plays {card}: shield {self.shield[p]}")
        else:
            self.life[p] = min(MAX_LIFE, self.life[p] + int(eff["amount"]))
            self.say("heal", f"P{p} plays {card}: life {self.life[p]}")

    def _knock_out(self, o: int) -> None:
        self.order.eliminate(o)
        self.out_order.append(o)
        self.say("out", f"P{o} is out")
        alive = self.order.alive()
        if len(alive) == 1:
            self._end(Outcome.placing([alive] + [[s] for s in reversed(self.out_order)], self.seats, "knockout"))

    def _end(self, outcome: Outcome) -> None:
        self._outcome = outcome
        who = "draw" if not outcome.winners else "P" + "/P".join(map(str, outcome.winners)) + " wins"
        self.say("end", f"Game over ({outcome.reason}): {who}")

    def _next_turn(self) -> None:
        if self.order.turn >= self.game.cap:
            self._end(Outcome.draw(self.seats, "turn cap", capped=True))
            return
        p = self.order.advance()
        self.plays_left = PLAYS_PER_TURN
        self.say("turn", f"-- Turn {self.order.turn}: P{p} --")
        if not self.zones.of(p, "hand").cards and not self.zones.of(p, "deck").cards:
            alive = self.order.alive()
            by_life = sorted({self.life[s] for s in alive}, reverse=True)
            groups = [[s for s in alive if self.life[s] == v] for v in by_life]
            self._end(Outcome.placing(groups + [[s] for s in reversed(self.out_order)], self.seats, "exhaustion"))
            return
        self.zones.draw(f"deck:{p}", f"hand:{p}")


def _outcome_data(o: Outcome | None) -> tuple | None:
    return None if o is None else (o.ranks, o.reason, o.capped)


class Skirmish:
    name = NAME

    def __init__(self, cap: int = 30, effects: Mapping[str, Mapping[str, Any]] | None = None):
        self.cap = cap
        self.effects = dict(effects or CARD_EFFECTS)
        self.rules = RULES

    def effect(self, card: str) -> Mapping[str, Any]:
        return self.effects[card]

    def _blank(self, seats: int, chance: Chance, decklists: Sequence[Sequence[str]]) -> SkirmishState:
        s = SkirmishState(self, seats, chance)
        s.decklists = tuple(tuple(sorted(d)) for d in decklists)
        for p in range(seats):
            s.zones.add(Zone(f"deck:{p}", p, SECRET))
            s.zones.add(Zone(f"hand:{p}", p, OWNER))
            s.zones.add(Zone(f"discard:{p}", p, PUBLIC))
        return s

    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None) -> SkirmishState:
        if not RULES.supports(len(decks)):
            raise ValueError(f"skirmish is for {RULES.players[0]}-{RULES.players[1]} players, not {len(decks)}")
        chance = chance if chance is not None else SeededChance(seed)
        s = self._blank(len(decks), chance, [list(d.cards("deck")) for d in decks])
        for p, d in enumerate(decks):
            pile = s.zones.of(p, "deck").cards
            pile[:] = sorted(d.cards("deck"))
            chance.shuffle(pile, f"P{p} shuffles", stream=seat_stream(p))
            s.zones.draw(f"deck:{p}", f"hand:{p}", HAND)
        first = chance.randrange(s.seats, "who acts first")
        s.order = TurnOrder([(first + i) % s.seats for i in range(s.seats)])
        s.log.append(f"-- Turn 1: P{first} --")
        s.zones.draw(f"deck:{first}", f"hand:{first}")
        return s

    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None, seed: int = 0) -> SkirmishState:
        data = dict(position)
        if data.get("game") != NAME:
            raise PositionError(f"the position is a {data.get('game')!r} game, not {NAME!r}")
        try:
            n = int(data["seats"])
            s = self._blank(n, chance if chance is not None else SeededChance(seed), data["decklists"])
            s.zones = Zones.from_data(data["zones"])
            s.order = TurnOrder.from_data(data["turn_order"])
            s.life, s.shield = [int(x) for x in data["life"]], [int(x) for x in data["shield"]]
            s.plays_left, s.out_order = int(data["plays_left"]), [int(x) for x in data["out_order"]]
            ended = data.get("ended")
            s._outcome = None if not ended else Outcome(tuple(ended["ranks"]), ended["reason"], bool(ended.get("capped")))
        except (KeyError, TypeError, ValueError) as e:
            raise PositionError(f"skirmish position: bad or missing entry {e}") from None
        for z in s.zones:
            for c in z.cards:
                if c not in self.effects:
                    raise PositionError(f"skirmish position: zone {z.name} holds '{c}', which is not a card of the set")
        return s

    def sample_state(self, obs: Obs, rng: random.Random) -> SkirmishState:
        s = self._blank(len(obs.life), SeededChance(rng.getrandbits(64)), obs.decklists)
        s.zones = Zones(Zone(name, owner, vis, list(cards)) for name, owner, vis, cards in obs.zones)
        for p in range(s.seats):  # each seat's unseen cards go back into that seat's hidden slots only
            mine = [z for z in s.zones if z.owner == p]
            known = Counter(c for z in mine for c in z.cards if c != HIDDEN)
            pool = list((Counter(obs.decklists[p]) - known).elements())
            rng.shuffle(pool)
            for z in mine:
                z.cards = [pool.pop() if c == HIDDEN else c for c in z.cards]
            own_deck = s.zones.of(p, "deck").cards
            if p == obs.seat:
                rng.shuffle(own_deck)  # the observer knows its deck's cards, not their order
        s.order = TurnOrder.from_data(dict(obs.turn))
        s.life, s.shield, s.plays_left, s.out_order = list(obs.life), list(obs.shield), obs.plays_left, list(obs.out_order)
        s._outcome = None if obs.ended is None else Outcome(*obs.ended)
        return s

    def heuristic(self, state: SkirmishState, seat: int) -> float:
        def score(p: int) -> float:
            if p in state.out_order:
                return -20.0
            return state.life[p] + 0.5 * state.shield[p] + 0.3 * len(state.zones.of(p, "hand").cards)
        others = [score(p) for p in range(state.seats) if p != seat]
        return score(seat) - sum(others) / len(others)


def make_game(cardset: CardSet | None = None) -> Skirmish:
    """A Skirmish game; with a set, its `play.turn_cap` and its cards' `effect:` entries."""
    if cardset is None:
        return Skirmish()
    cap = int(dict(cardset.meta.get("play") or {}).get("turn_cap", 30))
    effects = {c.id: card_effects(c)[0] for c in cardset.cards if card_effects(c)}
    return Skirmish(cap, effects)


def _no_strike_only_decks(cardset: CardSet):
    from cardsmith.engine.contract import Problem

    if cardset.cards and all(card_effects(c) and card_effects(c)[0].get("do") == "strike" for c in cardset.cards):
        yield Problem("every card strikes: nobody can ever guard or heal", hint="give some card a guard or heal effect")


RULES = RulesModule(
    name=NAME, title="Skirmish (the engine's test game)", players=(2, 4), make_game=make_game,
    play_schema={"type": "object", "properties": {"turn_cap": {"type": "integer", "minimum": 1}}, "additionalProperties": False},
    effects={
        "strike": EffectSpec("strike", {"power": {"type": "integer", "minimum": 0, "maximum": 6}}, doc="roll d6 + power >= 4: power + 1 damage"),
        "guard": EffectSpec("guard", {"amount": {"type": "integer", "minimum": 1}}, doc="gain shield"),
        "heal": EffectSpec("heal", {"amount": {"type": "integer", "minimum": 1}}, doc="gain life, at most 12"),
    },
    effect_types=("card",),
    validate=_no_strike_only_decks,
)


def deck(name: str, **counts: int) -> Deck:
    """A Skirmish deck: deck("aggro", strike_2=4, guard=2) (underscores for hyphens)."""
    zone = {k.replace("_", "-"): v for k, v in counts.items()}
    return Deck(name=name, set_id="skirmish", zones=frozen_map({"deck": frozen_map(zone)}))


AGGRO = deck("aggro", strike_1=3, strike_2=4, strike_3=3, heal=2)
TURTLE = deck("turtle", strike_1=2, strike_2=3, strike_3=2, guard=3, heal=3)
