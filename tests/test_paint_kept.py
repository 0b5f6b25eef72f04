"""Masks, outline bands, gradients and icons kept between processes (`cardsmith.layout._keptpixels`):
a new process pastes the very pixels it would have drawn, reads them instead of drawing them, draws a
damaged file again, and keeps nothing without a kept folder or for results cheaper to draw."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardsmith.cache import kept
from cardsmith.layout import paint
from cardsmith.layout import _keptpixels as keptpixels
from cardsmith.layout import _masks as masks
from cardsmith.base.project import Project
from cardsmith.render.batch import render_set
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "mini-empires"


@pytest.fixture
def keep(tmp_path):
    kept.keep_in(tmp_path / "kept")
    new_process()
    yield tmp_path / "kept"
    kept.keep_in(None)
    new_process()


def new_process() -> None:
    """What a new process starts with: every painter cache in memory empty."""
    for value in [*vars(paint).values(), *vars(masks).values()]:
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    paint._DRAWN.clear()
    masks._SCALED.clear()


def pixels(result) -> object:
    """A painter result with each image replaced by its mode, size and bytes (for ==)."""
    if isinstance(result, Image.Image):
        return result.mode, result.size, result.tobytes()
    if isinstance(result, (tuple, list)):
        return type(result).__name__, [pixels(r) for r in result]
    return result


OPAQUE, CLEAR = (200, 120, 40, 255), (10, 60, 200, 90)
DRAWN = [  # (function, arguments): each kind of kept result, with and without transparency or a middle
    ("shape_mask", ("ellipse", 150, 90, 0.0, 0.0)),
    ("shape_mask", ("ellipse", 120, 120, 0.0, 4.5)),
    ("shape_mask", ("rect", 300, 60, 14.5, 3.0)),
    ("stroke_bands", ("rect", 600, 800, 18.9, 4.1)),
    ("stroke_bands", ("ellipse", 140, 141, 0.0, 5.3)),
    ("solid_band", (600, 800, 18.9)),
    ("solid_band", (283, 73, 36.6)),  # no solid middle: None
    ("gradient_tile", ((300, 200), OPAQUE, CLEAR, 30.0)),
    ("gradient_tile", ((300, 200), OPAQUE, (0, 0, 0, 255), 135.0)),
    ("gradient_tile", ((300, 200), OPAQUE, CLEAR, 90.0)),
    ("polygon_mask", ((90, 80), ((2.5, 40.0), (45.0, 2.0), (88.0, 40.0), (45.0, 78.5)), 0.0)),
    ("polygon_mask", ((90, 80), ((2.5, 40.0), (45.0, 2.0), (88.0, 40.0), (45.0, 78.5)), 3.5)),
]


def drawn_without_keeping() -> list:
    kept.keep_in(None)
    new_process()
    return [pixels(getattr(masks, fn)(*args)) for fn, args in DRAWN]


class NoDrawing:
    """Stands in for what draws masks and gradients: a kept result must need none of it."""

    def __getattr__(self, name):
        raise AssertionError(f"drawn again although kept ({name})")


def forbid_drawing(monkeypatch) -> None:
    monkeypatch.setattr(masks, "ImageDraw", NoDrawing())
    for name in ("_ellipse_mask", "_angled_gradient", "stroke_mask", "shape_mask"):
        monkeypatch.setattr(masks, name, NoDrawing().__getattr__)
    monkeypatch.setattr(paint, "icon_image", NoDrawing().__getattr__)


def drawn_again_from_kept(want: list, monkeypatch) -> None:
    """In a new process, each result but the axis gradient (stretched from one line: quicker than a
    read, so never kept) comes back pixel for pixel without anything drawn."""
    calls = [(getattr(masks, fn), args) for fn, args in DRAWN]
    new_process()
    with monkeypatch.context() as m:
        forbid_drawing(m)
        for (fn, args), w in zip(calls, want):
            if args[-1] != 90.0:
                assert pixels(fn(*args)) == w, (fn, args)


def test_a_new_process_pastes_the_kept_pixels_it_would_have_drawn_without_drawing_them(tmp_path, monkeypatch):
    want = drawn_without_keeping()
    assert not (tmp_path / "kept").exists()  # no folder: nothing kept
    kept.keep_in(tmp_path / "kept")
    new_process()
    assert [pixels(getattr(masks, fn)(*args)) for fn, args in DRAWN] == want  # drawn, and kept
    assert len(list((tmp_path / "kept").glob("*.pix"))) >= len(DRAWN) - 2  # not the axis gradient, not a band of None
    drawn_again_from_kept(want, monkeypatch)
    kept.keep_in(None)


def test_a_truncated_or_damaged_kept_file_is_drawn_again_and_kept_anew(keep, monkeypatch):
    want = [pixels(getattr(masks, fn)(*args)) for fn, args in DRAWN]
    files = sorted(keep.glob("*.pix"))
    good = {f: f.read_bytes() for f in files}
    assert len(files) >= 8
    for k, f in enumerate(files):  # cut short, emptied, its header garbled or cut
        data = good[f]
        f.write_bytes([data[:-7], b"", b"ckp1" + bytes(40), data[:12]][k % 4])
    new_process()
    assert [pixels(getattr(masks, fn)(*args)) for fn, args in DRAWN] == want
    assert {f: f.read_bytes() for f in files} == good  # written again as they were
    drawn_again_from_kept(want, monkeypatch)


def test_small_results_and_a_folder_of_none_keep_nothing(keep, monkeypatch):
    masks.shape_mask("ellipse", 7, 6, 0.0, 0.0)  # a star: drawn quicker than a file is read
    masks.stroke_bands("rect", 20, 20, 3.0, 1.0)
    assert not keep.exists() or not list(keep.iterdir())
    kept.keep_in(None)
    monkeypatch.setattr(kept, "read", NoDrawing().__getattr__)
    monkeypatch.setattr(kept, "write", NoDrawing().__getattr__)
    new_process()
    masks.shape_mask("ellipse", 150, 90, 0.0, 0.0)  # neither read nor written


def test_an_axis_gradient_is_the_stretched_tile_split_into_colour_and_alpha():
    for angle in (0, 90, 180, 270):
        for a, b in ((OPAQUE, CLEAR), (OPAQUE, (0, 0, 0, 255))):
            tile, alpha = masks.axis_tile((31, 17), a, b, angle)
            n = 17 if angle in (90, 270) else 31
            strip = Image.linear_gradient("L").crop((0, 0, 1, 256)).resize((1, n), Image.BILINEAR)
            if angle in (180, 270):
                strip = strip.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
            line = Image.composite(Image.new("RGBA", (1, n), b), Image.new("RGBA", (1, n), a), strip)
            if angle in (0, 180):
                line = line.transpose(Image.Transpose.TRANSPOSE)
            whole = line.resize((31, 17), Image.NEAREST)  # as it was drawn before: stretched, then split
            assert tile.tobytes() == whole.convert("RGB").tobytes()
            assert (alpha is None) == (b[3] == 255)
            assert alpha is None or alpha.tobytes() == whole.getchannel("A").tobytes()


def icon_copy(tmp_path: Path, name: str, as_name: str) -> str:
    shutil.copy(FIXTURE / "icons" / name, tmp_path / as_name)
    return str(tmp_path / as_name)


def test_an_icon_is_kept_by_its_content_not_its_path(keep, tmp_path, monkeypatch):
    a = icon_copy(tmp_path, "fighter.svg", "a.svg")
    want = pixels(paint.icon_parts(a, 120, (214, 203, 182, 217), 0.8))
    assert len(list(keep.glob("iconparts-*.pix"))) == 1
    b = icon_copy(tmp_path, "fighter.svg", "b.svg")  # the same file elsewhere: the same kept icon
    new_process()
    with monkeypatch.context() as m:
        forbid_drawing(m)
        assert pixels(paint.icon_parts(b, 120, (214, 203, 182, 217), 0.8)) == want
    assert len(list(keep.glob("iconparts-*.pix"))) == 1
    shutil.copy(FIXTURE / "icons" / "star.svg", a)  # replaced in place: drawn anew
    new_process()
    star = pixels(paint.icon_parts(a, 120, (214, 203, 182, 217), 0.8))
    assert star != want and len(list(keep.glob("iconparts-*.pix"))) == 2
    linked = tmp_path / "linked.svg"  # draws another file, which is no part of its content: never kept
    linked.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="a.svg" '
                      'width="10" height="10"/></svg>', encoding="utf-8")
    paint.icon_parts(str(linked), 120)
    assert len(list(keep.glob("iconparts-*.pix"))) == 2
    kept.keep_in(None)
    new_process()
    assert pixels(paint.icon_parts(a, 120, (214, 203, 182, 217), 0.8)) == star


def test_cards_painted_from_kept_pixels_are_the_cards_drawn_from_scratch(tmp_path, monkeypatch):
    shutil.copytree(FIXTURE, tmp_path / "cards" / "mini-empires")
    project = Project(tmp_path)
    cardset = load_set(tmp_path / "cards" / "mini-empires")
    new_process()
    assert render_set(project, cardset, dpi=150, jobs=1).ok  # an empty kept folder: all drawn, then kept
    out = project.set_output("mini-empires")
    drawn = {p.relative_to(out): Image.open(p).tobytes() for p in sorted(out.rglob("*.png"))}
    assert list((project.output_dir / ".cache" / "kept").glob("mask-*.pix"))
    reads, unpack = [], keptpixels.unpack
    monkeypatch.setattr(keptpixels, "unpack", lambda data: reads.append(1) or unpack(data))
    new_process()
    assert render_set(project, cardset, dpi=150, jobs=1, force=True).ok
    again = {p.relative_to(out): Image.open(p).tobytes() for p in sorted(out.rglob("*.png"))}
    assert again == drawn and len(drawn) > 5
    assert len(reads) > 10  # painted from kept pixels
    kept.keep_in(None)
    new_process()


def test_an_opaque_gradient_painted_in_bands_of_rows_is_the_tile_pasted():
    size = (120, 301)
    for angle in (90.0, 270.0, -90.0, 0.0, 80.0):
        fill = {"from": "#2b3a55", "to": "#ff8a1e", "angle": angle}
        tile = masks.gradient_tile(size, paint.color(fill["from"]), paint.color(fill["to"]), angle)[0]
        for part in ((0, 0, *size), (0, 19, 120, 282), (0, 0, 120, 19), (0, 282, 120, 301)):
            got, want = Image.new("RGB", (160, 340), (9, 9, 9)), Image.new("RGB", (160, 340), (9, 9, 9))
            paint._paste_gradient(got, (17, 23), size, fill, part)
            want.paste(tile.crop(part), (17 + part[0], 23 + part[1]))
            assert got.tobytes() == want.tobytes(), (angle, part)
            part_image = masks.gradient_part(size, paint.color(fill["from"]), paint.color(fill["to"]), angle, part)
            assert part_image.tobytes() == tile.crop(part).tobytes()
