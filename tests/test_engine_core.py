"""Engine core: registry errors, seeds, replay, seat alternation, jobs-independence, statistics."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

from cardsmith.engine.chance import agent_rng, derive_seed, game_seed
from cardsmith.engine.contract import IllegalAction, Outcome
from cardsmith.engine.registry import known_games, load_game
from cardsmith.engine.runner import (
    ACTION_CAP, AgentError, match_tasks, normalise_agents, play_game, replay, replay_account, run_tasks, table_tasks,
)
from cardsmith.engine.stats import Rate, card_impact, fisher_exact, match_summary, matchup_matrix, wilson
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import CardSet

from cardsmith.engine.chance import SeededChance

import engine_testgame as sk
from engine_testgame import AGGRO, TURTLE, make_game

DECKS = [AGGRO, TURTLE]


def seated(record):
    return [DECKS[record.deck_ids[0]], DECKS[record.deck_ids[1]]]


# ---- registry ----

def test_set_without_rules_is_refused_clearly():
    with pytest.raises(CardsmithError, match="has no rules module") as e:
        load_game(CardSet(id="plain", name="Plain", path=Path("cards/plain")))
    assert "rules:" in e.value.hint


def test_unknown_rules_are_refused_with_a_did_you_mean(skirmish_rules):
    with pytest.raises(CardsmithError, match="rules 'chess'") as e:
        load_game(CardSet(id="x", name="X", path=Path("cards/x"), rules="chess"))
    assert "skirmish" in e.value.hint
    with pytest.raises(CardsmithError, match="does not have") as e:
        load_game(CardSet(id="x", name="X", path=Path("cards/x"), rules="skirmsh"))
    assert "did you mean 'skirmish'" in e.value.hint
    with pytest.raises(CardsmithError, match="does not have"):
        load_game(CardSet(id="x", name="X", path=Path("cards/x"), rules="../../etc"))


def test_registry_finds_registered_games_and_calls_make_game(skirmish_rules):
    assert "skirmish" in known_games() and "solar_empires" in known_games()
    game = load_game(CardSet(id="x", name="X", path=Path("."), rules="Skirmish", meta={"play": {"turn_cap": 12}}))
    assert game.name == "skirmish" and game.cap == 12 and game.rules is skirmish_rules


# ---- seeds ----

def test_seeds_are_stable_and_separate():
    # Game seeds are hashes: runs with nearby seeds share no games (not base + i).
    assert game_seed(1, 2) != game_seed(3, 0) and game_seed(1, 1) != game_seed(2, 0)
    assert len({game_seed(s, i) for s in (1, 3, 5) for i in range(50)}) == 150
    # A fixed value: the derivation must not depend on the process (Python's hash() is salted).
    assert derive_seed("agent", 1, 0) == 0x9859C6C0F1218FDF
    a0, a1 = agent_rng(5, 0), agent_rng(5, 1)
    assert a0.random() != a1.random()
    assert agent_rng(5, 0).random() == agent_rng(5, 0).random()
    # An agent's generator is not the game's: seed 5's chance stream differs from both agents'.
    assert random.Random(5).random() not in (agent_rng(5, 0).random(), agent_rng(5, 1).random())


def test_agent_seed_is_the_same_in_another_process():
    import subprocess
    code = "from cardsmith.engine.chance import derive_seed; print(derive_seed('agent', 3, 1))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": ""}, cwd=Path(__file__).resolve().parents[1]).stdout
    assert int(out) == derive_seed("agent", 3, 1)


# ---- playing and replaying ----

@pytest.mark.parametrize("agents", [("random", "random"), ("greedy", "random"), ("mcts:iterations=30:time=0", "greedy")])
def test_a_game_replays_exactly_from_seed_and_actions(agents):
    game = make_game()
    rec = play_game(game, DECKS, agents, seed=11, keep_log=True)
    state = replay(game, DECKS, 11, rec.actions)
    assert state.is_terminal()
    assert (state.outcome().ranks, state.outcome().reason, state.turn, state.log) == (rec.ranks, rec.end_reason, rec.turns, rec.log)
    assert play_game(game, DECKS, agents, seed=11).actions == rec.actions  # agents too are seeded


def test_replay_refuses_an_action_that_is_not_legal():
    game = make_game()
    rec = play_game(game, DECKS, ("random", "random"), seed=3)
    bad = list(rec.actions)
    bad[0] = (bad[0][0], ("play", "no-such-card"))
    with pytest.raises(IllegalAction, match="action 1"):
        replay(game, DECKS, 3, bad)


def test_apply_refuses_illegal_actions_and_actions_for_a_seat_not_to_act():
    state = make_game().new_game(DECKS, 1)
    me = state.to_act()[0]
    with pytest.raises(IllegalAction):
        state.apply(("play", "no-such-card"), me)
    with pytest.raises(IllegalAction):
        state.apply(("end",), 1 - me)


def test_an_agent_that_answers_an_action_it_was_not_offered_is_refused_by_name(monkeypatch):
    from cardsmith.engine import agents as agents_mod

    class Cheat:
        name = "cheat"

        def __init__(self, game):
            pass

        def act(self, observation, legal, rng, seat):
            return ("play", "strike-3", 1 - seat)  # a card it may not hold, whatever its hand

    class Appender(Cheat):
        def act(self, observation, legal, rng, seat):
            try:
                legal.append(("play", "strike-3", 1 - seat))  # the tuple it is handed cannot be widened
            except AttributeError:
                pass
            return legal[-1]

    monkeypatch.setitem(agents_mod.AGENTS, "cheat", Cheat)
    monkeypatch.setitem(agents_mod.AGENT_OPTIONS, "cheat", {})
    monkeypatch.setitem(agents_mod.AGENTS, "appender", Appender)
    monkeypatch.setitem(agents_mod.AGENT_OPTIONS, "appender", {})
    game = make_game()
    for seed in range(20):
        state = game.new_game(DECKS, seed)
        if ("play", "strike-3", 1 - state.to_act()[0]) not in state.legal_actions():
            break
    seats = ("cheat", "cheat")
    with pytest.raises(AgentError, match=r"agent 'cheat' in seat \d chose \('play', 'strike-3', \d\), which it was not offered") as e:
        play_game(game, DECKS, seats, seed=seed)
    assert "legal actions" in e.value.hint
    rec = play_game(game, DECKS, ("appender", "appender"), seed=seed)  # plays on: it only ever ends turns
    assert all(a == ("end",) for _, a in rec.actions)


def test_account_is_readable_turn_by_turn():
    game = make_game()
    rec = play_game(game, DECKS, ("greedy", "random"), seed=2)
    text = replay_account(game, DECKS, rec)
    assert "seed " in text and "Turn 2" in text and "chooses: " in text
    assert f"Seat {rec.first_actor} (goes first)" in text
    assert text.count("chooses: ") == len(rec.actions)
    assert "Result:" in text.splitlines()[-1]


def test_the_rules_decide_who_acts_first_and_the_record_says_who_did():
    game = make_game()
    firsts = {play_game(game, DECKS, ("random", "random"), seed=s).first_actor for s in range(12)}
    assert firsts == {0, 1}
    rec = play_game(game, DECKS, ("random", "random"), seed=4)
    assert rec.actions[0][0] == rec.first_actor


def test_seats_alternate_between_games_and_agents_follow_their_deck():
    tasks = match_tasks(("greedy", "random"), 4, seed=10)
    assert [t.deck_ids for t in tasks] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [t.agents for t in tasks] == [("greedy", "random"), ("random", "greedy")] * 2
    assert [t.seed for t in tasks] == [game_seed(10, i) for i in range(4)]
    recs = run_tasks(make_game, DECKS, tasks, jobs=1)
    assert recs[1].decks == ("turtle", "aggro") and recs[1].agents == ("random", "greedy")


def test_seats_rotate_so_every_deck_sits_in_every_seat_equally():
    tasks = table_tasks(("a", "b", "c"), 6, seed=1, deck_ids=(4, 5, 6))
    for deck, agent in ((4, "a"), (5, "b"), (6, "c")):
        seats = [t.deck_ids.index(deck) for t in tasks]
        assert sorted(seats) == [0, 0, 1, 1, 2, 2]
        assert all(t.agents[t.deck_ids.index(deck)] == agent for t in tasks)


def test_results_do_not_depend_on_the_number_of_jobs():
    tasks = table_tasks(("greedy", "random", "random"), 24, seed=5)
    decks = [AGGRO, TURTLE, sk.deck("mid", strike_2=5, guard=3, heal=3)]
    one = run_tasks(make_game, decks, tasks, jobs=1)
    two = run_tasks(make_game, decks, tasks, jobs=2)  # workers make their own game
    inherited = run_tasks(make_game, decks, tasks, jobs=2, game=make_game())  # forked workers inherit it
    assert [r.to_dict(with_actions=True) for r in one] == [r.to_dict(with_actions=True) for r in two]
    assert [r.to_dict(with_actions=True) for r in one] == [r.to_dict(with_actions=True) for r in inherited]
    assert match_summary(one, ["aggro", "turtle", "mid"]) == match_summary(two, ["aggro", "turtle", "mid"])


def test_a_run_hands_the_garbage_collector_back_as_it_found_it():
    """run_tasks keeps what was in memory before the run out of the collector's walks while it plays
    (gc.freeze), then undoes that; a caller's own freeze is left alone."""
    import gc

    tasks = match_tasks(("random", "random"), 3, seed=2)
    assert gc.get_freeze_count() == 0
    run_tasks(make_game, DECKS, tasks, jobs=1)
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        run_tasks(make_game, DECKS, tasks, jobs=1)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_zero_games_and_bad_agents_are_refused():
    with pytest.raises(CardsmithError, match="at least 1"):
        match_tasks(("random", "random"), 0, seed=1)
    with pytest.raises(CardsmithError, match="unknown agent 'alphazero'") as e:
        normalise_agents(["alphazero"])
    assert "greedy" in e.value.hint and "mcts" in e.value.hint
    with pytest.raises(CardsmithError, match="bad option"):
        normalise_agents(["mcts:depht=3"])
    assert normalise_agents(["search:iterations=50"]) == ("mcts:iterations=50", "mcts:iterations=50")
    assert normalise_agents(["random"], 4) == ("random",) * 4
    with pytest.raises(CardsmithError, match="or 3 separated"):
        normalise_agents(["random", "greedy"], 3)


