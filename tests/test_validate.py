"""Validation: each rule, broken by a fixture, gives the message a designer needs, at the right line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardsmith.sets.validate import SetInvalid, check_set, load_set


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"fixture text not found: {old!r}"
    path.write_text(text.replace(old, new, 1))


def _errors(set_dir: Path) -> list[str]:
    _, diags = check_set(set_dir)
    return [f"{d.file.name}:{d.line}: {d.message} | {d.hint}" for d in diags if d.is_error]


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_new_set_is_valid_and_loads_as_a_model(demo_set: Path):
    cs = load_set(demo_set)
    assert cs.id == "demo" and len(cs.cards) == 4
    scout = cs.card("dawn-scout")
    assert (scout["cost"], scout["power"], scout["health"]) == (1, 1, 2)
    assert scout.faction == "sun" and scout.has_keyword("swift")
    assert cs.card("lantern-keeper").keyword_value("ward") == 1
    assert cs.card("eclipse").type == "spell" and cs.card("eclipse")["speed"] == "fast"
    assert cs.card_size == (63.5, 88.9) and cs.bleed == pytest.approx(3.175)
    assert scout.source.line == 5


def test_card_defaults_apply_and_own_keys_win(demo_set: Path):
    cs = load_set(demo_set)
    assert [c.type for c in cs.cards] == ["creature", "creature", "creature", "spell"]


def test_field_default_from_type(demo_set: Path):
    _edit(demo_set / "cards.yaml", "    speed: fast\n", "")
    assert load_set(demo_set).card("eclipse")["speed"] == "slow"


@pytest.mark.parametrize("old, new, needle, expected", [
    ("id: night-heron", "id: dawn-scout  # again", "# again", "duplicate card id 'dawn-scout' (first used at cards.yaml:5)"),
    ("id: night-heron", "id: Night Heron", "id: Night Heron", "'Night Heron' is not a slug | use lower-case letters, digits and single hyphens, e.g. 'night-heron'"),
    ("    type: spell\n", "    type: spel\n", "type: spel", "unknown type 'spel' | did you mean 'spell'?"),
    ("faction: moon\n    cost: 2", "faction: mon\n    cost: 2", "faction: mon", "unknown faction 'mon' | did you mean 'moon'?"),
    ("keywords: [Ward 1]", "keywords: [Wrad 1]", "Wrad", "unknown keyword 'Wrad' | did you mean 'Ward'?"),
    ("keywords: [Ward 1]", "keywords: [Ward]", "keywords: [Ward]", "keyword Ward needs a number"),
    ("    power: 3\n", "    power: 3\n    powre: 2\n", "powre", "field 'powre' is not declared for type 'creature' | did you mean 'power'?"),
    ("    power: 3\n", "", "id: night-heron", "lacks the required field 'power'"),
    ("    power: 3\n", "    power: 99\n", "power: 99", "power must be at most 20, not 99"),
    ("    power: 3\n", "    power: three\n", "power: three", "power must be a whole number, not 'three'"),
    ("    speed: fast\n", "    speed: fats\n", "speed: fats", "speed must be one of slow, fast, not 'fats' | did you mean 'fast'?"),
    ("    speed: fast\n", "    speed: fast\n    copies: 0\n", "copies: 0", "copies must be at least 1, not 0"),
    ("    speed: fast\n", "    speed: fast\n    copies: two\n", "copies: two", "copies must be a whole number"),
    ("    speed: fast\n", "    speed: fast\n    art: art/eclipse.png\n", "art: art", "art file 'art/eclipse.png' does not exist"),
    ("    speed: fast\n", "    speed: fast\n    art: ../../../etc/passwd\n", "art: ..", "is outside the set folder"),
    ("text: Your other", "text: Pay {E}. Your other", "Pay {E}", "uses icon {E}, which set.yaml does not declare"),
])
def test_card_rule_broken(demo_set: Path, old: str, new: str, needle: str, expected: str):
    cards = demo_set / "cards.yaml"
    _edit(cards, old, new)
    errors = _errors(demo_set)
    line = _line_of(cards, needle)
    assert any(e.startswith(f"cards.yaml:{line}:") and expected in e for e in errors), errors


@pytest.mark.parametrize("old, new, needle, expected", [
    ("card_size: poker", "card_size: pokr", "card_size", "'pokr' is not one of poker, bridge"),
    ("  sun: {name: Sun Court, color: \"#d9a021\"}", "  sun: {name: Sun Court, colour: \"#d9a021\"}", "colour", "unknown key 'colour' in factions.sun | did you mean 'color'?"),
    ("      speed:  {kind: enum, values: [slow, fast], default: slow}", "      speed:  {kind: enum}", "speed:", "enum field 'speed' needs `values:`"),
    ("      power:  {kind: int, min: 0, max: 20, required: true}", "      power:  {kind: integer, min: 0, max: 20, required: true}", "power:", "'integer' is not one of int, text, enum, list, bool"),
    ("      power:  {kind: int, min: 0, max: 20, required: true}", "      power:  {kind: int, min: 9, max: 2, required: true}", "power:", "min 9 above max 2"),
    ("      health: {kind: int", "      name: {kind: text}\n      health: {kind: int", "name: {kind", "field 'name' has the name of a key every card has"),
    ("id: demo", "id: Demo Set", "id: Demo", "'Demo Set' is not a slug"),
    ("description: A new card game.", "descripton: A new card game.", "descripton", "unknown key 'descripton' in the file | did you mean 'description'?"),
    ("factions:\n", "icons:\n  E: icons/energy.svg\nfactions:\n", "E: icons", "icon E: 'icons/energy.svg' does not exist"),
])
def test_set_rule_broken(demo_set: Path, old: str, new: str, needle: str, expected: str):
    set_yaml = demo_set / "set.yaml"
    _edit(set_yaml, old, new)
    errors = _errors(demo_set)
    line = _line_of(set_yaml, needle)
    assert any(e.startswith(f"set.yaml:{line}:") and expected in e for e in errors), errors


def test_list_where_a_map_belongs(demo_set: Path):
    _edit(demo_set / "set.yaml", "factions:\n  sun:", "factions:\n  - sun\nx-old:\n  sun:")
    errors = _errors(demo_set)
    assert any("factions must be a map" in e for e in errors), errors


def test_every_problem_reported_at_once_sorted(demo_set: Path):
    cards = demo_set / "cards.yaml"
    _edit(cards, "faction: moon\n    cost: 2", "faction: mon\n    cost: 2")
    _edit(cards, "keywords: [Ward 1]", "keywords: [Wrad 1]")
    _edit(cards, "    speed: fast\n", "    speed: fats\n")
    (demo_set / "broken.yaml").write_text("cards:\n  - id: x\n\tname: y\n")
    _edit(demo_set / "set.yaml", "card_size: poker", "card_size: pokr")
    _, diags = check_set(demo_set)
    errors = [d for d in diags if d.is_error]
    assert len(errors) == 5
    assert [(d.file.name, d.line) for d in errors] == sorted((d.file.name, d.line) for d in errors)
    with pytest.raises(SetInvalid) as e:
        load_set(demo_set)
    assert len([d for d in e.value.diagnostics if d.is_error]) == 5


def test_files_outside_card_folders_are_not_cards(demo_set: Path):
    (demo_set / "_drafts").mkdir()
    (demo_set / "_drafts" / "ideas.yaml").write_text("not: cards\n")
    assert load_set(demo_set).id == "demo"


def test_missing_set_yaml_is_one_clear_error(tmp_path: Path):
    d = tmp_path / "nothing"
    d.mkdir()
    _, diags = check_set(d)
    assert any("set.yaml" in str(x.file) and "cannot read" in x.message for x in diags)


def test_solar_empires_broken_four_ways_reports_all_four(tmp_path: Path):
    """The issue's acceptance check: a copy of the bundled set broken in four ways, all four reported."""
    import shutil

    src = Path(__file__).resolve().parent.parent / "cards" / "solar-empires"
    d = tmp_path / "solar-empires"
    shutil.copytree(src, d)
    _edit(d / "ships-chain.yaml", "    armour: 6\n", "    armour: six\n")                  # a bad number
    _edit(d / "ships-terracorp.yaml", "class: fighter", "class: figter")                  # a misspelt enum
    _edit(d / "events-neutral.yaml", "  - id: sabotage", "  - id: solar-flare")           # a duplicate id
    _edit(d / "set.yaml", "    name: The Chain\n", "    name: The Chain\n    colr: '#000'\n")  # an unknown key
    _, diags = check_set(d)
    errors = [d for d in diags if d.is_error]
    where = {(e.file.name, e.line) for e in errors}
    assert ("ships-chain.yaml", _line_of(d / "ships-chain.yaml", "armour: six")) in where
    assert ("ships-terracorp.yaml", _line_of(d / "ships-terracorp.yaml", "figter")) in where
    second = [i for i, line in enumerate((d / "events-neutral.yaml").read_text().splitlines(), 1) if "id: solar-flare" in line][1]
    assert ("events-neutral.yaml", second) in where
    assert ("set.yaml", _line_of(d / "set.yaml", "colr")) in where
    assert len(errors) == 4, [e.format() for e in errors]  # no cascade of follow-on errors


