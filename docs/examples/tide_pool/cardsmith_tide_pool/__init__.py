"""Tide Pool, the game of cardsmith's tutorial (docs/tutorial-game.md).

Two to four players share one face-down deck. Each draws three cards. In turn, a player plays one
card from hand and does what its `effect:` says - `{do: score, points: N}` scores N, `{do: draw,
cards: N}` draws N more - then draws one. When the player to act has no card left, the highest
score wins (equal scores share their place). Who starts is a public die roll.
"""

from __future__ import annotations

from collections import Counter

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import EffectSpec, IllegalAction, Outcome, PositionError, RulesModule, card_effects
from cardsmith.engine.kit import HIDDEN, OWNER, PUBLIC, SECRET, EventRecorder, TurnOrder, Zone, Zones, position_header

NAME, HAND = "tide_pool", 3


class TidePool:
    """One game in progress: a shared deck, a hand and a score per seat."""

    def __init__(self, game, seats, chance):
        self.game, self.seats, self.chance = game, seats, chance
        self.log, self.score, self.result = [], [0] * seats, None
        self.say = EventRecorder(self.log)
        self.cards: list[str] = []  # every card of the common deck (public: the deck list is known)
        self.zones = Zones([Zone("deck", None, SECRET)] + [Zone(f"{kind}:{s}", s, vis)
                           for s in range(seats) for kind, vis in (("hand", OWNER), ("played", PUBLIC))])
        self.order = TurnOrder(range(seats))

    turn = property(lambda self: self.order.turn)

    def to_act(self):
        return () if self.result else (self.order.seat,)

    def legal_actions(self, seat=None):
        if self.result or seat not in (None, self.order.seat):
            return ()
        return tuple(("play", c) for c in sorted(set(self.zones.of(self.order.seat, "hand").cards)))

    def apply(self, action, seat=None):
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"{action} is not legal for seat {seat} now")
        p, card = self.order.seat, action[1]
        self.zones.move(card, f"hand:{p}", f"played:{p}")
        effect = self.game.effects[card]
        if effect["do"] == "score":
            self.score[p] += effect["points"]
        else:
            self.zones.draw("deck", f"hand:{p}", effect["cards"])
        self.say("play", f"P{p} plays {card}: score {self.score[p]}")
        self.zones.draw("deck", f"hand:{p}")
        self._next()
        return self.say.take()

    def _next(self):
        if self.order.turn >= self.game.cap:
            self.result = Outcome.draw(self.seats, "turn cap", capped=True)
        elif not self.zones.of(self.order.advance(), "hand").cards:
            scores = sorted(set(self.score), reverse=True)
            self.result = Outcome.placing([[s for s in range(self.seats) if self.score[s] == v] for v in scores],
                                          self.seats, "hands empty")
        if self.result:
            self.say("end", f"Game over ({self.result.reason}): scores {self.score}")

    def is_terminal(self):
        return self.result is not None

    def outcome(self):
        return self.result

    def returns(self):
        return self.result.returns() if self.result else (0.5,) * self.seats

    def observation(self, seat):
        """What `seat` sees: its own hand, the played cards, scores, and how many cards are hidden."""
        return {"seat": seat, "position": self._data(self.zones.masked(seat))}

    def clone(self):
        return self.game.from_position(self.position(), chance=self.chance.fork(), log=self.log)

    def position(self):
        return self._data(self.zones)

    def _data(self, zones):
        ended = self.result and {"ranks": list(self.result.ranks), "reason": self.result.reason, "capped": self.result.capped}
        return {**position_header(NAME, self.seats), "cards": list(self.cards), "order": self.order.to_data(),
                "score": list(self.score), "zones": zones.to_data(), "ended": ended}

    def cards_played(self, seat):
        return frozenset(self.zones.of(seat, "played").cards)


class TidePoolGame:
    """Tide Pool bound to one card set: the effects of its cards and its turn cap."""

    name = NAME

    def __init__(self, effects, cap):
        self.effects, self.cap, self.rules = effects, cap, RULES

    def new_game(self, decks, seed, *, chance=None):
        state = TidePool(self, len(decks), chance or SeededChance(seed))
        state.cards = sorted(decks[0].cards())  # a common deck: every seat was given the same one
        deck = state.zones["deck"].cards
        deck[:] = state.cards
        state.chance.shuffle(deck, "the shared deck", stream="deck")
        for s in range(state.seats):
            state.zones.draw("deck", f"hand:{s}", HAND)
        first = state.chance.roll(state.seats, "who starts") - 1
        state.order = TurnOrder([(first + i) % state.seats for i in range(state.seats)])
        state.log.append(f"P{first} starts")
        return state

    def from_position(self, position, *, chance=None, seed=0, log=()):
        try:
            state = TidePool(self, int(position["seats"]), chance or SeededChance(seed))
            state.order, state.score = TurnOrder.from_data(position["order"]), list(position["score"])
            state.cards, state.zones = list(position["cards"]), Zones.from_data(position["zones"])
            ended = position.get("ended")
            state.result = Outcome(tuple(ended["ranks"]), ended["reason"], ended["capped"]) if ended else None
        except (KeyError, TypeError, ValueError) as e:
            raise PositionError(f"tide pool position: bad or missing entry {e}") from None
        state.log = list(log)
        state.say = EventRecorder(state.log)
        return state

    def sample_state(self, observation, rng):
        masked = Zones.from_data(observation["position"]["zones"])
        seen = Counter(c for z in masked for c in z.cards if c != HIDDEN)
        unseen = list((Counter(observation["position"]["cards"]) - seen).elements())
        state = self.from_position(observation["position"], seed=rng.getrandbits(64))
        state.zones = masked.redeal(unseen, rng)
        return state

    def heuristic(self, state, seat):
        return state.score[seat] - max(s for t, s in enumerate(state.score) if t != seat)


def make_game(cardset):
    """The game for a set: each card's effect, and the set's `play: {turn_cap: N}`."""
    effects = {card.id: card_effects(card)[0] for card in cardset.cards}
    return TidePoolGame(effects, dict(cardset.meta.get("play") or {}).get("turn_cap", 60))


RULES = RulesModule(
    name=NAME, title="Tide Pool", players=(2, 4), make_game=make_game,
    play_schema={"type": "object", "additionalProperties": False,
                 "properties": {"turn_cap": {"type": "integer", "minimum": 1}}},
    effects={"score": EffectSpec("score", {"points": {"type": "integer", "minimum": 0}}),
             "draw": EffectSpec("draw", {"cards": {"type": "integer", "minimum": 1, "maximum": 3}})},
    effect_types=("card",),  # every card must say what it does
)