def test_a_game_that_never_ends_is_stopped_as_a_capped_draw():
    class Endless(sk.Skirmish):
        def new_game(self, decks, seed, *, chance=None):
            s = super().new_game(decks, seed, chance=chance)
            s.apply = lambda a, seat=None: ()  # a rules bug: nothing ever happens
            return s
    rec = play_game(Endless(), DECKS, ("random", "random"), seed=1, max_actions=200)
    assert rec.is_draw and rec.end_reason == ACTION_CAP and rec.capped


def test_turn_cap_games_count_as_capped_draws():
    game = sk.Skirmish(cap=2)
    recs = run_tasks(lambda: game, DECKS, match_tasks(("random", "random"), 6, seed=1), jobs=1, game=game)
    summary = match_summary(recs, ["aggro", "turtle"])
    capped = [r for r in recs if r.end_reason == "turn cap"]
    assert capped and all(r.is_draw and r.capped for r in capped)
    assert summary["capped"]["k"] == len(capped)
    assert summary["draws"]["k"] >= len(capped)


def test_eliminations_rank_seats_and_returns_sum_to_half_the_seats():
    game = make_game()
    decks = [AGGRO, TURTLE, AGGRO, TURTLE]
    for seed in range(10):
        rec = play_game(game, decks, ("random",) * 4, seed=seed)
        assert sum(rec.returns()) == pytest.approx(2.0)
        if rec.end_reason == "knockout":
            assert sorted(rec.ranks) == [0, 1, 2, 3] and rec.winner is not None
    assert Outcome.placing([[2], [0, 3], [1]], 4, "x").returns() == (0.5, 0.0, 1.0, 0.5)


