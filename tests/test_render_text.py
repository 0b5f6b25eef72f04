"""Rich text, wrapping and shrink-to-fit."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from cardsmith.layout._fit import fit_text, layout_text, text_width
from cardsmith.layout.fonts import FontLibrary, load_font
from cardsmith.layout._richtext import BOLD, ITALIC, Icon, Span, parse, plain_text
from cardsmith.base.project import BUNDLED_FONTS

FONTS = FontLibrary([BUNDLED_FONTS])
SANS = FONTS.family("liberation-sans")


def words(paragraphs):
    return [[[(p.text, p.style) if isinstance(p, Span) else ("{" + p.id + "}", -1) for p in w.pieces] for w in line]
            for para in paragraphs for line in para.lines]


def test_bold_italic_and_icons():
    paras = parse("Pay 2{E}: **Shield 3** and *italic words* here.", {"E"})
    assert words(paras) == [[
        [("Pay", 0)], [("2", 0), ("{E}", -1), (":", 0)], [("Shield", BOLD)], [("3", BOLD)],
        [("and", 0)], [("italic", ITALIC)], [("words", ITALIC)], [("here.", 0)]]]


def test_bold_italic_together_and_glued_markup():
    paras = parse("***both*** **a**b")
    assert words(paras) == [[[("both", BOLD | ITALIC)], [("a", BOLD), ("b", 0)]]]


def test_line_breaks_and_paragraphs():
    paras = parse("one\ntwo\n\nthree")
    assert len(paras) == 2
    assert [[w.plain() for w in line] for line in paras[0].lines] == [["one"], ["two"]]
    assert plain_text(paras) == "one\ntwo\n\nthree"


def test_unknown_icons_unpaired_stars_and_escapes_stay_literal():
    assert plain_text(parse("{X} costs 3 * 4 and \\*not italic\\*", {"E"})) == "{X} costs 3 * 4 and *not italic*"
    assert all(isinstance(p, Span) and p.style == 0 for line in parse("3 * 4")[0].lines for w in line for p in w.pieces)


def test_template_syntax_in_card_text_is_just_text():
    assert plain_text(parse("{{ 7*7 }} and {% if x %}")) == "{{ 7*7 }} and {% if x %}"


def test_wrapping_respects_the_width_and_keeps_every_word():
    text = "When you win a combat with a fleet containing World Eater you may destroy the planet and every building on it."
    block = layout_text(parse(text), SANS, 40, 600)
    assert len(block.lines) > 1
    assert all(line.width <= 600 for line in block.lines)
    font = load_font(str(SANS.path("regular")), 40)
    for a, b in zip(block.lines, block.lines[1:]):  # greedy: the next line's first word would not have fitted
        first = b.pieces[0]
        assert a.width + text_width(font, " ") + first.width > 600
    got = " ".join(p.piece.text for line in block.lines for p in line.pieces)
    assert got == text


def test_inline_icons_wrap_like_words():
    block = layout_text(parse("a {E} b", {"E"}), SANS, 40, 10_000, aspect=lambda _: 1.0, icon_scale=1.0)
    icon = [p for p in block.lines[0].pieces if isinstance(p.piece, Icon)][0]
    assert icon.width == pytest.approx(40)


def test_fit_finds_the_largest_size_that_fits():
    text = parse("Destroy one ship of cruiser or smaller. Its controller draws a card, then discards a card.")
    width, height = 500, 160
    r = fit_text(text, SANS, 60, 10, width, height)
    assert r.fits
    assert r.block.height <= height and r.block.max_width <= width
    bigger = layout_text(text, SANS, r.block.size_px + 1, width)
    assert bigger.height > height or bigger.max_width > width


def test_fit_one_point_larger_would_not_fit_at_300_dpi():
    text = parse("Deal 3 damage to up to three fighters. " * 3)
    px_per_pt = 300 / 72
    r = fit_text(text, SANS, round(14 * px_per_pt), round(5 * px_per_pt), 600, 300)
    assert r.fits
    one_pt_larger = layout_text(text, SANS, round(r.block.size_px + px_per_pt), 600)
    assert one_pt_larger.height > 300


def test_text_that_cannot_fit_reports_the_overflow():
    r = fit_text(parse("word " * 200), SANS, 40, 30, 400, 100)
    assert not r.fits and r.overflow_y > 0
    assert r.block.size_px == 30


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=12), min_size=1, max_size=40), st.integers(60, 900))
def test_wrapping_never_loses_or_reorders_words(ws, width):
    block = layout_text(parse(" ".join(ws)), SANS, 30, width)
    assert [p.piece.text for line in block.lines for p in line.pieces] == ws
    for line in block.lines:
        assert line.width <= width or len(line.spaces) == 0  # only a lone long word may be wider


def test_an_inline_icon_is_centred_on_the_capitals_not_riding_above_them(tmp_path):
    """Issue 31, item 9: icons stood on the baseline and rode about 40% above the capitals."""
    import numpy as np

    from cardsmith.base.project import BUNDLED_FONTS as _FONTS
    from cardsmith.layout.fonts import FontLibrary as _Library
    from cardsmith.layout.paint import Page as _Page, Painter as _Painter

    root = Path(__file__).resolve().parent.parent
    icons = {"E": root / "cards" / "solar-empires" / "icons" / "energy.svg"}
    painter = _Painter(_Page(300, (63.5, 88.9), 3.175, 3.175), _Library([_FONTS]), icons, tmp_path)

    def ink_rows(value: str) -> tuple[int, int]:
        tree = {"background": "#ffffff", "layers": [{"text": {"box": ["10mm", "10mm", "50mm", "30mm"], "value": value,
                                                              "size": "20pt", "wrap": False, "color": "#000000", "icon_scale": 1.0}}]}
        img, _ = painter.paint(tree, "card 'x'")
        dark = (np.asarray(img.convert("L"), dtype=np.int16) < 200).any(axis=1).nonzero()[0]
        return int(dark.min()), int(dark.max())

    cap_top, cap_bottom = ink_rows("H")
    icon_top, icon_bottom = ink_rows("{E}")
    cap_height = cap_bottom - cap_top
    assert abs((icon_top + icon_bottom) / 2 - (cap_top + cap_bottom) / 2) < 0.12 * cap_height
