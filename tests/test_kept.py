"""Font character tables kept between runs (`cardsmith.cache.kept`) are found by the content of the font
they were read from: a font replaced in place is read anew, in this process and in the next; with caches
off nothing is read or kept. An icon edited in place is drawn anew by a long-lived process."""

from __future__ import annotations

import os
import shutil
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


def test_with_caches_off_no_character_table_is_read_or_kept(keep, tmp_path, monkeypatch):
    font = tmp_path / "f.ttf"
    shutil.copy(ROOT / "fonts" / "lato" / "Lato-Regular.ttf", font)
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "Ԛ"
    (table,) = keep.glob("charset-*.json")
    table.write_text("[[65, 90]]")  # a planted table: capitals only
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "Ԛ‽"  # (read, with caches on)
    monkeypatch.setenv("CARDSMITH_NO_CACHE", "1")
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "Ԛ"  # from the font itself
    table.unlink()
    new_process()
    assert fonts.missing_chars(font, "Ԛ‽") == "Ԛ"
    assert list(keep.glob("*")) == []  # nothing kept


def test_an_icon_edited_in_place_is_drawn_anew(tmp_path):
    svg = tmp_path / "energy.svg"
    shutil.copy(ICONS / "energy.svg", svg)
    new_process()
    first = paint.icon_image(str(svg), 64).copy()
    assert paint.icon_image(str(svg), 64).tobytes() == first.tobytes()
    svg.write_text(svg.read_text(encoding="utf-8").replace('fill="#f4b400"', 'fill="#00a0f4"'), encoding="utf-8")
    st = svg.stat()  # the same size: its time tells (a clock tick later, as any edit by hand is)
    os.utime(svg, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    paint.forget_changed_icons()  # as each render does before drawing
    edited = paint.icon_image(str(svg), 64)
    assert edited.tobytes() != first.tobytes()
