"""Imposition as pure geometry: where each card, mark and label goes on each printed page.

No ReportLab here: the plan is plain data (millimetres, origin at the page's bottom-left, y up, as
in PDF) so it can be tested and reasoned about without drawing anything. `cardsmith.printing.pdf` draws it.

Layouts:
- grid: as many cards as fit, centred, in the orientation that fits the most; crop marks in the
  margin; backs on the next page (duplex), mirrored for the chosen flip edge.
- gutterfold: fronts in the top row, their backs in the bottom row turned 180 degrees; fold along
  the middle line and each front meets its back.
- single: one card per page, the page being the card plus its bleed (TrimBox and BleedBox set).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Sequence

from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.printing.paper import BACK_MODES, DEFAULT_GUTTER, LAYOUTS, PAPER_SIZES

CROP_MARK_GAP = 1.0  # mm between a mark and the bleed it points at, so it never prints on the card
CROP_MARK_LENGTH = 6.0  # mm
MIN_CROP_MARK = 3.0  # mm; a shorter mark is hard to line a ruler up with, so cut lines are drawn instead


@dataclass(frozen=True)
class Rect:
    """x, y of the lower-left corner, width and height, in mm."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grown(self, left: float, bottom: float, right: float, top: float) -> "Rect":
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def inside(self, width: float, height: float, tolerance: float = 1e-6) -> bool:
        return (self.x >= -tolerance and self.y >= -tolerance
                and self.right <= width + tolerance and self.top <= height + tolerance)


@dataclass(frozen=True)
class Placement:
    """One card face on a page.

    The image (trim plus `bleed` on every side) is drawn over `trim` grown by `bleed`, turned by
    `rotation` degrees about the trim's centre, and clipped to `clip` (trim plus the bleed that
    may show there). `item` is the card's index in the print list.
    """

    key: str
    side: str  # "front" or "back"
    item: int
    trim: Rect
    clip: Rect
    bleed: float
    rotation: int = 0

    @property
    def image_rect(self) -> Rect:
        return self.trim.grown(self.bleed, self.bleed, self.bleed, self.bleed)


@dataclass(frozen=True)
class Line:
    """A straight mark: `kind` is "crop", "cut", "fold" or "guide"."""

    x1: float
    y1: float
    x2: float
    y2: float
    kind: str = "crop"


@dataclass(frozen=True)
class Label:
    """Text on the page; `size` in points; `anchor` is "left", "centre" or "right"."""

    x: float
    y: float
    text: str
    size: float = 6.0
    anchor: str = "centre"
    max_width: float | None = None  # mm; the writer shrinks the text to fit
    angle: int = 0  # degrees anticlockwise about (x, y); 90 reads upwards


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    side: str  # "front", "back" or "both" (gutterfold)
    sheet: int  # 1-based physical sheet number
    placements: tuple[Placement, ...] = ()
    lines: tuple[Line, ...] = ()
    labels: tuple[Label, ...] = ()
    trim_box: Rect | None = None
    bleed_box: Rect | None = None


@dataclass(frozen=True)
class SheetSpec:
    """How to impose: layout, paper and card sizes (mm), marks and backs."""

    card: tuple[float, float]
    bleed: float = 3.175
    layout: str = "grid"
    paper: tuple[float, float] = PAPER_SIZES["a4"]
    orientation: str = "auto"  # auto, portrait, landscape
    gutter: float = DEFAULT_GUTTER  # space between cards; each card's bleed shows half of it
    margin: float = 5.0  # printable margin: no card trim, mark or label nearer the page edge (printers cannot print there)
    crop_marks: bool = True
    cut_lines: bool = False
    backs: str = "none"  # none, long, short (duplex flip edge); gutterfold always has backs
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm added to every back-page position
    page_bleed: float | None = None  # single: bleed around the trim on the page (default: `bleed`)
    fold_gutter: float | None = None  # gutterfold: space across the fold; default two bleeds


@dataclass(frozen=True)
class Grid:
    """The slots of one side of a sheet, row-major from the top-left."""

    width: float
    height: float
    cols: int
    rows: int
    slots: tuple[Rect, ...]
    clips: tuple[Rect, ...]
    lines: tuple[Line, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())  # what the printer should know (marks replaced by cut lines)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


