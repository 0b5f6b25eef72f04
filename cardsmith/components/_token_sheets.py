"""Printed pages for boards and tokens, as pure geometry (`cardsmith.printing.imposition` pages; `cardsmith.printing.pdf` draws them).

- `tiled_board`: a board larger than the paper, cut into tiles that overlap by `overlap` mm. Tiles
  are named by column letter and row number (A1 top-left). A tile is laid over its left and upper
  neighbours: cut it along the edge of its picture on those sides and lay that edge on the
  neighbour's join marks ("B1 joins A1 here"). All marks and labels are in the page margins,
  outside the board, and at least `EDGE` mm from the page edge. An assembly guide comes first.
- `board_page`: the whole board on one page of its own size plus bleed (TrimBox and BleedBox).
- `token_pages`: as many tokens per sheet as fit (the card grid of `cardsmith.printing.imposition`), crop marks
  for square tokens, cut guides round each round or hex token (drawn just outside its trim), and
  duplex backs placed by `cardsmith.printing.imposition.impose`, the one mapping card backs use too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from cardsmith.components.geometry import column_name, hex_outline
from cardsmith.base.errors import CardsmithError
from cardsmith.printing.imposition import Label, Line, Page, Placement, Rect, SheetSpec, impose

EDGE = 5.0  # mm: nothing printed nearer the page edge
SIDE_MARGIN = 12.0  # mm round a tile's picture: join marks and short tags sit in it
TOP_MARGIN = 17.0  # mm above a tile's picture: the tile's label line and the join marks
MARK_GAP = 1.0  # mm between the picture and a mark
MARK_LENGTH = 4.0  # mm
LABEL_PT = 7.0
GUIDE_OUTSET = 0.1  # mm: a round or hex cut guide is drawn this far outside the trim, so no ink is left on the token


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: its name, column and row, and the part of the board it shows
    (mm from the board's trim top-left, y down; the board's bleed is at negative values and past its size)."""

    name: str
    col: int
    row: int
    x0: float
    y0: float
    x1: float
    y1: float


def _spans(total: float, room: float, overlap: float) -> list[tuple[float, float]]:
    """Intervals of at most `room` mm covering [0, total], each overlapping the one before by `overlap`
    (the last may be shorter)."""
    if total <= room:
        return [(0.0, total)]
    if room <= overlap:
        raise CardsmithError(f"the overlap of {overlap:g} mm leaves no room on the page for a tile",
                             hint="use a smaller --overlap or larger paper")
    step = room - overlap
    n = math.ceil((total - overlap) / step - 1e-9)
    return [(i * step, min(i * step + room, total)) for i in range(n)]


def plan_tiles(size: tuple[float, float], bleed: float, paper: tuple[float, float], overlap: float,
               orientation: str = "auto") -> tuple[tuple[float, float], list[Tile]]:
    """The page size (orientation with the fewest tiles; portrait on a tie) and the tiles, row by row."""
    w, h = size
    short, long_ = sorted(paper)
    options = {"portrait": [(short, long_)], "landscape": [(long_, short)]}.get(orientation, [(short, long_), (long_, short)])
    best: tuple[int, tuple[float, float], list[Tile]] | None = None
    for pw, ph in options:
        room_w, room_h = pw - 2 * SIDE_MARGIN, ph - TOP_MARGIN - SIDE_MARGIN
        xs = _spans(w + 2 * bleed, room_w, overlap)
        ys = _spans(h + 2 * bleed, room_h, overlap)
        tiles = [Tile(f"{column_name(c)}{r + 1}", c, r, x0 - bleed, y0 - bleed, x1 - bleed, y1 - bleed)
                 for r, (y0, y1) in enumerate(ys) for c, (x0, x1) in enumerate(xs)]
        if best is None or len(tiles) < best[0]:
            best = (len(tiles), (pw, ph), tiles)
    assert best is not None
    return best[1], best[2]


def tiled_board(key: str, name: str, size: tuple[float, float], bleed: float, paper: tuple[float, float],
                overlap: float = 10.0, orientation: str = "auto", guide: bool = True) -> list[Page]:
    """An assembly guide (when there is more than one tile) and one page per tile, A1 first."""
    (pw, ph), tiles = plan_tiles(size, bleed, paper, overlap, orientation)
    cols = max(t.col for t in tiles) + 1
    rows = max(t.row for t in tiles) + 1
    by_pos = {(t.col, t.row): t for t in tiles}
    pages = [_guide_page(key, name, size, bleed, (pw, ph), tiles)] if guide and len(tiles) > 1 else []
    for n, t in enumerate(tiles, 1):
        tw, th = t.x1 - t.x0, t.y1 - t.y0
        left = (pw - tw) / 2
        top = ph - TOP_MARGIN - (ph - TOP_MARGIN - SIDE_MARGIN - th) / 2  # page y of the picture's top edge

        def px(bx: float) -> float:
            return left + bx - t.x0

        def py(by: float) -> float:
            return top - (by - t.y0)

        trim = Rect(px(0), py(size[1]), size[0], size[1])
        clip = Rect(left, top - th, tw, th)
        placement = Placement(key, "front", 0, trim, clip, bleed)
        lines, labels = _tile_marks(t, by_pos, size, clip, px, py, (pw, ph))
        notes = []
        if (t.col + 1, t.row) in by_pos:
            notes.append(f"{by_pos[t.col + 1, t.row].name} joins on the right")
        if (t.col, t.row + 1) in by_pos:
            notes.append(f"{by_pos[t.col, t.row + 1].name} joins below")
        cuts = [w for w, ok in (("left", t.col > 0), ("top", t.row > 0)) if ok]
        if cuts:
            notes.append(f"cut this tile along its picture's {' and '.join(cuts)} edge")
        head = f"{name} - tile {t.name} ({n} of {len(tiles)}, {cols} x {rows})" + (": " + "; ".join(notes) if notes else "")
        labels.append(Label(SIDE_MARGIN, ph - EDGE - 3.0, head, LABEL_PT, "left", pw - 2 * SIDE_MARGIN))
        pages.append(Page(pw, ph, "front", n, (placement,), tuple(lines), tuple(labels)))
    return pages


