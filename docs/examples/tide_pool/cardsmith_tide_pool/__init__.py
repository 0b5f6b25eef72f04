"""Tide Pool, the game of cardsmith's tutorial (docs/tutorial-game.md).

Two to four players share one face-down deck. Each draws three cards. In turn, a player plays one
card from hand and does what its `effect:` says - `{do: score, points: N}` scores N, `{do: draw,
cards: N}` draws N more - then draws one. When the player to act has no card left, the highest
score wins (equal scores share their place). Who starts is a public die roll.
"""

from cardsmith.engine.contract import EffectSpec, RulesModule
from cardsmith.engine.kit import OWNER, PUBLIC, SECRET, TableGame, TableState, TurnOrder, Zones, ranked


class TidePool(TableState):
    """A shared secret deck, a hand (seen by its owner) and a public pile of played cards per seat, scores."""

    fields = ("score",)

    def actions(self, seat):
        return [("play", card) for card in sorted(set(self.zones.of(seat, "hand").cards))]

    def play(self, seat, action):
        card, hand = action[1], f"hand:{seat}"
        self.zones.move(card, hand, f"played:{seat}")
        for effect in self.game.effects[card]:
            if effect["do"] == "score":
                self.score[seat] += effect["points"]
            else:
                self.zones.draw("deck", hand, effect["cards"])
        self.zones.draw("deck", hand)
        self.say("play", f"P{seat} plays {card}: score {self.score[seat]}")
        if not self.zones.of(self.order.advance(), "hand").cards:
            self.result = ranked(self.score, "hands empty")


class TidePoolGame(TableGame):
    name, state, turn_cap = "tide_pool", TidePool, 60

    def setup(self, state, decks):
        state.zones = Zones.for_seats(state.seats, {"deck": SECRET}, {"hand": OWNER, "played": PUBLIC})
        state.zones["deck"].cards = sorted(decks[0].cards())  # a common deck: every seat has the same one
        state.chance.shuffle(state.zones["deck"].cards, "the shared deck", stream="deck")
        for seat in range(state.seats):
            state.zones.draw("deck", f"hand:{seat}", 3)
        state.score, first = [0] * state.seats, state.chance.roll(state.seats, "who starts") - 1
        state.order = TurnOrder(range(state.seats), active=first)
        state.log.append(f"P{first} starts")

    def heuristic(self, state, seat):
        return state.score[seat] - max(s for other, s in enumerate(state.score) if other != seat)


RULES = RulesModule(
    name="tide_pool", title="Tide Pool", players=(2, 4), make_game=lambda cardset: TidePoolGame(RULES, cardset),
    play_schema={"type": "object", "additionalProperties": False,
                 "properties": {"turn_cap": {"type": "integer", "minimum": 1}}},
    effects={"score": EffectSpec("score", {"points": {"type": "integer", "minimum": 0}}),
             "draw": EffectSpec("draw", {"cards": {"type": "integer", "minimum": 1, "maximum": 3}})},
    effect_types=("card",),  # every card must say what it does
)