def _fit(avail: float, size: float, gutter: float) -> int:
    if avail < size:
        return 0
    return int(math.floor((avail + gutter) / (size + gutter) + 1e-9))


def _oriented(spec: SheetSpec) -> list[tuple[float, float]]:
    w, h = sorted(spec.paper)
    portrait, landscape = (w, h), (h, w)
    return {"portrait": [portrait], "landscape": [landscape]}.get(spec.orientation, [portrait, landscape])


def _too_big(spec: SheetSpec, what: str) -> CardsmithError:
    cw, ch = spec.card
    pw, ph = spec.paper
    return CardsmithError(
        f"a {cw:g} x {ch:g} mm card does not fit {what} on {pw:g} x {ph:g} mm paper "
        f"with {spec.margin:g} mm margins",
        hint="choose larger paper (--paper a3), a smaller --margin, or --layout single",
    )


def _outer_room(spec: SheetSpec) -> float:
    """What a sheet keeps past its outer cards inside the printable margin: their whole bleed and,
    with crop marks, a mark clear of it. Without it the outer bleed gave way to the marks (0.75 mm
    on A4), so a cut drifting outwards showed white paper."""
    return spec.bleed + (CROP_MARK_GAP + MIN_CROP_MARK if spec.crop_marks else 0.0)


def grid(spec: SheetSpec) -> Grid:
    """The grid layout for one side: the orientation holding the most cards (portrait on a tie).

    Cards are counted with their full outer bleed and crop marks kept in the margin (fewer cards
    if need be); only when no card fits that way do the bleed and marks give way to the margin.
    """
    cw, ch = spec.card
    best: tuple[int, float, float, int, int] | None = None
    for keep in (_outer_room(spec), 0.0):
        for pw, ph in _oriented(spec):
            cols = _fit(pw - 2 * (spec.margin + keep), cw, spec.gutter)
            rows = _fit(ph - 2 * (spec.margin + keep), ch, spec.gutter)
            if cols * rows and (best is None or cols * rows > best[0]):
                best = (cols * rows, pw, ph, cols, rows)
        if best is not None:
            break
    if best is None:
        raise _too_big(spec, "even once")
    _, pw, ph, cols, rows = best
    g = spec.gutter
    block_w, block_h = cols * cw + (cols - 1) * g, rows * ch + (rows - 1) * g
    x0, y0 = (pw - block_w) / 2, (ph - block_h) / 2
    inner = min(spec.bleed, g / 2)
    outer_x, marks_y = _outer_bleed(spec, x0)  # side margins: marks for the row edges (y)
    outer_y, marks_x = _outer_bleed(spec, y0)  # top and bottom margins: marks for the column edges (x)
    slots, clips = [], []
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (cw + g)
            y = y0 + block_h - ch - r * (ch + g)
            slots.append(Rect(x, y, cw, ch))
            clips.append(Rect(x, y, cw, ch).grown(
                outer_x if c == 0 else inner, outer_y if r == rows - 1 else inner,
                outer_x if c == cols - 1 else inner, outer_y if r == 0 else inner))
    lines, notes = _edge_marks(spec, slots, Rect(x0, y0, block_w, block_h), (outer_x, outer_y), (marks_x, marks_y), pw, ph)
    return Grid(pw, ph, cols, rows, tuple(slots), tuple(clips), tuple(lines), notes)


def _outer_bleed(spec: SheetSpec, edge: float) -> tuple[float, bool]:
    """How much bleed to show past the outer cards, and whether crop marks fit in that margin.

    Marks keep inside the printable margin; the bleed shown in the margin gives way to them (down to
    none), and where even that leaves no room for a mark, the bleed may reach the printable margin.
    """
    room = edge - spec.margin - CROP_MARK_GAP
    if spec.crop_marks and room >= MIN_CROP_MARK:
        return min(spec.bleed, room - MIN_CROP_MARK), True
    return min(spec.bleed, max(0.0, edge - spec.margin)), False


