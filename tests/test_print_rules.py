"""The print rules every layout keeps (no hairline near the trim, nothing ending between trim and safe line,
no text under 6 pt or body text under 7 pt), checked by render and validate; the bundled layouts keep them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardsmith.layout.fonts import FontLibrary
from cardsmith.layout.paint import Page, Painter
from cardsmith.layout.printcheck import set_diagnostics, shape_notes, text_size_note, tree_notes
from cardsmith.layout.template import card_context, layouts_for, set_context
from cardsmith.base.project import BUNDLED_FONTS, Project
from cardsmith.render.batch import render_set
from cardsmith.layout.faces import card_layout
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parent.parent
TRIM, SAFE = (63.5, 88.9), 3.175


def kinds(notes) -> set[str]:
    return {n[0] for n in notes}


def test_a_thin_frame_line_near_the_trim_is_a_hairline_and_crosses_the_safe_line():
    border = {"box": ["1.4mm", "1.4mm", "-1.4mm", "-1.4mm"], "stroke": "#fff", "stroke_width": "0.45mm"}
    assert kinds(shape_notes("rect", border, TRIM, SAFE)) == {"hairline", "safe-line"}
    thick_inside = {"box": ["4mm", "4mm", "-4mm", "-4mm"], "stroke": "#fff", "stroke_width": "0.45mm"}
    assert shape_notes("rect", thick_inside, TRIM, SAFE) == []
    on_safe_line = {"box": ["3.175mm", "3.175mm", "-3.175mm", "-3.175mm"], "fill": "#fff"}
    assert shape_notes("rect", on_safe_line, TRIM, SAFE) == []
    background = {"box": [0, 0, "100%", "100%"], "fill": "#000", "bleed": True}
    assert shape_notes("rect", background, TRIM, SAFE) == []


def test_a_ring_reaching_past_the_safe_line_is_reported_unless_it_may_be_cut():
    ring = {"box": ["1.6mm", "30mm", "-1.6mm", "45mm"], "stroke": "#fff", "stroke_width": "0.5mm"}
    assert "safe-line" in kinds(shape_notes("ellipse", ring, TRIM, SAFE))
    star = {"box": ["1mm", "1mm", "1.5mm", "1.5mm"], "fill": "#fff", "safe": False}
    assert shape_notes("ellipse", star, TRIM, SAFE) == []


def test_a_thin_line_along_the_edge_is_a_hairline_but_one_across_the_card_is_not_near_the_side():
    along = {"from": ["2mm", "10mm"], "to": ["2mm", "80mm"], "width": "0.3mm"}
    assert kinds(shape_notes("line", along, TRIM, SAFE)) == {"hairline"}
    across = {"from": ["10mm", "40mm"], "to": ["50mm", "40mm"], "width": "0.3mm"}
    assert shape_notes("line", across, TRIM, SAFE) == []


def test_text_sizes():
    assert text_size_note({"wrap": False}, 5.8, 1)[0] == "small-text"
    assert text_size_note({"wrap": False}, 6.0, 1) is None
    assert text_size_note({}, 6.7, 3)[0] == "small-text"  # body text (it wraps) needs 7 pt
    assert text_size_note({}, 6.7, 1)[0] == "small-text"  # ...at any length (issue 31, item 6)
    assert text_size_note({"wrap": False, "value": "HP"}, 6.7, 1) is None  # a label
    assert text_size_note({"wrap": False, "value": "Attach · Hardware — Multi Tech"}, 6.5, 1) is None  # a type line
    rule = {"wrap": False, "value": "Transform: discard 2 cards"}  # TransWar's one-line rule, once 6.48 pt
    assert text_size_note(rule, 6.48, 1)[0] == "small-text"
    # validate judges by how far the layout lets text shrink
    tree = {"layers": [{"text": {"box": [5, 5, 50, 20], "value": "x", "size": "8pt", "min_size": "5.5pt"}},
                       {"text": {"box": [5, 5, 50, 20], "value": "x", "size": "4.6pt", "wrap": False}},
                       {"text": {"box": [5, 5, 50, 20], "value": "x", "size": "9pt", "min_size": "7pt"}}]}
    assert [label for _, _, label in tree_notes(tree, TRIM, SAFE)] == ["layer 1 (text)", "layer 2 (text)"]


def test_the_painter_reports_text_it_had_to_shrink_below_the_rules(tmp_path):
    p = Painter(Page(150, TRIM, 3.175, 3.175), FontLibrary([BUNDLED_FONTS]), {}, tmp_path)
    long = "many words that will not fit in this box at any legible size " * 4
    tree = {"layers": [{"text": {"name": "rules", "box": ["5mm", "5mm", "40mm", "15mm"], "value": long,
                                 "size": "9pt", "min_size": "5pt"}}]}
    _, notes = p.paint(tree, "card 'x'")
    assert "small-text" in {n.kind for n in notes}


def test_the_bundled_set_keeps_the_print_rules_in_every_layout():
    cardset = load_set(ROOT / "cards" / "solar-empires")
    assert set_diagnostics(Project(ROOT), cardset) == []


def _layer_box(tree: dict, name: str) -> list:
    for layer in tree["layers"]:
        kind, props = next(iter(layer.items()))
        if props.get("name") == name:
            return props["box"]
    raise KeyError(name)


def test_type_lines_move_with_the_text_but_never_into_the_panel():
    """Layouts adapt to the text (issue 31, item 11): the type line sits just above a panel sized to
    the text, at the foot of a card without text, and never lower than a shorter text would put it."""
    cardset = load_set(ROOT / "cards" / "solar-empires")
    project = Project(ROOT)
    layouts = layouts_for(project, cardset)
    setctx = set_context(cardset)
    foot = cardset.card_size[1] - cardset.safe - 1  # frames stand 1 mm inside the safe line
    for card in cardset.cards:
        tree, _ = layouts.render(card_layout(cardset, card, layouts), card_context(cardset, card, setctx), card.id)
        bar = [float(str(v).removesuffix("mm")) for v in _layer_box(tree, "type-bar")[1::2]]
        try:
            panel_top = float(str(_layer_box(tree, "panel")[1]).removesuffix("mm"))
        except KeyError:
            assert abs(bar[1] - foot) < 0.05, card.id  # no text: the type line stands at the foot
            continue
        assert bar[1] < panel_top <= bar[1] + 1, card.id
        assert bar[0] >= 46, card.id


@pytest.fixture(scope="module")
def issue_cards(tmp_path_factory):
    """The cards the print review named, rendered at 150 dpi with --strict."""
    root = tmp_path_factory.mktemp("print")
    shutil.copytree(ROOT / "cards" / "solar-empires", root / "cards" / "solar-empires")
    project = Project(root)
    cardset = load_set(root / "cards" / "solar-empires")
    only = ["infested-derelict", "hive-ship", "world-eater", "solaris-cannon", "ringed-planet", "sol-like-star",
            "missile-silos", "pillars-of-flesh"]
    return render_set(project, cardset, dpi=150, only=only, strict=True, jobs=1)


def test_the_cards_the_review_named_render_clean_under_strict(issue_cards):
    assert [d.message for d in issue_cards.diagnostics] == []


PANEL = {"rect": {"name": "panel", "box": ["5mm", "50mm", "-5mm", "70mm"], "fill": "#eeeeee", "stroke": "#333", "stroke_width": "0.5mm"}}


def _text_notes(tmp_path, text: dict) -> list:
    p = Painter(Page(150, TRIM, 3.175, 3.175), FontLibrary([BUNDLED_FONTS]), {}, tmp_path)
    _, notes = p.paint({"layers": [PANEL, {"text": {"name": "rules", "box": ["6mm", "51mm", "-6mm", "69mm"], **text}}]}, "card 'x'")
    return [n for n in notes if n.kind == "past-panel"]


def test_text_that_cannot_shrink_further_is_reported_where_it_is_drawn_past_its_panel(tmp_path):
    long = "Deal 3 damage to every ship in the fleet, then draw a card for each ship destroyed this way. " * 3
    [note] = _text_notes(tmp_path, {"value": long, "size": "8pt", "min_size": "8pt"})
    assert "text 'rules' is drawn" in note.message and "past the bottom edge of its panel" in note.message
    assert note.layer == "layer 2 (text 'rules')" and note.amount_mm > 5  # 19 mm of panel for ~30 mm of text
    assert _text_notes(tmp_path, {"value": long[:90], "size": "8pt", "min_size": "8pt"}) == []
    assert _text_notes(tmp_path, {"value": long, "size": "8pt", "min_size": "5pt"}) == []  # it may shrink to fit


def test_a_label_running_over_its_badges_outline_is_past_the_panel(tmp_path):
    # a one-line label whose box is the whole 14 mm badge: its ink covers the badge's 0.5 mm outline
    badge = {"rect": {"box": ["20mm", "60mm", "34mm", "66mm"], "fill": "#7a2ab3", "stroke": "#fff", "stroke_width": "0.5mm"}}
    label = {"box": ["20mm", "62mm", "34mm", "66mm"], "value": "HOMEWORLD", "size": "6pt", "min_size": "6pt",
             "wrap": False, "align": "center", "style": "bold", "font": "title", "color": "#ffffff"}
    p = Painter(Page(300, TRIM, 3.175, 3.175), FontLibrary([BUNDLED_FONTS]), {}, tmp_path)
    _, notes = p.paint({"fonts": {"title": "lato"}, "layers": [badge, {"text": label}]}, "card 'x'")
    [past] = [n for n in notes if n.kind == "past-panel"]
    assert "past the right edge of its panel" in past.message or "past the left edge of its panel" in past.message
    label["value"] = "HOME"
    _, notes = p.paint({"fonts": {"title": "lato"}, "layers": [badge, {"text": label}]}, "card 'x'")
    assert notes == []


def _demo_set(tmp_path, creature_layout: str):
    """A scaffolded set under tmp_path/cards/demo whose creatures use `creature_layout`."""
    from cardsmith.sets.scaffold import scaffold_set

    set_dir = tmp_path / "cards" / "demo"
    scaffold_set(set_dir)
    (set_dir / "layouts").mkdir()
    (set_dir / "layouts" / "creature.yaml.j2").write_text(creature_layout, encoding="utf-8")
    return set_dir


def test_render_strict_makes_text_past_its_panel_an_error_naming_card_layer_and_amount(tmp_path):
    set_dir = _demo_set(
        tmp_path,
        "layers:\n"
        "  - rect: {name: panel, box: [6mm, 50mm, -6mm, 62mm], fill: '#eeeeee'}\n"
        "  - text: {name: rules, box: [7mm, 51mm, -7mm, 61mm], size: 9pt, min_size: 9pt,\n"
        "           value: \"{{ 'A long rule that does not fit in so small a panel at nine points. ' * 4 }}\"}\n")
    project = Project(tmp_path)
    result = render_set(project, load_set(set_dir), dpi=100, only=["dawn-scout"], jobs=1, strict=True)
    past = [d for d in result.diagnostics if "past the bottom edge of its panel" in d.message]
    assert len(past) == 1 and past[0].is_error and "card 'dawn-scout'" in past[0].message
    assert "(layer 2 (text 'rules'), layout 'creature')" in past[0].message and "min_size" in past[0].hint
    assert not result.ok


def test_every_trf_planet_keeps_its_badge_labels_inside_the_badges(tmp_path):
    shutil.copytree(ROOT / "cards" / "trf", tmp_path / "cards" / "trf")
    cardset = load_set(tmp_path / "cards" / "trf")
    planets = [c.id for c in cardset.cards if c.type == "planet"]
    result = render_set(Project(tmp_path), cardset, dpi=150, only=planets, strict=True, jobs=1)
    assert [d.message for d in result.diagnostics] == []


def test_the_example_layout_in_the_docs_keeps_the_print_rules_on_a_new_set(tmp_path):
    """docs/layouts.md's "A layout" example, dropped into a set `cardsmith new` made, draws every
    creature without a print-rule warning (a reader copies it as the start of their own)."""
    doc = (ROOT / "docs" / "layouts.md").read_text(encoding="utf-8")
    example = doc.split("```yaml+jinja\n{# cards/my-game/layouts/creature.yaml.j2 #}\n", 1)[1].split("```", 1)[0]
    set_dir = _demo_set(tmp_path, example)
    from cardsmith.sets.validate import check_set
    assert [d.message for d in check_set(set_dir)[1]] == []  # validate judges the sizes the layout allows
    cardset = load_set(set_dir)
    creatures = [c.id for c in cardset.cards if c.type == "creature"]
    result = render_set(Project(tmp_path), cardset, dpi=150, only=creatures, jobs=1, strict=True)
    assert [d.message for d in result.diagnostics] == []


def test_no_alien_empires_star_speck_shows_through_text():
    """The starfield's specks sat under Force cards' rules text and read as punctuation
    ("conflict:.+9 Force"): a speck may lie in a text's box only under a panel that covers it."""
    from cardsmith.layout._boxes import layer_box

    cardset = load_set(ROOT / "cards" / "alien-empires")
    layouts = layouts_for(Project(ROOT), cardset)
    setctx = set_context(cardset)
    trim = cardset.card_size
    for card in cardset.cards:
        tree, _ = layouts.render(card_layout(cardset, card, layouts), card_context(cardset, card, setctx), card.id)
        drawn: list[tuple[str, dict]] = [next(iter(layer.items())) for layer in tree["layers"]]
        for t, (kind, props) in enumerate(drawn):
            if kind != "text" or not str(props.get("value", "")).strip():
                continue
            text = layer_box(props, trim)
            for s, (skind, sprops) in enumerate(drawn[:t]):
                speck = layer_box(sprops, trim) if skind == "ellipse" and not sprops.get("name") else None
                if speck is None or speck.right < text.left or speck.left > text.right or speck.bottom < text.top or speck.top > text.bottom:
                    continue
                covered = any(k in ("rect", "ellipse") and p.get("fill") and layer_box(p, trim).contains(text, tolerance=0.1)
                              for k, p in drawn[s + 1:t])
                assert covered, f"{card.id}: a star speck at {speck} lies under text '{props.get('name')}' at {text}"