def test_art_or_icon_that_is_not_an_image_is_reported_where_it_is_named(demo_set: Path):
    """A text file saved as art/x.png used to pass validation and fail only when rendering."""
    from PIL import Image

    (demo_set / "art" / "scout.png").write_text("not a picture\n")
    Image.new("RGB", (40, 60), "red").save(demo_set / "art" / "heron.png")
    (demo_set / "icons").mkdir()
    (demo_set / "icons" / "sun.png").write_bytes(b"<svg>oops</svg>")
    _edit(demo_set / "set.yaml", "\nkeywords:", "\nicons:\n  S: icons/sun.png\nkeywords:")
    _edit(demo_set / "cards.yaml", "    faction: sun\n", "    faction: sun\n    art: art/scout.png\n")
    _edit(demo_set / "cards.yaml", "    faction: moon\n", "    faction: moon\n    art: art/heron.png\n")
    errors = _errors(demo_set)
    cards = demo_set / "cards.yaml"
    assert f"cards.yaml:{_line_of(cards, 'art/scout.png')}: card 'dawn-scout': art file 'art/scout.png' is not an image" in "\n".join(errors), errors
    assert any(e.startswith("set.yaml:") and "icon 'icons/sun.png' is not an image" in e for e in errors), errors
    assert not any("heron" in e for e in errors), errors
    assert len(errors) == 2, errors


