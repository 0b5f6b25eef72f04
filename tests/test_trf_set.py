"""The TRF set: its data (every card the text names, the invented rest), its layouts' print rules,
and its sample decks."""

from __future__ import annotations


import pytest

from cardsmith.decks import check_deck, load_deck
from cardsmith.games.trf import RULES
from cardsmith.layout.template import back_context, card_context, layouts_for
from cardsmith.base.project import Project
from cardsmith.layout._boxes import font_size_pt, parse_box
from cardsmith.sets.lengths import parse_length_mm
from cardsmith.sets.validate import check_set
from tests.trf_positions import ROOT, trf_game

BODY = {"rules", "ability", "weakness"}


@pytest.fixture(scope="module")
def cardset():
    return trf_game().cardset


def test_set_validates_clean_with_rules_checks(cardset):
    cs, problems = check_set(ROOT / "cards" / "trf")
    assert cs is not None and not [p for p in problems if p.severity == "error"]
    assert list(RULES.validate(cardset)) == []


def test_every_named_example_is_in_the_set(cardset):
    ids = {c.id: c for c in cardset}
    assert set(ids["omnae"]["titles"]) == {"veteran", "admin"}
    dolash = ids["dolash"]
    assert set(dolash["titles"]) == {"veteran", "mod"} and dolash.faction == "coalition"
    assert "Kneels before Zod" in dolash["weakness"]
    assert ids["regrad"]["kind"] == "individual" and "Visionary" in ids["regrad"].text
    assert ids["azguard-warfleet"]["kind"] == "fleeter"
    assert ids["gash"].faction == "jedi" and ids["gash"]["alignment"] == "dark"
    assert (ids["5000-words"]["timing"], ids["back-from-vacation"]["timing"]) == ("non-combat", "post-combat")
    assert ids["staff-ruling"]["title"] == "mod"
    assert [e["do"] for e in ids["azguard"].effects] == ["discount", "discard_revive"]
    assert any(k.id == "affinity" for k in dolash.keywords)


def test_counts_and_variety(cardset):
    by_type = {t: cardset.of_type(t) for t in ("account", "planet", "character", "ooc")}
    assert len(by_type["account"]) >= 8 and len(by_type["planet"]) >= 18
    assert len(by_type["character"]) >= 38 and len(by_type["ooc"]) >= 18
    sides = {f: g.attributes["alignment"] for f, g in cardset.factions.items()}
    assert set(sides.values()) == {"light", "dark", "neutral", "universal"}
    assert len([f for f in cardset.factions if sides[f] != "universal"]) >= 6
    assert {c["timing"] for c in by_type["ooc"]} == {"non-combat", "combat", "post-combat"}
    assert any(c["persistent"] for c in by_type["ooc"])
    assert {c["kind"] for c in by_type["character"]} == {"fleeter", "individual"}
    assert any("unique" in c.tags for c in by_type["character"])
    titles = {t for c in by_type["account"] for t in c["titles"]}
    assert titles == {"admin", "mod", "veteran", "troublemaker", "member"}
    assert cardset.meta["invented"]


def _layers(cardset):
    layouts = layouts_for(Project(ROOT), cardset)
    for card in cardset:
        tree, _ = layouts.render(cardset.layouts.get(card.type, card.type), card_context(cardset, card), card.id)
        yield card.id, tree["layers"]
    for back_id, spec in cardset.backs.items():
        tree, _ = layouts.render(spec["layout"], back_context(cardset, back_id, dict(spec)), back_id)
        yield back_id, tree["layers"]


def test_layouts_keep_the_print_rules(cardset):
    """Nothing under 6 pt (7 pt for body text); no stroke thinner than 0.5 mm within 3 mm of the trim."""
    trim = cardset.card_size
    for cid, layers in _layers(cardset):
        for layer in layers:
            (kind, spec), = layer.items()
            if kind == "text":
                least = 7 if spec.get("name") in BODY else 6
                for key in ("size", "min_size"):
                    if key in spec:
                        assert font_size_pt(spec[key]) >= least - 1e-6, (cid, spec.get("name"), key)
            if spec.get("stroke") and kind in ("rect", "ellipse"):
                box = parse_box(spec["box"], trim)
                near = min(box.left, box.top, trim[0] - box.right, trim[1] - box.bottom)
                width = parse_length_mm(spec.get("stroke_width", "0.3mm"))
                assert near >= 3 or width >= 0.5, (cid, spec.get("name"), near, width)


