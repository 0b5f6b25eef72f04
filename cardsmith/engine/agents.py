"""Players: random, greedy (one step ahead) and search (information-set Monte Carlo tree search).

An agent is built with the `Game` (never a state) and asked `act(observation, legal_actions, rng)`.
It sees only the observation; when it wants a full state to look ahead, it asks the game for a
determinization, `game.sample_state(observation, rng)`: the hidden cards dealt at random consistently
with what it knows. So no agent can read the opponent's hand or deck order, and every figure the
simulator reports comes from honest players.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from cardsmith.engine.core import Action, Game, GameState, IllegalAction
from cardsmith.errors import CardsmithError

WIN_SCORE = 1e9  # a greedy agent takes a winning move and avoids a losing one whatever the heuristic says


class Agent(Protocol):
    name: str

    def act(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"
    needs_observation = False  # it never looks, so the runner need not build one (a large share of a fast game)

    def __init__(self, game: Game | None = None):
        self.game = game

    def act(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[rng.randrange(len(legal_actions))]


def _outcome_score(state: GameState, player: int, game: Game) -> float:
    """The value of `state` for `player`: a certain win or loss, else the game's heuristic."""
    if state.is_terminal() and state.winner is not None:
        return WIN_SCORE if state.winner == player else -WIN_SCORE
    return game.heuristic(state, player)


class GreedyAgent:
    """Scores each legal action one step ahead with the game's heuristic and takes the best.

    The state after an action is unknown (hidden cards, dice), so each action is tried on `samples`
    determinizations of the observation and the scores are averaged; the same samples serve every
    action, so differences between actions are not noise between samples. Ties go to the agent's rng.
    """

    name = "greedy"

    def __init__(self, game: Game, samples: int = 3):
        if samples < 1:
            raise CardsmithError(f"greedy agent: samples must be at least 1, not {samples}")
        self.game = game
        self.samples = samples

    def act(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        states = [self.game.sample_state(observation, rng) for _ in range(self.samples)]
        me = states[0].current_player
        scores = []
        for action in legal_actions:
            total, n = 0.0, 0
            for state in states:
                after = state.clone()
                try:
                    after.apply(action)
                except IllegalAction:  # a determinization where this action is impossible tells nothing
                    continue
                total += _outcome_score(after, me, self.game)
                n += 1
            scores.append(total / n if n else -math.inf)
        best = max(scores)
        choices = [a for a, s in zip(legal_actions, scores) if s >= best - 1e-9 * max(1.0, abs(best))]
        return choices[0] if len(choices) == 1 else choices[rng.randrange(len(choices))]


@dataclass(eq=False)
class _Node:
    action: Action | None
    parent: "_Node | None"
    player: int  # who chose `action` (rewards are from their point of view); -1 at the root
    children: dict = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    reward: float = 0.0


class MCTSAgent:
    """Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

    Each iteration deals a fresh determinization of the observation, walks the shared tree of action
    sequences by UCB (counting how often each child was available, since a determinization allows only
    some actions), expands one untried action, plays a rollout of at most `depth` actions (random, or
    `rollout="greedy"`: the best of a few actions one step ahead) and scores its end: 1/0/0.5 for a
    win/loss/draw, or the heuristic difference squashed to (0, 1) when the rollout stops at the cap.

    Budget: `iterations` per decision (reproducible), with a `time` ceiling in seconds (default 1.0) as a
    guard on slow machines; a decision cut short by the ceiling depends on the machine's speed, so
    the agent counts them in `ceiling_hits` and the runner reports them. `time=0` removes the ceiling.
    """

    name = "mcts"

    def __init__(
        self,
        game: Game,
        iterations: int = 200,
        time: float = 1.0,
        depth: int = 40,
        c: float = 0.7,
        rollout: str = "random",
    ):
        if iterations < 1:
            raise CardsmithError(f"search agent: iterations must be at least 1, not {iterations}")
        if time < 0 or depth < 0:
            raise CardsmithError("search agent: time and depth cannot be negative")
        if rollout not in ("random", "greedy"):
            raise CardsmithError(f"search agent: rollout must be 'random' or 'greedy', not '{rollout}'")
        self.game = game
        self.iterations = iterations
        self.time_limit = time
        self.depth = depth
        self.c = c
        self.rollout = rollout
        self.ceiling_hits = 0
        self.decisions = 0
        self._scale = 0.0
        self._evals = 0

    def act(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        self.decisions += 1
        # Each decision is a pure function of (observation, legal actions, rng): nothing carries over.
        self._scale, self._evals = 0.0, 0
        root = _Node(None, None, -1)
        root_actions = list(legal_actions)
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        for i in range(self.iterations):
            if deadline is not None and i and time.perf_counter() > deadline:
                self.ceiling_hits += 1
                break
            self._iterate(root, root_actions, observation, rng)
        visited = [root.children[a] for a in root_actions if a in root.children and root.children[a].visits]
        if not visited:
            return root_actions[rng.randrange(len(root_actions))]
        most = max(n.visits for n in visited)
        top = [n for n in visited if n.visits == most]
        best_mean = max(n.reward / n.visits for n in top)
        top = [n for n in top if n.reward / n.visits >= best_mean - 1e-12]
        return top[0].action if len(top) == 1 else top[rng.randrange(len(top))].action

    def _iterate(self, root: _Node, root_actions: list, observation: Any, rng: random.Random) -> None:
        state = self.game.sample_state(observation, rng)
        node = root
        path = []
        try:
            # Selection and expansion in the determinized state.
            while not state.is_terminal():
                legal = root_actions if node is root else state.legal_actions()
                mover = state.current_player
                untried = []
                for a in legal:
                    child = node.children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.available += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    state.apply(action)
                    child = _Node(action, node, mover, available=1)
                    node.children[action] = child
                    path.append(child)
                    break
                best, best_value = None, -math.inf
                for a in legal:
                    child = node.children[a]
                    if not child.visits:  # made by an iteration that was then dropped: try it first
                        value = math.inf
                    else:
                        value = child.reward / child.visits + self.c * math.sqrt(math.log(child.available) / child.visits)
                    if value > best_value:
                        best, best_value = child, value
                state.apply(best.action)
                node = best
                path.append(node)
            # Rollout.
            steps = 0
            while not state.is_terminal() and steps < self.depth:
                actions = state.legal_actions()
                state.apply(self._rollout_action(state, actions, rng))
                steps += 1
        except IllegalAction:
            # The determinization disagreed with an action recorded in the tree (a sampler that does not
            # reproduce the public position exactly); drop this iteration rather than learn from it.
            return
        value0 = self._value_for_player0(state)
        for n in path:
            n.visits += 1
            n.reward += value0 if n.player == 0 else 1.0 - value0

    def _rollout_action(self, state: GameState, actions: list, rng: random.Random) -> Action:
        if self.rollout == "random" or len(actions) == 1:
            return actions[rng.randrange(len(actions))]
        me = state.current_player
        candidates = actions if len(actions) <= 3 else rng.sample(actions, 3)
        best, best_score = candidates[0], -math.inf
        for a in candidates:
            after = state.clone()
            after.apply(a)
            score = _outcome_score(after, me, self.game)
            if score > best_score:
                best, best_score = a, score
        return best

    def _value_for_player0(self, state: GameState) -> float:
        if state.is_terminal():
            if state.winner is None:
                return 0.5
            return 1.0 if state.winner == 0 else 0.0
        diff = self.game.heuristic(state, 0) - self.game.heuristic(state, 1)
        # The heuristic's scale is the game's business; squash by the running mean size of the
        # differences seen so far, so any scale maps to a useful spread of values in (0, 1).
        self._evals += 1
        self._scale += (abs(diff) - self._scale) / self._evals
        scale = self._scale if self._scale > 1e-9 else 1.0
        return 0.5 + 0.5 * math.tanh(diff / scale)


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
}
ALIASES = {"search": "mcts", "ismcts": "mcts"}

# Options each agent takes in an agent spec such as `mcts:iterations=500:time=0.5`.
AGENT_OPTIONS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {"samples": int},
    "mcts": {"iterations": int, "time": float, "depth": int, "c": float, "rollout": str},
}


