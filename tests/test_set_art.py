"""Bundled sets that look finished (issue 31, item 11): art drawn from card data tells cards apart, and
layouts adapt to the text so no card leaves its lower third to an empty panel or bare backdrop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardsmith.base.project import Project
from cardsmith.layout.faces import card_layout
from cardsmith.layout.template import card_context, layouts_for, set_context
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parents[1]


def _trees(set_id: str):
    cs = load_set(ROOT / "cards" / set_id)
    layouts, setctx = layouts_for(Project(ROOT), cs), set_context(cs)
    for card in cs.cards:
        tree, _ = layouts.render(card_layout(cs, card, layouts), card_context(cs, card, setctx), f"card '{card.id}'")
        yield cs, card, tree


def _named(tree, name):
    for layer in tree["layers"]:
        (kind, body), = layer.items()
        if isinstance(body, dict) and body.get("name") == name:
            return kind, body
    return None


def _mm(v) -> float:
    return float(str(v).removesuffix("mm"))


@pytest.fixture(scope="module")
def solar():
    return list(_trees("solar-empires"))


def test_solar_ships_of_one_class_are_drawn_differently(solar):
    """No two ships share a drawing: the unnamed layers (the drawn ship) differ for every pair."""
    drawings: dict[str, str] = {}
    for _, card, tree in solar:
        if card.type != "ship":
            continue
        ship = [layer for layer in tree["layers"] if "name" not in next(iter(layer.values()))]
        assert len(ship) > 15, card.id  # a hull, wings, guns and engines, not one icon
        drawing = json.dumps([{k: {kk: vv for kk, vv in v.items() if kk != "_file"}} for layer in ship for k, v in layer.items()],
                             sort_keys=True)
        assert drawing not in drawings.values(), (card.id, [k for k, d in drawings.items() if d == drawing])
        drawings[card.id] = drawing
    assert len(drawings) == 36


def test_solar_cards_without_text_give_the_card_to_their_art(solar):
    """A card without text has no rules panel; its art window runs down to the type line at the foot."""
    for cs, card, tree in solar:
        foot = cs.card_size[1] - cs.safe - 1  # frames stand 1 mm inside the safe line
        sky = _named(tree, "sky")[1]
        panel = _named(tree, "panel")
        if not (card.text or card.flavor or card.keywords):
            assert panel is None, card.id
            assert _mm(sky["box"][3]) >= foot - 7, card.id
        else:  # the art never ends above the lower two thirds' top less the type line
            assert panel is not None and _mm(sky["box"][3]) >= 46, card.id


def test_solar_short_text_gets_a_short_panel(solar):
    """A one-line text gets a panel a fraction of the long texts' height: the art takes the rest."""
    heights = {}
    for _, card, tree in solar:
        panel = _named(tree, "panel")
        if panel:
            box = panel[1]["box"]
            heights[card.id] = 88.9 - _mm(str(box[3]).lstrip("-")) - _mm(box[1])
    assert heights["sol-like-star"] < 12 < 30 < heights["solaris-cannon"]


def test_rm2k_users_each_have_their_own_avatar():
    avatars = {}
    for _, card, tree in _trees("rm2k-anime"):
        if card.type != "user":
            continue
        assert _named(tree, "emblem") is None, card.id  # the one shared person icon is gone
        pixels = [json.dumps(layer["rect"]["fill"]) + json.dumps(layer["rect"]["box"])
                  for layer in tree["layers"] if "rect" in layer and "name" not in layer["rect"]]
        avatars[card.id] = tuple(pixels)
    assert len(avatars) == 16 and len(set(avatars.values())) == 16


def test_rm2k_panels_fit_their_text():
    """Short texts get a taller screen than the fixed layout's 44 mm; the longest keep it."""
    screens = {card.id: _mm(_named(tree, "screen")[1]["box"][3]) for _, card, tree in _trees("rm2k-anime")}
    assert screens["pen-tablet"] > 55 and screens["full-channel"] > 55
    assert min(v for k, v in screens.items()) >= 33


def _drawing(tree) -> str:
    """The unnamed layers (the drawn art) of a card, as comparable text."""
    art = [layer for layer in tree["layers"] if "name" not in next(iter(layer.values()))]
    return json.dumps([{k: {kk: vv for kk, vv in v.items() if kk != "_file"}} for layer in art for k, v in layer.items()],
                      sort_keys=True)


def test_solar_buildings_and_events_each_draw_their_own_picture(solar):
    """No building or event shows the shared emblem, and no two draw alike."""
    seen: dict[str, str] = {}
    for _, card, tree in solar:
        if card.type not in ("building", "event"):
            continue
        assert _named(tree, "emblem") is None, card.id
        drawing = _drawing(tree)
        assert drawing not in seen.values(), (card.id, [k for k, d in seen.items() if d == drawing])
        seen[card.id] = drawing
    assert len(seen) == 34


def test_trf_cards_draw_their_own_art_and_fit_panels_to_text():
    """Every TRF card has art drawn from its data (no two alike); a card without text has no panel and its art
    runs down to the bottom row; a one-line text gets a panel far shorter than the longest."""
    seen: dict[str, str] = {}
    heights = {}
    for cs, card, tree in _trees("trf"):
        drawing = _drawing(tree)
        assert drawing not in seen.values(), (card.id, [k for k, d in seen.items() if d == drawing])
        seen[card.id] = drawing
        panel, art = _named(tree, "panel"), _named(tree, "art-back")[1]
        if card.type == "account":
            continue
        if not (card.text or card.flavor):
            assert panel is None and _mm(art["box"][3]) > 60, card.id
        else:
            box = panel[1]["box"]
            heights[card.id] = _mm(box[3]) - _mm(box[1])
    assert heights["5000-words"] < 10 < 18 < heights["staff-ruling"]