def _tile_marks(t: Tile, by_pos: dict, size: tuple[float, float], clip: Rect, px, py,
                page: tuple[float, float]) -> tuple[list[Line], list[Label]]:
    """Join marks where a neighbour's edge goes, cut marks where this tile is cut, crop marks at the board's trim."""
    lines: list[Line] = []
    labels: list[Label] = []
    below, above = clip.y - MARK_GAP, clip.top + MARK_GAP
    before, after = clip.x - MARK_GAP, clip.right + MARK_GAP

    def vertical(x: float) -> None:  # marks above and below the picture at page x
        lines.append(Line(x, above, x, above + MARK_LENGTH, "guide"))
        lines.append(Line(x, below, x, below - MARK_LENGTH, "guide"))

    def horizontal(y: float) -> None:  # marks left and right of the picture at page y
        lines.append(Line(before, y, before - MARK_LENGTH, y, "guide"))
        lines.append(Line(after, y, after + MARK_LENGTH, y, "guide"))

    right = by_pos.get((t.col + 1, t.row))
    if right is not None:
        x = px(right.x0)
        vertical(x)
        for y in (above + 1.0, below - LABEL_PT * 0.3528 - 1.0):
            labels.append(Label(x - 1.0, y, f"{right.name} joins {t.name} here", LABEL_PT, "right"))
    lower = by_pos.get((t.col, t.row + 1))
    if lower is not None:
        y = py(lower.y0)
        horizontal(y)
        for x, anchor in ((before - 0.5, "right"), (after + 0.5, "left")):
            labels.append(Label(x, y + 1.0, f"{lower.name}", LABEL_PT, anchor))
            labels.append(Label(x, y - 1.0 - LABEL_PT * 0.3528, "joins", 6.0, anchor))
    if t.col > 0:
        vertical(clip.x)
        labels.append(Label(clip.x + 1.0, above + 1.0, "cut", LABEL_PT, "left"))
    if t.row > 0:
        horizontal(clip.top)
        labels.append(Label(after + 0.5, clip.top - 1.0 - LABEL_PT * 0.3528, "cut", LABEL_PT, "left"))
    # crop marks at the board's own trim where this tile shows it
    for bx in (0.0, size[0]):
        if t.x0 - 1e-6 <= bx <= t.x1 + 1e-6:
            vertical(px(bx))
    for by in (0.0, size[1]):
        if t.y0 - 1e-6 <= by <= t.y1 + 1e-6:
            horizontal(py(by))
    pw, ph = page
    return [_inside(line, pw, ph) for line in lines], labels


def _inside(line: Line, pw: float, ph: float) -> Line:
    """A mark shortened so it keeps EDGE mm from every page edge."""
    def cx(v: float) -> float:
        return min(max(v, EDGE), pw - EDGE)

    def cy(v: float) -> float:
        return min(max(v, EDGE), ph - EDGE)

    return Line(cx(line.x1), cy(line.y1), cx(line.x2), cy(line.y2), line.kind)


