"""Card text is data (issue 31, item 1): markup comes from the layout, never from a card's value."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardsmith.base.project import Project
from cardsmith.layout._richtext import ITALIC, Icon, Span, parse
from cardsmith.layout.faces import card_layout
from cardsmith.layout.template import Layouts, card_context, layouts_for
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parent.parent
CARD = {"card": {"id": "x", "name": "X", "text": "", "art": None}, "set": {}, "faction": {"color": "#336699"}}


def drawn(value: str, icons: frozenset[str] = frozenset({"E"})) -> list[tuple[str, int | None]]:
    """What the painter draws from a text value: (text or icon id, style) for each piece."""
    return [(p.text, p.style) if isinstance(p, Span) else ("{" + p.id + "}", None)
            for para in parse(value, icons) for line in para.lines for w in line for p in w.pieces]


def value_of(tmp_path: Path, layout: str, **card) -> str:
    (tmp_path / "t.yaml.j2").write_text("layers:\n  - text: {box: [0, 0, 10mm, 10mm], value: \"" + layout + "\"}\n",
                                        encoding="utf-8")
    tree, _ = Layouts([tmp_path]).render("t", {**CARD, "card": {**CARD["card"], **card}}, "card 'x'")
    return tree["layers"][0]["text"]["value"]


@pytest.mark.parametrize("layout", [
    "*{{ card.flavor }}*",
    "{{ '*' ~ card.flavor ~ '*' }}",
    "{% set p = ['*' ~ card.flavor ~ '*'] %}{{ p | join(' ') }}",
    "*{{ card.flavor | upper | lower }}*",
    "*{{ card.flavor[0:100] }}*",
    "{% set a, b, c = card.flavor.partition('Fireball') %}*{{ a ~ b ~ c }}*",
    "*{{ '%s' | format(card.flavor) }}*",
])
def test_asterisks_in_a_flavour_print_as_asterisks_however_the_layout_joins_it(tmp_path, layout):
    flavor = "*casts Fireball* *dodges* *it was a homing Fireball* {E} \\o/"
    pieces = drawn(value_of(tmp_path, layout, flavor=flavor))
    assert {style for _, style in pieces} == {ITALIC}  # all italic: the layout's markup, none from the value
    expected = flavor.lower() if "lower" in layout else flavor
    assert "".join(t for t, _ in pieces) == expected.replace(" ", "")  # every character, none taken as markup


def test_a_field_the_layout_marks_as_markup_keeps_its_icons_and_bold(tmp_path):
    pieces = drawn(value_of(tmp_path, "{{ card.text | markup }}", text="**Pay** 2{E}"))
    assert ("Pay", 1) in pieces and ("{E}", None) in pieces
    plain = drawn(value_of(tmp_path, "{{ card.text }}", text="**Pay** 2{E}"))
    assert "".join(t for t, _ in plain) == "**Pay**2{E}" and all(s == 0 for _, s in plain)


def test_values_still_compare_and_measure_as_written(tmp_path):
    layout = "{{ 'yes' if card.flavor == '*a*' and card.flavor | length == 3 and '*' in card.flavor else 'no' }}"
    assert value_of(tmp_path, layout, flavor="*a*") == "yes"


@pytest.mark.parametrize("card_id, flavor", [
    ("roleplay-duel", "*casts Fireball* *dodges* *it was a homing Fireball*"),
    ("spoiler-bomb", "Snape kills — *kicked*"),
    ("netsplit", "* Quits: everyone (irc.aniverse.net split.net)"),
    ("rage-quit", "* Quits (Connection reset by peer)"),
])
def test_rm2k_flavour_prints_exactly_as_written_in_italics(card_id, flavor):
    cardset = load_set(ROOT / "cards" / "rm2k-anime")
    card = cardset.by_id()[card_id]
    layouts = layouts_for(Project(ROOT), cardset)
    tree, _ = layouts.render(card_layout(cardset, card, layouts), card_context(cardset, card), card_id)
    rules = next(layer["text"] for layer in tree["layers"] if layer.get("text", {}).get("name") == "rules")
    last = parse(rules["value"])[-1]
    pieces = [p for line in last.lines for w in line for p in w.pieces]
    assert all(isinstance(p, Span) and p.style == ITALIC for p in pieces)
    assert " ".join(w.plain() for line in last.lines for w in line) == flavor
    assert not any(isinstance(p, Icon) for p in pieces)
