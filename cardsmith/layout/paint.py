"""The Pillow painter: a checked layer tree in, a card image (trim + bleed) and warnings out.

Coordinates in a tree are measured from the trim (see `units`); the canvas adds the bleed on every
side. Shapes with rounded corners and ellipses are drawn through an oversampled mask so their edges
are smooth. Text uses `richtext` and `fit`; inline icons sit on the baseline at the text's size.
"""

from __future__ import annotations

import functools
import io
import math
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageColor, ImageDraw, UnidentifiedImageError

from cardsmith.base.errors import CardsmithError
from cardsmith.layout import _richtext as richtext
from cardsmith.layout._fit import FitResult, Line, TextBlock, fit_text, text_width
from cardsmith.layout.fonts import Family, FontLibrary, load_font, missing_chars
from cardsmith.layout._masks import (gradient_part, gradient_tile, polygon_mask, row_runs, scaled, shape_mask,
                                     solid_band, stroke_bands)
from cardsmith.layout.printcheck import Panel, contrast_note, min_text_pt, text_contrast, panel_box, past_panel_note, shape_notes, text_limit, text_panel, text_size_note
from cardsmith.layout.template import LayoutError
from cardsmith.layout._textcache import draw_text
from cardsmith.layout._boxes import Box, UnitError, font_size_pt, layer_box, layer_points, pt_to_px, to_mm

ART_FORMATS = {"PNG", "JPEG", "WEBP", "MPO"}
DEFAULT_FONTS = {"title": "liberation-serif", "body": "liberation-sans"}
CAP_MIDDLE = 0.36  # of the font size: the middle of the capitals above the baseline (inline icons centre on it)


class ArtError(CardsmithError):
    """An art or icon file that cannot be used (not an image, truncated, too large)."""


@dataclass
class Note:
    """A warning from painting: what happened, on which layer, and for overflow how much (mm)."""

    kind: str  # "overflow", "safe-area", "missing-art", "missing-icon", "missing-glyph", or a printcheck.PRINT_KINDS
    message: str
    layer: str
    amount_mm: float = 0.0


@dataclass
class Page:
    """Geometry of one card face at one dpi."""

    dpi: int
    trim: tuple[float, float]  # mm
    bleed: float  # mm
    safe: float  # mm

    @property
    def size_px(self) -> tuple[int, int]:
        return (round((self.trim[0] + 2 * self.bleed) / 25.4 * self.dpi),
                round((self.trim[1] + 2 * self.bleed) / 25.4 * self.dpi))

    def px(self, mm: float) -> float:
        return mm / 25.4 * self.dpi

    def x(self, mm: float) -> float:
        return (mm + self.bleed) / 25.4 * self.dpi

    def y(self, mm: float) -> float:
        return (mm + self.bleed) / 25.4 * self.dpi

    def rect(self, box: Box) -> tuple[int, int, int, int]:
        return (round(self.x(box.left)), round(self.y(box.top)), round(self.x(box.right)), round(self.y(box.bottom)))

    @property
    def safe_box(self) -> Box:
        return Box(0, 0, self.trim[0], self.trim[1]).inset(self.safe)


def color(value: Any, opacity: float = 1.0) -> tuple[int, int, int, int]:
    """`#rgb`, `#rrggbb`, `#rrggbbaa` or a CSS name as RGBA, with `opacity` applied."""
    return _color(str(value), float(opacity))


@functools.lru_cache(maxsize=1024)
def _color(value: str, opacity: float) -> tuple[int, int, int, int]:
    try:
        c = ImageColor.getrgb(str(value))
    except ValueError:
        raise UnitError(f"'{value}' is not a colour: write #rrggbb, #rrggbbaa or a name such as white") from None
    a = c[3] if len(c) == 4 else 255
    return (c[0], c[1], c[2], round(a * opacity))


# ---- images and icons -----------------------------------------------------------------------------

def open_art(path: Path, what: str) -> Image.Image:
    """Open and fully decode an art file, turning every way it can be unusable into an ArtError."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                if im.format not in ART_FORMATS:
                    raise ArtError(f"{path}: art for {what} is a {im.format} file; use PNG, JPEG or WebP",
                                   hint="convert the file, e.g. with an image editor's 'Export as PNG'")
                im.load()
                return im.convert("RGBA")
    except ArtError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as e:
        raise ArtError(f"{path}: art for {what} is too large to open safely ({e})",
                       hint="scale the image down; card art rarely needs more than 3000 px a side") from None
    except UnidentifiedImageError:
        raise ArtError(f"{path}: art for {what} is not an image Pillow can read",
                       hint="is this the right file? Use PNG, JPEG or WebP") from None
    except OSError as e:
        raise ArtError(f"{path}: art for {what} is damaged or truncated ({e})",
                       hint="export the image again from your editor") from None


_DRAWN: dict[str, tuple[int, int] | None] = {}  # icon files read by the caches below, with their size and mtime then


def _file_sig(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def forget_changed_icons() -> None:
    """Empty the icon caches if a file they read has changed since: a long-lived process (`cardsmith
    watch`, a test run) then draws an icon edited in place anew, as a new process would."""
    if any(_file_sig(p) != sig for p, sig in _DRAWN.items()):
        _DRAWN.clear()
        for cache in (_svg_aspect, icon_image, icon_parts, _icon_raster, _png_aspect):
            cache.cache_clear()


@functools.lru_cache(maxsize=64)
def _svg_aspect(path: str) -> float:
    """An SVG icon's width over its height (its viewBox, else its width and height; 1 if neither)."""
    import xml.etree.ElementTree as ET

    _DRAWN.setdefault(path, _file_sig(path))
    _refuse_unsafe_svg(path)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise ArtError(f"{path}: icon is not a readable SVG file ({e})") from None
    vb = root.get("viewBox")
    if vb:
        parts = [float(p) for p in vb.replace(",", " ").split()]
        if len(parts) == 4 and parts[3] > 0:
            return parts[2] / parts[3]
    try:
        return float(str(root.get("width")).rstrip("px")) / float(str(root.get("height")).rstrip("px"))
    except (TypeError, ValueError, ZeroDivisionError):
        return 1.0


