"""Solar Empires' own players (`RULES.agents`) and its ladder, weakest first.

`expert` plays greedy (one action ahead, the game's heuristic) except where one action ahead sees
nothing: it places its fleet deck cheapest first (the "curve" order: a first turn with nothing
affordable cedes the first planets), takes priority, and deploys by a plan. Deploying moves a ship
and changes no score until the combats, so greedy play deploys at random; the plan instead weighs
each fleet (attack and armour left) against what it meets: the opponent's ships already deployed
when it deploys second, else the strongest single ship the opponent could send. It sends enough
strength to win each contested planet it can, strongest ships first (planets the opponent holds
first, then its own under threat, then free ones), and one of its weakest ships to each planet
nobody defends. The plan is worked out on a determinization of the observation, so it sees only
what its seat may know.
"""

from __future__ import annotations

import random
from typing import Any

from cardsmith.engine.agents import GreedyAgent
from cardsmith.engine.contract import Action, PlayerSpec, mute
from cardsmith.base.errors import CardsmithError
from cardsmith.games.solar_empires.cards import POSITIONS
from cardsmith.games.solar_empires.names import DEPLOY

WIN_MARGIN = 1.3  # a fleet this many times the other's strength wins most combats (attack d6 + bonus)


def strength(s: Any, i: int) -> float:
    """How much a ship weighs in a combat: its shot (attack + a d6's mean) times the armour it has
    left, more with a shield."""
    ci = s.t.info[i]
    return (ci.attack + 3.5) * max(1, ci.armour - s.dmg[i]) * (1.0 + 0.3 * s.shield(i))


def deployment(s: Any, me: int) -> list[tuple[int, int]]:
    """(ship, position) pairs for seat `me`'s ships in reinforcements, in the order to deploy them."""
    opp = 1 - me
    at, ctrl = s.at, s.ctrl
    open_pos = [pos for pos in range(POSITIONS) if s.planet[pos] >= 0 and pos not in s.flare]
    reserve = sorted((i for i in s.ships[me] if at[i] < 0), key=lambda i: -strength(s, i))
    theirs = [0.0] * POSITIONS
    mine = [0.0] * POSITIONS
    for i in s.ships[opp]:
        if at[i] >= 0:
            theirs[at[i]] += strength(s, i)
    for i in s.ships[me]:
        if at[i] >= 0:
            mine[at[i]] += strength(s, i)
    opp_reserve = [strength(s, i) for i in s.ships[opp] if at[i] < 0]
    if opp_reserve and s.current_player == me and s.stage == "deploy" and not any(theirs):
        # they deploy after us: any planet may meet their strongest ship
        threat = max(opp_reserve)
        theirs = [threat if ctrl[pos] != me or mine[pos] else threat for pos in range(POSITIONS)]
    plan: list[tuple[int, int]] = []
    contested = [pos for pos in open_pos if theirs[pos] > 0]
    # planets they hold first (each one taken keeps their conquest away and brings ours nearer),
    # then ours, then free ones; the cheapest to win first
    contested.sort(key=lambda pos: (0 if ctrl[pos] == opp else (1 if ctrl[pos] == me else 2),
                                    theirs[pos] - mine[pos]))
    for pos in contested:
        need = WIN_MARGIN * theirs[pos] - mine[pos]
        if need <= 0:
            continue
        chosen, total = [], 0.0
        for i in reserve:
            if total >= need:
                break
            chosen.append(i)
            total += strength(s, i)
        if total >= need:
            for i in chosen:
                reserve.remove(i)
                plan.append((i, pos))
                mine[pos] += strength(s, i)
    free = [pos for pos in open_pos if theirs[pos] == 0 and mine[pos] == 0 and ctrl[pos] != me]
    for pos in free:
        if not reserve:
            break
        i = reserve.pop()  # the weakest left
        plan.append((i, pos))
    # The ships left over join the attack on a planet the opponent holds, where they come nearest
    # to winning, if they at least match its defence: two careful players would otherwise both
    # wait for an edge that never comes, and play to the turn cap.
    left = sum(strength(s, i) for i in reserve)
    targets = [pos for pos in open_pos if ctrl[pos] == opp and mine[pos] + left >= theirs[pos]]
    if reserve and targets:
        pos = min(targets, key=lambda p: theirs[p] - mine[p])
        plan += [(i, pos) for i in reserve]
    return plan


class Expert:
    """Greedy play with the fleet deck cheapest first, priority taken and deployment by plan
    (`deployment`); `priority=give` gives priority away instead."""

    name = "expert"

    def __init__(self, game: Any, priority: str = "take"):
        if priority not in ("take", "give"):
            raise CardsmithError(f"expert player: priority must be 'take' or 'give', not '{priority}'")
        self.game = game
        self.then = GreedyAgent(game)
        self.priority = priority
        self._plan: list[tuple[str, int, int]] = []  # (card id, position 1-6, damage) still to deploy
        self._planned_turn = (-1, -1)

    def act(self, observation: Any, legal: tuple, rng: random.Random, seat: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        if ("order", "curve") in legal:
            return ("order", "curve")
        if ("priority", self.priority) in legal:
            return ("priority", self.priority)
        if legal[0][0] == "deploy":
            return self._deploy(observation, legal, rng, seat)
        return self.then.act(observation, legal, rng, seat)

    def _deploy(self, observation: Any, legal: tuple, rng: random.Random, seat: int) -> Action:
        state: Any = mute(self.game.sample_state(observation, rng))
        if state.dec != DEPLOY:
            return self.then.act(observation, legal, rng, seat)
        key = (state.turn, seat)
        if key != self._planned_turn:
            self._planned_turn = key
            info = state.t.info
            self._plan = [(info[i].id, pos + 1, state.dmg[i]) for i, pos in deployment(state, seat)]
        while self._plan:
            cid, pos, dmg = self._plan.pop(0)
            for a in legal:
                if a[0] == "deploy" and a[1] == cid and a[2] == pos and state.dmg[a[3]] == dmg:
                    return a
        return ("done",) if ("done",) in legal else self.then.act(observation, legal, rng, seat)


def _planner(game: Any, **opts: Any) -> Any:
    from cardsmith.engine.planner import TurnPlanner

    return TurnPlanner(game, **opts)


AGENTS = {
    "planner": PlayerSpec(make=_planner, options={"width": int, "depth": int},
                          doc="scores each choice at the end of its own turn (engine.planner.TurnPlanner)"),
    "expert": PlayerSpec(make=Expert, options={"priority": str},
                         doc="greedy, with the fleet deck cheapest first and deployment by plan"),
}
LADDER = ("random", "greedy", "expert")
COMPETENT = "expert"
