"""Layouts: sandboxed templates, errors that name file, line, card and layer; extends; the painter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from PIL import Image

from cardsmith.layout._data import escape
from cardsmith.layout._richtext import parse
from cardsmith.layout.fonts import FontLibrary
from cardsmith.layout.paint import ArtError, Page, Painter, open_art
from cardsmith.layout.template import SCHEMA_PATH, LayoutError, Layouts, _layer_valid
from cardsmith.base.project import BUNDLED_FONTS

ROOT = Path(__file__).resolve().parent.parent
ICONS = {"E": ROOT / "cards" / "solar-empires" / "icons" / "energy.svg"}
CARD = {"card": {"id": "x", "name": "X", "text": "", "art": None}, "set": {}, "faction": {"color": "#336699"}}


def layouts(tmp_path: Path, **files: str) -> Layouts:
    for name, text in files.items():
        (tmp_path / f"{name}.yaml.j2").write_text(text, encoding="utf-8")
    return Layouts([tmp_path])


def ctx(**card):
    return {**CARD, "card": {**CARD["card"], **card}}


def test_card_text_is_data_never_template_code(tmp_path):
    lay = layouts(tmp_path, t='layers:\n  - text: {box: [0, 0, 10mm, 10mm], value: "{{ card.text }}"}\n')
    tricky = '{{ 7*7 }} "quoted": {% raw %} \\ \n second line #not a comment'
    tree, _ = lay.render("t", ctx(text=tricky), "card 'x'")
    value = tree["layers"][0]["text"]["value"]
    assert value == escape(tricky)  # rich-text markup in it escaped: it prints as written
    words = [w.plain() for p in parse(value) for line in p.lines for w in line]
    assert " ".join(words) == " ".join(tricky.replace("\n", " ").split())


def test_the_sandbox_refuses_python_internals(tmp_path):
    lay = layouts(tmp_path, t='layers: []\n{{ card.__class__.__mro__[1].__subclasses__() }}\n')
    with pytest.raises(LayoutError) as e:
        lay.render("t", ctx(), "card 'x'")
    msg = str(e.value)
    assert "t.yaml.j2:2" in msg and "card 'x'" in msg and "sandbox" in msg


def test_undefined_names_are_errors_with_file_and_line(tmp_path):
    lay = layouts(tmp_path, t='layers:\n\n  - text: {box: [0, 0, 1, 1], value: "{{ card.nmae }}"}\n')
    with pytest.raises(LayoutError, match=r"t\.yaml\.j2:3: .*nmae.*card 'x'"):
        lay.render("t", ctx(), "card 'x'")


def test_syntax_errors_name_file_and_line(tmp_path):
    lay = layouts(tmp_path, t='layers:\n{% if card.name %}\n  - text: {box: [0, 0, 1, 1]}\n')
    with pytest.raises(LayoutError, match=r"t\.yaml\.j2:\d+: layout syntax error"):
        lay.render("t", ctx(), "card 'x'")


def test_unknown_layer_kind_suggests_the_right_one(tmp_path):
    lay = layouts(tmp_path, t='layers:\n  - txet: {box: [0, 0, 1, 1]}\n')
    with pytest.raises(LayoutError, match="unknown kind 'txet'") as e:
        lay.render("t", ctx(), "card 'x'")
    assert "text" in e.value.hint


def test_bad_settings_name_the_layer(tmp_path):
    lay = layouts(tmp_path, t='layers:\n  - rect: {name: frame, box: [0, 0, 1, 1], colr: red}\n')
    with pytest.raises(LayoutError, match=r"t\.yaml\.j2:2: layer 1 \(rect 'frame'\).*colr.*card 'x'"):
        lay.render("t", ctx(), "card 'x'")


def test_extends_overrides_named_layers_and_removes(tmp_path):
    lay = layouts(tmp_path,
                  base='layers:\n  - rect: {name: bg, box: [0, 0, 100%, 100%], fill: red}\n'
                       '  - text: {name: title, box: [0, 0, 10mm, 5mm], value: "{{ card.name }}", size: 9pt}\n'
                       '  - ellipse: {name: dot, box: [0, 0, 1, 1]}\n',
                  child='extends: base\nlayers:\n  - text: {name: title, size: 12pt}\n  - remove: dot\n'
                        '  - rect: {name: extra, box: [1, 1, 2, 2]}\n')
    tree, used = lay.render("child", ctx(name="Rapier"), "card 'x'")
    kinds = [next(iter(layer)) for layer in tree["layers"]]
    assert kinds == ["rect", "text", "rect"]
    title = tree["layers"][1]["text"]
    assert title["size"] == "12pt" and title["value"] == "Rapier" and title["box"] == ["0", "0", "10mm", "5mm"] or title["box"][2] == "10mm"
    assert {"base", "child"} <= used


def test_a_misspelt_setting_gets_a_did_you_mean(tmp_path):
    lay = layouts(tmp_path, t='layers:\n  - text: {name: title, box: [0, 0, 10mm, 5mm], value: x, sise: 9pt}\n')
    with pytest.raises(LayoutError, match=r"unknown setting 'sise'") as e:
        lay.render("t", ctx(), "card 'x'")
    assert "did you mean 'size'?" in (e.value.hint or "")


BASE = ('layers:\n  - rect: {name: bg, box: [0, 0, 100%, 100%], fill: red}\n'
        '  - rect: {name: panel, box: [5mm, 50mm, -5mm, -5mm], fill: white}\n'
        '  - text: {name: title, box: [5mm, 5mm, -5mm, 12mm], value: "{{ card.name }}"}\n'
        '  - text: {name: rules, box: [6mm, 52mm, -6mm, -6mm], value: "x"}\n')


def test_a_child_layer_can_go_below_or_above_a_named_layer(tmp_path):
    lay = layouts(tmp_path, base=BASE,
                  child='extends: base\nlayers:\n  - rect: {name: glow, box: [0, 0, 10mm, 10mm], fill: blue, below: panel}\n'
                        '  - ellipse: {name: seal, box: [1, 1, 2, 2], above: panel}\n'
                        '  - text: {name: title, below: bg}\n')
    tree, _ = lay.render("child", ctx(name="X"), "card 'x'")
    names = [next(iter(layer.values())).get("name") for layer in tree["layers"]]
    assert names == ["title", "bg", "glow", "panel", "seal", "rules"]  # a matched layer moves, keeping its settings
    title = tree["layers"][0]["text"]
    assert title["value"] == "X" and "below" not in title
    bad = layouts(tmp_path, bad='extends: base\nlayers:\n  - rect: {name: g, box: [0, 0, 1, 1], below: pannel}\n')
    with pytest.raises(LayoutError, match="below: pannel") as e:
        bad.render("bad", ctx(), "card 'x'")
    assert "did you mean 'panel'?" in (e.value.hint or "")


def test_moving_an_element_does_not_restate_its_box_or_its_neighbours(tmp_path):
    from cardsmith.layout.printcheck import shape_notes

    lay = layouts(tmp_path, base=BASE, child='extends: base\nlayers:\n  - rect: {name: panel, move: [0, -10mm]}\n')
    tree, _ = lay.render("child", ctx(name="X"), "card 'x'")
    p = painter(tmp_path, dpi=100)
    image, _ = p.paint(tree, "card 'x'")
    page = p.page
    # the panel now starts 10 mm higher (40 mm instead of 50 mm); the rules text did not move
    assert image.getpixel((round(page.x(20)), round(page.y(45)))) == (255, 255, 255)
    assert image.getpixel((round(page.x(20)), round(page.y(35)))) == (255, 0, 0)
    panel = tree["layers"][1]["rect"]
    assert panel["box"] == ["5mm", "50mm", "-5mm", "-5mm"] and shape_notes("rect", panel, (63.5, 88.9), 3.175) == []


def test_extends_loops_are_reported(tmp_path):
    lay = layouts(tmp_path, a="extends: b\nlayers: []\n", b="extends: a\nlayers: []\n")
    with pytest.raises(LayoutError, match="extends itself"):
        lay.render("a", ctx(), "card 'x'")


def test_negative_size_is_an_error_naming_the_layer(tmp_path):
    painter = Painter(Page(100, (63.5, 88.9), 3.175, 3.175), FontLibrary([BUNDLED_FONTS]), ICONS, tmp_path)
    tree = {"layers": [{"rect": {"name": "oops", "box": ["30mm", 0, "10mm", "5mm"], "fill": "red"}}]}
    with pytest.raises(LayoutError, match=r"oops.*negative size.*card 'x'"):
        painter.paint(tree, "card 'x'")


def test_the_per_setting_check_agrees_with_the_whole_layer_schema():
    schema = json.loads(SCHEMA_PATH.read_text())
    defs = schema["$defs"]
    samples = {
        "rect": [{"box": [0, 0, "100%", "-3mm"], "fill": {"from": "red", "to": "#000", "angle": 30}, "radius": "2mm"},
                 {"box": [0, 0, 1]}, {"box": [0, 0, 1, 1], "fill": 3}, {"box": [0, 0, 1, 1], "opacity": 2}, {"fill": "red"},
                 {"box": {"x": 1, "y": 2, "w": 3, "h": 4}}, {"box": {"x": 1, "y": 2, "w": 3}}, {"box": [0, 0, "1e-06mm", "5 apples"]}],
        "text": [{"box": [0, 0, 1, 1], "value": "x", "size": "9pt", "align": "justify"}, {"box": [0, 0, 1, 1], "size": "-9pt"},
                 {"box": [0, 0, 1, 1], "align": "middle"}, {"box": [0, 0, 1, 1], "padding": [1, 2, 3, 4]}, {"box": [0, 0, 1, 1], "wrap": "no"}],
        "image": [{"box": [0, 0, 1, 1], "src": "a.png", "fit": "cover", "focus": [50, 20]}, {"box": [0, 0, 1, 1], "focus": [150, 0]}],
    }
    for kind, values in samples.items():
        v = Draft202012Validator({**defs[kind], "$defs": defs})
        for value in values:
            # also when each setting has been seen valid before (the memo of valid settings)
            assert _layer_valid(kind, value) == v.is_valid(value), (kind, value)
            assert _layer_valid(kind, {**value, "unknown": 1}) is False
    assert _layer_valid("rect", {"box": [0, 0, 1, 1], "fill": "red", "opacity": True}) is False  # True is no number


# ---- painting ---------------------------------------------------------------------------------

def painter(tmp_path, dpi=300, guides=False) -> Painter:
    return Painter(Page(dpi, (63.5, 88.9), 3.175, 3.175), FontLibrary([BUNDLED_FONTS]), ICONS, tmp_path, guides)


def test_icon_is_centred_on_the_capitals_at_the_text_size(tmp_path):
    """An icon standing on the baseline rode about 40% above the capitals (issue 31, item 9): it is
    centred on them, as tall as the text size."""
    p = painter(tmp_path)
    box = ["10mm", "20mm", "50mm", "40mm"]
    tree = {"layers": [{"text": {"box": box, "value": "Hx{E}", "size": "20pt", "icon_scale": 1.0, "fit": "none", "color": "#000000"}}]}
    im, notes = p.paint(tree, "card 'x'")
    px = im.load()
    x0, y0 = round(p.page.x(10)), round(p.page.y(20))
    # the letter H: its lowest dark row is the baseline
    h_rows = [y for y in range(y0, y0 + 300) for x in range(x0, x0 + 40) if px[x, y][0] < 60 and px[x, y][2] < 60]
    baseline, cap_top = max(h_rows), min(h_rows)
    # the icon is yellow: its lowest and highest coloured rows
    yellow_cols = sorted({x for y in range(y0, y0 + 300) for x in range(x0, x0 + 400)
                          if px[x, y][0] > 200 and px[x, y][1] > 150 and px[x, y][2] < 80})
    ink = [y for y in range(y0 - 60, y0 + 300) for x in yellow_cols if px[x, y] != (255, 255, 255)]  # the icon with its outline
    size_px = 20 / 72 * 300
    assert abs((max(ink) + min(ink)) / 2 - (baseline + cap_top) / 2) <= 3
    assert abs((max(ink) - min(ink) + 1) - size_px) <= 0.06 * size_px


def test_bleed_is_filled_only_by_layers_that_ask(tmp_path):
    p = painter(tmp_path, dpi=100)
    tree = {"background": "#ffffff", "layers": [{"rect": {"box": [0, 0, "100%", "100%"], "fill": "#ff0000", "bleed": True}},
                                                 {"rect": {"box": [0, 0, "100%", "50%"], "fill": "#0000ff"}}]}
    im, _ = p.paint(tree, "card 'x'")
    assert im.size == (round((63.5 + 6.35) / 25.4 * 100), round((88.9 + 6.35) / 25.4 * 100))
    assert im.getpixel((1, 1)) == (255, 0, 0)  # bleed corner: the red rect reached it, the blue one did not
    assert im.getpixel((im.width // 2, round(p.page.y(10)))) == (0, 0, 255)


def test_text_and_icons_outside_the_safe_area_are_reported(tmp_path):
    p = painter(tmp_path, dpi=100)
    tree = {"layers": [{"text": {"name": "title", "box": ["0.5mm", "0.5mm", "40mm", "10mm"], "value": "Edge"}},
                       {"icon": {"box": ["-2mm", "-2mm", "-0", "-0"], "id": "E"}}]}
    _, notes = p.paint(tree, "card 'x'")
    kinds = [(n.kind, n.layer) for n in notes]
    assert ("safe-area", "layer 1 (text 'title')") in kinds and ("safe-area", "layer 2 (icon)") in kinds


def test_missing_art_draws_a_labelled_placeholder_and_warns(tmp_path):
    p = painter(tmp_path, dpi=100)
    tree = {"layers": [{"image": {"box": ["5mm", "5mm", "-5mm", "40mm"], "src": "art/nope.png"}}]}
    im, notes = p.paint(tree, "card 'x'")
    assert notes[0].kind == "missing-art" and "art/nope.png" in notes[0].message
    centre = im.getpixel((round(p.page.x(31.75)), round(p.page.y(10))))
    assert centre != (255, 255, 255)


def test_art_cover_contain_and_focus(tmp_path):
    (tmp_path / "art").mkdir()
    img = Image.new("RGB", (200, 100), (0, 0, 255))
    img.paste((255, 0, 0), (0, 0, 100, 100))  # left half red, right half blue
    img.save(tmp_path / "art" / "a.png")
    p = painter(tmp_path, dpi=100)
    box = ["10mm", "10mm", "30mm", "30mm"]
    cx, cy = round(p.page.x(20)), round(p.page.y(20))
    im, _ = p.paint({"layers": [{"image": {"box": box, "src": "art/a.png", "fit": "cover", "focus": [0, 50]}}]}, "c")
    assert im.getpixel((cx, cy)) == (255, 0, 0)  # focused on the left: the square crop is all red
    im, _ = p.paint({"layers": [{"image": {"box": box, "src": "art/a.png", "fit": "cover", "focus": [100, 50]}}]}, "c")
    assert im.getpixel((cx, cy)) == (0, 0, 255)
    im, _ = p.paint({"layers": [{"image": {"box": box, "src": "art/a.png", "fit": "contain"}}]}, "c")
    assert im.getpixel((cx, round(p.page.y(11)))) == (255, 255, 255)  # letterboxed: top band stays empty


def test_unusable_art_files_are_clear_errors(tmp_path):
    (tmp_path / "text.png").write_text("not an image")
    with pytest.raises(ArtError, match="not an image"):
        open_art(tmp_path / "text.png", "card 'x'")
    good = tmp_path / "good.png"
    Image.new("RGB", (400, 400), (10, 200, 30)).save(good)
    data = good.read_bytes()
    (tmp_path / "cut.png").write_bytes(data[: len(data) // 2])
    with pytest.raises(ArtError, match="truncated|damaged"):
        open_art(tmp_path / "cut.png", "card 'x'")
    bomb = tmp_path / "bomb.png"
    Image.new("1", (12000, 12000)).save(bomb)  # 144 Mpx: over Pillow's decompression-bomb limit
    with pytest.raises(ArtError, match="too large"):
        open_art(bomb, "card 'x'")


def test_guides_mark_trim_bleed_and_safe(tmp_path):
    p = painter(tmp_path, dpi=100, guides=True)
    im, _ = p.paint({"background": "#ffffff", "layers": []}, "c")
    assert im.getpixel((0, im.height // 2))[0] > 200 and im.getpixel((0, im.height // 2))[1] < 60  # red bleed edge
    tx = round(p.page.x(0))
    assert im.getpixel((tx, im.height // 2)) == (0, 0, 0)  # black trim line


def _ink_columns(im, row_range, col_range):
    px = im.load()
    return [x for x in col_range for y in row_range if px[x, y][0] < 100]


@pytest.mark.parametrize("align", ["left", "right", "center", "justify"])
def test_alignment(tmp_path, align):
    p = painter(tmp_path, dpi=150)
    text = "Each enemy fighter engaged in combat with you this turn takes four damage before fleets attack. End."
    tree = {"background": "#ffffff", "layers": [{"text": {"box": ["10mm", "10mm", "50mm", "60mm"], "value": text, "size": "10pt",
                                                          "fit": "none", "align": align, "color": "#000000"}}]}
    im, _ = p.paint(tree, "c")
    left, right = round(p.page.x(10)), round(p.page.x(50))
    size = 10 / 72 * 150
    first_line = range(round(p.page.y(10)), round(p.page.y(10) + size * 1.1))
    cols = _ink_columns(im, first_line, range(left - 5, right + 5))
    gap_left, gap_right = min(cols) - left, right - max(cols)
    if align == "left":
        assert gap_left < 3 and gap_right > 3
    elif align == "right":
        assert gap_right < 3 and gap_left > 3
    elif align == "center":
        assert abs(gap_left - gap_right) <= 3
    else:  # justify: a full line touches both sides
        assert gap_left < 3 and gap_right < 3


@pytest.mark.parametrize("text", [
    "layers:\n  - rect: {box: [0, 0, 1, 1]}\n  - text:\n      box: [0, 0, 1, 1]\n      value: |\n        two\n        lines\n",
    "fonts: {title: lato}\nlayers:\n- rect: {box: [0, 0, 1, 1]}\n# a comment\n\n- ellipse: {box: [1, 1, 2, 2]}\nbackground: red\n",
    "layers: [{rect: {box: [0, 0, 1, 1]}}]\n",
    "base: &b {box: [0, 0, 1, 1]}\nlayers:\n  - rect: *b\n",
    "layers:\n  - rect: {box: [0, 0, 1, 1]}\n    # indented comment\n  - text: {value: \"a: b # c\", box: [0, 0, 1, 1]}\n",
    "layers:\n  - rect: {box: [0, 0, 1, 1]}\n   - text: {}\n",
    "layers:\n",
])
def test_layer_cache_reads_yaml_exactly_like_pyyaml(text):
    import yaml

    from cardsmith.layout.template import load_tree
    try:
        want = yaml.safe_load(text)
    except yaml.YAMLError:
        with pytest.raises(yaml.YAMLError):
            load_tree(text)
        return
    assert load_tree(text) == want
    assert load_tree(text) == want  # and again, from the cache


def test_layer_cache_keeps_block_scalars_whole():
    import yaml

    from cardsmith.layout.template import load_tree
    text = "layers:\n  - text:\n      value: |\n        one\n\n        # not a comment\n        two\n  - rect: {box: [0, 0, 1, 1]}\n"
    assert load_tree(text) == yaml.safe_load(text)


def test_valign_bottom_with_padding_and_lines(tmp_path):
    p = painter(tmp_path, dpi=150)
    tree = {"background": "#ffffff", "layers": [
        {"text": {"box": ["10mm", "10mm", "50mm", "50mm"], "value": "Low", "size": "10pt", "valign": "bottom",
                  "padding": ["0", "0", "5mm", "0"], "color": "#000000"}},
        {"line": {"from": ["5mm", "70mm"], "to": ["-5mm", "70mm"], "color": "#ff0000", "width": "0.5mm"}}]}
    im, _ = p.paint(tree, "c")
    px = im.load()
    rows = [y for y in range(im.height) for x in range(round(p.page.x(10)), round(p.page.x(20))) if px[x, y][1] < 100 and px[x, y][0] < 100]
    bottom_mm = (max(rows) - p.page.y(0)) / 150 * 25.4
    assert 43.5 < bottom_mm <= 45.2  # the baseline sits just above the 5 mm padding at the box's bottom (50 mm)
    y = round(p.page.y(70))
    assert px[round(p.page.x(30)), y][:3] == (255, 0, 0) and px[round(p.page.x(2)), y][:3] == (255, 255, 255)


@pytest.mark.parametrize("expr", ['"x" * 1000000000', '[0] * 1000000000', '1000000000 * "x"', '10 ** 100000000'])
def test_a_layout_cannot_build_values_too_large_for_memory(tmp_path, expr):
    lay = layouts(tmp_path, t='layers: []\n# {{ ' + expr + ' }}\n')
    with pytest.raises(LayoutError) as e:
        lay.render("t", ctx(), "card 'x'")
    assert "t.yaml.j2:2" in str(e.value) and "too large" in str(e.value) and "card 'x'" in str(e.value)


def test_small_repeats_and_powers_still_work(tmp_path):
    lay = layouts(tmp_path, t='layers:\n  - text: {box: [0, 0, 10mm, 10mm], value: "{{ "*" * 3 }}{{ 2 ** 10 }}{{ [1] * 2 }}"}\n')
    tree, _ = lay.render("t", ctx(), "card 'x'")
    assert tree["layers"][0]["text"]["value"] == "***1024[1, 1]"


def test_a_layout_that_loops_for_ever_is_stopped_with_its_file(tmp_path, monkeypatch):
    import cardsmith.layout.template as template
    monkeypatch.setattr(template, "LAYOUT_SECONDS", 0.3)
    lay = layouts(tmp_path, t='layers: []\n{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}\n')
    with pytest.raises(LayoutError) as e:
        lay.render("t", ctx(), "card 'x'")
    assert "t.yaml.j2" in str(e.value) and "CPU" in str(e.value) and "card 'x'" in str(e.value)


def test_layouts_compiled_without_the_sandbox_checks_are_not_reused(tmp_path, monkeypatch):
    import tempfile
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment
    import cardsmith.layout.template as template
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(template, "MAX_REPEAT", 10)
    (tmp_path / "t.yaml.j2").write_text('layers: []\n# {{ "x" * 50 }}\n', encoding="utf-8")
    plain = SandboxedEnvironment(loader=jinja2.FileSystemLoader(str(tmp_path)), bytecode_cache=jinja2.FileSystemBytecodeCache())
    plain.get_template("t.yaml.j2").render()  # folds "x" * 50 into a constant and caches it
    with pytest.raises(LayoutError, match="too large"):
        Layouts([tmp_path]).render("t", ctx(), "card 'x'")


@pytest.mark.parametrize("kind", ["image", "icon"])
def test_a_layout_draws_no_picture_from_outside_the_set_folder(tmp_path, kind):
    """A shared layout's `src:` could paint any picture on the user's disk into a card they then share
    (card art was already held to the set folder; a layer's `src:` was not)."""
    set_dir, elsewhere = tmp_path / "set", tmp_path / "private"
    set_dir.mkdir()
    elsewhere.mkdir()
    Image.new("RGB", (40, 40), (255, 0, 0)).save(elsewhere / "photo.png")
    p = painter(set_dir, dpi=100)
    for src in ("../private/photo.png", str(elsewhere / "photo.png")):
        tree = {"layers": [{kind: {"name": "leak", "box": ["5mm", "5mm", "20mm", "20mm"], "src": src}}]}
        with pytest.raises(LayoutError, match="outside the set folder") as e:
            p.paint(tree, "card 'x'")
        assert "leak" in str(e.value) and "card 'x'" in str(e.value)