def _paint(tmp_path, layers):
    p = Painter(Page(300, TRIM, 3.175, 3.175), FontLibrary([BUNDLED_FONTS]), {}, tmp_path)
    return p.paint({"fonts": {"title": "lato"}, "layers": layers}, "card 'x'")[1]


def test_a_word_wider_than_the_chord_of_its_disc_is_past_the_curve_though_inside_its_box(tmp_path):
    # rm2k's Cost disc (issue 31, item 2): 7.2 mm across, "COST" at 6 pt in its lower part
    disc = {"ellipse": {"box": ["45mm", "4.4mm", "52.2mm", "11.6mm"], "fill": "#0d1020", "stroke": "#fff", "stroke_width": "0.3mm"}}
    label = {"text": {"name": "cost-label", "box": ["45mm", "9.4mm", "52.2mm", "11.6mm"], "value": "COST", "font": "title",
                      "style": "bold", "size": "6pt", "wrap": False, "align": "center", "valign": "middle", "color": "#fff"}}
    [past] = [n for n in _paint(tmp_path, [disc, label]) if n.kind == "past-panel"]
    assert "past the curve of its ellipse" in past.message and past.amount_mm > 0.3
    number = {"text": {"name": "cost", "box": ["45mm", "4.4mm", "52.2mm", "11.6mm"], "value": "3", "font": "title",
                       "style": "bold", "size": "13pt", "wrap": False, "align": "center", "valign": "middle", "color": "#fff"}}
    assert _paint(tmp_path, [disc, number]) == []