# ---- statistics ----

def test_wilson_interval_matches_published_values():
    # Values from Newcombe (1998), table I, and the closed form.
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    assert wilson(0, 0) == (0.0, 1.0)


def test_fisher_exact_matches_known_values():
    # The tea-tasting table: p = 0.4857 (two-sided).
    assert round(fisher_exact(3, 1, 1, 3), 4) == 0.4857
    assert round(fisher_exact(10, 0, 0, 10), 7) == round(2 / 184756, 7)
    assert fisher_exact(5, 5, 5, 5) == pytest.approx(1.0)


def test_summary_counts_first_player_draws_and_length():
    recs = run_tasks(make_game, DECKS, match_tasks(("random", "random"), 30, seed=9), jobs=1)
    s = match_summary(recs, ["aggro", "turtle"])
    assert s["games"] == 30
    wins = [d["wins"]["k"] for d in s["decks"]]
    assert sum(wins) + s["draws"]["k"] == 30
    # The first player is whoever acted first (a die decides), not seat 0.
    assert s["first_player_wins"]["k"] == sum(1 for r in recs if r.winner == r.first_actor)
    assert s["length"]["min"] <= s["length"]["median"] <= s["length"]["max"]
    assert sum(s["length"]["histogram"].values()) == 30
    for d in s["decks"]:
        assert d["wins_going_first"]["n"] + d["wins_going_second"]["n"] == 30
    assert [x["acted_first"] for x in s["seat_wins"]] == [sum(1 for r in recs if r.first_actor == q) for q in (0, 1)]


