"""#rm2k_anime's own players (`RULES.agents`) and its ladder, weakest first.

`expert` chooses its Main User by playouts and plays the rest of the game as a greedy player does:
cheap, it is the competent player balance uses. `expert:then=planner` plays the rest as the
engine's turn planner does (`cardsmith.engine.planner`): the top of the ladder, at about twice the cost.

The Main User decides the race more than any later choice (under random play a Tileset Thief Main
User wins 85-90% of the games of two sample decks, others under three quarters): its Goal is one of
the game's ways to win. Which Users may be chosen, and the deck lists, are open information, so the
choice is made from the observation alone: each candidate is tried in random games from
determinizations of the decision (successive halving), and the one that wins most is taken. The
choice is kept per process for that decision (the same decks meet again in a run) and drawn from
a generator seeded by the decision itself, so it never depends on the games played before.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from cardsmith.base.errors import CardsmithError
from cardsmith.engine.agents import GreedyAgent
from cardsmith.engine.contract import Action, PlayerSpec, mute

_OPENINGS: dict[tuple, Action] = {}  # (the decision as the seat sees it, playouts) -> the Main User chosen
_OPENINGS_KEPT = 256


def _opening_key(observation: Any, legal: tuple, playouts: int) -> tuple:
    d = observation.data
    seats = tuple((tuple(s["picks"]), tuple(s["aside"])) for s in d["seats"])
    return (observation.seat, tuple(observation.deck_lists[0]), tuple(observation.deck_lists[1]),
            observation.budget, seats, legal, playouts)


def _playout(state: Any, rng: random.Random) -> None:
    """Random play to the end (at most a few thousand actions, as a capped game would). A sampled
    set-up can run out of Users to choose (a determinization that dealt the hidden picks unluckily):
    that playout stops there and counts as a draw."""
    for _ in range(5000):
        acting = state.to_act()
        if not acting:
            return
        legal = state.legal_actions(acting[0])
        if not legal:
            return
        state.apply(legal[rng.randrange(len(legal))], acting[0])


def choose_main_user(game: Any, observation: Any, legal: tuple, seat: int, playouts: int) -> Action:
    """The Main User (a `("main", card)` action) that wins most playouts from this decision.

    Successive halving: every candidate plays `playouts` games, the better half plays twice as many
    more, and so on until one is left (one candidate: no playout), so most playouts go to the candidates worth telling apart."""
    key = _opening_key(observation, legal, playouts)
    hit = _OPENINGS.get(key)
    if hit is not None:
        return hit
    rng = random.Random(zlib.crc32(repr(key).encode()))
    wins = {a: 0.0 for a in legal}
    alive, n = list(legal), playouts
    while len(alive) > 1:
        for action in alive:
            for _ in range(n):
                state = mute(game.sample_state(observation, rng))
                state.apply(action, seat)
                _playout(state, rng)
                wins[action] += state.returns()[seat] if state.is_terminal() else 0.5
        alive.sort(key=lambda a: -wins[a])  # stable: ties keep the legal order
        alive = alive[:(len(alive) + 1) // 2]
        n *= 2
    best = alive[0]
    if len(_OPENINGS) >= _OPENINGS_KEPT:
        _OPENINGS.clear()
    _OPENINGS[key] = best
    return best


class Expert:
    """Main User by playouts (`choose_main_user`), every other choice by `then` ("planner": the
    engine's turn planner; "greedy": one action ahead)."""

    name = "expert"

    def __init__(self, game: Any, playouts: int = 8, then: str = "greedy"):
        if playouts < 1:
            raise CardsmithError(f"expert player: playouts must be at least 1, not {playouts}")
        if then == "planner":
            from cardsmith.engine.planner import TurnPlanner

            self.then: Any = TurnPlanner(game)
        elif then == "greedy":
            self.then = GreedyAgent(game)
        else:
            raise CardsmithError(f"expert player: then must be 'planner' or 'greedy', not '{then}'")
        self.game = game
        self.playouts = playouts

    def act(self, observation: Any, legal_actions: tuple, rng: random.Random, seat: int) -> Action:
        if len(legal_actions) > 1 and legal_actions[0][0] == "main":
            return choose_main_user(self.game, observation, legal_actions, seat, self.playouts)
        return self.then.act(observation, legal_actions, rng, seat)


def _planner(game: Any, **opts: Any) -> Any:
    from cardsmith.engine.planner import TurnPlanner

    return TurnPlanner(game, **opts)


AGENTS = {
    "planner": PlayerSpec(make=_planner, options={"width": int, "depth": int},
                          doc="scores each choice at the end of its own turn (engine.planner.TurnPlanner)"),
    "expert": PlayerSpec(make=Expert, options={"playouts": int, "then": str},
                         doc="Main User chosen by playouts, then greedy (or then=planner)"),
}
LADDER = ("random", "greedy", "expert")
COMPETENT = "expert"
