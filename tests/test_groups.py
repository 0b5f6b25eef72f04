"""Groups as data: a set declares its grouping dimensions (factions with an alignment, races, classes...)
and validation, deck rules, CSV, the gallery's filters and layouts use them; `races:`/`factions:` stay."""

from __future__ import annotations

import csv
import dataclasses
import io
from pathlib import Path

import pytest

from cardsmith.decks import RulesInvalid, check_deck, parse_rules
from cardsmith.share.data import columns, csv_text
from cardsmith.share.gallery import _card_entry, _facets
from cardsmith.share.data import card_record
from cardsmith.layout.template import card_context
from cardsmith.sets.model import Card, CardSet, Deck, Group, frozen_map
from cardsmith.sets.validate import check_set, load_set

ROOT = Path(__file__).resolve().parent.parent
TRF = Path(__file__).parent / "fixtures" / "decks" / "cards" / "trf"

SET = """\
id: guilds
name: Guilds
types:
  unit:
    fields:
      cost: {kind: int, required: true}
      alignment: {kind: enum, values: [light, dark, neutral]}
groups:
  faction:
    attributes:
      alignment: {kind: enum, values: [light, dark, neutral], required: true}
      tier: {kind: int, default: 1}
    members:
      coalition: {name: Coalition, color: "#3070c0", alignment: light}
      sith: {name: Sith, color: "#b03030", alignment: dark, tier: 2}
  class:
    name: Class
    members:
      pilot: {name: Pilot}
      gunner: {name: Gunner}
"""
CARDS = """\
cards:
  - {id: ace, name: Ace, type: unit, faction: coalition, class: pilot, cost: 2}
  - {id: lord, name: Lord, type: unit, faction: sith, class: gunner, cost: 5}
  - {id: turncoat, name: Turncoat, type: unit, faction: coalition, class: gunner, cost: 3, alignment: dark}
  - {id: drifter, name: Drifter, type: unit, cost: 1}
"""


def write_set(tmp_path: Path, set_text: str = SET, cards_text: str = CARDS) -> Path:
    d = tmp_path / "guilds"
    d.mkdir()
    (d / "set.yaml").write_text(set_text)
    (d / "cards.yaml").write_text(cards_text)
    return d


@pytest.fixture
def guilds(tmp_path):
    return load_set(write_set(tmp_path))


def errors(tmp_path, set_text=SET, cards_text=CARDS) -> str:
    cs, diags = check_set(write_set(tmp_path, set_text, cards_text))
    assert cs is None
    return "\n".join(d.format() for d in diags)


# ------------------------------------------------------------------------------- the model

def test_declared_dimensions_with_attributes(guilds):
    assert list(guilds.dimensions) == ["faction", "class"]
    faction = guilds.dimensions["faction"]
    assert faction.name == "Faction" and dict(faction.groups["sith"].attributes) == {"alignment": "dark", "tier": 2}
    assert faction.groups["coalition"].attributes["tier"] == 1  # the attribute's default
    ace = guilds.card("ace")
    assert dict(ace.groups) == {"faction": "coalition", "class": "pilot"} and ace.faction == "coalition" and ace.race is None
    assert guilds.group_of(ace).name == "Coalition"  # the first dimension colours the card
    assert [g.name for _, g in guilds.groups_of(ace)] == ["Coalition", "Pilot"]
    assert guilds.factions["sith"].name == "Sith" and dict(guilds.races) == {}


def test_a_cards_attribute_is_its_own_field_else_its_groups(guilds):
    assert guilds.attribute(guilds.card("ace"), "alignment") == "light"
    assert guilds.attribute(guilds.card("turncoat"), "alignment") == "dark"   # its own field wins
    assert guilds.attribute(guilds.card("drifter"), "alignment") is None
    assert guilds.attribute(guilds.card("lord"), "tier") == 2


