"""Decks: deck files, every kind of deck rule, random legal decks, stats, the commands and the build stage."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from cardsmith.decks import (DeckFileError, Problem, RulesInvalid, check_deck, deck_stats, dump_deck, load_deck,
                             parse_line, parse_rules, random_deck, register_predicate, unregister_predicate,
                             write_chart)
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Deck, frozen_map
from cardsmith.sets.validate import load_set
from tests.conftest import edited_set, run_in_process

FIX = Path(__file__).parent / "fixtures" / "decks"
SPACE = FIX / "cards" / "space"
TRF = FIX / "cards" / "trf"
SOLAR = Path(__file__).resolve().parent.parent / "cards" / "solar-empires"


@pytest.fixture(scope="module")
def space():
    return load_set(SPACE)


@pytest.fixture(scope="module")
def trf():
    return load_set(TRF)


@pytest.fixture(scope="module")
def solar_empires():
    return load_set(SOLAR)


def deck_of(cardset, **zones) -> Deck:
    return Deck("test", cardset.id, frozen_map({z: frozen_map(e) for z, e in zones.items()}))


def rules_of(violations) -> set[str]:
    return {v.rule for v in violations}


def with_rules(cardset, **changes):
    """The set with its deck_rules changed (keys set to None are removed)."""
    rules = {k: v for k, v in {**dict(cardset.deck_rules), **changes}.items() if v is not None}
    return dataclasses.replace(cardset, deck_rules=frozen_map(rules))


LEGAL_SPACE = dict(fleet={"rapier": 3, "dagger": 2, "longsword": 2, "mines": 2, "ion-storm": 2, "solaris-cannon": 1},
                   solar_bodies={"sol-like-star": 1, "gas-giant": 2, "starbase": 1})


# ------------------------------------------------------------------------------------- deck files

@pytest.mark.parametrize("line,expected", [
    ("3x Drone", ("Drone", 3)), ("3 Drone", ("Drone", 3)), ("3 x Drone", ("Drone", 3)), ("3X Drone", ("Drone", 3)),
    ("Drone x3", ("Drone", 3)), ("Drone", ("Drone", 1)), ("12x TCS-13 Rapier", ("TCS-13 Rapier", 12)),
    ("5000 Words", ("5000 Words", 1)), ("2 5000 Words", ("5000 Words", 2)), ("-2 Drone", ("Drone", -2)),
])
def test_parse_line(line, expected):
    # "5000 Words" is a card name (TRF), so on its own it is one copy, not 5000 of "Words".
    assert parse_line(line, {"5000 words", "drone"}) == expected


def test_sample_decks_load_and_pass(space, trf):
    for cs, folder in ((space, SPACE), (trf, TRF)):
        files = sorted((folder / "decks").iterdir())
        assert files
        for f in files:
            deck = load_deck(f, cs)
            assert check_deck(deck, cs) == [], f


def test_yaml_and_text_read_the_same(space, tmp_path):
    y = load_deck(SPACE / "decks" / "terracorp.yaml", space)
    text = dump_deck(y, space, "text")
    (tmp_path / "t.txt").write_text(text)
    t = load_deck(tmp_path / "t.txt", space)
    assert {z: dict(e) for z, e in t.zones.items()} == {z: dict(e) for z, e in y.zones.items()}
    assert t.name == y.name == "Terracorp Line"


def test_names_any_case_ids_and_lines(trf):
    deck = load_deck(TRF / "decks" / "xarn.yaml", trf)
    assert deck.zones["assets"]["regrad"] == 2 and deck.zones["assets"]["vela"] == 1
    assert deck.zones["assets"]["staff-ruling"] == 7
    assert deck.zones["homeworld"] == {"nox": 1}
    assert deck.line_of("regrad") == 7


def test_text_deck_without_headers_puts_cards_in_the_zone_that_accepts_them(space):
    deck = load_deck(FIX / "invalid" / "space" / "a-chain-deck-holds-no-spells.txt", space)
    assert deck.zones["solar_bodies"] == {"quark-star": 1, "asteroid-belt": 3}
    assert deck.zones["fleet"]["psychic-storm"] == 1


def test_text_deck_repeated_lines_add_up(trf):
    deck = load_deck(TRF / "decks" / "dolash.txt", trf)
    assert deck.zones["assets"]["5000-words"] == 2


@pytest.mark.parametrize("name,line,words", [
    ("other-set.yaml", 4, "'Gash' is a card of set trf, not of space"),
    ("negative.txt", 4, "negative count -2"),
    ("absurd.yaml", 3, "100000 copies"),
    ("unknown-zone.yaml", 3, "did you mean 'solar_bodies'"),
    ("unknown-zone.txt", 4, "unknown zone 'graveyard'"),
    ("misspelt.txt", 3, "did you mean 'TCS-13 Rapier'"),
    ("not-a-number.yaml", 3, "must be a whole number"),
    ("twice.yaml", 4, "listed twice in fleet (first on line 3)"),
    ("empty.txt", 1, "the deck lists no cards"),
    ("empty.yaml", 1, "the file is empty"),
])
def test_bad_deck_files_say_file_line_and_what(space, name, line, words):
    with pytest.raises(CardsmithError) as e:
        load_deck(FIX / "bad" / name, space)
    text = str(e.value)
    assert f"{name}:{line}:" in text and words in text, text


def test_deck_for_another_set_is_refused(space):
    with pytest.raises(DeckFileError, match="the deck is for set 'trf'"):
        load_deck(FIX / "invalid" / "trf" / "unique.txt", space)


# ------------------------------------------------------------------------------------ rule kinds

def expected_rules(path: Path) -> set[str]:
    """A test deck breaks the rule its file is named after, or those its `# breaks: a, b` first line lists."""
    first = path.read_text().splitlines()[0]
    return {r.strip() for r in first.split(":", 1)[1].split(",")} if first.startswith("# breaks:") else {path.stem}


@pytest.mark.parametrize("path", sorted((FIX / "invalid").glob("*/*")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_invalid_deck_breaks_exactly_its_rule(path, space, trf, solar_empires):
    cs = {"space": space, "trf": trf, "solar-empires": solar_empires}[path.parent.name]
    violations = check_deck(load_deck(path, cs), cs)
    assert rules_of(violations) == expected_rules(path), [v.message for v in violations]
    assert all(v.message and v.kind for v in violations)


def test_solar_empires_sample_decks_pass_and_random_decks_follow_its_rules(solar_empires):
    files = sorted((SOLAR / "decks").glob("*.yaml"))
    assert [f.stem for f in files] == ["chain", "shadow", "terracorp"]
    for f in files:
        deck = load_deck(f, solar_empires)
        assert check_deck(deck, solar_empires) == [], f
        assert 40 <= deck.count("fleet") <= 60 and deck.count("solar_bodies") == 8
    for race in ("terracorp", "chain", "shadow"):
        deck = random_deck(solar_empires, seed=3, faction=race)
        assert not check_deck(deck, solar_empires)
        cards = [solar_empires.card(c) for c in deck.cards()]
        assert {c.race for c in cards} - {None} == {race}
        assert sum(c.has_keyword("legendary") for c in cards) <= 1
        assert max(deck.zones["fleet"].values()) <= 4
        assert [c.type for c in cards if c.type == "star"] == ["star"]
        if race == "chain":
            assert not any(c.has_keyword("spell") for c in cards)


def test_zone_size_and_accepts(space):
    v = check_deck(deck_of(space, fleet={"rapier": 3, "quark-star": 1}, solar_bodies=LEGAL_SPACE["solar_bodies"]), space)
    size = next(x for x in v if x.rule == "fleet-size")
    assert size.counts == {"found": 4, "min": 12, "max": 16} and size.zone == "fleet"
    accepts = next(x for x in v if x.rule == "fleet-cards")
    assert accepts.cards == ("quark-star",) and "Quark Star" in accepts.message


def test_copy_limit_default_override_and_zone(trf):
    legal = load_deck(TRF / "decks" / "xarn.yaml", trf)
    assert legal.zones["assets"]["staff-ruling"] == 7 and not check_deck(legal, trf)  # the override
    assets = dict(legal.zones["assets"]) | {"staff-ruling": 8}
    v = check_deck(dataclasses.replace(legal, zones=frozen_map({**legal.zones, "assets": frozen_map(assets)})), trf)
    assert [(x.rule, x.cards, dict(x.counts)) for x in v] == [("copies", ("staff-ruling",), {"found": 8, "max": 7})]


def test_unique_counts_the_whole_deck(trf):
    v = check_deck(deck_of(trf, account={"dolash": 1}, assets={"sir-kay": 1, "omnae": 2, "staff-ruling": 7, "militia": 2,
                                                                "5000-words": 2, "back-from-vacation": 2, "regrad": 2, "vela": 2},
                           homeworld={"omnae": 1, "sir-kay": 1}), trf)
    assert "unique" in rules_of(v)
    u = next(x for x in v if x.rule == "unique")
    assert u.cards == ("sir-kay",) and u.counts == {"found": 2, "max": 1}


def test_same_race_reports_races_and_counts(space):
    fleet = dict(LEGAL_SPACE["fleet"]) | {"drone": 2, "infected-rapier": 1}
    v = [x for x in check_deck(deck_of(space, fleet=fleet, solar_bodies=LEGAL_SPACE["solar_bodies"]), space) if x.rule == "same-race"]
    assert len(v) == 1 and v[0].counts == {"terracorp": 8, "chain": 2, "shadow": 1}


def test_same_faction(trf):
    cs = with_rules(trf, same_faction={"zone": "assets"})
    deck = load_deck(TRF / "decks" / "dolash.txt", trf)  # Coalition cards and Sir Kay, a Jedi
    v = check_deck(deck, cs)
    assert rules_of(v) == {"same-faction"} and "sir-kay" in v[0].cards


def test_conditional_limit_applies_only_when_its_condition_holds(space):
    spell_deck = deck_of(space, fleet=dict(LEGAL_SPACE["fleet"]) | {"psychic-storm": 1}, solar_bodies=LEGAL_SPACE["solar_bodies"])
    assert not check_deck(spell_deck, space)  # a Terracorp deck may hold spells
    chain = load_deck(SPACE / "decks" / "chain.txt", space)
    fleet = dict(chain.zones["fleet"]) | {"psychic-storm": 1}
    v = check_deck(dataclasses.replace(chain, zones=frozen_map({**chain.zones, "fleet": frozen_map(fleet)})), space)
    assert rules_of(v) == {"a-chain-deck-holds-no-spells"}
    assert v[0].counts == {"found": 1, "max": 0} and "because the deck holds at least 1 cards of race chain" in v[0].message


def test_exact_and_minimum_limits(space):
    cs = with_rules(space, zones={"fleet": dict(space.deck_rules["zones"]["fleet"]),
                                  "solar_bodies": {"accepts": {"type": ["star", "solar_body"]}}})
    v = check_deck(deck_of(cs, fleet=LEGAL_SPACE["fleet"], solar_bodies={"sol-like-star": 1, "quark-star": 1, "gas-giant": 3}), cs)
    assert rules_of(v) == {"one-star"} and v[0].counts == {"found": 2, "min": 1, "max": 1}
    v = check_deck(deck_of(cs, fleet=LEGAL_SPACE["fleet"], solar_bodies={"sol-like-star": 1, "gas-giant": 2}), cs)
    assert rules_of(v) == {"three-solar-bodies"}


def test_field_comparisons_in_filters(space):
    limits = [
        {"id": "cheap", "zone": "fleet", "cards": {"type": "ship", "fields": {"attack": {"max": 2}}}, "max": 2},
        {"id": "not-fighters", "zone": "fleet", "cards": {"fields": {"class": {"not": "fighter", "present": True}}}, "max": 1},
        {"id": "listed", "cards": {"fields": {"class": ["cruiser", "battleship"]}}, "max": 1},
        {"id": "either", "cards": {"any": [{"tag": "nope"}, {"card": "TCS-13 Rapier"}]}, "max": 2},
        {"id": "others", "zone": "fleet", "cards": {"not": {"type": "ship"}}, "min": 9},
    ]
    cs = with_rules(space, limits=limits)
    v = {x.rule: x for x in check_deck(deck_of(cs, **LEGAL_SPACE), cs)}
    assert set(v) == {"cheap", "not-fighters", "listed", "either", "others"}
    assert v["cheap"].cards == ("rapier",) and v["cheap"].counts["found"] == 3      # attack 2; the Dagger has 3
    assert v["not-fighters"].cards == ("longsword",)                             # events have no class: not counted
    assert v["either"].counts["found"] == 3
    assert v["others"].counts == {"found": 5, "min": 9}


def test_cross_zone_requirement(trf):
    base = load_deck(TRF / "decks" / "dolash.txt", trf)
    swap = lambda hw: dataclasses.replace(base, zones=frozen_map({**base.zones, "homeworld": frozen_map(hw)}))
    v = check_deck(swap({"militia": 1}), trf)  # in the assets, but not a planet
    assert rules_of(v) == {"the-homeworld-is-a-planet-of-your-asset-deck"} and "not a card of type planet" in v[0].message
    v = check_deck(swap({"thule": 0, "nox": 1}), trf)  # a planet, but not in the assets
    assert rules_of(v) == {"the-homeworld-is-a-planet-of-your-asset-deck"} and "is not in Asset deck too" in v[0].message


def test_named_predicate_registered_by_a_rules_module(trf):
    @register_predicate("test-alignment")
    def alignment(deck, cardset, forbid_opposite=True):
        cards = cardset.by_id()
        account = next(iter(deck.zones.get("account", {})), None)
        side = cardset.attribute(cards[account], "alignment") if account in cards else None  # its faction's
        opposite = {"light": "dark", "dark": "light"}.get(side)
        bad = [cid for cid in deck.zones.get("assets", {}) if cardset.attribute(cards[cid], "alignment") == opposite]
        if bad and forbid_opposite:
            yield Problem(f"a {side}side account cannot field {opposite}side characters", bad, {"found": len(bad)})

    try:
        cs = with_rules(trf, played_by=None,  # the data rule would refuse them too; here the predicate alone
                        predicates=[{"name": "Alignment", "check": "test-alignment", "with": {"forbid_opposite": True}}])
        deck = load_deck(TRF / "decks" / "dolash.txt", trf)
        assert check_deck(deck, cs) == []
        assets = dict(deck.zones["assets"]) | {"gash": 1, "dark-trooper": 1}
        v = check_deck(dataclasses.replace(deck, zones=frozen_map({**deck.zones, "assets": frozen_map(assets)})), cs)
        assert [(x.rule, x.kind, x.cards) for x in v] == [("alignment", "predicate", ("gash", "dark-trooper"))]
        assert "lightside account cannot field darkside" in v[0].message
    finally:
        unregister_predicate("test-alignment")
    with pytest.raises(CardsmithError, match="'test-alignment' is not registered"):
        check_deck(deck, cs)


def test_unknown_zone_and_card_in_a_deck_built_in_code(space):
    v = check_deck(deck_of(space, **LEGAL_SPACE, graveyard={"rapier": 1}, fleet2={"no-such-card": 1}), space)
    assert {"unknown-zone", "unknown-card"} <= rules_of(v)


@pytest.mark.parametrize("rules,words", [
    ({"zones": {"fleet": {"accepts": {"type": "shipp"}}}}, "unknown type 'shipp'"),
    ({"zones": {"fleet": {"size": {"min": "many"}}}}, "deck rules"),
    ({"zones": {"fleet": {"size": 3}}, "limits": [{"zone": "flet", "cards": {}, "max": 1}]}, "unknown zone 'flet'"),
    ({"copies": {"max": 2, "except": {"Rapeir": 3}}}, "no card named 'Rapeir'"),
    ({"limits": [{"cards": {"fields": {"atack": 3}}, "max": 1}]}, "no card type declares a field 'atack'"),
    ({"zones": {"fleet": {"sise": 3}}}, "sise"),
    ({"limits": [{"cards": {"race": "chian"}, "max": 1}]}, "did you mean 'chain'"),
])
def test_bad_deck_rules_are_reported_with_hints(space, rules, words):
    cs = dataclasses.replace(space, deck_rules=frozen_map(rules))
    with pytest.raises(RulesInvalid) as e:
        parse_rules(cs)
    assert words in str(e.value), str(e.value)


def test_bad_deck_rules_point_at_set_yaml_lines(tmp_path):
    d, line = edited_set(SPACE, tmp_path, "cards: {keyword: legendary}", "cards: {keyword: legendery}")
    from cardsmith.sets.validate import check_set
    cs, diags = check_set(d)  # `cardsmith validate` reports it, with the line in set.yaml
    text = "\n".join(x.format() for x in diags)
    assert cs is None and f"set.yaml:{line}:" in text and "unknown keyword 'legendery'" in text
    assert "did you mean 'legendary'" in text
    r = run_in_process("validate", str(d))
    assert r.returncode == 1 and "unknown keyword 'legendery'" in r.stderr


# ------------------------------------------------------------------------------ random and stats

def test_random_decks_are_legal_reproducible_and_follow_the_faction(space, trf):
    for seed in range(4):
        d = random_deck(space, seed=seed)
        assert check_deck(d, space) == []
        assert d.zones == random_deck(space, seed=seed).zones
    chain = random_deck(space, seed=5, faction="The Chain")
    races = {space.card(c).race for c in chain.cards()} - {None}
    assert races == {"chain"}
    assert not any(space.card(c).has_keyword("spell") for c in chain.cards())
    jedi = random_deck(trf, seed=2, faction="jedi")
    assert {trf.card(c).faction for c in jedi.cards()} <= {"jedi", None} and not check_deck(jedi, trf)
    with pytest.raises(CardsmithError, match="did you mean 'chain'"):
        random_deck(space, faction="chian")


def test_random_deck_reports_rules_nobody_can_meet(space):
    cs = with_rules(space, limits=[{"name": "Twenty stars", "zone": "solar_bodies", "cards": {"type": "star"}, "min": 20}])
    with pytest.raises(CardsmithError, match="could not build a legal deck"):
        random_deck(cs, seed=1)


def test_stats_counts_and_curve(space, tmp_path):
    deck = load_deck(SPACE / "decks" / "terracorp.yaml", space)
    s = deck_stats(deck, space)
    assert s.total == 18 and s.zones == {"Fleet deck": 14, "Solar bodies deck": 4}
    assert s.types["Ship"] == 9 and s.groups == {"Terracorp": 11, "none": 7}
    assert s.keywords == {"Shield": 2, "Legendary": 1, "Spell": 1}
    # Rapier 1+1+1 = 3 (x3), Mines 1 (x2), Solaris Cannon 5+5+5 = 15 (x1)
    assert s.curve[3] == 3 and s.curve[1] == 2 and s.curve[15] == 1 and sum(s.curve.values()) == 14
    png = write_chart(s, tmp_path / "chart.png")
    from PIL import Image
    with Image.open(png) as im:
        assert im.format == "PNG" and im.width > 600
        colours = im.convert("RGB").getcolors(1_000_000)
        assert any(c[1] == (0x2f, 0x6d, 0xb5) for c in colours)  # the cost curve's bars are drawn


# ------------------------------------------------------------------------------ commands and build

def test_cli_check_exit_codes_and_json():
    ok = run_in_process("deck", "check", "cards/space/decks/terracorp.yaml", cwd=FIX)
    assert ok.returncode == 0 and "legal" in ok.stderr
    bad = run_in_process("deck", "check", "invalid/space/copies.txt", "--json", cwd=FIX)
    assert bad.returncode == 1
    data = json.loads(bad.stdout)
    assert data["legal"] is False and data["violations"][0]["rule"] == "copies"
    assert data["violations"][0]["counts"] == {"found": 4, "max": 3} and data["violations"][0]["cards"] == ["rapier"]
    text = run_in_process("deck", "check", "invalid/space/copies.txt", cwd=FIX)
    assert "invalid/space/copies.txt:4: copies: 4 copies of TCS-13 Rapier" in text.stdout


def test_cli_bad_input_is_an_error_not_a_traceback():
    for args, words in ((["deck", "check", "bad/other-set.yaml"], "bad/other-set.yaml:4:3: error: 'Gash' is a card of set trf"),
                        (["deck", "check", "bad/empty.yaml"], "bad/empty.yaml:1:1: error: the deck file is empty"),
                        (["deck", "check", "bad/misspelt.txt", "--set", "trf"], "the deck is for set 'space'"),
                        (["deck", "check", "cards/space/decks/chain.txt", "--set", "nope"], "no set named 'nope'"),
                        (["deck", "random", "space", "--faction", "elves"], "has no race 'elves'")):
        r = run_in_process(*args, cwd=FIX)
        assert r.returncode in (1, 2) and words in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_cli_random_out_then_check_and_stats_chart(tmp_path):
    out = tmp_path / "r.txt"
    r = run_in_process("deck", "random", "trf", "--seed", "7", "--faction", "coalition", "--out", str(out), cwd=FIX)
    assert r.returncode == 0 and out.exists()
    again = run_in_process("deck", "random", "trf", "--seed", "7", "--faction", "coalition", cwd=FIX)
    assert run_in_process("deck", "check", str(out), cwd=FIX).returncode == 0
    y = tmp_path / "r.yaml"
    y.write_text(again.stdout)
    assert run_in_process("deck", "check", str(y), cwd=FIX).returncode == 0
    s = run_in_process("deck", "stats", str(y), "--json", "--chart", str(tmp_path / "c.png"), cwd=FIX)
    assert s.returncode == 0 and (tmp_path / "c.png").stat().st_size > 1000
    assert json.loads(s.stdout)["zones"]["Asset deck"] >= 20


def test_build_checks_the_decks_folder_but_not_sub_folders(tmp_path):
    from cardsmith.cli._stages import STAGES

    # The build's decks stage alone: rendering and printing the set (5 s) have nothing to do with decks.
    others = [arg for name, *_ in STAGES if name != "decks" for arg in ("--skip", name)]
    shutil.copytree(FIX / "cards", tmp_path / "cards")
    (tmp_path / "cards" / "space" / "decks" / "invalid").mkdir()
    shutil.copy(FIX / "invalid" / "space" / "copies.txt", tmp_path / "cards" / "space" / "decks" / "invalid")
    r = run_in_process("build", "space", *others, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    report = json.loads((tmp_path / "output" / "space" / "decks.json").read_text())
    assert [d["file"] for d in report["decks"]] == ["chain.txt", "terracorp.yaml"] and all(d["legal"] for d in report["decks"])
    shutil.copy(FIX / "invalid" / "space" / "same-race.yaml", tmp_path / "cards" / "space" / "decks")
    r = run_in_process("build", "space", *others, cwd=tmp_path)
    assert r.returncode == 1 and "same-race.yaml:3:" in r.stderr and "cards of more than one race" in r.stderr


def test_deck_schema_agrees_with_the_reader():
    """The deck schema editors use accepts the sample decks and rejects bad counts."""
    from cardsmith.sets.loader import load_yaml
    from cardsmith.sets._schema_check import validator

    v = validator("deck")
    good = sorted(SOLAR.glob("decks/*.yaml")) + sorted(FIX.glob("cards/*/decks/*.yaml")) + sorted(FIX.glob("invalid/*/*.yaml"))
    assert len(good) > 5
    for f in good:
        assert not list(v.iter_errors(load_yaml(f).data)), f
    for name in ("absurd.yaml", "not-a-number.yaml"):
        assert list(v.iter_errors(load_yaml(FIX / "bad" / name).data)), name
    assert list(v.iter_errors({"fleet": {"Drone": -1}}))


def test_a_name_typed_without_its_accents_is_the_card_and_a_near_miss_suggests_the_name(demo_set, tmp_path):
    text = (demo_set / "cards.yaml").read_text()
    (demo_set / "cards.yaml").write_text(text.replace("name: Night Heron", "name: Crêpe Héron"))
    cardset = load_set(demo_set)
    plain = tmp_path / "plain.txt"
    plain.write_text("2x Crepe Heron\n3x Dawn Scout\n")
    assert load_deck(plain, cardset).zones["main"] == {"night-heron": 2, "dawn-scout": 3}
    near = tmp_path / "near.txt"
    near.write_text("2x Eclpse\n")
    with pytest.raises(DeckFileError) as e:
        load_deck(near, cardset)
    assert "did you mean 'Eclipse'?" in str(e.value)