def test_card_impact_compares_played_with_not_played():
    recs = run_tasks(make_game, DECKS, match_tasks(("greedy", "random"), 40, seed=1), jobs=1)
    rows = {r.card: r for r in card_impact(recs, DECKS)}
    assert set(rows) == set(AGGRO.cards()) | set(TURTLE.cards())
    # Every (game, seat) whose deck holds the card lands on exactly one side.
    assert rows["guard"].played.n + rows["guard"].not_played.n == 40
    assert rows["strike-2"].played.n + rows["strike-2"].not_played.n == 80
    for r in rows.values():
        assert 0.0 <= r.p_value <= 1.0
        assert 0.0 <= r.adjusted_p <= 1.0
        assert r.significant == (r.adjusted_p < 0.05 and r.played.n > 0 and r.not_played.n > 0)


def test_card_impact_flags_a_card_that_decides_games():
    from cardsmith.engine.runner import GameRecord
    # Synthetic: deck 0 wins exactly when it played "bomb".
    recs = [GameRecord(i, i, (0, 1), ("a", "b"), ("x", "x"), (0, 1) if i % 2 else (1, 0), "knockout", 5 + i % 7,
                       (("bomb",) if i % 2 else (), ())) for i in range(40)]
    deck = sk.deck("a", bomb=1, guard=1)
    rows = {r.card: r for r in card_impact(recs, [deck, TURTLE])}
    assert rows["bomb"].significant and rows["bomb"].difference == 1.0
    assert not rows["guard"].significant and rows["guard"].played.n == 0


def test_matchup_matrix_is_complementary():
    recs = run_tasks(make_game, DECKS, match_tasks(("random", "random"), 20, seed=4), jobs=1)
    m = matchup_matrix(recs, ["aggro", "turtle"])
    assert m[0][0] is None and m[1][1] is None
    draws = sum(1 for r in recs if r.is_draw)
    assert m[0][1]["k"] + m[1][0]["k"] + draws == 20 == m[0][1]["n"]