def test_races_and_factions_stay_as_shorthand_and_card_race_stays_a_view():
    se = load_set(ROOT / "cards" / "solar-empires")
    assert list(se.dimensions) == ["race"] and set(se.races) == {"terracorp", "chain", "shadow"}
    chain = [c for c in se.cards if c.race == "chain"]
    assert chain and all(dict(c.groups) == {"race": "chain"} for c in chain)
    assert se.group_of(chain[0]).id == "chain"
    # built in code, as the engine tests do: either spelling fills the other
    card = Card(id="x", name="X", type="ship", race="chain")
    assert dict(card.groups) == {"race": "chain"} and Card(id="y", name="Y", type="ship", groups={"race": "shadow"}).race == "shadow"
    assert dataclasses.replace(card, race="shadow").race == "shadow"
    cs = CardSet(id="s", name="S", path=Path("."), races={"chain": Group("chain", "The Chain")})
    assert cs.dimensions["race"].groups["chain"].name == "The Chain"


# ---------------------------------------------------------------------------------- validation

@pytest.mark.parametrize("old,new,words", [
    ("alignment: light}", "alignment: lite}", "faction 'coalition': alignment must be one of light, dark, neutral, not 'lite'"),
    ("color: \"#b03030\", alignment: dark, tier: 2}", "color: \"#b03030\", tier: 2}", "faction 'sith' lacks the required attribute 'alignment'"),
    ("gunner: {name: Gunner}", "gunner: {name: Gunner, rank: 3}", "'rank' is not an attribute of dimension 'class'"),
    ("  class:\n    name: Class", "  text:\n    name: Class", "a group dimension cannot be called 'text'"),
    ("      cost: {kind: int, required: true}", "      cost: {kind: int, required: true}\n      class: {kind: text}",
     "field 'class' of type 'unit' has the name of a group dimension"),
    ("groups:", "races: {chain: {name: Chain}}\nfactions: {x: {name: X}}\ngroups:", "the dimension 'faction' is declared twice"),
    ("      tier: {kind: int, default: 1}", "      tier: {kind: int, default: 1}\n      color: {kind: text}", "a group attribute cannot be called 'color'"),
])
def test_bad_group_declarations_are_reported_with_their_line(tmp_path, old, new, words):
    assert old in SET
    text = errors(tmp_path, SET.replace(old, new))
    assert words in text, text
    assert "set.yaml:" in text


def test_a_card_in_an_unknown_group_is_reported_with_a_hint(tmp_path):
    text = errors(tmp_path, cards_text=CARDS.replace("class: pilot", "class: pilto").replace("faction: sith", "faction: siht"))
    assert "card 'ace' has unknown class 'pilto'" in text and "did you mean 'pilot'" in text
    assert "card 'lord' has unknown faction 'siht'" in text and "cards.yaml:3:" in text


# ---------------------------------------------------------------------------------- deck rules

def with_rules(cs, rules):
    return dataclasses.replace(cs, deck_rules=frozen_map(rules))


def deck(**zones):
    return Deck("t", "guilds", frozen_map({z: frozen_map(e) for z, e in zones.items()}))


def test_filters_over_any_dimension_and_group_attributes(guilds):
    rules = {"zones": {"main": {}},
             "limits": [{"name": "No dark factions", "cards": {"faction": {"alignment": "dark"}}, "max": 0},
                        {"name": "No darkness at all", "cards": {"attributes": {"alignment": "dark"}}, "max": 0},
                        {"name": "One gunner", "cards": {"class": "gunner"}, "max": 1},
                        {"name": "High tier", "cards": {"faction": {"tier": {"min": 2}}}, "max": 0}]}
    cs = with_rules(guilds, rules)
    v = {x.rule: x.cards for x in check_deck(deck(main={"ace": 1, "lord": 1, "turncoat": 1, "drifter": 1}), cs)}
    assert v == {"no-dark-factions": ("lord",), "no-darkness-at-all": ("lord", "turncoat"),
                 "one-gunner": ("lord", "turncoat"), "high-tier": ("lord",)}


