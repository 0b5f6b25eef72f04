"""The balance report's card tests (issue 16): fillers, paired interventions, BH flags, the verdict.

Small runs of the engine's test game (Skirmish) and a few Solar Empires games; the long acceptance
runs (planted strong and weak cards, no plant) are in benchmarks/balance_plants.py."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from cardsmith.sets.model import Card, frozen_map
from cardsmith.simulation._inference import benjamini_hochberg, paired_effect, spearman
from cardsmith.simulation._intervention import swap
from cardsmith.simulation._study import card_study
from cardsmith.simulation._verdict import verdict
from tests.engine_testgame import RULES as SKIRMISH, deck, make_game


def _skirmish_set(cards: dict[str, dict]):
    from cardsmith.sets.model import CardSet
    from pathlib import Path

    made = tuple(Card(id=k, name=k.title(), type="card", effects=(v,)) for k, v in cards.items())
    return CardSet(id="skirmish", name="Skirmish", path=Path("."), rules="skirmish", cards=made)


def _strike0(card: Card, cardset) -> Card:
    """Skirmish's filler for these tests: a strike of power 0 (it hits on a 4+ for 1)."""
    return replace(card, id=card.id + "~filler", effects=({"do": "strike", "power": 0},))


def _game(cardset):
    game = make_game(cardset)
    game.rules = replace(SKIRMISH, filler=_strike0, make_game=make_game)
    return game


CARDS = {"strike-1": {"do": "strike", "power": 1}, "strike-6": {"do": "strike", "power": 6},
         "heal": {"do": "heal", "amount": 2}, "guard": {"do": "guard", "amount": 2}}


def test_solar_empires_filler_is_a_plain_ship_of_the_same_class_and_cost():
    from cardsmith.games.solar_empires import RULES
    from cardsmith.simulation.sets import open_set

    cardset = open_set("solar-empires")
    mace = cardset.card("tcs-19-mace")  # a fighter with Bomber, cost 2/1/1
    f = RULES.filler(mace, cardset)
    assert f.type == "ship" and f.fields["class"] == "fighter" and not f.keywords and not f.effects
    assert (f.fields["energy"], f.fields["minerals"], f.fields["organics"]) == (2, 1, 1)
    assert f.id not in cardset.by_id()
    star = next(c for c in cardset.cards if c.type == "star")
    assert RULES.filler(star, cardset) is None  # dealt by the game: measured through its chance instead


def test_swap_keeps_every_slot_in_place():
    d = deck("d", strike_1=2, heal=1, guard=3)
    s = swap(d, "heal", "heal~filler")
    assert list(s.zones["deck"]) == ["strike-1", "heal~filler", "guard"] and s.count() == d.count()


def test_benjamini_hochberg_step_up():
    # p sorted: .001 <= .05*1/4, .01 <= .05*2/4, .03 > .0375? no: .03 <= .0375 -> three rejected; .2 not
    assert benjamini_hochberg([0.2, 0.01, 0.001, 0.03]) == [False, True, True, True]
    assert benjamini_hochberg([0.04, 0.2]) == [False, False]


def test_paired_effect_interval_and_draws():
    e = paired_effect([1, 0, 0, 1, 0, 0, 0.5, 0], draws_with=1)
    assert e.mean == pytest.approx(2.5 / 8) and e.low < e.mean < e.high and e.games == 8 and e.draws_with == 1
    assert paired_effect([0.0] * 50).high > 0  # no change at all is still not infinite certainty


def test_spearman_agrees_and_disagrees():
    up = spearman(list(range(20)), [x + (x % 3) for x in range(20)])
    down = spearman(list(range(20)), [-x for x in range(20)])
    assert up["rho"] > 0.9 and up["low"] > 0 and down["rho"] == pytest.approx(-1.0)