def test_matchups_with_three_seats_count_who_finished_ahead():
    decks = [AGGRO, TURTLE, sk.deck("mid", strike_2=5, guard=3, heal=3)]
    recs = run_tasks(make_game, decks, table_tasks(("random",) * 3, 12, seed=4), jobs=1)
    m = matchup_matrix(recs, ["a", "t", "m"])
    for i in range(3):
        for j in range(3):
            if i != j:
                ties = sum(1 for r in recs if r.ranks[r.deck_ids.index(i)] == r.ranks[r.deck_ids.index(j)])
                assert m[i][j]["n"] == 12 and m[i][j]["k"] + m[j][i]["k"] + ties == 12
    assert str(Rate(1, 2)).startswith("50.0% [")


# ---- the contract, checked by the engine's own conformance check ----

def test_the_test_game_meets_the_engine_contract():
    from cardsmith.engine.checks import protocol_problems

    assert protocol_problems(make_game(), DECKS, seeds=range(6)) == []
    assert protocol_problems(make_game(), [AGGRO, TURTLE, AGGRO], seeds=range(3)) == []


def test_the_conformance_check_catches_broken_games():
    from cardsmith.engine.checks import protocol_problems

    class SharedClone(sk.Skirmish):  # clone() that shares the hands: applying to it changes the original
        def new_game(self, decks, seed, *, chance=None):
            s = super().new_game(decks, seed, chance=chance)
            s.clone = lambda s=s: s
            return s

    class Unseeded(sk.Skirmish):  # dice not drawn from the state's seeded chance
        def new_game(self, decks, seed, *, chance=None):
            s = super().new_game(decks, seed, chance=chance)
            s.chance = SeededChance(random.getrandbits(64))
            return s

    class ListLegal(sk.Skirmish):  # legal actions as a list an agent could append to
        def new_game(self, decks, seed, *, chance=None):
            s = super().new_game(decks, seed, chance=chance)
            real = s.legal_actions
            s.legal_actions = lambda seat=None: list(real(seat))
            return s

    assert any("clone changed the original" in p for p in protocol_problems(SharedClone(), DECKS, seeds=[1]))
    assert any("replaying" in p or "different game" in p for p in protocol_problems(Unseeded(), DECKS, seeds=range(3)))
    assert any("not a tuple" in p for p in protocol_problems(ListLegal(), DECKS, seeds=[1]))


def test_card_impact_adjusts_for_game_length():
    from cardsmith.engine.runner import GameRecord
    # "slow" is played only in long games, and deck 0 wins long games more often - but within games
    # of the same length, playing it changes nothing. The raw figures blame the card; adjusted, they do not.
    recs = []
    for i in range(400):
        long = i % 2 == 0
        turns = 20 + i % 5 if long else 5 + i % 5
        played = long and i % 4 == 0
        won = (i % 10) < (8 if long else 2)
        recs.append(GameRecord(i, i, (0, 1), ("a", "b"), ("x", "x"), (0, 1) if won else (1, 0), "k", turns,
                               (("slow",) if played else (), ())))
    row = {r.card: r for r in card_impact(recs, [sk.deck("a", slow=1), TURTLE])}["slow"]
    assert row.p_value < 0.001 and row.difference > 0.2  # raw: looks decisive
    assert abs(row.adjusted_difference) < 0.05 and row.adjusted_p > 0.05 and not row.significant


def test_mantel_haenszel_single_table_is_yates_chi_square_scaled():
    from cardsmith.engine.stats import mantel_haenszel
    a, b, c, d = 30, 10, 15, 25
    n = a + b + c + d
    yates = n * (abs(a * d - b * c) - n / 2) ** 2 / ((a + b) * (c + d) * (a + c) * (b + d))
    stat = yates * (n - 1) / n
    diff, p = mantel_haenszel([(a, b, c, d)])
    assert diff == pytest.approx(a / (a + b) - c / (c + d))
    assert p == pytest.approx(math.erfc(math.sqrt(stat / 2)))
    assert mantel_haenszel([(3, 0, 0, 0)]) == (None, 1.0)


from hypothesis import given, strategies as st


@given(st.integers(min_value=1, max_value=100_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_the_observed_rate(kn):
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    lo4, hi4 = wilson(4 * k, 4 * n)  # four times the games, same rate: a narrower interval
    assert hi4 - lo4 <= hi - lo + 1e-12
