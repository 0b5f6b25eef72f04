"""The engine on the real Solar Empires rules: agents stay honest, games replay. (The whole game contract is
checked for every game, Solar Empires too, in test_game_conformance.py.)"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("cardsmith.games.solar_empires")

from cardsmith.engine.agents import make_agent
from cardsmith.engine.checks import observation_leaks
from cardsmith.engine.registry import load_game
from cardsmith.simulation.sets import load_checked_deck, open_set
from cardsmith.engine.runner import match_tasks, play_game, replay, run_tasks


@pytest.fixture(scope="module")
def se(tmp_path_factory):
    import os
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    old = os.environ.get("CARDSMITH_PROJECT")
    os.environ["CARDSMITH_PROJECT"] = str(root)
    try:
        cardset = open_set("solar-empires")
    finally:
        if old is None:
            os.environ.pop("CARDSMITH_PROJECT", None)
        else:
            os.environ["CARDSMITH_PROJECT"] = old
    game = load_game(cardset)
    decks = {n: load_checked_deck(cardset, cardset.path / "decks" / f"{n}.yaml") for n in ("terracorp", "chain", "shadow")}
    return game, decks


def static(state):
    """The game's unchanging card table, which states and observations may share."""
    return [state.t]


def test_agents_decide_from_the_observation_alone_in_solar_empires(se):
    game, decks = se
    state = game.new_game([decks["terracorp"], decks["chain"]], 4)
    rng = random.Random(4)
    while len(state.legal_actions()) < 3 or state.turn < 2:
        state.apply(rng.choice(state.legal_actions()))
    me = state.to_act()[0]
    obs = state.observation(me)
    assert observation_leaks(state, obs, static(state)) == []
    # Another truth behind the same observation: the opponent's unseen cards dealt differently.
    other = game.sample_state(obs, random.Random(99))
    assert other.legal_actions() == state.legal_actions()
    for spec, opts in (("random", {}), ("greedy", {"samples": 2}), ("mcts", {"iterations": 30, "time": 0})):
        agent = make_agent(spec, game, **opts)
        a = agent.act(state.observation(me), state.legal_actions(me), random.Random(1), me)
        b = agent.act(other.observation(me), other.legal_actions(me), random.Random(1), me)
        assert a == b and a in state.legal_actions(), spec


def test_solar_empires_games_replay_and_do_not_depend_on_jobs(se):
    game, decks = se
    pair = [decks["shadow"], decks["chain"]]
    rec = play_game(game, pair, ("greedy:samples=1", "random"), seed=21, keep_log=True)
    state = replay(game, pair, 21, rec.actions)
    assert state.log == rec.log and state.outcome().ranks == rec.ranks and state.outcome().reason == rec.end_reason
    tasks = match_tasks(("random", "random"), 12, seed=3)
    one = run_tasks(None, pair, tasks, jobs=1, game=game)
    two = run_tasks(None, pair, tasks, jobs=2, game=game)
    assert [r.to_dict(True) for r in one] == [r.to_dict(True) for r in two]


def test_the_first_player_is_whoever_takes_priority_not_seat_0(se):
    game, decks = se
    pair = [decks["terracorp"], decks["chain"]]
    firsts = []
    for seed in range(8):
        rec = play_game(game, pair, ("random", "random"), seed=seed)
        state = game.new_game(pair, seed)
        for seat, action in rec.actions:
            state.apply(action, seat)
            if action[0] == "priority":
                break
        assert rec.first_actor == state.priority
        firsts.append(rec.first_actor)
    assert set(firsts) == {0, 1}  # the coin decides, so both seats go first sometimes


def test_a_muted_game_plays_the_same_game_and_the_log_comes_back_by_replay(se):
    """Simulations mute games nobody reads the log of: same actions, same end, no events or log
    lines; replaying the actions on a fresh state gives the full log."""
    from cardsmith.engine.runner import replay_account

    game, decks = se
    pair = [decks["terracorp"], decks["chain"]]
    loud = play_game(game, pair, ("random", "greedy"), seed=5, keep_log=True)
    quiet = play_game(game, pair, ("random", "greedy"), seed=5)
    assert quiet.actions == loud.actions and quiet.ranks == loud.ranks and quiet.turns == loud.turns
    muted = game.new_game(pair, 5)
    muted.mute()
    for seat, action in loud.actions[:40]:
        assert muted.apply(action, seat) == ()
    assert muted.log == loud.log[:1]  # the solar system line, written before it was muted
    account = replay_account(game, pair, quiet)
    assert all(line in account for line in loud.log)


def test_scores_as_now_is_true_only_when_the_look_ahead_scores_the_same(se):
    """The greedy agent's shortcut: wherever the rules claim an action leaves the score unchanged,
    applying it really does (for both seats), and the game goes on."""
    game, decks = se
    claimed = 0
    for seed in range(12):
        state = game.new_game([decks["chain"], decks["shadow"]], seed)
        state.mute()
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            for action in legal:
                if game.scores_as_now(state, seat, action):
                    claimed += 1
                    after = state.clone()
                    after.apply(action, seat)
                    assert not after.is_terminal()
                    assert [game.heuristic(after, s) for s in (0, 1)] == [game.heuristic(state, s) for s in (0, 1)]
            assert not game.scores_as_now(state, 1 - seat, legal[0])  # never for the seat not deciding
            state.apply(legal[rng.randrange(len(legal))], seat)
    assert claimed > 100  # the shortcut is taken often enough to matter


def test_peek_plays_exactly_as_apply(se):
    """A greedy agent's look-ahead (`peek`) lists the next legal set only when asked; the position,
    the legal set when asked, and refusing an action not offered are those of `apply`."""
    from cardsmith import IllegalAction

    game, decks = se
    for seed in range(4):
        state = game.new_game([decks["terracorp"], decks["shadow"]], seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            peeked = state.clone()
            peeked.peek(action, seat)
            state.apply(action, seat)
            assert peeked.position() == state.position() and peeked.log == state.log
            assert peeked.legal_actions() == state.legal_actions()
        with pytest.raises(IllegalAction):
            state.clone().peek(("done",))