def _guide_page(key: str, name: str, size: tuple[float, float], bleed: float, page: tuple[float, float],
                tiles: Sequence[Tile]) -> Page:
    """The whole board scaled into the top half of the page, and below it a plan of the tiles, each named."""
    pw, ph = page
    room_w = pw - 2 * SIDE_MARGIN
    room_h = (ph - TOP_MARGIN - SIDE_MARGIN - 20) / 2
    full_w, full_h = size[0] + 2 * bleed, size[1] + 2 * bleed
    s = min(room_w / full_w, room_h / full_h)
    left = (pw - full_w * s) / 2 + bleed * s

    def at(top: float) -> tuple:
        return (lambda bx: left + bx * s), (lambda by: top - by * s)

    px, py = at(ph - TOP_MARGIN - bleed * s)
    trim = Rect(px(0), py(size[1]), size[0] * s, size[1] * s)
    placement = Placement(key, "front", 0, trim, trim.grown(*(bleed * s,) * 4), bleed * s)
    qx, qy = at(ph - TOP_MARGIN - room_h - 10 - bleed * s)  # the plan, below the picture
    lines = [Line(qx(0), qy(0), qx(size[0]), qy(0), "cut"), Line(qx(size[0]), qy(0), qx(size[0]), qy(size[1]), "cut"),
             Line(qx(size[0]), qy(size[1]), qx(0), qy(size[1]), "cut"), Line(qx(0), qy(size[1]), qx(0), qy(0), "cut")]
    labels = []
    cols, rows = max(t.col for t in tiles) + 1, max(t.row for t in tiles) + 1
    for t in tiles:
        x0, x1, y0, y1 = qx(t.x0), qx(t.x1), qy(t.y1), qy(t.y0)
        lines += [Line(x0, y0, x1, y0, "guide"), Line(x1, y0, x1, y1, "guide"), Line(x1, y1, x0, y1, "guide"),
                  Line(x0, y1, x0, y0, "guide")]
        # name each tile in the part of it no neighbour covers
        fx = 0.5 if cols == 1 or 0 < t.col < cols - 1 else (0.2 if t.col == 0 else 0.8)
        fy = 0.5 if rows == 1 or 0 < t.row < rows - 1 else (0.8 if t.row == 0 else 0.2)
        labels.append(Label(x0 + fx * (x1 - x0), y0 + fy * (y1 - y0) - 1.5, t.name, 10.0))
    labels += [Label(SIDE_MARGIN, ph - EDGE - 3.0, f"{name} - assembly guide: {len(tiles)} tiles", 9.0, "left", room_w),
               Label(SIDE_MARGIN, qy(size[1]) - 8.0,
                     "Cut each tile along its picture's left and top edges where it has a neighbour there, "
                     "and lay that edge on the neighbour's join marks.", LABEL_PT, "left", room_w)]
    return Page(pw, ph, "guide", 0, (placement,), tuple(lines), tuple(labels))


def board_page(key: str, size: tuple[float, float], bleed: float) -> list[Page]:
    """The board on one page of its trim size plus bleed, with TrimBox and BleedBox (for a print shop or plotter)."""
    return impose(SheetSpec(card=size, bleed=bleed, layout="single"), [(key, None)])


# ---- tokens -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TokenSheetSpec:
    """How to print one token kind."""

    size: tuple[float, float]
    shape: str  # round, square or hex
    bleed: float
    paper: tuple[float, float]
    orientation: str = "auto"  # the page: auto, portrait or landscape
    hex_orientation: str = "pointy"
    backs: str = "none"  # none, long, short (duplex flip edge, as for cards)
    back_offset: tuple[float, float] = (0.0, 0.0)
    margin: float = EDGE
    gutter: float | None = None  # default: none for squares (shared cuts), two bleeds for round and hex tokens


def token_pages(spec: TokenSheetSpec, items: Sequence[tuple[str, str | None]]) -> list[Page]:
    """Sheets of tokens, each item (front key, back key or None) once, fronts and duplex backs alternating."""
    gutter = spec.gutter if spec.gutter is not None else (0.0 if spec.shape == "square" else 2 * spec.bleed)
    (w, h), (short, long_) = spec.size, sorted(spec.paper)
    room = (short - 2 * spec.margin, long_ - 2 * spec.margin)
    if not (w <= room[0] and h <= room[1]) and not (h <= room[0] and w <= room[1]):
        raise CardsmithError(f"a {w:g} x {h:g} mm token does not fit on {short:g} x {long_:g} mm paper with "
                             f"{spec.margin:g} mm margins", hint="choose larger paper (--paper a3) or make the token smaller")
    sheet = SheetSpec(card=spec.size, bleed=spec.bleed, layout="grid", paper=spec.paper, orientation=spec.orientation,
                      gutter=gutter, margin=spec.margin, crop_marks=spec.shape == "square", backs=spec.backs,
                      back_offset=spec.back_offset)
    pages = impose(sheet, items)
    if spec.shape == "square":
        return pages
    out = []
    for page in pages:
        if page.side == "front":
            guides = tuple(g for p in page.placements for g in cut_guide(p.trim, spec.shape, spec.hex_orientation))
            page = replace(page, lines=page.lines + guides)
        out.append(page)
    return out


def cut_guide(trim: Rect, shape: str, hex_orientation: str = "pointy", segments: int = 120) -> list[Line]:
    """Thin cut lines round a round or hex token, just outside its trim."""
    cx, cy = trim.x + trim.w / 2, trim.y + trim.h / 2
    if shape == "round":
        r = min(trim.w, trim.h) / 2 + GUIDE_OUTSET
        pts = [(cx + r * math.cos(2 * math.pi * i / segments), cy + r * math.sin(2 * math.pi * i / segments))
               for i in range(segments)]
    else:
        k = (min(trim.w, trim.h) / 2 + GUIDE_OUTSET) / (min(trim.w, trim.h) / 2)
        # outline corners are y-down from the box's top-left; the page is y-up
        pts = [(cx + (x - trim.w / 2) * k, cy - (y - trim.h / 2) * k) for x, y in hex_outline(trim.w, trim.h, hex_orientation)]
    return [Line(*pts[i], *pts[(i + 1) % len(pts)], "cut") for i in range(len(pts))]
