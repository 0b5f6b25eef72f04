"""Issue 16's fairness checks: fillers that read an average card as about 0 in every game with
decks, card tests corrected for the adaptive budget's sequential looks, the observational figures
(when drawn, in the opening hand, never seen) and the natural experiment on a common deck's hands.

Long acceptance runs (strong, weak and no plant on Solar Empires) are in benchmarks/balance_plants.py."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from cardsmith.engine.registry import load_game
from cardsmith.engine.runner import play_game
from cardsmith.simulation._inference import critical, paired_effect
from cardsmith.simulation._intervention import fillers, swap, with_fillers
from cardsmith.simulation.sets import deck_files, load_checked_deck, open_set

DECK_GAMES = ["solar-empires", "trf", "rm2k-anime"]


def _set(name: str):
    cardset = open_set(name)
    return cardset, load_game(cardset), [load_checked_deck(cardset, p) for p in deck_files(cardset.path)]


def test_a_building_of_typical_output_for_its_cost_is_its_own_filler():
    from cardsmith.games.solar_empires.filler import filler

    cardset = open_set("solar-empires")
    plus = ("plus_energy", "plus_minerals", "plus_organics")
    output = lambda c: tuple(int(c.fields.get(k) or 0) for k in plus)  # noqa: E731
    mines, city = cardset.card("mines"), cardset.card("infected-city")
    # Mines (+1 minerals for 1/1/1) is what buildings of that cost give: its filler is the same.
    assert output(filler(mines, cardset)) == output(mines) == (0, 1, 0)
    # Infected City (+2/+2/+2 for 2/2/2) out-produces the +1 its cost's other buildings typically give
    # (+1, +1, +1, +3, +4: its own +6 is left out of the median, which it would raise to +2).
    made = filler(city, cardset)
    assert sum(output(made)) == 1 < sum(output(city)) and made.fields["save"] == city.fields["save"]
    assert not made.effects and not made.keywords and made.type == "building"


@pytest.mark.parametrize("name", DECK_GAMES)
def test_every_filler_is_a_plain_card_of_the_same_type_and_cost_and_plays(name):
    cardset, game, decks = _set(name)
    made = fillers(cardset, game.rules, sorted({c for d in decks for c in d.cards()}))
    assert made, f"{name} offers no filler"
    ids = cardset.by_id()
    for cid, f in made.items():
        card = ids[cid]
        assert f.id not in ids and not f.keywords and not f.tags
        assert f.type == card.type or (card.type == "event" and name == "solar-empires")
        for cost in ("cost", "energy", "minerals", "organics"):
            assert f.fields.get(cost) == card.fields.get(cost), (cid, cost)
    # Every card with a filler swapped out at once: the rules take the set and the game ends.
    played = game.rules.make_game(with_fillers(cardset, made))
    blank = [decks[0], decks[1]]
    for cid, f in made.items():
        blank = [swap(d, cid, f.id) if cid in d.cards() else d for d in blank]
    record = play_game(played, blank, ("random", "random"), seed=5)
    assert record.end_reason


def test_a_sequential_interval_is_wider_and_its_p_value_scaled_by_the_looks():
    diffs = [1, 0, 0, 1, 0, -1, 1, 0.5, 0, 1] * 8
    one, four = paired_effect(diffs), paired_effect(diffs, looks=4)
    # 80 paired games: Student's t with 79 degrees of freedom; 98.75% for each of four looks.
    assert critical(1, 9) == pytest.approx(2.2622, abs=1e-4) and critical(4) == pytest.approx(2.4977, abs=1e-4)
    assert four.mean == one.mean
    assert (four.high - four.low) / (one.high - one.low) == pytest.approx(critical(4, 79) / critical(1, 79))
    assert four.p == pytest.approx(min(1.0, 4 * one.p))


def _stops_early(rng: random.Random, looks: int) -> bool:
    """A null card (it changes nothing) looked at after 40, 80, 160, 320 paired games; True if any
    look's interval excludes zero (a false 'significant')."""
    diffs: list[float] = []
    for n in (40, 80, 160, 320):
        diffs += [rng.choice((-1, 0, 0, 1)) for _ in range(n - len(diffs))]
        e = paired_effect(diffs, looks=looks)
        if e.low > 0 or e.high < 0:
            return True
    return False


def test_looking_four_times_would_inflate_false_flags_and_the_correction_holds_them_at_five_percent():
    rng = random.Random(16)
    runs = 500
    plain = sum(_stops_early(rng, 1) for _ in range(runs)) / runs
    corrected = sum(_stops_early(rng, 4) for _ in range(runs)) / runs
    assert plain > 0.08  # four uncorrected looks at 95%: well above the 5% promised
    assert corrected <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / runs)


def test_observational_figures_are_when_drawn_in_the_opening_hand_and_never_seen():
    from cardsmith.simulation.match import run_balance
    from cardsmith.simulation._observed import Hands, observed_cards

    cardset, game, decks = _set("solar-empires")
    result = run_balance(cardset, game, None, decks, "random", games=6, seed=2, jobs=1)
    obs = observed_cards(Hands(game, decks), result.records, {})
    assert obs["available"] and obs["games"] == 18 and "not causal" in obs["note"]
    for row in obs["rows"]:
        # Each deck sits in 12 of the 18 games; every one is either "drawn" or "never seen".
        assert row["drawn"]["games"] + row["not_seen"]["games"] == 12
        assert row["opening"]["games"] <= row["drawn"]["games"]
    solar = {c.id for c in cardset.cards if c.type in ("star", "solar-body", "planet")}
    assert not solar & {r["card"] for r in obs["rows"]}  # never in a hand: no row


