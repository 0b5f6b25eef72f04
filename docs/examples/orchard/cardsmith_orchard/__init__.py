"""Orchard, the second game of cardsmith's tutorial (docs/tutorial-orchard.md).

Two players, each with their own deck of tree cards, shuffle it and draw three. On their turn a
player gains one water (up to 5), then plants one card from hand whose cost (the card's own `cost`,
else its season's) is at most their water, paying for it and doing what its `effect:` says -
`{do: grow, points: N}` scores N, `{do: draw, cards: N}` draws N, `{do: frost, points: N}` takes
up to N points from the rival - or waits, saving the water. Then they draw one card from their own
deck. After eight rounds (eight turns each) the higher score wins. Who starts is a public die roll.
"""

from cardsmith.engine.chance import seat_stream
from cardsmith.engine.contract import EffectSpec, Problem, RulesModule
from cardsmith.engine.kit import OWNER, PER_SEAT, PUBLIC, SECRET, TableGame, TableState, TurnOrder, Zones, ranked
from cardsmith_orchard.filler import filler

MAX_WATER, ROUNDS = 5, 8


class Orchard(TableState):
    """Per seat: a secret deck, a hand (seen by its owner), a public row of planted trees; scores, water."""

    fields = ("score", "water")

    def actions(self, seat):
        hand = sorted(set(self.zones.of(seat, "hand").cards))
        return [("plant", card) for card in hand if self.game.cost[card] <= self.water[seat]] + [("wait",)]

    def play(self, seat, action):
        hand, rival = f"hand:{seat}", 1 - seat
        if action[0] == "plant":
            card = action[1]
            self.zones.move(card, hand, f"played:{seat}")
            self.water[seat] -= self.game.cost[card]
            for effect in self.game.effects[card]:
                if effect["do"] == "grow":
                    self.score[seat] += effect["points"]
                elif effect["do"] == "draw":
                    self.zones.draw(f"deck:{seat}", hand, effect["cards"])
                else:
                    self.score[rival] = max(0, self.score[rival] - effect["points"])
            self.say("plant", f"P{seat} plants {card}: {self.score[seat]} to {self.score[rival]}")
        else:
            self.say("wait", f"P{seat} waits")
        self.zones.draw(f"deck:{seat}", hand)
        now = self.order.advance()
        self.water[now] = min(MAX_WATER, self.water[now] + 1)
        if self.turn > 2 * ROUNDS:
            self.result = ranked(self.score, "eight rounds")


class OrchardGame(TableGame):
    name, state, turn_cap, deck_mode = "orchard", Orchard, 40, PER_SEAT

    def __init__(self, rules, cardset):
        super().__init__(rules, cardset)
        self.cost = {card.id: cardset.attribute(card, "cost") for card in cardset.cards}

    def setup(self, state, decks):
        state.zones = Zones.for_seats(state.seats, {}, {"deck": SECRET, "hand": OWNER, "played": PUBLIC})
        for seat, deck in enumerate(decks):
            pile = state.zones.of(seat, "deck").cards
            pile.extend(sorted(deck.cards()))
            state.chance.shuffle(pile, f"P{seat}'s deck", stream=seat_stream(seat))
            state.zones.draw(f"deck:{seat}", f"hand:{seat}", 3)
        first = state.chance.roll(state.seats, "who starts") - 1
        state.score, state.water = [0] * state.seats, [0] * state.seats
        state.water[first] = 1
        state.order = TurnOrder(range(state.seats), active=first)
        state.log.append(f"P{first} starts")

    def heuristic(self, state, seat):
        return state.score[seat] - state.score[1 - seat] + state.water[seat] / 10


def check_costs(cardset):
    """Every tree needs a cost, its own or its season's."""
    for card in cardset.cards:
        if cardset.attribute(card, "cost") is None:
            yield Problem(f"card '{card.id}' has no cost", "give it `cost: N` or a `season:` (spring, summer, autumn)",
                          card=card.id)


RULES = RulesModule(
    name="orchard", title="Orchard", players=(2, 2), make_game=lambda cardset: OrchardGame(RULES, cardset),
    play_schema={"type": "object", "additionalProperties": False,
                 "properties": {"turn_cap": {"type": "integer", "minimum": 1}}},
    effects={"grow": EffectSpec("grow", {"points": {"type": "integer", "minimum": 0}}),
             "draw": EffectSpec("draw", {"cards": {"type": "integer", "minimum": 1, "maximum": 2}}),
             "frost": EffectSpec("frost", {"points": {"type": "integer", "minimum": 1}})},
    effect_types=("tree",),
    card_fields={"tree": {"cost": {"type": "integer", "minimum": 0, "maximum": MAX_WATER}}},
    validate=check_costs, filler=filler, cards_in_hand=lambda state, seat: frozenset(state.zones.of(seat, "hand").cards),
)
