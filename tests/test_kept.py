"""Font character tables and icon rasters kept between runs (`cardsmith.cache.kept`) are found by the content
of the file they were made from: a font or an icon replaced in place is read or drawn anew, in this
process and in the next, and an SVG that draws other files is never kept."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from cardsmith.cache import kept
from cardsmith.layout import fonts, paint

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "tests" / "fixtures" / "mini-empires" / "icons"


@pytest.fixture
def keep(tmp_path):
    kept.keep_in(tmp_path / "kept")
    yield tmp_path / "kept"
    kept.keep_in(None)


def new_process() -> None:
    """What a new process starts with: no drawn icon, no character table in memory."""
    fonts._charset_of.cache_clear()
    for cache in (paint._svg_aspect, paint.icon_image, paint.icon_parts, paint._icon_raster, paint._png_aspect):
        cache.cache_clear()
    paint._DRAWN.clear()


def test_a_font_replaced_in_place_has_its_own_character_table(keep, tmp_path):
    font = tmp_path / "f.ttf"
    shutil.copy(ROOT / "fonts" / "lato" / "Lato-Regular.ttf", font)
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "Ԛ"  # Lato has the interrobang, not Cyrillic Qa
    assert len(list(keep.glob("charset-*.json"))) == 1
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "Ԛ"  # from the kept table
    shutil.copy(ROOT / "fonts" / "liberation" / "LiberationSerif-Regular.ttf", font)
    assert fonts.missing_chars(font, "Ԛ‽") == "‽"  # this process: the file changed
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "‽"  # the next: kept by content, not by path
    for table in keep.glob("charset-*.json"):
        table.write_text("[[1, oops")
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "‽"  # a damaged table is read from the font again


def drawn_in_a_process(tmp_path: Path, icon: str, size: int) -> tuple[Path, "paint.Image.Image"]:
    """A copy of a fixture icon, drawn once in a process that then ended (what it kept stays)."""
    svg = tmp_path / icon
    shutil.copy(ICONS / icon, svg)
    new_process()
    first = paint.icon_image(str(svg), size).copy()
    new_process()
    return svg, first


def test_an_icon_edited_in_place_is_drawn_anew_and_one_drawing_other_files_is_not_kept(keep, tmp_path):
    svg, first = drawn_in_a_process(tmp_path, "energy.svg", 64)
    assert len(list(keep.glob("icon-*.pix"))) == 1
    assert paint.icon_image(str(svg), 64).tobytes() == first.tobytes()  # the kept raster
    svg.write_text(svg.read_text(encoding="utf-8").replace('fill="#f4b400"', 'fill="#00a0f4"'), encoding="utf-8")
    st = svg.stat()  # the same size: its time tells (a clock tick later, as any edit by hand is)
    os.utime(svg, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    paint.forget_changed_icons()  # as each render does before drawing
    edited = paint.icon_image(str(svg), 64)
    assert edited.tobytes() != first.tobytes()
    new_process()
    assert paint.icon_image(str(svg), 64).tobytes() == edited.tobytes()
    assert len(list(keep.glob("icon-*.pix"))) == 2

    shutil.copy(ICONS / "star.svg", tmp_path / "star.svg")
    linked = tmp_path / "linked.svg"
    linked.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="star.svg" '
                      'width="10" height="10"/></svg>', encoding="utf-8")
    paint.icon_image(str(linked), 64)
    assert len(list(keep.glob("icon-*.pix"))) == 2  # its drawing depends on star.svg too: not kept


def test_an_icon_kept_is_drawn_without_reading_the_svg_again_and_a_damaged_one_is_redrawn(keep, tmp_path, monkeypatch):
    svg, first = drawn_in_a_process(tmp_path, "star.svg", 40)
    assert len(list(keep.glob("aspect-*"))) == 1

    def no_drawing(*a, **k):
        raise AssertionError("drawn again although kept")

    monkeypatch.setattr(paint, "_parse_svg_aspect", no_drawing)
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # importing it fails: the pixels must be kept ones
    assert paint.icon_image(str(svg), 40).tobytes() == first.tobytes()  # aspect and pixels both kept
    monkeypatch.undo()
    for raw in keep.glob("icon-*.pix"):
        raw.write_bytes(raw.read_bytes()[:-4])  # a truncated file
    new_process()
    assert paint.icon_image(str(svg), 40).tobytes() == first.tobytes()