def _edge_marks(spec: SheetSpec, slots: Sequence[Rect], block: Rect, outer: tuple[float, float],
                fits: tuple[bool, bool], pw: float, ph: float) -> tuple[list[Line], tuple[str, ...]]:
    """Crop marks where they fit in the printable margin, cut lines along the card edges where they do not.

    `fits` says whether marks fit above and below the cards (marking the column edges) and beside
    them (marking the row edges).
    """
    xs = sorted({round(v, 6) for s in slots for v in (s.x, s.right)})
    ys = sorted({round(v, 6) for s in slots for v in (s.y, s.top)})
    (outer_x, outer_y), (marks_x, marks_y) = outer, fits
    lines: list[Line] = []
    notes: list[str] = []
    if spec.crop_marks:
        lines += _crop_marks(xs if marks_x else (), ys if marks_y else (), block, outer, pw, ph, spec.margin)
        lost = [w for w, ok in (("above and below", marks_x), ("beside", marks_y)) if not ok]
        if lost and not spec.cut_lines:
            m = spec.margin
            if not marks_x:
                lines += [Line(x, max(m, block.y - outer_y), x, min(ph - m, block.top + outer_y), "cut") for x in xs]
            if not marks_y:
                lines += [Line(max(m, block.x - outer_x), y, min(pw - m, block.right + outer_x), y, "cut") for y in ys]
            notes.append(f"no room for crop marks {' or '.join(lost)} the cards inside the {m:g} mm printable "
                         "margin: thin cut lines run along those card edges instead")
    if spec.cut_lines:
        lines += _cut_lines(slots)
    return lines, tuple(notes)


def _crop_marks(xs: Sequence[float], ys: Sequence[float], block: Rect, outer: tuple[float, float],
                pw: float, ph: float, margin: float) -> list[Line]:
    """Marks that extend card edges into the margin, clear of printed bleed and of the unprintable page edge."""
    out: list[Line] = []
    outer_x, outer_y = outer
    below0 = block.y - outer_y - CROP_MARK_GAP
    above0 = block.top + outer_y + CROP_MARK_GAP
    left0 = block.x - outer_x - CROP_MARK_GAP
    right0 = block.right + outer_x + CROP_MARK_GAP
    for x in xs:
        out.append(Line(x, below0, x, max(margin, below0 - CROP_MARK_LENGTH)))
        out.append(Line(x, above0, x, min(ph - margin, above0 + CROP_MARK_LENGTH)))
    for y in ys:
        out.append(Line(left0, y, max(margin, left0 - CROP_MARK_LENGTH), y))
        out.append(Line(right0, y, min(pw - margin, right0 + CROP_MARK_LENGTH), y))
    return out


def _cut_lines(slots: Sequence[Rect]) -> list[Line]:
    out: list[Line] = []
    for s in slots:
        out += [Line(s.x, s.y, s.right, s.y, "cut"), Line(s.x, s.top, s.right, s.top, "cut"),
                Line(s.x, s.y, s.x, s.top, "cut"), Line(s.right, s.y, s.right, s.top, "cut")]
    return out


def mirrors_columns(page_w: float, page_h: float, flip: str) -> bool:
    """Whether turning the sheet over mirrors the page left-right (True) or top-bottom (False).

    `flip` names the paper edge the printer turns the sheet about. On a portrait page the long edges
    are the sides, so a long-edge flip turns it like a book page; on a landscape page the long
    edges are the top and bottom, so the same printer setting turns it like a notepad.
    """
    if flip not in ("long", "short"):
        raise ValueError(f"flip must be 'long' or 'short', not {flip!r}")
    landscape = page_w > page_h
    return (flip == "long") != landscape


def back_rect(front: Rect, page_w: float, page_h: float, flip: str) -> tuple[Rect, int]:
    """Where the back of `front` goes on the back page, and its rotation: the one duplex mapping.

    Every duplex layout (card grids, token sheets, the calibration sheet) places its backs through
    this function. A sheet turned like a book page mirrors x; one turned like a notepad mirrors y,
    and the back is turned 180 degrees so it reads upright when the piece is turned over sideways
    (the same physical result as a book-page turn). Which of the two a printer does depends on the
    flip edge and the page's orientation (see `mirrors_columns`).
    """
    if mirrors_columns(page_w, page_h, flip):
        return Rect(page_w - front.right, front.y, front.w, front.h), 0
    return Rect(front.x, page_h - front.top, front.w, front.h), 180