@functools.lru_cache(maxsize=256)
def icon_image(path: str, height_px: int, tint: tuple[int, int, int, int] | None = None) -> Image.Image:
    """An icon file drawn `height_px` tall (width from its aspect ratio), RGBA, optionally tinted."""
    im = _icon_raster(path, max(1, int(height_px)))
    if tint is None:
        return im
    solid = Image.new("RGBA", im.size, tint[:3] + (255,))
    a = im.getchannel("A")
    if tint[3] < 255:
        a = a.point(lambda v: v * tint[3] // 255)
    solid.putalpha(a)
    return solid


IconParts = tuple[Image.Image, Image.Image, tuple[int, int], tuple[int, int]]


@functools.lru_cache(maxsize=256)
def icon_parts(path: str, height_px: int, tint: tuple[int, int, int, int] | None = None,
               opacity: float = 1.0) -> IconParts:
    """An icon ready to paste: RGB and alpha cropped to where it has ink, their offset, and the full size.

    The same icons land on card after card; splitting and cropping them once per worker saves
    converting and pasting their transparent margins every time."""
    im = icon_image(path, height_px, tint)
    a = im.getchannel("A")
    if opacity < 1:
        a = a.point(lambda v: round(v * opacity))
    bbox = a.getbbox() or (0, 0, 1, 1)
    return im.convert("RGB").crop(bbox), a.crop(bbox), bbox[:2], im.size


@functools.lru_cache(maxsize=128)
def _icon_raster(path: str, height_px: int) -> Image.Image:
    """The icon drawn at one size; tints of it share this raster."""
    _DRAWN.setdefault(path, _file_sig(path))
    p = Path(path)
    if not p.is_file():
        raise ArtError(f"icon file {path} does not exist", hint="check the path under icons: in set.yaml")
    if p.suffix.lower() == ".svg":
        width_px = max(1, round(height_px * _svg_aspect(path)))
        return _svg_raster(path, width_px, height_px)
    src = open_art(p, f"icon {p.name}")
    width_px = max(1, round(height_px * src.width / src.height))
    return src.resize((width_px, height_px), Image.Resampling.LANCZOS)


def _refuse_unsafe_svg(path: str) -> None:
    """An ArtError when the SVG reaches outside itself or would cost resvg unbounded work (resvg runs in
    native code, where no time budget can stop it): layers' `src:` pictures are not seen by validation."""
    from cardsmith.base.untrusted import svg_problem

    try:
        why = svg_problem(Path(path).read_bytes())
    except OSError as e:
        why = f"cannot be read ({e.strerror or e})"
    if why:
        raise ArtError(f"{path}: SVG {why}", hint="save it again as a plain, self-contained SVG file")


def _svg_raster(path: str, width_px: int, height_px: int) -> Image.Image:
    """An SVG icon drawn by resvg at a size, RGBA."""
    import resvg_py

    _refuse_unsafe_svg(path)
    try:
        png = bytes(resvg_py.svg_to_bytes(svg_path=path, width=width_px, height=height_px, skip_system_fonts=True))
    except (ValueError, OSError) as e:
        raise ArtError(f"{path}: icon SVG cannot be drawn ({e})") from None
    return Image.open(io.BytesIO(png), formats=["PNG"]).convert("RGBA")


def icon_aspect(path: str) -> float:
    if path.lower().endswith(".svg"):
        return _svg_aspect(path)
    return _png_aspect(path)


@functools.lru_cache(maxsize=256)
def _png_aspect(path: str) -> float:
    _DRAWN.setdefault(path, _file_sig(path))
    try:
        with Image.open(path) as im:
            return im.width / im.height
    except (OSError, UnidentifiedImageError, ZeroDivisionError):
        return 1.0


# ---- the painter ----------------------------------------------------------------------------------

@dataclass
class Painter:
    """Paints layer trees for one set: its fonts, icons and folder, at one page geometry."""

    page: Page
    fonts: FontLibrary
    icons: dict[str, Path]
    set_dir: Path
    guides: bool = False
    used_files: set[str] = field(default_factory=set)  # fonts and assets read (for cache keys)

    def paint(self, tree: dict[str, Any], what: str) -> tuple[Image.Image, list[Note]]:
        page = self.page
        notes: list[Note] = []
        bg = tree.get("background") or "#ffffff"
        canvas = Image.new("RGB", page.size_px, color(bg)[:3])
        roles = {**DEFAULT_FONTS, **(tree.get("fonts") or {})}
        defaults = tree.get("defaults") or {}
        self._panels: list[Panel] = []  # shapes drawn so far that text may sit on (printcheck.panel_box)
        for i, layer in enumerate(tree.get("layers") or []):
            kind, props = next(iter(layer.items()))
            props = {**(defaults.get(kind) or {}), **props}
            label = f"layer {i + 1} ({kind}{' ' + repr(props['name']) if props.get('name') else ''})"
            try:
                getattr(self, "_" + kind)(canvas, props, roles, notes, label, what)
            except UnitError as e:
                raise LayoutError(f"{props.get('_file', 'layout')}: {label}: {e} ({what})") from None
            except CardsmithError as e:
                if isinstance(e, (LayoutError, ArtError)):
                    raise
                raise type(e)(f"{e.message} ({what}, {label}, {props.get('_file', 'layout')})", hint=e.hint) from None
        if self.guides:
            self._draw_guides(canvas)
        return canvas, notes

    # -- geometry helpers

    def _box(self, props: dict[str, Any], bleed: bool = False) -> Box:
        box = layer_box(props, self.page.trim)
        if bleed:
            w, h, b = self.page.trim[0], self.page.trim[1], self.page.bleed
            box = Box(box.left - b if box.left <= 0 else box.left, box.top - b if box.top <= 0 else box.top,
                      box.right + b if box.right >= w else box.right, box.bottom + b if box.bottom >= h else box.bottom)
        return box

    def _len_px(self, value: Any, ref_mm: float = 0.0) -> float:
        return self.page.px(to_mm(value, ref_mm))

    def _mask(self, shape: str, size: tuple[int, int], radius: float, inset: float = 0.0) -> Image.Image:
        """An anti-aliased L mask of a rectangle (rounded) or ellipse filling `size`, inset by `inset` px."""
        return shape_mask(shape, size[0], size[1], round(radius, 1), round(inset, 1))

    def _fill(self, canvas: Image.Image, xy: tuple[int, int], mask: Image.Image, paint: Any, opacity: float) -> None:
        if paint is None:
            return
        w, h = mask.size
        tile: Image.Image | tuple[int, ...]  # a gradient, or one colour
        if isinstance(paint, dict):
            tile, ga = gradient_tile((w, h), color(paint["from"]), color(paint["to"]), float(paint.get("angle", 90)))
            a = mask if ga is None else ImageChops.multiply(ga, mask)
        else:
            c = color(paint)
            tile = c[:3]
            a = mask if c[3] == 255 else scaled(mask, c[3])
        if opacity < 1:
            a = a.point(lambda v: round(v * opacity))
        if isinstance(tile, tuple):
            canvas.paste(tile, (xy[0], xy[1], xy[0] + w, xy[1] + h), a)
        else:
            canvas.paste(tile, xy, a)

    def _shape(self, canvas: Image.Image, props: dict[str, Any], shape: str) -> None:
        box = self._box(props, bool(props.get("bleed")))
        x0, y0, x1, y1 = self.page.rect(box)
        size = (max(1, x1 - x0), max(1, y1 - y0))
        radius = self._len_px(props.get("radius", 0), min(box.width, box.height)) if shape == "rect" else 0
        opacity = float(props.get("opacity", 1))
        fill = props.get("fill")
        if shape == "rect" and radius <= 0 and opacity >= 1 and fill is not None and _opaque(fill):
            # a plain opaque rectangle needs no mask: pasting without one is several times faster
            if isinstance(fill, dict):
                _paste_gradient(canvas, (x0, y0), size, fill, (0, 0, *size))
            else:
                canvas.paste(color(fill)[:3], (x0, y0, x0 + size[0], y0 + size[1]))
        elif shape == "rect" and opacity >= 1 and fill is not None and _opaque(fill) and (solid := solid_band(size[0], size[1], round(radius, 1))):
            # an opaque rounded rectangle: its middle rows are solid, so only the top and bottom
            # bands (the corners) go through the mask
            b, top, bottom = solid
            w, h = size
            if isinstance(fill, dict):
                _paste_gradient(canvas, (x0, y0), size, fill, (0, b, w, h - b))
                ends = color(fill["from"]), color(fill["to"]), float(fill.get("angle", 90))
                canvas.paste(gradient_part(size, *ends, (0, 0, w, b)), (x0, y0), top)
                canvas.paste(gradient_part(size, *ends, (0, h - b, w, h)), (x0, y0 + h - b), bottom)
            else:
                c = color(fill)[:3]
                canvas.paste(c, (x0, y0 + b, x0 + w, y0 + h - b))
                canvas.paste(c, (x0, y0, x0 + w, y0 + b), top)
                canvas.paste(c, (x0, y0 + h - b, x0 + w, y0 + h), bottom)
        else:
            self._fill(canvas, (x0, y0), self._mask(shape, size, radius), fill, opacity)
        stroke = props.get("stroke")
        sw = self._len_px(props.get("stroke_width", "0.3mm")) if stroke else 0
        if stroke and sw > 0:
            # only the edges of a large outline hold ink: pasted as four bands, not the whole box
            for bx, by, band in stroke_bands(shape, size[0], size[1], round(radius, 1), round(sw, 1)):
                self._fill(canvas, (x0 + bx, y0 + by), band, stroke, opacity)

    # -- layer kinds

    def _rect(self, canvas, props, roles, notes, label, what) -> None:
        self._shape(canvas, props, "rect")
        self._print_rules(notes, "rect", props, label)

    def _ellipse(self, canvas, props, roles, notes, label, what) -> None:
        self._shape(canvas, props, "ellipse")
        self._print_rules(notes, "ellipse", props, label)

    def _print_rules(self, notes: list[Note], kind: str, props: dict[str, Any], label: str) -> None:
        for k, message, amount in shape_notes(kind, props, self.page.trim, self.page.safe):
            notes.append(Note(k, message, label, amount))
        panel = panel_box(kind, props, self.page.trim)
        if panel is not None:
            self._panels.append(panel)

    def _line(self, canvas, props, roles, notes, label, what) -> None:
        (ax, ay), (bx, by) = layer_points(props, self.page.trim)
        c = color(props.get("color", "#000000"), float(props.get("opacity", 1)))
        width = max(1, round(self._len_px(props.get("width", "0.3mm"))))
        ImageDraw.Draw(canvas, "RGBA").line((self.page.x(ax), self.page.y(ay), self.page.x(bx), self.page.y(by)), fill=c, width=width)
        self._print_rules(notes, "line", props, label)

    def _polygon(self, canvas, props, roles, notes, label, what) -> None:
        from cardsmith.layout._boxes import parse_point as point

        pts = [point(p, self.page.trim) for p in props["points"]]
        xy = [(self.page.x(x), self.page.y(y)) for x, y in pts]
        sw = self._len_px(props.get("stroke_width", "0.3mm")) if props.get("stroke") else 0.0
        pad = sw / 2 + 1
        x0, y0 = math.floor(min(x for x, _ in xy) - pad), math.floor(min(y for _, y in xy) - pad)
        x1, y1 = math.ceil(max(x for x, _ in xy) + pad), math.ceil(max(y for _, y in xy) + pad)
        opacity = float(props.get("opacity", 1))
        local = tuple((round(x - x0, 2), round(y - y0, 2)) for x, y in xy)
        size = (max(1, x1 - x0), max(1, y1 - y0))
        if props.get("fill") is not None:
            self._fill(canvas, (x0, y0), polygon_mask(size, local, 0.0), props["fill"], opacity)
        if sw > 0:
            self._fill(canvas, (x0, y0), polygon_mask(size, local, round(sw, 2)), props["stroke"], opacity)

    def _image(self, canvas, props, roles, notes, label, what) -> None:
        self._print_rules(notes, "image", props, label)
        box = self._box(props, bool(props.get("bleed")))
        x0, y0, x1, y1 = self.page.rect(box)
        size = (max(1, x1 - x0), max(1, y1 - y0))
        radius = self._len_px(props.get("radius", 0), min(box.width, box.height))
        src = props.get("src")
        path = self._inside_set(src, props, label, what) if src else None
        if path is not None and path.is_file():
            self.used_files.add(str(path))
            art = open_art(path, what)
            art = _fit_image(art, size, props.get("fit", "cover"), props.get("focus") or [50, 50])
            ox, oy = x0 + (size[0] - art.width) // 2, y0 + (size[1] - art.height) // 2
            mask = self._mask("rect", size, radius)
            if art.size != size:  # contain: only the picture's own area is painted
                sub = Image.new("L", size, 0)
                sub.paste(art.getchannel("A"), (ox - x0, oy - y0))
                full = Image.new("RGBA", size, (0, 0, 0, 0))
                full.paste(art, (ox - x0, oy - y0))
                art, mask = full, ImageChops.multiply(mask, sub)
            else:
                mask = ImageChops.multiply(mask, art.getchannel("A"))
            opacity = float(props.get("opacity", 1))
            if opacity < 1:
                mask = mask.point(lambda v: round(v * opacity))
            canvas.paste(art.convert("RGB"), (x0, y0), mask)
            return
        if src:
            notes.append(Note("missing-art", f"art file '{src}' does not exist; drew a placeholder", label))
        self._placeholder(canvas, (x0, y0), size, radius, props.get("placeholder") or (f"missing: {src}" if src else "art"))

    def _placeholder(self, canvas: Image.Image, xy: tuple[int, int], size: tuple[int, int], radius: float, text: str) -> None:
        w, h = size
        tile = Image.new("RGB", size, (214, 216, 220))
        d = ImageDraw.Draw(tile)
        lw = max(1, round(self.page.px(0.3)))
        d.line((0, 0, w, h), fill=(170, 173, 180), width=lw)
        d.line((0, h, w, 0), fill=(170, 173, 180), width=lw)
        font = load_font(str(self.fonts.family("liberation-sans").path("bold")), max(8, round(min(w, h) / 10)))
        tw = font.getlength(text)
        if tw > w * 0.9:
            font = load_font(str(self.fonts.family("liberation-sans").path("bold")), max(6, int(font.size * w * 0.9 / tw)))
        bb = d.textbbox((w / 2, h / 2), text, font=font, anchor="mm")
        pad = font.size * 0.4
        d.rectangle((bb[0] - pad, bb[1] - pad, bb[2] + pad, bb[3] + pad), fill=(214, 216, 220))
        d.text((w / 2, h / 2), text, font=font, fill=(90, 94, 102), anchor="mm")
        canvas.paste(tile, xy, self._mask("rect", size, radius))

    def _icon_path(self, props: dict[str, Any], label: str, what: str) -> Path | None:
        if props.get("id"):
            iid = props["id"]
            if iid not in self.icons:
                from cardsmith.base.diagnostics import did_you_mean

                raise LayoutError(f"{props.get('_file', 'layout')}: {label}: icon '{iid}' is not declared in the set's icons: ({what})",
                                  hint=did_you_mean(iid, self.icons) or f"icons: {', '.join(sorted(self.icons)) or 'none'}")
            return self._icon_file(iid)
        if props.get("src"):
            return self._inside_set(props["src"], props, label, what)
        return None

    def _inside_set(self, src: Any, props: dict[str, Any], label: str, what: str) -> Path:
        """A layer's `src:` inside the set folder: a shared layout must not paint a picture from
        elsewhere on the user's disk into a card they then print or share (card art is held to the
        set folder by validation; this holds the layouts to it)."""
        path = self.set_dir / str(src)
        if Path(str(src)).is_absolute() or not path.resolve().is_relative_to(Path(self.set_dir).resolve()):
            raise LayoutError(f"{props.get('_file', 'layout')}: {label}: src '{src}' is outside the set folder ({what})",
                              hint="layouts draw pictures from inside the set folder: copy the file there and name it relative to the set")
        return path

    def _icon_file(self, iid: str) -> Path:
        p = Path(self.icons[iid])
        return p if p.is_absolute() else self.set_dir / p

    def _icon(self, canvas, props, roles, notes, label, what) -> None:
        path = self._icon_path(props, label, what)
        if path is None:
            return
        self.used_files.add(str(path))
        box = self._box(props)
        x0, y0, x1, y1 = self.page.rect(box)
        bw, bh = max(1, x1 - x0), max(1, y1 - y0)
        aspect = icon_aspect(str(path))
        h = bh if bw >= bh * aspect else max(1, round(bw / aspect))
        tint = color(props["color"]) if props.get("color") else None
        rgb, a, (dx, dy), (iw, ih) = icon_parts(str(path), h, tint, float(props.get("opacity", 1)))
        align, valign = props.get("align", "center"), props.get("valign", "middle")
        x = x0 if align == "left" else x1 - iw if align == "right" else x0 + (bw - iw) // 2
        y = y0 if valign == "top" else y1 - ih if valign == "bottom" else y0 + (bh - ih) // 2
        canvas.paste(rgb, (x + dx, y + dy), a)
        if props.get("safe", True):
            self._check_safe(notes, label, what, (x, y, x + iw, y + ih), "icon")

    def _check_safe(self, notes: list[Note], label: str, what: str, rect_px: tuple[float, float, float, float], noun: str) -> None:
        page = self.page
        sb = page.safe_box
        sx0, sy0, sx1, sy1 = page.x(sb.left), page.y(sb.top), page.x(sb.right), page.y(sb.bottom)
        x0, y0, x1, y1 = rect_px
        out = max(sx0 - x0, sy0 - y0, x1 - sx1, y1 - sy1)
        if out > 1.0:  # a pixel of rounding is not worth a warning
            mm = out / page.dpi * 25.4
            notes.append(Note("safe-area", f"{noun} crosses the safe area by {mm:.1f} mm and may be cut off", label, mm))

    def _check_glyphs(self, notes: list[Note], label: str, props: dict, family, paragraphs) -> None:
        """Warn about characters the font lacks: Pillow would silently leave them out of the card."""
        by_style: dict[int, list[str]] = {}
        for para in paragraphs:
            for line in para.lines:
                for w in line:
                    for p in w.pieces:
                        if isinstance(p, richtext.Span):
                            by_style.setdefault(p.style, []).append(p.text)
        names = {0: "regular", richtext.BOLD: "bold", richtext.ITALIC: "italic", richtext.BOLD | richtext.ITALIC: "bolditalic"}
        missing = "".join(missing_chars(family.path(names[style]), "".join(texts)) for style, texts in by_style.items())
        if missing:
            shown = ", ".join(f"'{ch}'" for ch in dict.fromkeys(missing))
            field_name = props.get("field") or props.get("name") or "text"
            notes.append(Note("missing-glyph", f"text '{field_name}' has characters the font '{family.name}' cannot draw, "
                              f"so they are left out: {shown}", label))

    def _text(self, canvas, props, roles, notes, label, what) -> None:
        """A text layer: rich text fitted into its box and drawn, with notes for text that does not fit,
        is too small, lacks glyphs, or reaches past the safe area or its panel."""
        value = props.get("value")
        if value is None or value == "":
            return
        family_name = props.get("font", "body")
        family = self.fonts.family(roles.get(family_name, family_name))
        for style in ("regular", "bold", "italic", "bolditalic"):
            self.used_files.add(str(family.path(style)))
        box = self._box(props)
        x0, y0, x1, y1 = self._text_area(box, props)
        width, height = max(1.0, x1 - x0), max(1.0, y1 - y0)
        paragraphs = _styled_paragraphs(str(value), set(self.icons), props.get("style", "regular"))
        self._check_glyphs(notes, label, props, family, paragraphs)
        icon_scale = float(props.get("icon_scale", 0.9))
        r = self._fit(props, family, paragraphs, width, height, icon_scale)
        block = r.block
        field_name = props.get("field") or props.get("name") or "text"
        self._fit_notes(notes, label, props, field_name, r)
        valign = props.get("valign", "top")
        if valign == "bottom":
            top = y1 - block.height
        elif valign in ("middle", "center", "centre"):
            top = y0 + (height - block.height) / 2
        else:
            top = y0
        area = (max(0, math.floor(x0)), max(0, math.floor(min(y0, top))), math.ceil(x1), math.ceil(max(y1, top + block.height)))
        before = canvas.crop(area)  # what lies under the text, for its contrast
        ink = self._draw_block(canvas, props, block, x0, top, width, icon_scale, self._ink_limit_px(box))
        if ink[0] < math.inf:
            self._contrast_notes(notes, label, props, block.size_px / self.page.dpi * 72, before, area, ink)
        if props.get("safe", True) and ink[0] < math.inf:
            self._check_safe(notes, label, what, (ink[0], ink[1], ink[2], ink[3]), f"text '{field_name}'")
        if ink[0] < math.inf:
            mm = lambda v: v / self.page.dpi * 25.4 - self.page.bleed  # noqa: E731
            past = past_panel_note(field_name, Box(mm(ink[0]), mm(ink[1]), mm(ink[2]), mm(ink[3])), box, self._panels)
            if past:
                notes.append(Note(past[0], past[1], label, past[2]))

    def _contrast_notes(self, notes: list[Note], label: str, props: dict[str, Any], size_pt: float,
                        before: Image.Image, area: tuple[int, int, int, int], ink: list[float]) -> None:
        """A note when the text's colour reads poorly against what was under its ink before it was drawn."""
        box = (max(0, math.floor(ink[0]) - area[0]), max(0, math.floor(ink[1]) - area[1]),
               min(before.width, math.ceil(ink[2]) - area[0]), min(before.height, math.ceil(ink[3]) - area[1]))
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        under = before.crop(box)
        under = under.resize((max(1, min(48, under.width // 4)), max(1, min(24, under.height // 4))), Image.Resampling.BOX)
        fill = color(props.get("color", "#111111"), float(props.get("opacity", 1)))
        note = contrast_note(props, size_pt, text_contrast(fill, _pixels(under)))
        if note:
            notes.append(Note(note[0], note[1], label, note[2]))

    def _text_area(self, box: Box, props: dict[str, Any]) -> tuple[float, float, float, float]:
        """The text box in canvas pixels less its `padding` (one length, or top right bottom left)."""
        pad = props.get("padding", 0)
        pads = [self._len_px(p) for p in (pad if isinstance(pad, list) else [pad] * 4)]  # top right bottom left
        return (self.page.x(box.left) + pads[3], self.page.y(box.top) + pads[0],
                self.page.x(box.right) - pads[1], self.page.y(box.bottom) - pads[2])

    def _fit(self, props: dict[str, Any], family: Family, paragraphs: list[richtext.Paragraph], width: float,
             height: float, icon_scale: float) -> FitResult:
        """The text laid out in the box at its `size`, shrunk as far as `min_size` when `fit: shrink`."""
        size_pt = font_size_pt(props.get("size", "9pt"))
        min_pt = font_size_pt(props["min_size"]) if props.get("min_size") else min(size_pt, min_text_pt(props))
        aspect = lambda iid: icon_aspect(str(self._icon_file(iid)))  # noqa: E731
        return fit_text(
            paragraphs, family, round(pt_to_px(size_pt, self.page.dpi)), round(pt_to_px(min_pt, self.page.dpi)), width, height,
            shrink=props.get("fit", "shrink") == "shrink", wrap=props.get("wrap", True),
            line_spacing=float(props.get("line_spacing", 1.15)), paragraph_spacing=float(props.get("paragraph_spacing", 0.45)),
            aspect=aspect, icon_scale=icon_scale)

    def _fit_notes(self, notes: list[Note], label: str, props: dict[str, Any], field_name: str, r: FitResult) -> None:
        """Notes for text that does not fit its box even at its smallest size, and for text printed too small."""
        block = r.block
        if not r.fits:
            parts = []
            if r.overflow_y > 0.5:
                parts.append(f"{r.overflow_y / self.page.dpi * 25.4:.1f} mm too tall")
            if r.overflow_x > 0.5:
                parts.append(f"{r.overflow_x / self.page.dpi * 25.4:.1f} mm too wide")
            amount = max(r.overflow_x, r.overflow_y) / self.page.dpi * 25.4
            notes.append(Note("overflow", f"text '{field_name}' does not fit its box at {block.size_px / self.page.dpi * 72:.1f} pt "
                              f"(the smallest size allowed): {' and '.join(parts)}", label, amount))
        # Font sizes are whole pixels: at a low proof dpi a 6 pt size rounds down by up to half a pixel.
        small = text_size_note(props, block.size_px / self.page.dpi * 72, len(block.lines), slack=36 / self.page.dpi)
        if small:
            notes.append(Note(small[0], small[1], label, small[2]))

    def _ink_limit_px(self, box: Box) -> tuple[float, float, float, float]:
        """The safe area cut to the panel the text sits on, in canvas pixels: ink is measured exactly
        only where the rough box of a run reaches past it (everywhere on an ellipse or rounded panel)."""
        sb = self.page.safe_box
        on = text_panel(box, self._panels)
        if on is not None and (on.shape == "ellipse" or on.radius > 0):
            return (math.inf, math.inf, -math.inf, -math.inf)  # a curved outline: measure every run's ink exactly
        panel = text_limit(box, self._panels)[0]
        lim = Box(max(sb.left, panel.left), max(sb.top, panel.top), min(sb.right, panel.right), min(sb.bottom, panel.bottom))
        return (self.page.x(lim.left), self.page.y(lim.top), self.page.x(lim.right), self.page.y(lim.bottom))

    def _draw_block(self, canvas: Image.Image, props: dict[str, Any], block: TextBlock, x0: float, top: float, width: float,
                    icon_scale: float, safe_px: tuple[float, float, float, float]) -> list[float]:
        """Draw the laid-out text (its first line's top at `top`), aligned in `width`; the box its ink
        covers ([left, top, right, bottom], infinite when nothing was drawn)."""
        align = props.get("align", "left")
        fill = color(props.get("color", "#111111"), float(props.get("opacity", 1)))
        shadow = color(props["shadow"], float(props.get("opacity", 1))) if props.get("shadow") else None
        draw = ImageDraw.Draw(canvas, "RGBA")
        ink = [math.inf, math.inf, -math.inf, -math.inf]
        icon_px = max(1, round(block.size_px * icon_scale))
        for line, baseline in zip(block.lines, block.baselines()):
            by = top + baseline
            extra = 0.0
            if align == "justify" and line.justify and line.spaces:
                extra = (width - line.width) / len(line.spaces)
            lx = x0 + (width - line.width if align == "right" else (width - line.width) / 2 if align in ("center", "centre") else 0)
            runs = self._line_runs(canvas, line, lx, by, extra, icon_px, ink, block.size_px)
            for x, text, font, _j in runs:
                if shadow:
                    off = max(1, round(block.size_px * 0.06))
                    draw_text(draw, (x + off, by + off), text, font, shadow)
                draw_text(draw, (x, by), text, font, fill)
                # where the ink may reach: the advance box from ascent to descent; measured exactly only near the edge
                w = text_width(font, text)
                rough = (x - block.size_px * 0.2, by - block.ascent, x + w + block.size_px * 0.2, by + block.descent)
                if rough[0] < safe_px[0] or rough[1] < safe_px[1] or rough[2] > safe_px[2] or rough[3] > safe_px[3]:
                    bb = font.getbbox(text, anchor="ls")
                    rough = (x + bb[0], by + bb[1], x + bb[2], by + bb[3])
                ink[:] = [min(ink[0], rough[0]), min(ink[1], rough[1]), max(ink[2], rough[2]), max(ink[3], rough[3])]
        return ink

    def _line_runs(self, canvas: Image.Image, line: Line, lx: float, by: float, extra: float, icon_px: int,
                   ink: list[float], size_px: float) -> list[list]:
        """Paste the line's icons (widening `ink` over them) and return its words as runs [x, text, font,
        index of the last piece]: neighbouring words in one font are drawn with one call."""
        runs: list[list] = []
        word_no = 0
        for j, placed in enumerate(line.pieces):
            new_word = word_no < len(line.spaces) and j == line.spaces[word_no]
            if new_word:
                word_no += 1
            x = lx + placed.x + extra * word_no
            if isinstance(placed.piece, richtext.Span):
                last = runs[-1] if runs else None
                if last is not None and last[2] is placed.font and new_word and not extra and last[3] == j - 1:
                    last[1] += " " + placed.piece.text
                    last[3] = j
                else:
                    runs.append([x, placed.piece.text, placed.font, j])
            else:
                path = self._icon_file(placed.piece.id)
                self.used_files.add(str(path))
                rgb, a, (dx, dy), (iw, ih) = icon_parts(str(path), icon_px)
                # centred on the capitals' middle (caps are about 0.72 em), not standing on the baseline: an
                # icon taller than the capitals rode up to 40% above them
                ix, iy = round(x), round(by - CAP_MIDDLE * size_px - ih / 2)
                canvas.paste(rgb, (ix + dx, iy + dy), a)
                ink[:] = [min(ink[0], ix), min(ink[1], iy), max(ink[2], ix + iw), max(ink[3], iy + ih)]
        return runs

    def _draw_guides(self, canvas: Image.Image) -> None:
        """Trim (black), bleed edge (red) and safe area (blue, dashed) lines for proofs."""
        page = self.page
        d = ImageDraw.Draw(canvas, "RGBA")
        lw = max(1, round(page.px(0.2)))
        W, H = canvas.size
        d.rectangle((0, 0, W - 1, H - 1), outline=(220, 30, 30, 255), width=lw)
        t = Box(0, 0, *page.trim)
        d.rectangle(page.rect(t), outline=(0, 0, 0, 255), width=lw)
        s = page.rect(page.safe_box)
        dash = max(4, round(page.px(1.5)))
        for x in range(s[0], s[2], dash * 2):
            d.line((x, s[1], min(x + dash, s[2]), s[1]), fill=(30, 90, 220, 255), width=lw)
            d.line((x, s[3], min(x + dash, s[2]), s[3]), fill=(30, 90, 220, 255), width=lw)
        for y in range(s[1], s[3], dash * 2):
            d.line((s[0], y, s[0], min(y + dash, s[3])), fill=(30, 90, 220, 255), width=lw)
            d.line((s[2], y, s[2], min(y + dash, s[3])), fill=(30, 90, 220, 255), width=lw)


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def _styled_paragraphs(value: str, icons: set[str], style: str) -> list[richtext.Paragraph]:
    """Rich text parsed into paragraphs, its bold and italic flipped by the layer's `style` (bold text in
    a bold layer reads as regular, for emphasis)."""
    base_style = {"regular": 0, "bold": richtext.BOLD, "italic": richtext.ITALIC,
                  "bolditalic": richtext.BOLD | richtext.ITALIC}[style]
    paragraphs = richtext.parse(value, icons)
    if base_style:
        for para in paragraphs:
            for line in para.lines:
                for w in line:
                    w.pieces = [richtext.Span(p.text, p.style ^ base_style) if isinstance(p, richtext.Span) else p for p in w.pieces]
    return paragraphs


def _opaque(paint: Any) -> bool:
    if isinstance(paint, dict):
        return color(paint["from"])[3] == 255 and color(paint["to"])[3] == 255
    return color(paint)[3] == 255


def _paste_gradient(canvas: Image.Image, xy: tuple[int, int], size: tuple[int, int], fill: dict,
                    part: tuple[int, int, int, int]) -> None:
    """Paint `part` (a box in the shape's own pixels) of an opaque gradient `size` large at `xy`.

    A gradient down or up the card (title bars, backgrounds) is painted as bands of rows of one
    colour straight onto the canvas: no tile of the whole shape is drawn (in a new process, making
    a card-sized tile cost more than painting it) or cut (the middle of a rounded panel, per card)."""
    a, b, angle = color(fill["from"]), color(fill["to"]), float(fill.get("angle", 90))
    left, top, right, bottom = part
    if angle % 90 == 0 and round(angle % 360) in (90, 270):
        for first, end, rgb in row_runs(size[1], a, b, round(angle % 360)):
            first, end = max(first, top), min(end, bottom)
            if first < end:
                canvas.paste(rgb, (xy[0] + left, xy[1] + first, xy[0] + right, xy[1] + end))
        return
    canvas.paste(gradient_part(size, a, b, angle, part), (xy[0] + left, xy[1] + top))


def _fit_image(art: Image.Image, size: tuple[int, int], mode: str, focus: list[float]) -> Image.Image:
    w, h = size
    if mode == "stretch":
        return art.resize((w, h), Image.Resampling.LANCZOS)
    scale = (max if mode == "cover" else min)(w / art.width, h / art.height)
    nw, nh = max(1, round(art.width * scale)), max(1, round(art.height * scale))
    resized = art.resize((nw, nh), Image.Resampling.LANCZOS)
    if mode == "contain":
        return resized
    fx, fy = focus[0] / 100 * nw, focus[1] / 100 * nh
    left = int(min(max(0, fx - w / 2), nw - w))
    top = int(min(max(0, fy - h / 2), nh - h))
    return resized.crop((left, top, left + w, top + h))