def test_intervention_finds_the_strong_card_and_is_reproducible():
    cardset = _skirmish_set(CARDS)
    game = _game(cardset)
    decks = [deck("big", strike_6=3, heal=3), deck("small", strike_1=3, guard=3)]
    run = lambda seed: card_study(cardset, game, decks, [(0, 1)], "random", seed=seed, budget=600, jobs=1)  # noqa: E731
    a, b, c = run(1), run(1), run(2)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.dumps(a) != json.dumps(c)
    top = a["card_tests"][0]
    assert (top["card"], top["deck"], top["flag"]) == ("strike-6", "big", "too strong") and top["low"] > 0
    assert a["study_games"] <= 600 + 100


def test_intervention_with_three_seats_measures_the_holders_placing():
    cardset = _skirmish_set(CARDS)
    game = _game(cardset)
    decks = [deck("big", strike_6=3, heal=3), deck("a", strike_1=3, guard=3), deck("b", strike_1=3, heal=3)]
    f = card_study(cardset, game, decks, [(0, 1, 2)], "random", seed=3, budget=450, jobs=1)
    row = next(r for r in f["card_tests"] if r["card"] == "strike-6")
    assert row["effect"] > 0 and row["games"] >= 30


def _figures(tests, capped=0):
    rate = lambda k, n: {"k": k, "n": n, "rate": k / n, "low": k / n - 0.05, "high": k / n + 0.05}  # noqa: E731
    return {"players": 2, "agent": "random", "fdr": 0.05, "card_tests": tests,
            "deck_win_rates": [{"deck": "Strong", "wins": rate(67, 100)}, {"deck": "Other", "wins": rate(50, 100)}],
            "first_player_wins_of_decided": rate(50, 100), "capped": rate(capped, 100)}


def test_verdict_names_deck_cause_weak_cards_first_player_and_trust():
    row = {"deck": "Strong", "card": "mace", "name": "Mace", "method": "intervention", "filler": "plain fighter for Mace",
           "effect": 0.21, "low": 0.14, "high": 0.28, "games": 800, "flag": "too strong"}
    weak = {**row, "deck": "Other", "card": "rapier", "name": "Rapier", "effect": -0.12, "low": -0.18, "high": -0.06,
            "flag": "too weak"}
    v = verdict(_figures([row, weak]))
    text = "\n".join(v["sentences"])
    assert "Strong is too strong: it wins 67.0% [62-72]" in text
    assert "Most likely cause: Mace (Strong), +21.0 points [+14.0, +28.0] when swapped for a plain fighter (800 games)" in text
    assert "Too weak: Rapier (Other), -12.0 points" in text
    assert "Going first: no measurable advantage" in text and v["trusted"]
    assert not verdict(_figures([row], capped=30))["trusted"]
    assert "Do not trust these numbers: 30.0%" in "\n".join(verdict(_figures([row], capped=30))["sentences"])


def test_deck_search_stays_legal_and_reports_what_it_leans_on():
    from cardsmith.engine.registry import load_game
    from cardsmith.decks import check_deck
    from cardsmith.sets.model import Deck
    from cardsmith.simulation.deck_search import search_decks
    from cardsmith.simulation.sets import deck_files, load_checked_deck, open_set

    cardset = open_set("solar-empires")
    game = load_game(cardset)
    decks = [load_checked_deck(cardset, p) for p in deck_files(cardset.path)][:2]
    found = search_decks(cardset, game, None, decks, "random", seed=1, budget=200, games=4, jobs=1)
    best = Deck(name="best", set_id=cardset.id, zones=frozen_map({z: frozen_map(c) for z, c in found["deck"].items()}))
    assert not check_deck(best, cardset)
    assert found["mutants_tried"] >= 1 and found["sentence"].startswith("Deck search")
    # The best deck and its start replay a quarter of the budget (50 games) on the same fresh seeds:
    # 12 games against each of the 2 field decks, each side.
    assert found["games"] == 24 and found["gain_over_start"]["games"] == 24
    assert found["measurable"] == (found["gain_over_start"]["low"] > 0 or found["gain_over_start"]["high"] < 0)
    assert found["measurable"] or "no measurable gain" in found["sentence"]


