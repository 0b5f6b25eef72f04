"""#rm2k_anime layouts keep the print rules: nothing under 6 pt (7 pt for body text), no hairline within
3 mm of the trim; Users show all five skills with immunities marked, Bandwidth, Cost and the Goal;
other cards show their skill and type symbols; one back. Rendering them reports no problem."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardsmith.layout.template import back_context, card_context, layouts_for, set_context
from cardsmith.base.project import Project
from cardsmith.render.batch import render_set
from cardsmith.layout.faces import back_layout, back_specs, card_layout
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parents[1]
CS = load_set(ROOT / "cards" / "rm2k-anime")
LAYOUTS = layouts_for(Project(ROOT), CS)
BODY = {"rules", "goal"}


def _mm(v: object) -> float | None:
    m = re.fullmatch(r"(-?[\d.]+)(mm|pt)", str(v))
    if not m:
        return None
    return float(m.group(1)) * (0.3528 if m.group(2) == "pt" else 1.0)


def _pt(v: object) -> float:
    m = re.fullmatch(r"([\d.]+)pt", str(v))
    assert m, f"size {v!r} is not in pt"
    return float(m.group(1))


def trees():
    setctx = set_context(CS)
    for card in CS.cards:
        tree, _ = LAYOUTS.render(card_layout(CS, card, LAYOUTS), card_context(CS, card, setctx), f"card '{card.id}'")
        yield card, tree
    for bid, spec in back_specs(CS).items():
        tree, _ = LAYOUTS.render(back_layout(bid, spec, LAYOUTS), back_context(CS, bid, spec, setctx), f"back {bid}")
        yield None, tree


def _layers(tree):
    for layer in tree["layers"]:
        (kind, body), = layer.items()
        yield kind, body


def test_text_sizes_and_strokes_keep_the_print_rules():
    for card, tree in trees():
        for kind, body in _layers(tree):
            if kind == "text":
                smallest = _pt(body.get("min_size", body.get("size", "6pt")))
                size = _pt(body.get("size", "6pt"))
                assert min(smallest, size) >= 6, (card and card.id, body.get("name"))
                if body.get("name") in BODY:
                    assert min(smallest, size) >= 7, (card and card.id, body.get("name"))
            if "stroke_width" in body:
                width = _mm(body["stroke_width"])
                box = [_mm(v) for v in body["box"]]
                near_trim = any(v is not None and abs(v) < 3.0 for v in box if v is not None) or any(
                    str(v).endswith("%") for v in body["box"])
                assert width is not None and (width >= 0.3 or not near_trim), (card and card.id, body.get("name"))
                assert not near_trim or all(v is None or abs(v) >= 3.0 for v in box), \
                    f"a line within 3 mm of the trim on {card and card.id}: {body.get('name')}"


def test_users_show_five_skills_immunities_bandwidth_cost_and_goal():
    for card, tree in trees():
        if card is None or card.type != "user":
            continue
        texts = {b.get("name"): str(b.get("value")) for k, b in _layers(tree) if k == "text"}
        for skill in ("roleplay", "otaku", "argue", "script", "gamer"):
            want = "IMMUNE" if card.fields[skill] == "-" else card.fields[skill]
            assert texts[f"skill-{skill}"] == want
        assert texts["cost"] == str(card.fields["cost"]) and str(card.fields["bandwidth"]) in texts["bandwidth"]
        assert card.fields["goal"] in texts["goal"]


def test_other_cards_show_skill_and_type_symbols_and_challenge_numbers():
    for card, tree in trees():
        if card is None or card.type == "user":
            continue
        icons = {b.get("name"): b.get("id") for k, b in _layers(tree) if k == "icon"}
        texts = {b.get("name"): str(b.get("value")) for k, b in _layers(tree) if k == "text"}
        if "skill" in card.fields:
            assert icons["skill-symbol"] == card.fields["skill"]
        if card.type == "attach":
            assert icons["type-symbol"] == card.fields["kind"]
        if card.type == "challenge":
            assert "ATK" in texts["attacker_bonus"]
            key = "defense_value" if card.fields["kind"] == "personal" else "defender_bonus"
            assert str(card.fields[key]) in texts[key]


def test_one_back_for_every_card():
    assert len(back_specs(CS)) == 1 and {c.back for c in CS.cards} <= set(back_specs(CS))


@pytest.mark.parametrize("only", [["chibi-sage", "banhammer", "ctrl-z", "collab-project", "full-channel"]])
def test_rendering_a_card_of_each_type_reports_nothing(tmp_path, only):
    shutil.copytree(ROOT / "cards" / "rm2k-anime", tmp_path / "cards" / "rm2k-anime")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    if (ROOT / "fonts").exists():
        shutil.copytree(ROOT / "fonts", tmp_path / "fonts")
    project = Project(tmp_path)
    result = render_set(project, load_set(tmp_path / "cards" / "rm2k-anime"), dpi=100, only=only)
    assert result.diagnostics == [], [str(d) for d in result.diagnostics]
    assert sorted(result.rendered) == sorted(only)
    assert len(list((tmp_path / "output" / "rm2k-anime" / "cards").glob("*.png"))) == len(only)
