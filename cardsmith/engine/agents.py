"""Players: random, greedy (one step ahead) and search (information-set Monte Carlo tree search).

An agent is built with the `Game` (never a state) and asked `act(observation, legal_actions, rng,
seat)`. It sees only the observation of its seat and the legal actions as an immutable tuple; when
it wants a full state to look ahead, it asks the game for a determinization,
`game.sample_state(observation, rng)`: the hidden cards dealt at random consistently with what it
knows. So no agent can read another seat's hand or deck order, and whatever it answers is applied
through `state.apply(action, seat)`, which refuses an action that was not offered.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from cardsmith.engine.contract import Action, Game, GameState, IllegalAction, mute, peek, scores_as_now
from cardsmith.base.errors import CardsmithError

WIN_SCORE = 1e9  # a greedy agent takes a winning move and avoids a losing one whatever the heuristic says


class Agent(Protocol):
    name: str

    def act(self, observation: Any, legal_actions: tuple[Action, ...], rng: random.Random, seat: int) -> Action: ...


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"
    needs_observation = False  # it never looks, so the runner need not build one (a large share of a fast game)
    # Nor does the runner time its choices: one costs less than reading the clock twice around it,
    # so the figure would measure the clock (about 2% of a random game); the ladder shows "-".
    timed = False

    def __init__(self, game: Game | None = None):
        self.game = game

    def act(self, observation: Any, legal_actions: tuple[Action, ...], rng: random.Random, seat: int) -> Action:
        # `chance.below(rng, n)` (rng.randrange(n)'s number) written out: this runs for every action
        # of every random game, and the call would be a good share of the runner's work per action.
        n = len(legal_actions)
        k = n.bit_length()
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        return legal_actions[r]


def _outcome_score(state: GameState, seat: int, game: Game) -> float:
    """The value of `state` for `seat`: a finished game by its returns, else the game's heuristic.

    A draw (returns 0.5) is scored by the heuristic, as an unfinished game is."""
    if state.is_terminal():
        r = state.returns()[seat]
        if r != 0.5:
            return WIN_SCORE * (r - 0.5)
    return game.heuristic(state, seat)


def _mover(state: GameState) -> int:
    return state.to_act()[0]


class GreedyAgent:
    """Scores each legal action one step ahead with the game's heuristic and takes the best.

    The state after an action is unknown (hidden cards, dice), so each action is tried on `samples`
    determinizations of the observation and the scores are averaged; the same samples serve every
    action, so differences between actions are not noise between samples. Ties go to the agent's rng.
    One sample is the default: measured on Solar Empires it wins as often against random play as
    three do (73% and 72% of 300 games) at a third of the cost; see docs/simulation.md.
    """

    name = "greedy"

    def __init__(self, game: Game, samples: int = 1):
        if samples < 1:
            raise CardsmithError(f"greedy agent: samples must be at least 1, not {samples}")
        self.game = game
        self.samples = samples

    def act(self, observation: Any, legal_actions: tuple[Action, ...], rng: random.Random, seat: int) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        states = [mute(self.game.sample_state(observation, rng)) for _ in range(self.samples)]
        for state in states:
            # Asked once here, so a game that caches its legal set hands it to every clone below
            # instead of each clone's apply() working it out again.
            state.legal_actions(seat)
        # The rules may know that an action changes nothing the heuristic reads (moving a ship, say):
        # such an action scores as the sample does now, without a clone and an apply.
        same = scores_as_now(self.game)
        heuristic = self.game.heuristic
        now: list[float | None] = [None] * len(states)
        scores = []
        last = len(legal_actions) - 1
        for j, action in enumerate(legal_actions):
            total, n = 0.0, 0
            for k, state in enumerate(states):
                if same is not None and same(state, seat, action):
                    value = now[k]
                    if value is None:
                        value = now[k] = _outcome_score(state, seat, self.game)
                    total += value
                    n += 1
                    continue
                # The last action may use the sample itself: nothing looks at it afterwards (and an
                # action refused leaves a state unchanged).
                after = state if j == last else state.clone()
                try:
                    peek(after, action, seat)  # apply, for a position that is only scored
                except IllegalAction:  # a determinization where this action is impossible tells nothing
                    continue
                # (_outcome_score written out: this runs for every action weighed)
                if after.is_terminal():
                    r = after.returns()[seat]
                    if r != 0.5:
                        total += WIN_SCORE * (r - 0.5)
                        n += 1
                        continue
                total += heuristic(after, seat)
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
    """Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012), N seats.

    Each iteration deals a fresh determinization of the observation, walks the shared tree of action
    sequences by UCB (counting how often each child was available, since a determinization allows only
    some actions), expands one untried action, plays a rollout of at most `depth` actions (random, or
    `rollout="greedy"`: the best of a few actions one step ahead) and scores its end for every seat:
    the game's `returns()` when it is over, else each seat's heuristic against the mean of the
    others, squashed to (0, 1). Each node learns the reward of the seat that chose its action.

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

    def act(self, observation: Any, legal_actions: tuple[Action, ...], rng: random.Random, seat: int) -> Action:
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
            self._iterate(root, root_actions, observation, rng, seat)
        visited = [root.children[a] for a in root_actions if a in root.children and root.children[a].visits]
        if not visited:
            return root_actions[rng.randrange(len(root_actions))]
        most = max(n.visits for n in visited)
        top = [n for n in visited if n.visits == most]
        best_mean = max(n.reward / n.visits for n in top)
        top = [n for n in top if n.reward / n.visits >= best_mean - 1e-12]
        return top[0].action if len(top) == 1 else top[rng.randrange(len(top))].action

    def _iterate(self, root: _Node, root_actions: list, observation: Any, rng: random.Random, me: int) -> None:
        state = mute(self.game.sample_state(observation, rng))
        node = root
        path = []
        try:
            # Selection and expansion in the determinized state.
            while not state.is_terminal():
                mover = me if node is root else _mover(state)
                legal = root_actions if node is root else state.legal_actions(mover)
                untried = []
                for a in legal:
                    child = node.children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.available += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    state.apply(action, mover)
                    child = _Node(action, node, mover, available=1)
                    node.children[action] = child
                    path.append(child)
                    break
                best: _Node | None = None
                best_value = -math.inf
                for a in legal:
                    child = node.children[a]
                    if not child.visits:  # made by an iteration that was then dropped: try it first
                        value = math.inf
                    else:
                        value = child.reward / child.visits + self.c * math.sqrt(math.log(child.available) / child.visits)
                    if value > best_value:
                        best, best_value = child, value
                assert best is not None  # legal is never empty while the game goes on
                state.apply(best.action, mover)
                node = best
                path.append(node)
            # Rollout.
            steps = 0
            while not state.is_terminal() and steps < self.depth:
                mover = _mover(state)
                actions = state.legal_actions(mover)
                state.apply(self._rollout_action(state, mover, actions, rng), mover)
                steps += 1
        except IllegalAction:
            # The determinization disagreed with an action recorded in the tree (a sampler that does not
            # reproduce the public position exactly); drop this iteration rather than learn from it.
            return
        values = self._values(state)
        for n in path:
            n.visits += 1
            n.reward += values[n.player]

    def _rollout_action(self, state: GameState, mover: int, actions: Sequence[Action], rng: random.Random) -> Action:
        if self.rollout == "random" or len(actions) == 1:
            return actions[rng.randrange(len(actions))]
        candidates = actions if len(actions) <= 3 else rng.sample(list(actions), 3)
        best, best_score = candidates[0], -math.inf
        for a in candidates:
            after = state.clone()
            after.apply(a, mover)
            score = _outcome_score(after, mover, self.game)
            if score > best_score:
                best, best_score = a, score
        return best

    def _values(self, state: GameState) -> tuple[float, ...]:
        """Every seat's reward in (0, 1): the returns of a finished game, else squashed heuristics."""
        if state.is_terminal():
            return state.returns()
        n = state.seats
        h = [self.game.heuristic(state, s) for s in range(n)]
        total = sum(h)
        out = []
        for s in range(n):
            diff = h[s] - (total - h[s]) / (n - 1) if n > 1 else h[s]
            # The heuristic's scale is the game's business; squash by the running mean size of the
            # differences seen so far, so any scale maps to a useful spread of values in (0, 1).
            self._evals += 1
            self._scale += (abs(diff) - self._scale) / self._evals
            scale = self._scale if self._scale > 1e-9 else 1.0
            out.append(0.5 + 0.5 * math.tanh(diff / scale))
        return tuple(out)


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