def known_agents() -> list[str]:
    return sorted(AGENTS) + sorted(ALIASES)


def make_agent(name: str, game: Game, **opts: Any) -> Agent:
    """An agent by name (random, greedy, mcts; `search` is mcts) for `game`, with its options."""
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in AGENTS:
        raise CardsmithError(
            f"unknown agent '{name}'",
            hint=f"known agents: {', '.join(known_agents())} (options like mcts:iterations=500:time=0.5)",
            exit_code=2,
        )
    allowed = AGENT_OPTIONS[key]
    unknown = sorted(set(opts) - set(allowed))
    if unknown:
        listed = ", ".join(allowed) if allowed else "none"
        raise CardsmithError(f"agent '{key}' has no option {', '.join(unknown)}", hint=f"its options: {listed}", exit_code=2)
    return AGENTS[key](game, **opts)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`mcts:iterations=500:time=0.5` -> ("mcts", {"iterations": 500, "time": 0.5}), options typed."""
    name, *parts = [p.strip() for p in spec.strip().split(":")]
    key = ALIASES.get(name.lower(), name.lower())
    if key not in AGENTS:
        raise CardsmithError(
            f"unknown agent '{name}'",
            hint=f"known agents: {', '.join(known_agents())} (options like mcts:iterations=500:time=0.5)",
            exit_code=2,
        )
    opts: dict[str, Any] = {}
    for part in parts:
        opt, sep, raw = part.partition("=")
        if not sep or opt not in AGENT_OPTIONS[key]:
            listed = ", ".join(f"{k}=..." for k in AGENT_OPTIONS[key]) or "none"
            raise CardsmithError(f"agent '{spec}': bad option '{part}'", hint=f"options of {key}: {listed}", exit_code=2)
        kind = AGENT_OPTIONS[key][opt]
        try:
            opts[opt] = kind(raw)
        except ValueError:
            raise CardsmithError(f"agent '{spec}': option {opt} needs a {kind.__name__}, not '{raw}'", exit_code=2) from None
    return key, opts


def agent_label(name: str, opts: dict[str, Any]) -> str:
    """The spec string back: `mcts:iterations=500`."""
    return ":".join([name] + [f"{k}={v}" for k, v in sorted(opts.items())])