def test_layouts_place_what_the_text_describes(cardset):
    """Meter cost top left; faction symbol top right; capture value bottom left (combat bottom right); planet values bottom left."""
    trim = cardset.card_size
    found = dict(_layers(cardset))

    def box(cid, name):
        spec = next(v for layer in found[cid] for k, v in layer.items() if v.get("name") == name)
        return parse_box(spec["box"], trim)

    w, h = trim
    assert box("regrad", "cost").right < w / 3 and box("regrad", "cost").bottom < h / 4
    assert box("regrad", "symbol").left > w * 2 / 3 and box("regrad", "alignment-mark").right <= box("regrad", "symbol-disc").left
    # "the bottom left value on a character" is its capture value (issue 31, item 3): combat sits bottom right
    capture, combat = box("azguard-warfleet", "capture"), box("azguard-warfleet", "combat")
    assert capture.right < w / 3 and capture.top > h * 3 / 4
    assert combat.left > w * 2 / 3 and combat.top > h * 3 / 4
    capture, home = box("azguard", "capture"), box("azguard", "homeworld")
    assert capture.right <= home.left and home.right < w / 2 and capture.top > h * 3 / 4
    assert box("dolash", "weakness").top > box("dolash", "ability").bottom


@pytest.mark.parametrize("name", ["dolash", "xarn", "omnae", "sable"])
def test_sample_decks_are_legal(cardset, name):
    deck = load_deck(ROOT / "cards" / "trf" / "decks" / f"{name}.yaml", cardset)
    assert check_deck(deck, cardset) == []


def test_every_effect_names_a_declared_handler_with_valid_parameters(cardset):
    """What `cardsmith validate` checks against RULES.effects, for this set: handler, timing, parameters."""
    import jsonschema

    for card in cardset:
        for effect in card.effects:
            spec = RULES.effects.get(effect["do"])
            assert spec is not None, (card.id, effect)
            assert effect.get("when") in spec.when, (card.id, effect)
            params = {k: v for k, v in effect.items() if k not in ("do", "when")}
            assert set(params) <= set(spec.params), (card.id, effect)
            for name, schema in spec.params.items():
                if name in params:
                    jsonschema.validate(params[name], dict(schema))
                else:
                    assert "default" in schema, (card.id, effect, name)


def test_invented_entries_read_as_written(cardset, tmp_path):
    """Every `invented:` entry is one mapping of what/value/why: an unquoted comma inside a flow
    mapping (`{what: x, why: a, b}`) used to split TRF's entries into stray keys without a word."""
    for entry in cardset.meta["invented"]:
        assert set(entry) <= {"what", "value", "why"} and isinstance(entry.get("why", ""), str)
    import shutil

    shutil.copytree(ROOT / "cards" / "trf", tmp_path / "trf")
    path = tmp_path / "trf" / "set.yaml"
    text = path.read_text(encoding="utf-8").replace("invented:\n", "invented:\n  - {what: deck size, why: 30 cards, three copies}\n")
    path.write_text(text, encoding="utf-8")
    _, problems = check_set(tmp_path / "trf")
    [bad] = [p for p in problems if p.severity == "error"]
    line = text.splitlines().index("  - {what: deck size, why: 30 cards, three copies}") + 1
    assert "invented[0]" in bad.message and "three copies" in bad.message and bad.line == line


def test_every_trf_card_has_a_back_so_duplex_sheets_and_shops_take_the_set(cardset):
    from cardsmith.layout.faces import back_specs, card_back

    specs = back_specs(cardset)
    missing = [c.id for c in cardset.cards if card_back(cardset, c) not in specs]
    assert missing == []  # the 8 accounts had none (issue 31, item 4)
    assert {card_back(cardset, c) for c in cardset.cards if c.type == "account"} == {"account"}
