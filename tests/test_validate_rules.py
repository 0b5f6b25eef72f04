"""`cardsmith validate` checks what a set says about its game against the game's rules module:
the `rules:` name, `play:` settings, card effects, deck predicate names and the game's own checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardsmith.sets.validate import check_set

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "engine" / "cards" / "skirmish"


@pytest.fixture
def skirmish_set(tmp_path, skirmish_rules):
    d = tmp_path / "skirmish"
    shutil.copytree(FIXTURE, d)
    return d


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def errors(set_dir: Path) -> list:
    cardset, diags = check_set(set_dir)
    found = [d for d in diags if d.is_error]
    assert (cardset is None) == bool(found)
    return found


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_the_fixture_set_is_valid_with_its_rules(skirmish_set):
    cardset, diags = check_set(skirmish_set)
    assert cardset is not None and diags == []
    assert cardset.card("strike-2").effects == ({"do": "strike", "power": 2},)


def test_an_unknown_rules_name_gets_a_did_you_mean(skirmish_set):
    edit(skirmish_set / "set.yaml", "rules: skirmish", "rules: skirmsh")
    [e] = errors(skirmish_set)
    assert e.file.name == "set.yaml" and e.line == line_of(skirmish_set / "set.yaml", "rules:")
    assert "'skirmsh'" in e.message and e.hint == "did you mean 'skirmish'?"


def test_a_misspelt_play_setting_is_an_error_at_its_line(skirmish_set):
    edit(skirmish_set / "set.yaml", "play: {turn_cap: 30}", "play:\n  turn_cap: 30\n  trun_cap: 12")
    [e] = errors(skirmish_set)
    assert e.line == line_of(skirmish_set / "set.yaml", "trun_cap") and e.column == 3
    assert "'trun_cap' is not a setting of skirmish" in e.message and e.hint == "did you mean 'turn_cap'?"


def test_an_ill_typed_play_setting_is_an_error(skirmish_set):
    edit(skirmish_set / "set.yaml", "play: {turn_cap: 30}", "play: {turn_cap: lots}")
    [e] = errors(skirmish_set)
    assert "play.turn_cap" in e.message and "integer" in e.message and "'lots'" in e.message


@pytest.mark.parametrize("old, new, words", [
    ("effect: {do: strike, power: 2}", "effect: {do: strike}", "effect 'strike' needs `power`"),
    ("effect: {do: strike, power: 2}", "effect: {do: strike, power: two}", "power must be integer, not 'two'"),
    ("effect: {do: strike, power: 2}", "effect: {do: strike, power: 9}", "power must be at most 6, not 9"),
    ("effect: {do: strike, power: 2}", "effect: {do: strik, power: 2}", "effect 'strik' is not an effect of skirmish"),
    ("effect: {do: strike, power: 2}", "effect: {do: strike, power: 2, pwer: 3}", "takes no `pwer`"),
    (", effect: {do: strike, power: 2}", "", "has no `effect:`"),
])
def test_card_effects_are_checked_at_the_cards_line(skirmish_set, old, new, words):
    cards = skirmish_set / "cards.yaml"
    edit(cards, old, new)
    [e] = errors(skirmish_set)
    assert e.file.name == "cards.yaml" and e.line == line_of(cards, "strike-2") and words in e.message
    assert "strike-2" in e.message and e.hint


def test_an_effect_list_points_at_the_bad_entry(skirmish_set):
    cards = skirmish_set / "cards.yaml"
    edit(cards, "{id: heal, name: Heal, effect: {do: heal, amount: 2}}",
         "id: heal\n    name: Heal\n    effect:\n      - {do: heal, amount: 2}\n      - {do: gaurd, amount: 1}")
    [e] = errors(skirmish_set)
    assert e.line == line_of(cards, "gaurd") and e.hint == "did you mean 'guard'?"


def test_an_unknown_deck_predicate_is_an_error_with_a_did_you_mean(skirmish_set, monkeypatch):
    import dataclasses

    import engine_testgame as sk
    from cardsmith.engine.registry import register

    forget = register(dataclasses.replace(sk.RULES, deck_predicates={"one-heal-at-most": lambda deck, cardset: []}))
    try:
        edit(skirmish_set / "set.yaml", "  copies: {max: 4, zone: deck}",
             "  copies: {max: 4, zone: deck}\n  predicates:\n    - {check: one-heal-at-mots}")
        [e] = errors(skirmish_set)
        assert e.line == line_of(skirmish_set / "set.yaml", "one-heal-at-mots")
        assert "'one-heal-at-mots' is not a predicate of skirmish" in e.message
        assert e.hint == "did you mean 'one-heal-at-most'?"
    finally:
        forget()
        register(sk.RULES)


def test_the_games_own_checks_appear_at_file_line(skirmish_set):
    cards = skirmish_set / "cards.yaml"
    for card in ("guard", "heal"):
        edit(cards, f"{{do: {card}, amount: 2}}", "{do: strike, power: 1}")
    [e] = errors(skirmish_set)
    assert e.file.name == "set.yaml" and e.line == line_of(skirmish_set / "set.yaml", "rules:")
    assert "every card strikes" in e.message and "guard or heal" in e.hint


def test_the_validate_command_prints_them(skirmish_set, capsys):
    from cardsmith.cli import main

    edit(skirmish_set / "set.yaml", "play: {turn_cap: 30}", "play: {turn_cp: 30}")
    with pytest.raises(SystemExit) as e:
        main(["validate", str(skirmish_set)])
    out = capsys.readouterr()
    text = " ".join((out.out + out.err).split())
    assert e.value.code == 1
    assert "set.yaml:7:" in text and "turn_cp" in text and "did you mean 'turn_cap'?" in text


def test_card_fields_the_rules_read_are_checked_at_the_card(skirmish_set):
    import dataclasses

    import engine_testgame as sk
    from cardsmith.engine.registry import register

    forget = register(dataclasses.replace(sk.RULES, card_fields={"card": {"power": {"type": "integer", "maximum": 2}}}))
    try:
        [e] = errors(skirmish_set)
        assert e.line == line_of(skirmish_set / "cards.yaml", "strike-3")
        assert "card 'strike-3': power must be at most 2, not 3 (as skirmish reads it)" in e.message
    finally:
        forget()
