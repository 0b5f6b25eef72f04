"""Text widths memoised per font (`cardsmith.layout._fit.text_width`) stay those of the font asked about,
however many fonts are opened and let go (a font's id passes to the next object once it is freed)."""

from __future__ import annotations

from PIL import ImageFont

from cardsmith.base.project import BUNDLED_FONTS
from cardsmith.layout._fit import text_width

SANS = sorted(BUNDLED_FONTS.rglob("*Sans-Regular.ttf"))[0]


def test_a_font_opened_after_another_was_let_go_gets_its_own_widths():
    for size in range(10, 70):  # each font is dropped before the next is opened: CPython reuses its memory
        font = ImageFont.truetype(str(SANS), size)
        assert text_width(font, "Hello, world") == font.getlength("Hello, world"), size
        del font