def _table(rules: Any = None) -> tuple[dict[str, Callable[..., Agent]], dict[str, dict[str, type]]]:
    """The engine's players plus, when `rules` is given, the game's own (`RulesModule.agents`)."""
    makers: dict[str, Callable[..., Agent]] = dict(AGENTS)
    options: dict[str, dict[str, type]] = {k: dict(v) for k, v in AGENT_OPTIONS.items()}
    for name, spec in (getattr(rules, "agents", None) or {}).items():
        makers[name] = spec.make
        options[name] = dict(spec.options)
    return makers, options


def known_agents(rules: Any = None) -> list[str]:
    return sorted(_table(rules)[0]) + sorted(ALIASES)


def _unknown(name: str, rules: Any) -> CardsmithError:
    return CardsmithError(
        f"unknown agent '{name}'",
        hint=f"known agents: {', '.join(known_agents(rules))} (options like mcts:iterations=500:time=0.5)",
        exit_code=2,
    )


def make_agent(name: str, game: Game, **opts: Any) -> Agent:
    """An agent by name (random, greedy, mcts, or one of the game's own players) for `game`."""
    makers, options = _table(getattr(game, "rules", None))
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in makers:
        raise _unknown(name, getattr(game, "rules", None))
    allowed = options[key]
    unknown = sorted(set(opts) - set(allowed))
    if unknown:
        listed = ", ".join(allowed) if allowed else "none"
        raise CardsmithError(f"agent '{key}' has no option {', '.join(unknown)}", hint=f"its options: {listed}", exit_code=2)
    agent: Agent = makers[key](game, **opts)
    return agent


