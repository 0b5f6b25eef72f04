"""Agents: honest (they never reach hidden cards), seeded, and stronger than chance where they should be."""

from __future__ import annotations

import random

import pytest

from cardsmith.engine import agents as agents_mod
from cardsmith.engine.agents import GreedyAgent, MCTSAgent, RandomAgent, make_agent
from cardsmith.engine.checks import observation_leaks
from cardsmith.engine.runner import match_tasks, play_game, run_tasks
from cardsmith.engine.stats import match_summary
from cardsmith.errors import CardsmithError

import engine_testgame as sk
from engine_testgame import AGGRO, TURTLE, make_game

DECKS = [AGGRO, TURTLE]
AGENT_SPECS = {"random": {}, "greedy": {"samples": 2}, "mcts": {"iterations": 40, "time": 0}}


def midgame_state(seed: int = 3, steps: int = 7):
    """A game some actions in, not over, where the player to act has a card to play."""
    game = make_game()
    for attempt in range(seed, seed + 50):
        state = game.new_game(DECKS, attempt)
        rng = random.Random(attempt)
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            return game, state
    raise AssertionError("no mid-game state found")


class Poison:
    """Stands in for hidden information: any use but its size raises."""

    def __init__(self, size: int):
        self.size = size

    def __len__(self):
        return self.size

    def __getattr__(self, name):
        raise AssertionError(f"hidden information was read ({name})")

    def __iter__(self):
        raise AssertionError("hidden information was read (iterated)")

    def __getitem__(self, i):
        raise AssertionError("hidden information was read (indexed)")


def test_observations_share_nothing_mutable_with_the_state():
    game = make_game()
    for seed in range(15):
        state = game.new_game(DECKS, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in (0, 1):
                assert observation_leaks(state, state.observation(seat)) == []
            state.apply(rng.choice(state.legal_actions()))


def test_the_leak_check_catches_a_leaky_observation():
    _, state = midgame_state()
    leaky = {"hand": state.hands[1], "life": tuple(state.life)}
    assert observation_leaks(state, leaky) and "list" in observation_leaks(state, leaky)[0]
    assert "the state itself" in observation_leaks(state, (1, state))[0]
    assert observation_leaks(state, {"rng": state.rng})


@pytest.mark.parametrize("name", sorted(AGENT_SPECS))
def test_no_agent_can_read_poisoned_hidden_information(name):
    game, state = midgame_state()
    me, opp = state.current_player, 1 - state.current_player
    # Poison everything the acting player may not know: the opponent's hand, both deck orders and
    # the game's chance generator. The observation is built from their sizes only.
    state.hands[opp] = Poison(len(state.hands[opp]))
    state.decks[opp] = Poison(len(state.decks[opp]))
    state.rng = Poison(0)
    obs = state.observation(me)
    agent = make_agent(name, game, **AGENT_SPECS[name])
    for seed in range(3):
        action = agent.act(obs, state.legal_actions(), random.Random(seed))
        assert action in state.legal_actions()


@pytest.mark.parametrize("name", sorted(AGENT_SPECS))
def test_decisions_depend_only_on_the_observation(name):
    game, state = midgame_state(seed=8, steps=5)
    me, opp = state.current_player, 1 - state.current_player
    other = state.clone()
    # Same observation, different truth: another opponent hand (from the unseen cards) and other deck orders.
    unseen = other.hands[opp] + other.decks[opp]
    random.Random(99).shuffle(unseen)
    n = len(other.hands[opp])
    other.hands[opp], other.decks[opp] = unseen[:n], unseen[n:]
    other.decks[me].reverse()
    other.rng = random.Random(12345)
    assert state.observation(me) == other.observation(me)
    assert (state.hands[opp], state.decks[opp]) != (other.hands[opp], other.decks[opp])
    agent = make_agent(name, game, **AGENT_SPECS[name])
    for seed in range(4):
        a = agent.act(state.observation(me), state.legal_actions(), random.Random(seed))
        b = agent.act(other.observation(me), other.legal_actions(), random.Random(seed))
        assert a == b


def test_the_runner_hands_agents_observations_only(monkeypatch):
    game = make_game()
    received = []
    states = []

    class Spy(RandomAgent):
        name = "spy"
        needs_observation = True

        def act(self, observation, legal_actions, rng):
            received.append(observation)
            return super().act(observation, legal_actions, rng)

    class WatchedGame(sk.Skirmish):
        def new_game(self, decks, seed):
            s = super().new_game(decks, seed)
            states.append(s)
            return s

    monkeypatch.setitem(agents_mod.AGENTS, "spy", Spy)
    monkeypatch.setitem(agents_mod.AGENT_OPTIONS, "spy", {})
    play_game(WatchedGame(), DECKS, ("spy", "spy"), seed=4)
    assert received and all(isinstance(o, sk.Obs) for o in received)
    assert all(observation_leaks(states[0], o) == [] for o in received)


def test_unknown_agent_lists_the_known_ones():
    with pytest.raises(CardsmithError) as e:
        make_agent("minimax", make_game())
    assert "unknown agent 'minimax'" in str(e.value)
    for known in ("random", "greedy", "mcts", "search"):
        assert known in e.value.hint
    assert isinstance(make_agent("search", make_game()), MCTSAgent)
    with pytest.raises(CardsmithError, match="no option"):
        make_agent("greedy", make_game(), iterations=3)


def test_greedy_takes_a_winning_move():
    game, state = midgame_state()
    me, opp = state.current_player, 1 - state.current_player
    state.life[opp], state.shield[opp] = 1, 0
    state.hands[me] = ["heal", "strike-3"]  # strike-3 always hits (roll + 3 >= 4)
    state.plays_left = 1
    action = GreedyAgent(game).act(state.observation(me), state.legal_actions(), random.Random(1))
    assert action == sk.Act("play", "strike-3")


def test_mcts_without_time_ceiling_is_reproducible():
    game, state = midgame_state()
    me = state.current_player
    picks = {MCTSAgent(game, iterations=60, time=0).act(state.observation(me), state.legal_actions(), random.Random(7)) for _ in range(3)}
    assert len(picks) == 1


def test_stronger_agents_beat_weaker_ones():
    # Mirror decks, seats alternating: the only edge is the agent.
    decks = [AGGRO, AGGRO]
    for strong, weak, games in (("greedy", "random", 60), ("mcts:iterations=60:time=0", "random", 30)):
        recs = run_tasks(make_game, decks, match_tasks((strong, weak), games, seed=100), jobs=1)
        s = match_summary(recs, ["strong", "weak"])
        assert s["decks"][0]["wins"]["low"] > 0.5, (strong, s["decks"][0]["wins"])


def test_search_survives_determinizations_that_disagree_with_its_tree():
    # A sampler that sometimes deals a state where a recorded action is impossible (an imperfect
    # rules module): the search drops those iterations and still answers with a legal action.
    class Flaky(sk.Skirmish):
        calls = 0

        def sample_state(self, obs, rng):
            s = super().sample_state(obs, rng)
            Flaky.calls += 1
            if Flaky.calls % 3 == 0:
                s.plays_left = 0  # no card may be played in this dealing
            return s

    game, state = midgame_state()
    flaky = Flaky()
    me = state.current_player
    action = MCTSAgent(flaky, iterations=60, time=0).act(state.observation(me), state.legal_actions(), random.Random(2))
    assert action in state.legal_actions()
