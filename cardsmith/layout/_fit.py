"""Wrapping and fitting rich text into a box.

Words are measured with `font.getlength` (advance widths, kerning within a run) and wrapped greedily.
`fit_text` finds the largest whole pixel size between `min_px` and `max_px` at which the block
fits, by binary search, wrapping again at each size (Pillow's own shrinking keeps the line spacing
of the starting size, so it is not used).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from PIL import ImageFont

from cardsmith.layout.fonts import Family, load_font
from cardsmith.layout._richtext import STYLE_NAMES, Icon, Paragraph, Span, Word

_WIDTHS: dict[tuple[ImageFont.FreeTypeFont, str], float] = {}


def text_width(font: ImageFont.FreeTypeFont, text: str) -> float:
    """Advance width of `text`, memoised per font object (cards repeat many words).

    Keyed by the font object itself (hashed by identity), never by `id(font)`: the memo then holds
    the font, so its id cannot pass to another font (another file or size) while the entry lives.
    A key by id gave a font opened after `load_font` let go of an older one (its cache evicted or
    cleared) the older font's widths: cards laid out with wrong widths."""
    key = (font, text)
    w = _WIDTHS.get(key)
    if w is None:
        if len(_WIDTHS) > 200_000:
            _WIDTHS.clear()
        w = _WIDTHS[key] = font.getlength(text)
    return w


@dataclass
class Placed:
    """A piece of a line at `x` pixels from the line's start."""

    x: float
    width: float
    piece: Span | Icon
    font: ImageFont.FreeTypeFont | None = None  # None for icons


@dataclass
class Line:
    pieces: list[Placed]
    width: float
    spaces: list[int] = field(default_factory=list)  # index of the first piece of each word after the first
    justify: bool = False  # the last line of a paragraph or before a forced break is never justified


@dataclass
class TextBlock:
    """Wrapped text at one size: lines, metrics and how far it spills over its box."""

    size_px: int
    lines: list[Line]
    line_height: float
    ascent: float
    descent: float
    paragraph_gap: float
    gaps: list[float]  # extra space before each line (paragraph gaps)
    max_width: float

    @property
    def height(self) -> float:
        if not self.lines:
            return 0.0
        return self.ascent + self.descent + self.line_height * (len(self.lines) - 1) + sum(self.gaps)

    def baselines(self) -> list[float]:
        """Baseline of each line measured from the top of the block."""
        out, y = [], self.ascent
        for i in range(len(self.lines)):
            y += self.gaps[i]
            out.append(y)
            y += self.line_height
        return out


IconAspect = Callable[[str], float]


class _Styles(dict):
    """Style bits -> font, each opened only when a word in that style is measured."""

    def __init__(self, family: Family, size_px: int):
        super().__init__()
        self.family, self.size_px = family, size_px

    def __missing__(self, bits: int) -> ImageFont.FreeTypeFont:
        font = self[bits] = load_font(str(self.family.path(STYLE_NAMES[bits])), self.size_px)
        return font


class Fonts:
    """The four styles of a family at one size."""

    def __init__(self, family: Family, size_px: int):
        self.by_style = _Styles(family, size_px)
        self.regular = self.by_style[0]


def _word_pieces(word: Word, fonts: Fonts, size_px: int, aspect: IconAspect, icon_scale: float) -> tuple[list[Placed], float]:
    placed, x = [], 0.0
    for p in word.pieces:
        if isinstance(p, Span):
            f = fonts.by_style[p.style]
            w = text_width(f, p.text)
            placed.append(Placed(x, w, p, f))
        else:
            w = aspect(p.id) * size_px * icon_scale
            placed.append(Placed(x, w, p, None))
        x += w
    return placed, x


def layout_text(paragraphs: list[Paragraph], family: Family, size_px: int, width_px: float, *,
                line_spacing: float = 1.15, paragraph_spacing: float = 0.5, wrap: bool = True,
                aspect: IconAspect = lambda _id: 1.0, icon_scale: float = 1.0) -> TextBlock:
    """Wrap `paragraphs` at `size_px` into lines no wider than `width_px` (a lone long word may be wider)."""
    fonts = Fonts(family, size_px)
    ascent, descent = fonts.regular.getmetrics()
    space = text_width(fonts.regular, " ")
    line_height = size_px * line_spacing
    gap = size_px * paragraph_spacing
    lines: list[Line] = []
    gaps: list[float] = []
    max_width = 0.0
    for pi, para in enumerate(paragraphs):
        first_in_para = True
        for forced in para.lines:
            current: list[Placed] = []
            starts: list[int] = []
            x = 0.0
            row_lines: list[Line] = []
            for word in forced:
                pieces, w = _word_pieces(word, fonts, size_px, aspect, icon_scale)
                if current and wrap and x + space + w > width_px:
                    row_lines.append(Line(current, x, starts, justify=True))
                    current, starts, x = [], [], 0.0
                if current:
                    x += space
                    starts.append(len(current))
                current.extend(Placed(x + p.x, p.width, p.piece, p.font) for p in pieces)
                x += w
            row_lines.append(Line(current, x, starts, justify=False))
            for line in row_lines:
                gaps.append(gap if first_in_para and pi > 0 else 0.0)
                first_in_para = False
                lines.append(line)
                max_width = max(max_width, line.width)
    return TextBlock(size_px, lines, line_height, ascent, descent, gap, gaps, max_width)


@dataclass
class FitResult:
    block: TextBlock
    fits: bool
    overflow_x: float  # pixels the widest line spills past the box (0 if none)
    overflow_y: float  # pixels the block spills below the box (0 if none)


def _check(block: TextBlock, width_px: float, height_px: float) -> FitResult:
    ox = max(0.0, block.max_width - width_px)
    oy = max(0.0, block.height - height_px)
    return FitResult(block, ox <= 0.5 and oy <= 0.5, ox, oy)


def fit_text(paragraphs: list[Paragraph], family: Family, max_px: int, min_px: int, width_px: float, height_px: float,
             *, shrink: bool = True, **kw) -> FitResult:
    """The block at the largest size in [min_px, max_px] that fits the box, or at min_px if none does.

    Without `shrink`, the block at `max_px` whether or not it fits.
    """
    max_px = max(1, int(max_px))
    min_px = max(1, min(int(min_px), max_px))
    best = _check(layout_text(paragraphs, family, max_px, width_px, **kw), width_px, height_px)
    if best.fits or not shrink or min_px == max_px:
        return best
    low = _check(layout_text(paragraphs, family, min_px, width_px, **kw), width_px, height_px)
    if not low.fits:
        return low
    lo, hi = min_px, max_px  # lo fits, hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        r = _check(layout_text(paragraphs, family, mid, width_px, **kw), width_px, height_px)
        if r.fits:
            lo, low = mid, r
        else:
            hi = mid
    return low