def test_with_two_decks_the_mirror_of_a_too_strong_deck_names_no_cause():
    """Issue 29: the verdict named a neighbour's smeared card test as the cause of the mirror deck's
    weakness. With two decks the weak one is only the other side of the strong one."""
    row = {"deck": "Strong", "card": "mace", "name": "Mace", "method": "intervention", "filler": "plain fighter for Mace",
           "effect": 0.21, "low": 0.14, "high": 0.28, "games": 800, "flag": "too strong"}
    weak = {**row, "deck": "Other", "card": "rapier", "name": "Rapier", "effect": -0.12, "low": -0.18, "high": -0.06,
            "flag": "too weak"}
    figures = _figures([row, weak])
    figures["deck_win_rates"][1]["wins"].update(rate=0.33, low=0.28, high=0.38)
    v = verdict(figures)
    text = "\n".join(v["sentences"])
    assert "Other is too weak: it wins 33.0% [28-38] against the field: the mirror of Strong being too strong" in text
    assert [c["deck"] for c in v["causes"]] == ["Strong"]
    assert "Most likely cause: Rapier" not in text and "Too weak: Rapier (Other)" in text


def test_with_many_draws_two_even_decks_are_not_both_too_weak():
    """Orchard with a fair Pear: 44% of games drawn, the decks win 29% and 27%. Against a fair 50% both
    read "too weak"; a drawn game is a win for neither, so the fair share is 28%."""
    figures = _figures([])
    rate = lambda k: {"k": k, "n": 100, "rate": k / 100, "low": k / 100 - 0.08, "high": k / 100 + 0.09}  # noqa: E731
    figures["deck_win_rates"] = [{"deck": "blossom", "wins": rate(29)}, {"deck": "harvest", "wins": rate(27)}]
    figures["draws"] = rate(44)
    v = verdict(figures)
    assert v["strong_decks"] == v["weak_decks"] == []
    assert "No deck stands out: win rates from 27.0% to 29.0%, every interval touching a fair 28%." in v["sentences"]
    assert "Going first: no measurable advantage (50.0% [45-55] of decided games)." in v["sentences"]  # decided: no draws
    figures["deck_win_rates"][1]["wins"] = rate(60)
    assert "harvest is too strong: it wins 60.0% [52-69] against the field (fair: 28%, as 44% of games are draws)." \
        in verdict(figures)["sentences"]


def test_an_untrusted_verdict_for_caps_says_where_they_are_and_whose_fault():
    """A competent player that stalls only where two strong decks meet is not told to be stronger:
    the verdict names the table that holds the capped games (seen on a planted TRF copy)."""
    rate = lambda k, n: {"k": k, "n": n, "rate": k / n, "low": 0.0, "high": 1.0}  # noqa: E731
    figures = _figures([])
    figures["tables"] = [{"decks": [{"deck": "Strong"}, {"deck": "Other"}], "capped": rate(15, 100)},
                         {"decks": [{"deck": "Strong"}, {"deck": "Third"}], "capped": rate(0, 100)},
                         {"decks": [{"deck": "Other"}, {"deck": "Third"}], "capped": rate(3, 100)}]
    calibration = {"games": 200, "share": 1.0, "low": 0.98, "high": 1.0, "capped_share": 0.0}
    figures["player"] = {"spec": "planner", "rung": 2, "ladder": ["random", "greedy", "planner"], "vs_random": calibration,
                         "trusted": False, "reason": "3.0% of planner's games were stopped by a cap (at most 2%)",
                         "failed_rule": "caps"}
    first = verdict(figures)["sentences"][0]
    assert first.startswith("UNTRUSTED: 3.0% of planner's games were stopped by a cap (at most 2%): "
                            "15 of 100 in Strong against Other; 3 of 100 in Other against Third, so")
    assert "hold each other off" in first and "use a stronger player" not in first
    # A player that stalls against random too is told to be stronger.
    figures["player"]["vs_random"] = {**calibration, "capped_share": 0.05}
    assert "use a stronger player" in verdict(figures)["sentences"][0]