def test_text_inside_a_rounded_pill_but_into_its_round_end_is_past_the_panel(tmp_path):
    pill = {"rect": {"box": ["10mm", "10mm", "30mm", "17mm"], "radius": "3.5mm", "fill": "#0b1020"}}
    text = {"name": "cost", "box": ["10mm", "10mm", "30mm", "17mm"], "value": "8888888", "font": "title", "style": "bold",
            "size": "14pt", "min_size": "14pt", "wrap": False, "align": "center", "valign": "middle", "color": "#fff"}
    [past] = _paint(tmp_path, [pill, {"text": text}])  # inside the 20 x 7 mm box, not inside its round ends
    assert "rounded corner" in past.message
    assert _paint(tmp_path, [pill, {"text": {**text, "value": "888"}}]) == []


def test_white_on_a_pale_shield_is_low_contrast_and_the_note_gives_the_ratio(tmp_path):
    # Solar Empires armour: 15 pt bold white on the old pale shield (a large number needs 3:1)
    shield = {"rect": {"box": ["40mm", "40mm", "52mm", "52mm"], "fill": "#a9b2c0"}}
    number = {"text": {"name": "armour", "box": ["40mm", "40mm", "52mm", "52mm"], "value": "6", "font": "title", "style": "bold",
                       "size": "15pt", "wrap": False, "align": "center", "valign": "middle", "color": "#ffffff"}}
    [low] = [n for n in _paint(tmp_path, [shield, number]) if n.kind == "contrast"]
    assert "2.14:1" in low.message and "3:1 large" in low.message
    dark = {"rect": {**shield["rect"], "fill": "#4f5c70"}}
    assert _paint(tmp_path, [dark, number]) == []
    small = {"text": {**number["text"], "size": "9pt"}}  # body-size text needs 4.5:1
    assert [n.kind for n in _paint(tmp_path, [{"rect": {**shield["rect"], "fill": "#7a8596"}}, small])] == ["contrast"]