def parse_agent_spec(spec: str, rules: Any = None) -> tuple[str, dict[str, Any]]:
    """`mcts:iterations=500:time=0.5` -> ("mcts", {"iterations": 500, "time": 0.5}), options typed.

    With `rules` (a RulesModule), the game's own players are known too; without it they are refused,
    so callers that know the game pass its rules."""
    _, options = _table(rules)
    name, *parts = [p.strip() for p in spec.strip().split(":")]
    key = ALIASES.get(name.lower(), name.lower())
    if key not in options:
        raise _unknown(name, rules)
    opts: dict[str, Any] = {}
    for part in parts:
        opt, sep, raw = part.partition("=")
        if not sep or opt not in options[key]:
            listed = ", ".join(f"{k}=..." for k in options[key]) or "none"
            raise CardsmithError(f"agent '{spec}': bad option '{part}'", hint=f"options of {key}: {listed}", exit_code=2)
        kind = options[key][opt]
        try:
            opts[opt] = kind(raw)
        except ValueError:
            raise CardsmithError(f"agent '{spec}': option {opt} needs a {kind.__name__}, not '{raw}'", exit_code=2) from None
    return key, opts


def agent_label(name: str, opts: dict[str, Any]) -> str:
    """The spec string back: `mcts:iterations=500`."""
    return ":".join([name] + [f"{k}={v}" for k, v in sorted(opts.items())])
