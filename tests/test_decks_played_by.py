"""TRF deck rules as data: what the account may play and what it pays (`played_by:`), group attributes
in filters, per-type costs, cost functions from a rules module, and `deck check` / `deck stats`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardsmith.cli._group import cli
from cardsmith.decks import (RulesInvalid, check_deck, chosen_card, deck_stats, load_deck, parse_rules, play_terms,
                             zone_cards)
from cardsmith.decks.stats import cost_buckets
from cardsmith.engine.contract import RulesModule
from cardsmith.sets.model import Deck, frozen_map
from cardsmith.sets.validate import check_set, load_set
from tests.conftest import edited_set

FIX = Path(__file__).parent / "fixtures" / "decks"
TRF = FIX / "cards" / "trf"
INVALID = FIX / "invalid" / "trf"


@pytest.fixture(scope="module")
def trf():
    return load_set(TRF)


@pytest.fixture(scope="module")
def rules(trf):
    return parse_rules(trf)


def pays(trf, rules, account: str, card: str):
    """(playable, printed, paid, refusing rule id) when `account` plays `card`."""
    t = play_terms(trf.card(card), trf.card(account), rules, trf)
    return t.playable, t.printed, t.paid, t.refused_by.id if t.refused_by else None


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)
    return result.return_value, result.output


# ------------------------------------------------------------------------- the text's rules, one by one

def test_own_faction_at_normal_cost_same_alignment_at_double_cost_never_the_other(trf, rules):
    # "Dolash is a Coalition account - he can play Coalition cards without penalty ... he can play any
    # other lightside card for twice the price in meters or words ... but he cannot use Darkside cards."
    assert pays(trf, rules, "dolash", "azguard-warfleet") == (True, 500, 500, None)
    assert pays(trf, rules, "dolash", "sir-kay") == (True, 250, 500, None)        # Jedi: lightside
    assert pays(trf, rules, "dolash", "dark-trooper") == (False, 100, None, "other-alignment")
    assert pays(trf, rules, "xarn", "imperial-walker") == (True, 400, 800, None)  # Empire: darkside like the Sith
    assert pays(trf, rules, "xarn", "fleet-admiral")[3] == "other-alignment"


def test_planets_universal_cards_and_universal_accounts(trf, rules):
    # "This does not affect his choice of planets"; "Universal cards are not affected by faction and can
    # be played by anyone. A universal account can play any card."
    assert pays(trf, rules, "dolash", "nox") == (True, None, None, None)          # a Sith planet
    assert pays(trf, rules, "xarn", "war-barge") == (True, 600, 600, None)        # a Universal character
    assert pays(trf, rules, "dolash", "militia")[:3] == (True, 50, 50)            # no faction at all
    for card in ("dark-trooper", "fleet-admiral", "gash", "imperial-walker"):
        assert pays(trf, rules, "admin", card)[0] is True
        assert pays(trf, rules, "admin", card)[1] == pays(trf, rules, "admin", card)[2]


def test_a_character_off_its_factions_alignment_plays_only_for_its_faction(trf, rules):
    # "Gash is a Jedi, but can only be played by a Jedi account due to his Darkside alignment. The
    # Coalition can generally pay double to employ Jedi characters ... but not Gash."
    assert pays(trf, rules, "dolash", "gash") == (False, 300, None, "off-alignment-character")
    assert pays(trf, rules, "xarn", "gash")[3] == "off-alignment-character"  # darkside, but not a Sith
    assert pays(trf, rules, "kyle", "gash") == (True, 300, 300, None)
    assert pays(trf, rules, "admin", "gash") == (True, 300, 300, None)


def test_title_restricted_ooc_cards(trf, rules):
    # "Mod cards cost double for those whos accounts are not mods or admins, and admin cards cost double
    # for anyone but admins. Troublemakers are the only ones who don't pay double for troublemaker cards."
    assert [pays(trf, rules, a, "staff-ruling")[2] for a in ("dolash", "admin", "xarn", "kyle")] == [300, 300, 600, 600]
    assert [pays(trf, rules, a, "ban-hammer")[2] for a in ("dolash", "admin", "xarn")] == [800, 400, 800]
    assert [pays(trf, rules, a, "flame-war")[2] for a in ("dolash", "admin", "xarn")] == [300, 300, 150]


def test_costs_are_per_type_fields(trf, rules):
    # characters cost meters (`cost`), OOC cards words (`words`); planets cost nothing
    assert rules.cost_by_type == {"character": ("cost",), "ooc": ("words",)}
    assert rules.cost_of(trf.card("5000-words")) == 100 and rules.cost_of(trf.card("omnae")) is None


# ---------------------------------------------------------------------------------- deck check

@pytest.mark.parametrize("file,rule,card,words", [
    ("no-more-than-nine-planet-cards.txt", "no-more-than-nine-planet-cards", "vela", "10 cards of type planet"),
    ("unique.txt", "unique", "sir-kay", "2 copies of Sir Kay, a unique card"),
    ("other-alignment.txt", "other-alignment", "dark-trooper", "Dolash (Coalition, alignment light) cannot play Dark Trooper"),
    ("off-alignment-character.txt", "off-alignment-character", "gash", "cannot play Gash (Jedi, alignment light; own alignment dark)"),
])
def test_deck_check_refuses_each_deck_naming_the_card_and_the_rule(trf, file, rule, card, words, monkeypatch):
    violations = check_deck(load_deck(INVALID / file, trf), trf)
    assert [v.rule for v in violations] == [rule]
    assert card in violations[0].cards and words in violations[0].message
    monkeypatch.chdir(FIX)
    code, out = invoke("deck", "check", f"invalid/trf/{file}")
    name = trf.card(card).name
    assert code == 1 and f"{rule}:" in out and name in out, out


def test_every_card_the_account_cannot_play_is_named(trf):
    deck = load_deck(INVALID / "other-alignment.txt", trf)
    assets = dict(deck.zones["assets"]) | {"gash": 1, "imperial-walker": 1}
    v = check_deck(dataclasses.replace(deck, zones=frozen_map({**deck.zones, "assets": frozen_map(assets)})), trf)
    assert sorted((x.rule, x.cards) for x in v) == [("off-alignment-character", ("gash",)),
                                                    ("other-alignment", ("dark-trooper",)),
                                                    ("other-alignment", ("imperial-walker",))]
    assert all(x.kind == "played-by" and x.zone == "assets" for x in v)


def test_no_account_or_a_wrong_one_is_reported_once_not_per_card(trf, rules):
    deck = load_deck(INVALID / "account-cards.yaml", trf)  # a planet as the account
    assert chosen_card(deck, rules, trf.by_id()) is None
    assert [v.rule for v in check_deck(deck, trf)] == ["account-cards"]
    two = load_deck(INVALID / "account-size.yaml", trf)
    assert [v.rule for v in check_deck(two, trf)] == ["account-size"]


# ---------------------------------------------------------------------------------- deck stats

def test_stats_show_the_doubled_cost_the_account_pays(trf, monkeypatch):
    s = deck_stats(load_deck(TRF / "decks" / "xarn.yaml", trf), trf)
    assert s.chosen == "Xarn"
    by_card = {x["card"]: x for x in s.surcharges}
    assert by_card["imperial-walker"] == {"card": "imperial-walker", "name": "Imperial Walker", "copies": 1,
                                               "printed": 400, "paid": 800,
                                               "rules": ["Another faction of the same alignment costs double"]}
    assert (by_card["staff-ruling"]["printed"], by_card["staff-ruling"]["paid"], by_card["staff-ruling"]["copies"]) == (300, 600, 7)
    assert "dark-trooper" not in by_card  # its own faction: what it says
    assert s.curve[800] >= 1 and 400 not in s.curve and s.curve[600] == 7 + 2  # 7 Staff Rulings and 2 War Barges
    assert s.dimensions["Faction"]["Sith"] == 1 + 2 + 1 + 2  # Xarn, two Nox, the Nox homeworld, two Dark Troopers
    monkeypatch.chdir(FIX)
    code, out = invoke("deck", "stats", "cards/trf/decks/xarn.yaml")
    assert code == 0 and "as Xarn pays it" in out and "Imperial Walker" in out and "800" in out
    assert "600-699" in out and "faction" in out.lower()


def test_cost_curves_in_the_hundreds_are_binned():
    assert cost_buckets({0: 1, 3: 2, 7: 1}) == [(str(i), n) for i, n in enumerate([1, 0, 0, 2, 0, 0, 0, 1])]
    hundreds = cost_buckets({50: 2, 100: 1, 250: 3, 800: 1, 1600: 2})
    assert len(hundreds) <= 12 and hundreds[0] == ("0-199", 3) and hundreds[-1] == ("1600-1799", 2)
    assert sum(n for _, n in hundreds) == 9 and ("800-999", 1) in hundreds
    assert cost_buckets({}) == []


# ------------------------------------------------------------------------------ rules that are wrong

def with_played_by(trf, **changes):
    pb = {**dict(trf.deck_rules["played_by"]), **changes}
    return dataclasses.replace(trf, deck_rules=frozen_map({**dict(trf.deck_rules), "played_by": pb}))


@pytest.mark.parametrize("changes,words", [
    ({"access": [{"same": "faction.alignmnt"}]}, "dimension 'faction' has no attribute 'alignmnt'"),
    ({"access": [{"same": "facton"}]}, "unknown reference 'facton'"),
    ({"access": [{"differ": ["card.alignment", "chosen.side.alignment"]}]}, "unknown group dimension 'side'"),
    ({"access": [{"card": {"faction": {"alignmnet": "dark"}}, "refuse": True}]}, "did you mean 'alignment'"),
    ({"access": [{"card": {"fraction": "jedi"}, "refuse": True}]}, "unknown filter key 'fraction'"),
    ({"zone": "acount"}, "unknown zone 'acount'"),
    ({"access": [{"same": "homeworld.faction"}]}, "compare two cards with a pair, e.g. [card.faction, homeworld.faction]"),
    ({"costs": [{"function": "azguard-discount"}]}, "unknown cost function 'azguard-discount'"),
    ({"costs": [{"times": 0}]}, "deck rules"),
])
def test_bad_played_by_rules_are_reported_with_hints(trf, changes, words):
    with pytest.raises(RulesInvalid) as e:
        parse_rules(with_played_by(trf, **changes))
    assert words in str(e.value), str(e.value)


def test_validate_points_at_the_line_of_a_bad_reference(tmp_path):
    d, line = edited_set(TRF, tmp_path, "same: faction\n", "same: factoin\n")
    cs, diags = check_set(d)
    assert cs is None and any(x.line == line and "unknown reference 'factoin'" in x.message for x in diags), diags


# ---------------------------------------------------------------- named cost functions and predicates

@pytest.fixture
def rules_package(trf, monkeypatch):
    """A game `deckfix`, registered in-process, that declares a cost function and a deck predicate."""
    def discount(cost, *, card, chosen, cardset, amount=0, faction=None):
        return cost - amount if card.faction == faction else cost

    def no_militia(deck, cardset):
        if deck.zones.get("assets", {}).get("militia"):
            yield "no militia in this format"

    from cardsmith.engine.registry import register

    forget = register(RulesModule("deckfix", "Deck fixture", (2, 2), make_game=lambda cs: None,
                                  cost_functions={"faction-discount": discount}, deck_predicates={"no-militia": no_militia}))
    yield dataclasses.replace(trf, rules="deckfix")
    forget()


def test_a_cost_term_calls_a_named_cost_function_of_the_rules_module(rules_package):
    cs = with_played_by(rules_package, costs=[{"name": "Azguard cards are cheaper", "function": "faction-discount",
                                               "with": {"amount": 100, "faction": "coalition"}}])
    rules = parse_rules(cs)
    t = play_terms(cs.card("azguard-warfleet"), cs.card("dolash"), rules, cs)
    assert (t.printed, t.paid, t.reasons) == (500, 400, ["Azguard cards are cheaper"])
    assert play_terms(cs.card("dark-trooper"), cs.card("xarn"), rules, cs).paid == 100


def test_a_deck_predicate_declared_by_the_rules_module(rules_package):
    cs = dataclasses.replace(rules_package, deck_rules=frozen_map({**dict(rules_package.deck_rules),
                                                                   "predicates": [{"check": "no-militia"}]}))
    v = check_deck(load_deck(TRF / "decks" / "dolash.txt", cs), cs)
    assert [(x.rule, x.message) for x in v] == [("no-militia", "no-militia: no militia in this format")]


def test_terms_that_look_at_the_homeworld(trf):
    # "Azguard has a passive ability that makes Azguard cards cheaper": one reading a set may take,
    # as a deck rule on the homeworld; and a reference to the homeworld's faction.
    cs = with_played_by(trf, costs=[
        {"name": "Azguard as homeworld: Azguard Warfleet 100 cheaper", "card": {"card": "Azguard Warfleet"},
         "holds": {"homeworld": {"card": "Azguard"}}, "plus": -100},
        {"name": "Cards of the homeworld's faction cost 50 more", "same": ["card.faction", "homeworld.faction"], "plus": 50}])
    rules = parse_rules(cs)
    assert rules.played_by.others == ("homeworld",)
    deck = load_deck(TRF / "decks" / "dolash.txt", cs)  # Azguard (a Coalition planet) is its homeworld
    others = zone_cards(deck, rules, cs.by_id())
    assert others["homeworld"].id == "azguard"
    fleet = play_terms(cs.card("azguard-warfleet"), cs.card("dolash"), rules, cs, others)
    assert (fleet.printed, fleet.paid, len(fleet.reasons)) == (500, 450, 2)
    assert play_terms(cs.card("sir-kay"), cs.card("dolash"), rules, cs, others).paid == 500  # a Jedi: doubled only
    omnae = {"homeworld": cs.card("omnae")}  # a planet of no faction: neither line applies
    assert play_terms(cs.card("azguard-warfleet"), cs.card("dolash"), rules, cs, omnae).paid == 500
    assert play_terms(cs.card("azguard-warfleet"), cs.card("dolash"), rules, cs).paid == 500  # no homeworld known
    by_card = {x["card"]: x for x in deck_stats(deck, cs).surcharges}
    assert (by_card["azguard-warfleet"]["paid"], by_card["fleet-admiral"]["paid"]) == (450, 850)
    with pytest.raises(RulesInvalid, match="unknown zone 'homewrld'"):
        parse_rules(with_played_by(trf, costs=[{"holds": {"homewrld": {"type": "planet"}}, "plus": 1}]))


def test_random_decks_hold_only_what_their_account_may_play(trf, rules):
    from cardsmith.decks import random_deck
    for seed in range(6):
        deck = random_deck(trf, seed=seed, rules=rules)
        account = chosen_card(deck, rules, trf.by_id())
        assert account is not None
        assert all(play_terms(trf.card(c), account, rules, trf).playable for c in deck.zones["assets"])
        assert check_deck(deck, trf, rules) == []


def test_a_deck_built_in_code_without_played_by_is_unchanged(trf):
    cs = dataclasses.replace(trf, deck_rules=frozen_map({k: v for k, v in trf.deck_rules.items() if k != "played_by"}))
    deck = Deck("t", "trf", frozen_map({"account": {"dolash": 1}, "assets": {"dark-trooper": 1}}))
    s = deck_stats(deck, cs)
    assert s.surcharges == [] and s.curve == {100: 1}
