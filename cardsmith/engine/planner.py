"""A turn planner: a player that scores each choice at the end of its own turn, not after one action.

Greedy play (`agents.GreedyAgent`) scores the position one action ahead, so it never pays now for a
gain a few actions later in the same turn (Syncing a card over several payments, deploying a fleet
ship by ship). The planner looks further at little cost: on one determinization of its observation
(`game.sample_state`, so it sees only what its seat may know) it scores every legal action one step
ahead, keeps the best `width`, and follows each with greedy choices of its own until another seat
must decide, the game ends or `depth` actions have passed; the line whose end scores best is played.

The rest of the winning line is kept as a plan: while each next decision offers exactly the options
the plan met at that point, the planned action is played without looking again. A decision that
differs (a die rolled otherwise, the opponent answered) plans anew. So a turn of many small
decisions costs about one look-ahead, not one per decision.

Honest by construction: it reads only the observation, the legal actions and its own samples.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from cardsmith.base.errors import CardsmithError
from cardsmith.engine.agents import WIN_SCORE
from cardsmith.engine.contract import Action, Game, GameState, IllegalAction, mute, peek, scores_as_now


def _score(state: GameState, seat: int, heuristic: Callable[[Any, int], float]) -> float:
    """A finished game by its returns (a draw by the heuristic), else the heuristic."""
    if state.is_terminal():
        r = state.returns()[seat]
        if r != 0.5:
            return WIN_SCORE * (r - 0.5)
    return heuristic(state, seat)


class TurnPlanner:
    """Scores the best `width` actions at the end of the seat's turn (greedy continuation, at most
    `depth` actions), on one determinization; follows its plan while the options match it."""

    name = "planner"

    def __init__(self, game: Game, width: int = 3, depth: int = 16):
        if width < 1 or depth < 0:
            raise CardsmithError(f"planner: width must be at least 1 and depth at least 0, not {width} and {depth}")
        self.game = game
        self.width = width
        self.depth = depth
        self._plan: list[tuple[tuple, Action]] = []  # (the legal set expected, the action) for the next decisions
        self._same = scores_as_now(game)

    # ------------------------------------------------------------------ one step ahead
    def ranked(self, state: GameState, seat: int, legal: tuple, rng: random.Random) -> list[tuple[float, float, Action]]:
        """Every legal action scored one step ahead, best first: (score, tiebreak, action)."""
        heuristic, same = self.game.heuristic, self._same
        now: float | None = None
        out = []
        for action in legal:
            if same is not None and same(state, seat, action):
                if now is None:
                    now = _score(state, seat, heuristic)
                value = now
            else:
                after = state.clone()
                try:
                    peek(after, action, seat)
                except IllegalAction:
                    continue
                value = _score(after, seat, heuristic)
            out.append((value, rng.random(), action))
        out.sort(key=lambda x: (-x[0], x[1]))
        return out

    def _follow(self, state: GameState, seat: int, rng: random.Random) -> tuple[float, list[tuple[tuple, Action]]]:
        """Greedy choices from `state` while `seat` decides: (the end's score, the (legal, action) line)."""
        heuristic = self.game.heuristic
        line: list[tuple[tuple, Action]] = []
        for _ in range(self.depth):
            if state.is_terminal() or state.to_act() != (seat,):
                break
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                action = legal[0]
            else:
                ranked = self.ranked(state, seat, legal, rng)
                if not ranked:
                    break
                action = ranked[0][2]
            line.append((legal, action))
            state.apply(action, seat)
        return _score(state, seat, heuristic), line

    # ------------------------------------------------------------------ the agent
    def act(self, observation: Any, legal_actions: tuple[Action, ...], rng: random.Random, seat: int) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self._plan:
            expected, action = self._plan.pop(0)
            if expected == legal_actions:
                return action
            self._plan = []
        state = mute(self.game.sample_state(observation, rng))
        state.legal_actions(seat)
        ranked = self.ranked(state, seat, legal_actions, rng)
        if not ranked:
            return legal_actions[rng.randrange(len(legal_actions))]
        best, best_line, best_action = -math.inf, [], ranked[0][2]
        for one_step, _, action in ranked[:self.width]:
            after = state.clone()
            try:
                after.apply(action, seat)
            except IllegalAction:
                continue
            value, line = self._follow(after, seat, rng)
            if value > best:
                best, best_line, best_action = value, line, action
        self._plan = [(legal, a) for legal, a in best_line if len(legal) > 1]
        return best_action