def test_contrast_ratio_matches_wcag():
    from cardsmith.layout.printcheck import contrast_ratio
    assert round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1) == 21.0
    assert round(contrast_ratio((118, 118, 118), (255, 255, 255)), 2) == 4.54  # WCAG's #767676 on white


def test_validate_draws_each_face_for_contrast_and_text_past_a_curve(tmp_path):
    """Issue 31: validate built layouts without drawing, so only render found low contrast and text
    past an ellipse's curve. Now validate paints each distinct face (in memory) and warns; --strict
    makes them errors."""
    from conftest import run_in_process
    set_dir = _demo_set(
        tmp_path,
        'fonts: {title: lato}\n'
        'layers:\n'
        '  - rect: {name: frame, box: [0, 0, 100%, 100%], bleed: true, fill: "#1d2b3a"}\n'
        '  - rect: {name: shield, box: [20mm, 40mm, 44mm, 52mm], fill: "#a9b2c0"}\n'
        '  - text: {name: pale, box: [20mm, 40mm, 44mm, 52mm], value: "6", font: title, style: bold, size: 15pt,\n'
        '           wrap: false, align: center, valign: middle, color: "#ffffff"}\n'
        '  - ellipse: {name: disc, box: [45mm, 4.4mm, 52.2mm, 11.6mm], fill: "#0d1020"}\n'
        '  - text: {name: cost-label, box: [45mm, 9.4mm, 52.2mm, 11.6mm], value: "COST", font: title, style: bold,\n'
        '           size: 6pt, wrap: false, align: center, valign: middle, color: "#ffffff"}\n')
    r = run_in_process("validate", "demo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr  # warnings
    assert "2.14:1" in r.stderr and "past the curve of its ellipse" in r.stderr
    assert "(layer 3 (text 'pale')" in r.stderr and "(layer 5 (text 'cost-label')" in r.stderr
    r = run_in_process("validate", "demo", "--strict", cwd=tmp_path)
    assert r.returncode == 1
    # without drawing, the layer trees alone hold neither problem
    cardset = load_set(set_dir)
    assert not [d for d in set_diagnostics(Project(tmp_path), cardset) if "contrast" in d.message or "curve" in d.message]


@pytest.mark.parametrize("name", ["transwar", "rm2k-anime", "trf", "solar-empires", "alien-empires"])
def test_validate_strict_is_clean_on_the_bundled_sets_with_the_drawn_rules(name):
    from cardsmith.render.drawn_checks import drawn_checker

    cardset = load_set(ROOT / "cards" / name)
    project = Project(ROOT)
    assert [d.message for d in set_diagnostics(project, cardset, drawn_checker(project, cardset))] == []


@pytest.mark.parametrize("name", ["transwar", "rm2k-anime", "trf", "solar-empires", "alien-empires", "mini-empires"])
def test_frames_stand_a_millimetre_inside_the_safe_line_so_cutting_drift_shows_less(name):
    """Issue 31: frames sat on the safe line (3.2 mm inside the trim), so 1 mm of drift left borders
    of 2.2 and 4.2 mm. Every panel or bar running across the card (wider than half of it) now keeps
    4 mm or more from the trim on each side (after 1 mm of drift: at least 3 mm against at most 5)."""
    from cardsmith.layout._boxes import layer_box

    folder = ROOT / "cards" / name if name != "mini-empires" else ROOT / "tests" / "fixtures" / "mini-empires"
    cardset = load_set(folder)
    layouts = layouts_for(Project(ROOT), cardset)
    setctx = set_context(cardset)
    w, h = cardset.card_size
    nearest = 99.0
    for card in cardset.cards:
        tree, _ = layouts.render(card_layout(cardset, card, layouts), card_context(cardset, card, setctx), card.id)
        for layer in tree["layers"]:
            kind, props = next(iter(layer.items()))
            if kind not in ("rect", "image", "polygon") or props.get("bleed"):
                continue
            if kind == "polygon" and not props.get("name"):  # an unnamed polygon is art in a window, not a frame
                continue
            if kind == "polygon":  # points in mm (TransWar's clipped panel)
                xs, ys = [float(p[0]) for p in props["points"]], [float(p[1]) for p in props["points"]]
                left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
            else:
                box = layer_box(props, (w, h))
                left, top, right, bottom = box.left, box.top, box.right, box.bottom
            if right - left > w / 2:
                edges = [left, w - right] + [d for d in (top, h - bottom) if d < 12]
                assert min(edges) >= 4.0 - 1e-6, f"{card.id}: '{props.get('name')}' {min(edges):.2f} mm from the trim"
                nearest = min(nearest, min(edges))
    assert nearest < 5.0  # the check met the frame itself