def test_same_group_for_any_dimension(guilds):
    cs = with_rules(guilds, {"zones": {"main": {}}, "same_class": {"name": "One class per deck"}})
    v = check_deck(deck(main={"ace": 2, "lord": 1}), cs)
    assert [(x.rule, x.kind, x.cards, dict(x.counts)) for x in v] == [
        ("one-class-per-deck", "same-class", ("lord", "ace"), {"pilot": 2, "gunner": 1})]
    assert "more than one class" in v[0].message
    assert check_deck(deck(main={"ace": 2, "drifter": 3}), cs) == []


@pytest.mark.parametrize("rules,words", [
    ({"limits": [{"cards": {"clas": "pilot"}, "max": 1}]}, "unknown filter key 'clas'"),
    ({"limits": [{"cards": {"class": "piolt"}, "max": 1}]}, "did you mean 'pilot'"),
    ({"limits": [{"cards": {"faction": {"alignmnt": "dark"}}, "max": 1}]}, "dimension 'faction' has no attribute 'alignmnt'"),
    ({"limits": [{"cards": {"attributes": {"tire": 2}}, "max": 1}]}, "no field or group attribute is called 'tire'"),
    ({"same_klass": True}, "the set has no group dimension 'klass'"),
])
def test_bad_group_references_in_deck_rules(guilds, rules, words):
    with pytest.raises(RulesInvalid) as e:
        parse_rules(with_rules(guilds, rules))
    assert words in str(e.value), str(e.value)


# ------------------------------------------------------------------------- CSV, gallery, layouts

def test_csv_has_a_column_per_dimension_and_reads_back(guilds, tmp_path):
    assert columns(guilds)[:5] == ["id", "name", "type", "faction", "class"]
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(csv_text(guilds)))}
    assert (rows["lord"]["faction"], rows["lord"]["class"], rows["drifter"]["class"]) == ("sith", "gunner", "")
    se = load_set(ROOT / "cards" / "solar-empires")
    assert columns(se)[:4] == ["id", "name", "type", "race"] and "faction" not in columns(se)
    # import-csv reads the dimension columns back (by id or name) into the card file
    from cardsmith.share.csv_import import import_csv
    set_dir = Path(guilds.path)
    text = csv_text(guilds).replace("lord,Lord,unit,sith,gunner", "lord,Lord,unit,Sith,Pilot")
    (tmp_path / "cards.csv").write_text(text)
    import_csv(tmp_path / "cards.csv", guilds)
    again = load_set(set_dir)
    assert dict(again.card("lord").groups) == {"faction": "sith", "class": "pilot"}


def test_gallery_filters_come_from_the_declared_dimensions():
    trf = load_set(TRF)
    entries = [_card_entry(c, card_record(c, trf), trf, i, {}, "t.jpg", "l.jpg", None, None) for i, c in enumerate(trf.cards)]
    facets = {key: (label, options) for key, label, options in _facets(entries, trf)["groups"]}
    assert list(facets) == ["g-faction", "a-alignment"]
    assert facets["g-faction"][0] == "Faction" and ("jedi", "Jedi") in facets["g-faction"][1] and ("", "No faction") in facets["g-faction"][1]
    assert facets["a-alignment"] == ("Alignment", [("light", "Light"), ("dark", "Dark"), ("neutral", "Neutral")])
    gash = next(e for e in entries if e["id"] == "gash")
    assert gash["groups"] == {"faction": "jedi"} and gash["attrs"] == {"alignment": "dark"} and gash["groupName"] == "Jedi"


def test_layouts_see_groups_and_attributes():
    trf = load_set(TRF)
    ctx = card_context(trf, trf.card("gash"))
    assert ctx["faction"]["name"] == "Jedi" and ctx["faction"]["alignment"] == "light"
    assert ctx["card"]["groups"]["faction"]["attributes"] == {"alignment": "light"}
    assert ctx["card"]["attributes"] == {"alignment": "dark"} and ctx["card"]["faction"] == "jedi"
    assert ctx["set"]["groups"]["faction"]["members"]["sith"]["alignment"] == "dark"
