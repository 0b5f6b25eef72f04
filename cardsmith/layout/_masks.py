"""Masks, outline bands and gradients: the pixels shapes are painted through, made from geometry
and colours only.

Each is a pure function, cached in memory (the same frames, panels and badges repeat on card after
card). Callers never modify what they are given.
"""

from __future__ import annotations

import functools
import itertools
import math

from PIL import Image, ImageChops, ImageDraw

OVERSAMPLE = 4


_SCALED: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}


def scaled(mask: Image.Image, alpha: int) -> Image.Image:
    """`mask` times alpha/255; cached, since translucent shapes (glows, stars) repeat on every card."""
    key = (id(mask), alpha)
    hit = _SCALED.get(key)
    if hit is not None and hit[0] is mask:  # the identity check guards against a recycled id
        return hit[1]
    if len(_SCALED) > 256:
        _SCALED.clear()
    out = mask.point(lambda v: v * alpha // 255)
    _SCALED[key] = (mask, out)
    return out


@functools.lru_cache(maxsize=64)
def solid_band(w: int, h: int, radius: float) -> tuple[int, Image.Image, Image.Image] | None:
    """For a rounded rectangle's mask: the height `b` of the top and bottom bands that hold its
    corners (every row between them is fully opaque) and those bands' masks; None if there is no such middle."""
    b = math.ceil(radius) + 2
    if 2 * b >= h:
        return None
    m = shape_mask("rect", w, h, radius, 0.0)
    if m.crop((0, b, w, h - b)).getextrema() != (255, 255):
        return None
    return b, m.crop((0, 0, w, b)), m.crop((0, h - b, w, h))


@functools.lru_cache(maxsize=64)
def stroke_bands(shape: str, w: int, h: int, radius: float, width: float) -> list[tuple[int, int, Image.Image]]:
    """A stroke's ring as the pieces that hold ink, with their offsets.

    An outline's ink is a thin line round a large, empty box. The ring is cut into nine cells
    (corners of the rounding's size, four edges, the middle), each cropped to its ink, so a
    rectangle's outline pastes its corners and four thin lines instead of the whole box."""
    ring = stroke_mask(shape, w, h, radius, width)
    band = math.ceil(max(radius, width)) + 2
    cuts_x = [0, band, w - band, w] if shape == "rect" and 2 * band < w else [0, w]
    cuts_y = [0, band, h - band, h] if shape == "rect" and 2 * band < h else [0, h]
    out = []
    for y0, y1 in zip(cuts_y, cuts_y[1:]):
        for x0, x1 in zip(cuts_x, cuts_x[1:]):
            piece = ring.crop((x0, y0, x1, y1))
            bb = piece.getbbox()
            if bb:
                out.append((x0 + bb[0], y0 + bb[1], piece.crop(bb)))
    return out


@functools.lru_cache(maxsize=64)
def polygon_mask(size: tuple[int, int], points: tuple[tuple[float, float], ...], stroke: float) -> Image.Image:
    """An anti-aliased polygon (`stroke` 0) or its outline `stroke` px wide, centred on the edges.

    Cached like the other masks: a hex map repeats the same cell shape many times."""
    s = OVERSAMPLE
    m = Image.new("L", (size[0] * s, size[1] * s), 0)
    d = ImageDraw.Draw(m)
    big = [(x * s, y * s) for x, y in points]
    if stroke <= 0:
        d.polygon(big, fill=255)
    else:
        d.line(big + big[:1], fill=255, width=max(1, round(stroke * s)), joint="curve")
        w = stroke * s / 2  # round off the joint where the outline closes
        d.ellipse((big[0][0] - w, big[0][1] - w, big[0][0] + w, big[0][1] + w), fill=255)
    return m.resize(size, Image.Resampling.BOX)


@functools.lru_cache(maxsize=48)
def stroke_mask(shape: str, w: int, h: int, radius: float, width: float) -> Image.Image:
    """The ring between a shape's edge and the same shape inset by the stroke width."""
    return ImageChops.subtract(shape_mask(shape, w, h, radius, 0.0), shape_mask(shape, w, h, radius, width))


@functools.lru_cache(maxsize=48)
def shape_mask(shape: str, w: int, h: int, radius: float, inset: float) -> Image.Image:
    """Masks repeat from card to card (frames, panels, badges), so they are cached; callers never modify them."""
    plain_rect = shape == "rect" and radius <= 0
    if plain_rect:
        m = Image.new("L", (max(1, w), max(1, h)), 0)
        i = round(inset)
        if w - 2 * i > 0 and h - 2 * i > 0:
            m.paste(255, (i, i, w - i, h - i))
        return m
    if shape == "rect" and (w * h > 250_000 or (inset == 0 and w * h > 20_000)):
        # oversampling a whole large shape is slow; its straight edges need none, only its corners
        return _big_rounded_mask(w, h, radius, inset)
    return _oversampled_mask(shape, w, h, radius, inset)


def _oversampled_mask(shape: str, w: int, h: int, radius: float, inset: float) -> Image.Image:
    """An ellipse or a small rounded rectangle, drawn oversampled and scaled down."""
    if shape == "ellipse" and inset == 0 and w > 8 and h > 8:
        return _ellipse_mask(w, h)
    s = OVERSAMPLE
    m = Image.new("L", (max(1, w * s), max(1, h * s)), 0)
    d = ImageDraw.Draw(m)
    x0, y0, x1, y1 = inset * s, inset * s, w * s - 1 - inset * s, h * s - 1 - inset * s
    if x1 < x0 or y1 < y0:
        return Image.new("L", (max(1, w), max(1, h)), 0)
    if shape == "ellipse":
        d.ellipse((x0, y0, x1, y1), fill=255)
    else:
        r = max(0.0, min(radius - inset, (x1 - x0) / 2 / s, (y1 - y0) / 2 / s)) * s
        d.rounded_rectangle((x0, y0, x1, y1), radius=r, fill=255)
    return m.resize((max(1, w), max(1, h)), Image.Resampling.BOX)


def _ellipse_mask(w: int, h: int) -> Image.Image:
    """A filled ellipse: only its top-left quarter is oversampled, then mirrored (the oversampled
    ellipse is symmetric, so this is pixel-identical to drawing it whole, in a quarter of the time)."""
    s = OVERSAMPLE
    cw, ch = (w + 1) // 2, (h + 1) // 2
    t = Image.new("L", (cw * s, ch * s), 0)
    ImageDraw.Draw(t).ellipse((0, 0, w * s - 1, h * s - 1), fill=255)
    q = t.resize((cw, ch), Image.Resampling.BOX)
    m = Image.new("L", (w, h), 0)
    m.paste(q, (0, 0))
    m.paste(q.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (w - cw, 0))
    m.paste(q.transpose(Image.Transpose.FLIP_TOP_BOTTOM), (0, h - ch))
    m.paste(q.transpose(Image.Transpose.ROTATE_180), (w - cw, h - ch))
    return m


def _big_rounded_mask(w: int, h: int, radius: float, inset: float) -> Image.Image:
    """A large rounded rectangle: straight edges drawn directly, only the four corners oversampled."""
    m = Image.new("L", (w, h), 0)
    i = inset
    r = max(0.0, min(radius - inset, (w - 2 * i) / 2, (h - 2 * i) / 2))
    x0, y0, x1, y1 = round(i), round(i), round(w - i), round(h - i)
    if x1 <= x0 or y1 <= y0:
        return m
    m.paste(255, (x0, y0, x1, y1))
    rc = math.ceil(r)
    if rc <= 0:
        return m
    s = OVERSAMPLE
    tile = Image.new("L", (rc * s, rc * s), 0)
    ImageDraw.Draw(tile).ellipse((0, 0, 2 * r * s - 1, 2 * r * s - 1), fill=255)  # its top-left quarter is the corner
    corner = tile.resize((rc, rc), Image.Resampling.BOX)
    m.paste(corner, (x0, y0))
    m.paste(corner.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (x1 - rc, y0))
    m.paste(corner.transpose(Image.Transpose.FLIP_TOP_BOTTOM), (x0, y1 - rc))
    m.paste(corner.transpose(Image.Transpose.ROTATE_180), (x1 - rc, y1 - rc))
    return m


@functools.lru_cache(maxsize=96)
def gradient_tile(size: tuple[int, int], a: tuple[int, int, int, int], b: tuple[int, int, int, int],
                   angle: float) -> tuple[Image.Image, Image.Image | None]:
    """The RGB gradient from `a` to `b` along `angle` degrees (0 = left to right, 90 = top to bottom)
    and its alpha (None when both ends are opaque); cached like masks."""
    if angle % 90 == 0:
        return axis_tile(size, a, b, round(angle % 360))
    return _angled_tile(size, a, b, angle)


def _angled_tile(size: tuple[int, int], a: tuple[int, int, int, int], b: tuple[int, int, int, int],
                 angle: float) -> tuple[Image.Image, Image.Image | None]:
    """A gradient at an angle (each pixel is sampled from the ramp) and its alpha (None when opaque)."""
    g = _angled_gradient(size, a, b, angle)
    return g.convert("RGB"), None if a[3] == 255 and b[3] == 255 else g.getchannel("A")


def _angled_gradient(size: tuple[int, int], a: tuple[int, int, int, int], b: tuple[int, int, int, int], angle: float) -> Image.Image:
    w, h = size
    rad = math.radians(angle)
    dx, dy = math.cos(rad), math.sin(rad)
    proj = [x * dx + y * dy for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
    lo = min(proj)
    k = 255 / max(1e-6, max(proj) - lo)
    # one affine sample of the 256-level ramp (whose rows are its values) per output pixel: the ramp
    # row is the pixel's position along the direction, scaled to the box's extent along it
    t = Image.linear_gradient("L").transform((w, h), Image.Transform.AFFINE, (0, 0, 0.5, dx * k, dy * k, 0.5 - lo * k), Image.Resampling.BILINEAR)
    return Image.composite(Image.new("RGBA", size, b), Image.new("RGBA", size, a), t)


def axis_tile(size: tuple[int, int], a: tuple[int, int, int, int], b: tuple[int, int, int, int],
               angle: int) -> tuple[Image.Image, Image.Image | None]:
    """A gradient along an axis: one row or column of colours, stretched (no rotation of a large ramp).

    The line is split into colour and alpha before it is stretched (the same pixels as splitting
    the stretched tile, in less time)."""
    w, h = size
    vertical = angle in (90, 270)
    line = axis_line(h if vertical else w, a, b, angle)
    if not vertical:
        line = line.transpose(Image.Transpose.TRANSPOSE)
    alpha = None if a[3] == 255 and b[3] == 255 else line.getchannel("A").resize((w, h), Image.Resampling.NEAREST)
    return line.convert("RGB").resize((w, h), Image.Resampling.NEAREST), alpha


@functools.lru_cache(maxsize=96)
def axis_line(n: int, a: tuple[int, int, int, int], b: tuple[int, int, int, int], angle: int) -> Image.Image:
    """The colours of a gradient along an axis, RGBA, one column of `n` from its start to its end."""
    strip = Image.linear_gradient("L").crop((0, 0, 1, 256)).resize((1, n), Image.Resampling.BILINEAR)
    if angle in (180, 270):
        strip = strip.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    return Image.composite(Image.new("RGBA", (1, n), b), Image.new("RGBA", (1, n), a), strip)


@functools.lru_cache(maxsize=96)
def row_runs(n: int, a: tuple[int, int, int, int], b: tuple[int, int, int, int], angle: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """A top-to-bottom gradient as runs of rows of one colour: (first row, end row, RGB)."""
    raw = axis_line(n, a, b, angle).transpose(Image.Transpose.TRANSPOSE).convert("RGB").tobytes()  # a row: one line to encode
    runs, start = [], 0
    for rgb, rows in itertools.groupby(zip(raw[0::3], raw[1::3], raw[2::3])):
        end = start + sum(1 for _ in rows)
        runs.append((start, end, rgb))
        start = end
    return tuple(runs)


@functools.lru_cache(maxsize=96)
def gradient_part(size: tuple[int, int], a: tuple[int, int, int, int], b: tuple[int, int, int, int], angle: float,
                   part: tuple[int, int, int, int]) -> Image.Image:
    """The RGB of a gradient `size` large within the box `part` (the corners of a rounded panel)."""
    if angle % 90 == 0 and round(angle % 360) in (90, 270):
        w, h = part[2] - part[0], part[3] - part[1]
        return axis_line(size[1], a, b, round(angle % 360)).crop((0, part[1], 1, part[3])).convert("RGB").resize((w, h), Image.Resampling.NEAREST)
    tile = gradient_tile(size, a, b, angle)[0]
    return tile if part == (0, 0, *size) else tile.crop(part)
