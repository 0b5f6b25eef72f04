"""Engine core: registry errors, seeds, replay, seat alternation, jobs-independence, statistics."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

from cardsmith.engine.core import IllegalAction
from cardsmith.engine.registry import load_game
from cardsmith.engine.rng import agent_rng, derive_seed, game_seed
from cardsmith.engine.runner import (
    ACTION_CAP, match_tasks, normalise_agents, play_game, replay, replay_account, run_tasks,
)
from cardsmith.engine.stats import Rate, card_impact, fisher_exact, match_summary, matchup_matrix, wilson
from cardsmith.errors import CardsmithError
from cardsmith.model import CardSet

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


def test_unknown_rules_module_is_refused_clearly():
    with pytest.raises(CardsmithError, match="rules module 'chess'"):
        load_game(CardSet(id="x", name="X", path=Path("cards/x"), rules="chess"))
    with pytest.raises(CardsmithError, match="does not have"):
        load_game(CardSet(id="x", name="X", path=Path("cards/x"), rules="../../etc"))


def test_registry_calls_the_modules_make_game(monkeypatch):
    import cardsmith.games
    # Make the test game's module visible as a rules module: cardsmith.games.engine_testgame.
    monkeypatch.setattr(cardsmith.games, "__path__", [*cardsmith.games.__path__, str(Path(sk.__file__).parent)])
    monkeypatch.delitem(sys.modules, "cardsmith.games.engine_testgame", raising=False)
    game = load_game(CardSet(id="x", name="X", path=Path("."), rules="engine_testgame", meta={"play": {"turn_cap": 12}}))
    assert game.name == "skirmish" and game.cap == 12


# ---- seeds ----

def test_seeds_are_stable_and_separate():
    assert game_seed(100, 7) == 107
    # A fixed value: the derivation must not depend on the process (Python's hash() is salted).
    assert derive_seed("agent", 1, 0) == 0xD6458B081277A969
    a0, a1 = agent_rng(5, 0), agent_rng(5, 1)
    assert a0.random() != a1.random()
    assert agent_rng(5, 0).random() == agent_rng(5, 0).random()
    # An agent's generator is not the game's: seed 5's chance stream differs from both agents'.
    assert random.Random(5).random() not in (agent_rng(5, 0).random(), agent_rng(5, 1).random())


def test_agent_seed_is_the_same_in_another_process():
    import subprocess
    code = "from cardsmith.engine.rng import derive_seed; print(derive_seed('agent', 3, 1))"
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
    assert (state.winner, state.end_reason, state.turn, state.log) == (rec.winner, rec.end_reason, rec.turns, rec.log)
    assert play_game(game, DECKS, agents, seed=11).actions == rec.actions  # agents too are seeded


def test_replay_refuses_an_action_that_is_not_legal():
    game = make_game()
    rec = play_game(game, DECKS, ("random", "random"), seed=3)
    bad = list(rec.actions)
    bad[0] = sk.Act("play", "no-such-card")
    with pytest.raises(IllegalAction, match="action 1"):
        replay(game, DECKS, 3, bad)


def test_apply_refuses_illegal_actions():
    state = make_game().new_game(DECKS, 1)
    with pytest.raises(IllegalAction):
        state.apply(sk.Act("play", "no-such-card"))


def test_account_is_readable_turn_by_turn():
    game = make_game()
    rec = play_game(game, DECKS, ("greedy", "random"), seed=2)
    text = replay_account(game, DECKS, rec)
    assert "seed 2" in text and "Turn 2" in text and "chooses: " in text
    assert text.count("chooses: ") == len(rec.actions)
    assert "Result:" in text.splitlines()[-1]


def test_seats_alternate_between_games_and_agents_follow_their_deck():
    tasks = match_tasks(("greedy", "random"), 4, seed=10)
    assert [t.deck_ids for t in tasks] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [t.agents for t in tasks] == [("greedy", "random"), ("random", "greedy")] * 2
    assert [t.seed for t in tasks] == [10, 11, 12, 13]
    recs = run_tasks(make_game, DECKS, tasks, jobs=1)
    assert [r.first_deck for r in recs] == [0, 1, 0, 1]
    assert recs[1].decks == ("turtle", "aggro") and recs[1].agents == ("random", "greedy")


def test_results_do_not_depend_on_the_number_of_jobs():
    tasks = match_tasks(("greedy", "random"), 24, seed=5)
    one = run_tasks(make_game, DECKS, tasks, jobs=1)
    two = run_tasks(make_game, DECKS, tasks, jobs=2)  # workers make their own game
    inherited = run_tasks(make_game, DECKS, tasks, jobs=2, game=make_game())  # forked workers inherit it
    assert [r.to_dict(with_actions=True) for r in one] == [r.to_dict(with_actions=True) for r in two]
    assert [r.to_dict(with_actions=True) for r in one] == [r.to_dict(with_actions=True) for r in inherited]
    assert match_summary(one, ["aggro", "turtle"]) == match_summary(two, ["aggro", "turtle"])


def test_zero_games_and_bad_agents_are_refused():
    with pytest.raises(CardsmithError, match="at least 1"):
        match_tasks(("random", "random"), 0, seed=1)
    with pytest.raises(CardsmithError, match="unknown agent 'alphazero'") as e:
        normalise_agents(["alphazero"])
    assert "greedy" in e.value.hint and "mcts" in e.value.hint
    with pytest.raises(CardsmithError, match="bad option"):
        normalise_agents(["mcts:depht=3"])
    assert normalise_agents(["search:iterations=50"]) == ("mcts:iterations=50", "mcts:iterations=50")


def test_a_game_that_never_ends_is_stopped_as_a_capped_draw():
    class Endless(sk.Skirmish):
        def new_game(self, decks, seed):
            s = super().new_game(decks, seed)
            s.cap = 10**9
            s.apply = lambda a, s=s: None  # a rules bug: nothing ever happens
            return s
    rec = play_game(Endless(), DECKS, ("random", "random"), seed=1, max_actions=200)
    assert rec.winner is None and rec.end_reason == ACTION_CAP and rec.capped


def test_turn_cap_games_count_as_capped_draws():
    game = sk.Skirmish(cap=2)
    recs = run_tasks(lambda: game, DECKS, match_tasks(("random", "random"), 6, seed=1), jobs=1, game=game)
    summary = match_summary(recs, ["aggro", "turtle"])
    capped = [r for r in recs if r.end_reason == "turn cap"]
    assert capped and all(r.winner is None for r in capped)
    assert summary["capped"]["k"] == len(capped)
    assert summary["draws"]["k"] >= len(capped)


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
    assert s["first_player_wins"]["k"] == sum(1 for r in recs if r.winner == 0)
    assert s["length"]["min"] <= s["length"]["median"] <= s["length"]["max"]
    assert sum(s["length"]["histogram"].values()) == 30
    for d in s["decks"]:
        assert d["wins_going_first"]["n"] == d["wins_going_second"]["n"] == 15


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
    recs = [GameRecord(i, i, (0, 1), ("a", "b"), ("x", "x"), 0 if i % 2 else 1, "knockout", 5 + i % 7,
                       (("bomb",) if i % 2 else (), ())) for i in range(40)]
    deck = sk.deck("a", bomb=1, guard=1)
    rows = {r.card: r for r in card_impact(recs, [deck, TURTLE])}
    assert rows["bomb"].significant and rows["bomb"].difference == 1.0
    assert not rows["guard"].significant and rows["guard"].played.n == 0


def test_matchup_matrix_is_complementary():
    recs = run_tasks(make_game, DECKS, match_tasks(("random", "random"), 20, seed=4), jobs=1)
    m = matchup_matrix(recs, ["aggro", "turtle"])
    assert m[0][0] is None and m[1][1] is None
    draws = sum(1 for r in recs if r.winner is None)
    assert m[0][1]["k"] + m[1][0]["k"] + draws == 20 == m[0][1]["n"]
    assert str(Rate(1, 2)).startswith("50.0% [")


# ---- the contract, checked by the engine's own conformance check ----

def test_the_test_game_meets_the_engine_contract():
    from cardsmith.engine.checks import protocol_problems

    assert protocol_problems(make_game(), DECKS, seeds=range(8)) == []


def test_the_conformance_check_catches_broken_games():
    from cardsmith.engine.checks import protocol_problems

    class SharedClone(sk.Skirmish):  # clone() that shares the hands: applying to it changes the original
        def new_game(self, decks, seed):
            s = super().new_game(decks, seed)
            s.clone = lambda s=s: s
            return s

    class Unseeded(sk.Skirmish):  # dice not drawn from the state's seeded generator
        def new_game(self, decks, seed):
            s = super().new_game(decks, seed)
            s.rng = random.Random()
            return s

    assert any("clone changed the original" in p for p in protocol_problems(SharedClone(), DECKS, seeds=[1]))
    assert any("replaying" in p or "different game" in p for p in protocol_problems(Unseeded(), DECKS, seeds=range(3)))


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
        recs.append(GameRecord(i, i, (0, 1), ("a", "b"), ("x", "x"), 0 if won else 1, "k", turns,
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