def back_slot(slot: int, cols: int, rows: int, flip: str, page_w: float = 0.0, page_h: float = 1.0) -> int:
    """The slot index (row-major from the top-left of the back page) behind front `slot`.

    The page size only tells its orientation; the default is a portrait page.
    """
    r, c = divmod(slot, cols)
    if mirrors_columns(page_w, page_h, flip):
        return r * cols + (cols - 1 - c)
    return (rows - 1 - r) * cols + c


def _check_offset(rect: Rect, page_w: float, page_h: float, spec: SheetSpec, item: int) -> None:
    if not rect.inside(page_w, page_h):
        dx, dy = spec.back_offset
        raise CardsmithError(
            f"--back-offset {dx:g},{dy:g} pushes the back of card {item + 1} off the page",
            hint="printer drift is usually under 3 mm; print `cardsmith pdf SET --calibration` to measure it",
        )


def impose(spec: SheetSpec, items: Sequence[tuple[str, str | None]]) -> list[Page]:
    """Pages for `items`, each (front image key, back image key or None), in print order."""
    if spec.layout not in LAYOUTS:
        raise UsageError(f"unknown layout '{spec.layout}'", hint=f"use one of {', '.join(LAYOUTS)}")
    if spec.backs not in BACK_MODES:
        raise UsageError(f"unknown backs '{spec.backs}'", hint=f"use one of {', '.join(BACK_MODES)}")
    if spec.layout == "single":
        return _impose_single(spec, items)
    if spec.layout == "gutterfold":
        return _impose_gutterfold(spec, items)
    return _impose_grid(spec, items)


def sheet_notes(spec: SheetSpec) -> tuple[str, ...]:
    """What the person printing should know about this layout (crop marks replaced by cut lines)."""
    if spec.layout == "grid":
        return grid(spec).notes
    if spec.layout == "gutterfold":
        return gutterfold_grid(spec)[0].notes
    return ()


def _lines_for(spec: SheetSpec, g: "Grid", used: Sequence[Rect]) -> tuple[Line, ...]:
    """The grid's marks for a sheet whose first `used` slots hold cards: cut lines run only along the
    rows in use (a last sheet of 5 rows of counters gets no cut grid over 14 empty rows), and crop
    marks point at the edges of the cards printed, below the last row in use."""
    if len(used) >= len(g.slots) or not used:
        return g.lines
    shift = min(s.y for s in used) - min(s.y for s in g.slots)  # rows fill from the top: the used block is shorter
    out = []
    crops = [ln for ln in g.lines if ln.kind == "crop"]
    if crops:
        xs = sorted({round(v, 6) for s in used for v in (s.x, s.right)})
        ys = sorted({round(v, 6) for s in used for v in (s.y, s.top)})
        marks_x = any(abs(ln.x1 - ln.x2) < 1e-9 for ln in crops)
        marks_y = any(abs(ln.y1 - ln.y2) < 1e-9 for ln in crops)
        outer = (g.slots[0].x - g.clips[0].x, g.clips[0].top - g.slots[0].top)
        left, top, bottom = min(s.x for s in g.slots), max(s.top for s in g.slots), min(s.y for s in used)
        block = Rect(left, bottom, max(s.right for s in g.slots) - left, top - bottom)
        out += _crop_marks(xs if marks_x else (), ys if marks_y else (), block, outer, g.width, g.height, spec.margin)
    for ln in g.lines:
        if ln.kind == "crop":
            continue
        if ln.kind != "cut":
            out.append(ln)
        elif abs(ln.x1 - ln.x2) < 1e-9:  # along a column: shorten its lower end
            low, high = sorted((ln.y1, ln.y2))
            out.append(Line(ln.x1, low + shift, ln.x2, high, "cut"))
        elif ln.y1 >= min(s.y for s in used) - 1e-6:  # along a row in use
            out.append(ln)
    return tuple(out)


def _clips_for(g: "Grid", used: int) -> list[Rect]:
    """The grid's clips for a sheet whose first `used` slots hold cards: a card with no card below
    it shows its bottom bleed as far as the last row does (the slot below is empty paper)."""
    clips = list(g.clips[:used])
    outer_y = g.slots[-1].y - g.clips[-1].y
    for i in range(used):
        if i + g.cols < len(g.slots) and i + g.cols >= used:
            c = clips[i]
            clips[i] = Rect(c.x, g.slots[i].y - outer_y, c.w, c.top - (g.slots[i].y - outer_y))
    return clips