def test_card_effect_is_kept_for_the_rules_and_needs_a_handler(demo_set: Path):
    _edit(demo_set / "cards.yaml", "    speed: fast\n", "    speed: fast\n    effect: {do: damage, amount: 4}\n")
    eclipse = load_set(demo_set).card("eclipse")
    assert [dict(e) for e in eclipse.effects] == [{"do": "damage", "amount": 4}]
    assert load_set(demo_set).card("dawn-scout").effects == ()
    _edit(demo_set / "cards.yaml", "effect: {do: damage, amount: 4}", "effect: {amount: 4}")
    errors = _errors(demo_set)
    line = _line_of(demo_set / "cards.yaml", "effect: {amount")
    assert any(e.startswith(f"cards.yaml:{line}:") and "`do:`" in e for e in errors), errors


@pytest.mark.parametrize("old, new, says", [
    ("bleed: 0.125in", "bleed: -3mm", "'-3mm' is a negative size"),
    ("bleed: 0.125in", "bleed: .nanmm", "'.nanmm' is not a length"),
    ("safe: 0.125in", "safe: 3 millimetres", "'3 millimetres' is not a length"),
    ("card_size: poker ", "card_size: {width: 1e308mm, height: 88mm} ", "larger than cardsmith draws"),
    ("card_size: poker ", "card_size: {width: nanmm, height: 88mm} ", "'nanmm' is not a length"),
])
def test_a_bad_length_in_set_yaml_is_one_plain_error(demo_set: Path, old, new, says):
    """One message a designer can act on, not a second one quoting the schema's regular expression."""
    _edit(demo_set / "set.yaml", old, new)
    errors = _errors(demo_set)
    assert len(errors) == 1, errors
    assert says in errors[0] and errors[0].startswith(f"set.yaml:{_line_of(demo_set / 'set.yaml', new.split(':')[0] + ':')}:")
    assert "\\d" not in errors[0] and "is not one of" not in errors[0]


def test_art_through_a_link_out_of_the_set_says_where_the_link_goes(demo_set: Path, tmp_path: Path):
    elsewhere = tmp_path / "shared-art"
    elsewhere.mkdir()
    shutil.rmtree(demo_set / "art", ignore_errors=True)
    (demo_set / "art").symlink_to(elsewhere, target_is_directory=True)
    _edit(demo_set / "cards.yaml", "    speed: fast\n", "    speed: fast\n    art: art/moon.png\n")
    errors = _errors(demo_set)
    assert len(errors) == 1 and "'art/moon.png' is outside the set folder" in errors[0], errors
    assert f"a link to {elsewhere}" in errors[0] and "copy" in errors[0]


@pytest.mark.parametrize("old, new, says", [
    ("    power: 3\n    health: 1\n", "    power: 3\n    health: 1\n    copies: 1e9\n", "card 'night-heron': copies must be a whole number"),
    ("    power: 3\n    health: 1\n", "    power: 3\n    health: 1\n    copies: 0\n", "card 'night-heron': copies must be at least 1"),
    ("    power: 3\n    health: 1\n", "    power: 3\n    health: 1\n    tags: starter\n", "card 'night-heron': tags must be"),
])
def test_schema_errors_in_a_card_name_the_card_not_its_index(demo_set: Path, old, new, says):
    _edit(demo_set / "cards.yaml", old, new)
    errors = _errors(demo_set)
    assert len(errors) == 1 and says in errors[0] and "cards[" not in errors[0], errors


@pytest.mark.parametrize("file, old, new", [
    ("cards.yaml", "name: Night Heron", 'name: "Night\\x1b[31m Heron"'),
    ("cards.yaml", "    power: 3\n    health: 1\n", '    power: 3\n    health: 1\n    text: "Fly\\0away"\n'),
    ("set.yaml", 'name: "Demo"', 'name: "De\\x07mo"'),
])
def test_control_characters_in_text_are_errors_at_their_line(demo_set: Path, file, old, new):
    """An escape written into a shared set ("\\x1b[31m") reached the terminal through `cardsmith list`."""
    _edit(demo_set / file, old, new)
    errors = _errors(demo_set)
    assert len(errors) == 1 and "control character" in errors[0], errors
    assert errors[0].startswith(f"{file}:{_line_of(demo_set / file, new.strip().splitlines()[-1].strip())}:")