def test_a_game_that_cannot_say_what_a_seat_holds_says_so():
    from cardsmith.simulation._observed import Hands, observed_cards
    from tests.engine_testgame import deck, make_game

    game = make_game()
    obs = observed_cards(Hands(game, [deck("a", guard=3)]), [], {})
    assert not obs["available"] and "cards_in_hand" in obs["note"] and not obs["rows"]


def test_a_common_deck_game_measures_its_cards_through_the_opening_deal():
    from cardsmith.simulation.balance import balance_figures

    cardset, game, decks = _set("transwar")
    f = balance_figures(cardset, game, None, decks, "random", games=12, seed=4, budget=100, jobs=1, players=3)
    dealt = [r for r in f["card_tests"] if r["method"] == "dealt by the game"]
    # The sized study plays its budget of games at the size asked; each card's test counts those games.
    assert dealt and all(r["games"] == 100 and 0 < r["holders"] < 100 * 3 for r in dealt)
    # Every card of the common deck is a row or is listed as untested with its reason.
    listed = {r["card"] for r in f["card_tests"]} | {u["card"] for u in f["untested_cards"]}
    assert listed == {c.id for c in cardset.cards}
    assert all(u["reason"] for u in f["untested_cards"])
    # No card was tested by intervention, so nothing was looked at sequentially, and the verdict says so.
    assert f["looks"] == 1 and "sequential looks" not in " ".join(f["verdict"]["sentences"])


@pytest.mark.parametrize("name", ["solar-empires", "transwar"])
def test_hands_followed_while_playing_equal_a_replay_of_the_game(name):
    """The round robin's workers follow the hands as they play, so the observational figures need no
    replay; what they follow must be what a replay of the same game reads."""
    from dataclasses import replace

    from cardsmith.engine.runner import run_tasks, table_tasks
    from cardsmith.simulation._observed import hands_of

    cardset, game, decks = _set(name)
    decks = decks[:2] if len(decks) > 1 else decks * 2
    tasks = [replace(t, hands=True) for t in table_tasks(["random", "random"], 6, 5, deck_ids=(0, 1))]
    records = run_tasks(None, decks, tasks, jobs=1, game=game)
    hand = game.rules.cards_in_hand
    for r in records:
        assert r.hands is not None
        assert any(r.hands[1]), "some seat held a card"
        assert r.hands == hands_of(game, decks, replace(r, hands=None), hand)


def test_a_filler_never_sees_the_card_under_test_and_says_when_it_falls_back():
    """Issue 29: with three cards at one cost, a planted card made up a third of its neighbours'
    medians. The tested card is left out; with fewer than three comparable cards left, the filler is
    the type's typical card and its name (shown in the report) says so."""
    from cardsmith.engine.kit.fillers import alike
    from cardsmith.games.solar_empires.filler import filler
    from cardsmith.sets.model import Card, frozen_map

    cardset = open_set("solar-empires")
    fighters = [c for c in cardset.cards if c.type == "ship" and c.fields.get("class") == "fighter"]
    plant = fighters[0]
    strong = Card(id=plant.id, name=plant.name, type="ship", race=plant.race,
                  fields=frozen_map({**plant.fields, "attack": 99, "armour": 99}))
    planted = dataclasses.replace(cardset, cards=tuple(strong if c.id == plant.id else c for c in cardset.cards))
    # The plant's own filler and a neighbour's are what the other fighters give, whatever the plant's numbers.
    for card in (strong, fighters[1]):
        made = filler(card, planted)
        assert made.fields["attack"] < 99 and made.fields["attack"] == filler(card, cardset).fields["attack"]
    few = [c for c in cardset.cards if c.type == "building"][:3]
    others, note = alike(few, few[0], lambda c: True)
    assert [c.id for c in others] == [c.id for c in few[1:]] and "typical building: fewer than 3 alike" in note
    assert " for " not in note  # the report reads the filler's name up to " for "
    assert alike(cardset.cards, fighters[0], lambda c: c in fighters) == (fighters[1:], "")


def test_card_tests_with_a_deadline_stop_after_the_look_the_time_affords():
    """A sized default run must end within its ten minutes even when the player's cost in the card
    tests differs from the round robin's: with the deadline already passed, the tests keep their
    first look (every card measured once) and take no further look, and they say so."""
    import time

    from cardsmith.simulation._study import card_study
    from cardsmith.simulation.match import tables

    cardset, game, decks = _set("solar-empires")
    kw = dict(seed=3, budget=700, jobs=1)
    late = card_study(cardset, game, decks, tables(len(decks), 2), "random", deadline=time.monotonic() - 1, **kw)
    free = card_study(cardset, game, decks, tables(len(decks), 2), "random", **kw)
    assert late["stopped_for_time"] and not free["stopped_for_time"]
    assert late["study_games"] < free["study_games"]
    assert {r["card"] for r in late["card_tests"]} == {r["card"] for r in free["card_tests"]}