def _impose_grid(spec: SheetSpec, items: Sequence[tuple[str, str | None]]) -> list[Page]:
    g = grid(spec)
    dx, dy = spec.back_offset
    pages: list[Page] = []
    for sheet, start in enumerate(range(0, len(items), g.per_sheet), 1):
        chunk = items[start:start + g.per_sheet]
        clips = _clips_for(g, len(chunk))
        fronts = tuple(
            Placement(front, "front", start + i, g.slots[i], clips[i], spec.bleed)
            for i, (front, _) in enumerate(chunk)
        )
        pages.append(Page(g.width, g.height, "front", sheet, fronts, _lines_for(spec, g, [p.trim for p in fronts])))
        if spec.backs == "none":
            continue
        backs = []
        for i, (_, back) in enumerate(chunk):
            if back is None:
                continue
            trim, rotation = back_rect(g.slots[i], g.width, g.height, spec.backs)
            clip, _ = back_rect(clips[i], g.width, g.height, spec.backs)
            trim, clip = trim.moved(dx, dy), clip.moved(dx, dy)
            _check_offset(clip, g.width, g.height, spec, start + i)
            backs.append(Placement(back, "back", start + i, trim, clip, spec.bleed, rotation))
        pages.append(Page(g.width, g.height, "back", sheet, tuple(backs)))
    return pages


def gutterfold_grid(spec: SheetSpec) -> tuple[Grid, float]:
    """Two rows (fronts above the fold, backs below), as many columns as fit; and the fold's y."""
    cw, ch = spec.card
    fold = spec.fold_gutter if spec.fold_gutter is not None else 2 * spec.bleed
    best = None
    for keep in (_outer_room(spec), 0.0):  # full outer bleed and marks if any card fits so (see `grid`)
        for pw, ph in _oriented(spec):
            cols = _fit(pw - 2 * (spec.margin + keep), cw, spec.gutter)
            if 2 * ch + fold > ph - 2 * (spec.margin + keep):
                cols = 0
            if cols and (best is None or cols > best[0]):
                best = (cols, pw, ph)
        if best is not None:
            break
    if best is None:
        raise _too_big(spec, "twice (front above back) for a gutterfold")
    cols, pw, ph = best
    g = spec.gutter
    block_w = cols * cw + (cols - 1) * g
    x0 = (pw - block_w) / 2
    fold_y = ph / 2
    inner = min(spec.bleed, g / 2)
    towards_fold = min(spec.bleed, fold / 2)
    y_bottom = fold_y - fold / 2 - ch
    outer_x, marks_y = _outer_bleed(spec, x0)
    outer_y, marks_x = _outer_bleed(spec, y_bottom)
    slots, clips = [], []
    for r, y in enumerate((fold_y + fold / 2, y_bottom)):
        for c in range(cols):
            x = x0 + c * (cw + g)
            s = Rect(x, y, cw, ch)
            slots.append(s)
            clips.append(s.grown(outer_x if c == 0 else inner, outer_y if r == 1 else towards_fold,
                                 outer_x if c == cols - 1 else inner, outer_y if r == 0 else towards_fold))
    block = Rect(x0, y_bottom, block_w, 2 * ch + fold)
    lines, notes = _edge_marks(spec, slots, block, (outer_x, outer_y), (marks_x, marks_y), pw, ph)
    reach = CROP_MARK_GAP + CROP_MARK_LENGTH
    lines.append(Line(max(spec.margin, x0 - outer_x - reach), fold_y,
                      min(pw - spec.margin, x0 + block_w + outer_x + reach), fold_y, "fold"))
    return Grid(pw, ph, cols, 2, tuple(slots), tuple(clips), tuple(lines), notes), fold_y


def _impose_gutterfold(spec: SheetSpec, items: Sequence[tuple[str, str | None]]) -> list[Page]:
    g, _ = gutterfold_grid(spec)
    pages = []
    for sheet, start in enumerate(range(0, len(items), g.cols), 1):
        placed: list[Placement] = []
        for i, (front, back) in enumerate(items[start:start + g.cols]):
            placed.append(Placement(front, "front", start + i, g.slots[i], g.clips[i], spec.bleed))
            if back is not None:
                # Turned 180 degrees: folded over the middle line it meets its front top to top.
                j = g.cols + i
                placed.append(Placement(back, "back", start + i, g.slots[j], g.clips[j], spec.bleed, 180))
        pages.append(Page(g.width, g.height, "both", sheet, tuple(placed), g.lines))
    return pages


