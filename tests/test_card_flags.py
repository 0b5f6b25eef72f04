"""Card flags need an effect that matters: Benjamini-Hochberg over each card's test that its effect lies
beyond +-MARGIN (5 points), the same for owned-deck interventions and common-deck deals, so that a
run of many games does not flag every card that is not exactly average."""

from __future__ import annotations

import random
from pathlib import Path

from cardsmith.simulation import sets
from cardsmith.simulation._common_deck import Tally, card_rows
from cardsmith.simulation._inference import MARGIN, beyond_margin, flag_rows, paired_effect
from cardsmith.simulation._study import flag

ROOT = Path(__file__).resolve().parents[1]


def _row(effect: float, se: float, **kw) -> dict:
    return {"effect": effect, "se": se, "low": effect - 1.96 * se, "high": effect + 1.96 * se, **kw}


def test_a_small_effect_with_a_tight_interval_is_not_flagged_and_a_large_one_is():
    rows = [_row(0.03, 0.005), _row(0.25, 0.04), _row(-0.25, 0.04)] + [_row(0.0, 0.03) for _ in range(20)]
    flag_rows(rows)
    # +3 points [+2.0, +4.0]: surely not zero, but too small to matter.
    assert rows[0]["low"] > 0 and rows[0]["flag"] is None
    assert rows[1]["flag"] == "too strong" and rows[2]["flag"] == "too weak"
    assert all(r["flag"] is None for r in rows[3:])


def test_one_card_is_flagged_exactly_when_its_interval_lies_beyond_the_margin():
    se = 0.02
    edge = MARGIN + 1.96 * se  # the interval's low end just at +MARGIN
    assert beyond_margin(edge + 0.001, se) < 0.05 < beyond_margin(edge - 0.001, se)
    assert beyond_margin(-(edge + 0.001), se) < 0.05
    assert beyond_margin(0.04, 1e-6) == 1.0  # within the margin, however certain
    assert beyond_margin(0.3, None) == 1.0  # no games: no information
    # With no margin it is the plain test of "effect = 0".
    e = paired_effect([1, 0, 0, 1, 1, 0.5, 1, 0] * 10)
    assert abs(beyond_margin(e.mean, e.se, 0.0, dof=e.dof) - e.p) < 1e-9


def test_intervention_rows_keep_their_looks_and_degrees_of_freedom():
    # +3 points over 4,000 paired games: the plain p-value is tiny, the flag stays off.
    rng = random.Random(2)
    small = paired_effect([rng.choice((1, 0, 0, 0)) - rng.choice((1, 0, 0, 0)) + 0.03
                           for i in range(4000)], looks=4).to_dict()
    big = paired_effect([rng.choice((1, 1, 0, 0.5)) for _ in range(80)], looks=4).to_dict()
    rows = [dict(small, deck="d", card="a"), dict(big, deck="d", card="b")]
    flag(rows)
    assert rows[0]["p_value"] < 0.05 and rows[0]["flag"] is None
    assert rows[1]["flag"] == "too strong"
    # Four looks scale the margin test's p-value as they scale the plain one.
    one = beyond_margin(big["effect"], big["se"], looks=1, dof=big["dof"])
    assert rows[1]["p_margin"] == round(min(1.0, 4 * one), 8)


def test_cards_exactly_at_the_margin_are_flagged_at_most_one_time_in_forty():
    rng = random.Random(7)
    flagged = total = 0
    for _ in range(200):
        rows = [_row(rng.gauss(MARGIN, 0.02), 0.02) for _ in range(30)]
        flag_rows(rows)
        flagged += sum(1 for r in rows if r["flag"])
        total += len(rows)
    assert flagged / total <= 0.025


def test_a_common_deck_card_needs_an_effect_beyond_the_margin(tmp_path):
    cardset = sets.load_set_checked(ROOT / "cards" / "transwar")
    deck = sets.load_checked_deck(cardset, sets.deck_files(cardset.path)[0])
    tally = Tally()
    games = 20000
    tally.seats[2] = 2 * games
    tally.records[2] = [None] * games  # type: ignore[list-item]  # only counted
    rng = random.Random(3)
    # Each card dealt to one seat in a quarter of the games; the Sheep's holder wins 63%, the
    # Rat's 52%, every other card's 50%.
    for card in dict.fromkeys(deck.cards()):
        rate = {"sheep": 0.63, "rat": 0.52}.get(card, 0.5)
        tally.games[(2, card)] = [(float(rng.random() < rate), 1, 0) for _ in range(games // 4)]
    rows, untested = card_rows(tally, cardset, deck, (2,))
    by = {r["card"]: r for r in rows}
    assert not untested
    assert by["sheep"]["flag"] == "too strong"
    assert by["rat"]["low"] > 0 and by["rat"]["flag"] is None  # +2.3 points: real, but it does not matter
    assert sum(1 for r in rows if r["flag"]) == 1