def _impose_single(spec: SheetSpec, items: Sequence[tuple[str, str | None]]) -> list[Page]:
    cw, ch = spec.card
    b = spec.bleed if spec.page_bleed is None else spec.page_bleed
    pw, ph = cw + 2 * b, ch + 2 * b
    trim = Rect(b, b, cw, ch)
    full = Rect(0, 0, pw, ph)
    dx, dy = spec.back_offset
    pages = []
    for i, (front, back) in enumerate(items):
        pages.append(Page(pw, ph, "front", i + 1, (Placement(front, "front", i, trim, full, spec.bleed),),
                          trim_box=trim, bleed_box=full))
        if spec.backs != "none" and back is not None:
            behind, rotation = back_rect(trim, pw, ph, spec.backs)
            moved = behind.moved(dx, dy)
            if abs(dx) > b or abs(dy) > b:
                raise CardsmithError(
                    f"--back-offset {dx:g},{dy:g} is larger than the {b:g} mm bleed of a one-card page",
                    hint="a one-card page has no margin to move the back into; use an offset within the bleed",
                )
            pages.append(Page(pw, ph, "back", i + 1, (Placement(back, "back", i, moved, full, spec.bleed, rotation),),
                              trim_box=trim, bleed_box=full))
    return pages


FOOTER_SIZE = 6.0  # pt
ASCENT, DESCENT = 0.76, 0.24  # of the font size: how far the footer font reaches above and below its baseline
PT = 25.4 / 72  # mm per point


def with_footer(pages: Sequence[Page], text: str, margin: float = 5.0) -> list[Page]:
    """Pages with `text` and the page number set in a free margin band, inside the printable margin.

    The bottom margin is tried first, then the top one, then the left one (the text turned to read
    upwards, between the first row's crop marks). A page with no band wide enough gets no footer.
    """
    out = []
    total = len(pages)
    for n, page in enumerate(pages, 1):
        label = None
        if page.trim_box is None and page.placements:  # a one-card page has no margin to print into
            label = _footer_label(page, f"{text} - page {n}/{total} ({page.side})", margin)
        out.append(replace(page, labels=page.labels + (label,)) if label else page)
    return out


def _footer_label(page: Page, text: str, margin: float) -> Label | None:
    up, down = ASCENT * FOOTER_SIZE * PT, DESCENT * FOOTER_SIZE * PT
    clear = 0.5  # mm kept from the cards' printed bleed
    lowest = min(p.clip.y for p in page.placements)
    highest = max(p.clip.top for p in page.placements)
    leftmost = min(p.clip.x for p in page.placements)
    column = min((p.trim for p in page.placements), key=lambda r: (r.x, -r.y))
    # Left-aligned from the first column: across the page where no mark runs through the band, else
    # within that column, between its crop marks (a token's column is narrow: the text would shrink).
    x = column.x + 2
    if lowest - margin >= up + down + clear:
        return Label(x, margin + down, text, FOOTER_SIZE, "left", _footer_width(page, x, margin, margin + up + down, column))
    if page.height - margin - highest >= up + down + clear:
        top = page.height - margin
        return Label(x, top - up, text, FOOTER_SIZE, "left", _footer_width(page, x, margin, top, column, top - up - down))
    if leftmost - margin >= up + down + clear:
        row = min((p.trim for p in page.placements), key=lambda r: (r.y, r.x))
        return Label(margin + up, row.y + 2, text, FOOTER_SIZE, "left", row.h - 4, angle=90)
    return None


def _footer_width(page: Page, x: float, margin: float, top: float, column: Rect, bottom: float | None = None) -> float:
    """How wide a footer starting at `x` may run in the band from `bottom` (default: the margin) to
    `top`: to the right margin when no mark or cut line crosses that band, else the first column."""
    bottom = margin if bottom is None else bottom
    right = page.width - margin
    for ln in page.lines:
        lo, hi = sorted((ln.y1, ln.y2))
        if hi > bottom and lo < top and max(ln.x1, ln.x2) > x:
            right = min(right, max(min(ln.x1, ln.x2), column.right - 2))
    return max(column.w - 4, right - 1 - x)
