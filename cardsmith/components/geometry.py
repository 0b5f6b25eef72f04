"""Grid maths for boards: hex grids (pointy or flat, a rectangle or a hexagon of hexes), square grids
and tracks. Everything is in millimetres, y down, measured from the board's trim top-left corner.

Hex rectangles use "odd" offset coordinates (pointy: odd rows shift half a hex right; flat: odd
columns shift half a hex down) and are labelled column letter + row number (`A1`, `C4`); a hexagon
of hexes (`radius`) uses axial coordinates `q,r` with the centre at `0,0`. See
https://www.redblobgames.com/grids/hexagons/ for the conventions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (as spreadsheets name columns)."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


column_name = column_letter  # 0 -> A, 26 -> AA: tiles and cells are named like spreadsheet columns


@dataclass(frozen=True)
class RawCell:
    """A cell before it is placed on the board: label, coordinate, centre and outline round (0, 0)."""

    label: str
    coord: tuple[int, ...]
    x: float
    y: float
    points: tuple[tuple[float, float], ...]


def hex_corners(cx: float, cy: float, flats: float, orientation: str) -> tuple[tuple[float, float], ...]:
    """The six corners of a hex `flats` mm across its flat sides, clockwise from the top (pointy)
    or from the right (flat)."""
    radius = flats / SQRT3  # centre to corner
    start = -90 if orientation == "pointy" else 0
    return tuple((round(cx + radius * math.cos(math.radians(start + 60 * i)), 6),
                  round(cy + radius * math.sin(math.radians(start + 60 * i)), 6)) for i in range(6))


def hex_rectangle(cols: int, rows: int, flats: float, orientation: str) -> list[RawCell]:
    """`cols` x `rows` hexes in odd offset coordinates, labelled `A1`... row by row."""
    out = []
    for r in range(rows):
        for c in range(cols):
            if orientation == "pointy":
                x = flats * (c + 0.5 * (r & 1))
                y = r * flats * SQRT3 / 2
            else:
                x = c * flats * SQRT3 / 2
                y = flats * (r + 0.5 * (c & 1))
            out.append(RawCell(f"{column_name(c)}{r + 1}", (c, r), x, y, hex_corners(x, y, flats, orientation)))
    return out


def hex_radius(radius: int, flats: float, orientation: str) -> list[RawCell]:
    """Every hex within `radius` steps of the centre (1 + 3n(n+1) of them), in axial `q,r`, row by row."""
    out = []
    for r in range(-radius, radius + 1):
        for q in range(-radius, radius + 1):
            if abs(q + r) > radius:
                continue
            if orientation == "pointy":
                x, y = flats * (q + r / 2), flats * SQRT3 / 2 * r
            else:
                x, y = flats * SQRT3 / 2 * q, flats * (r + q / 2)
            out.append(RawCell(f"{q},{r}", (q, r), x, y, hex_corners(x, y, flats, orientation)))
    out.sort(key=lambda c: (round(c.y, 6), round(c.x, 6)))
    return out


def square_cell(label: str, coord: tuple[int, ...], col: int, row: int, side: float, gap: float = 0.0) -> RawCell:
    x, y = col * (side + gap) + side / 2, row * (side + gap) + side / 2
    h = side / 2
    return RawCell(label, coord, x, y, ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)))


def square_grid(cols: int, rows: int, side: float) -> list[RawCell]:
    """`cols` x `rows` squares labelled `A1`... row by row."""
    return [square_cell(f"{column_name(c)}{r + 1}", (c, r), c, r, side) for r in range(rows) for c in range(cols)]


def perimeter_length(cols: int, rows: int) -> int:
    """How many spaces run round the edge of a `cols` x `rows` rectangle."""
    if cols == 1 or rows == 1:
        return cols * rows
    return 2 * (cols + rows) - 4


def track_positions(count: int, cols: int, rows: int, path: str) -> list[tuple[int, int]]:
    """Grid positions (column, row) of `count` track spaces in order.

    `line` fills rows left to right; `snake` turns back at the end of each row; `perimeter` runs
    clockwise round the edge of `cols` x `rows` from the top-left corner (a scoring track).
    """
    if path == "perimeter":
        ring = [(c, 0) for c in range(cols)] + [(cols - 1, r) for r in range(1, rows)]
        if rows > 1:
            ring += [(c, rows - 1) for c in range(cols - 2, -1, -1)]
        if cols > 1:
            ring += [(0, r) for r in range(rows - 2, 0, -1)]
        return ring[:count]
    out = []
    for i in range(count):
        r, c = divmod(i, cols)
        if path == "snake" and r % 2:
            c = cols - 1 - c
        out.append((c, r))
    return out


def track(start: int, end: int, cols: int, rows: int, side: float, path: str, gap: float = 0.0) -> list[RawCell]:
    """Spaces numbered `start`..`end` (either way round) laid out along `path`."""
    step = 1 if end >= start else -1
    numbers = list(range(start, end + step, step))
    return [square_cell(str(n), (n,), c, r, side, gap)
            for n, (c, r) in zip(numbers, track_positions(len(numbers), cols, rows, path))]


def placed(cells: list[RawCell], margin: float) -> tuple[list[RawCell], tuple[float, float]]:
    """Cells moved so their outlines start `margin` mm inside the board, and the board's size."""
    xs = [p[0] for c in cells for p in c.points]
    ys = [p[1] for c in cells for p in c.points]
    dx, dy = margin - min(xs), margin - min(ys)
    moved = [RawCell(c.label, c.coord, round(c.x + dx, 6), round(c.y + dy, 6),
                     tuple((round(px + dx, 6), round(py + dy, 6)) for px, py in c.points)) for c in cells]
    return moved, (round(max(xs) - min(xs) + 2 * margin, 6), round(max(ys) - min(ys) + 2 * margin, 6))


def hex_outline(w: float, h: float, orientation: str) -> tuple[tuple[float, float], ...]:
    """A hex token filling a w x h box: pointy (corner up) or flat (corner right), in mm from its top-left."""
    cx, cy = w / 2, h / 2
    if orientation == "pointy":
        return ((cx, 0.0), (w, h / 4), (w, 3 * h / 4), (cx, h), (0.0, 3 * h / 4), (0.0, h / 4))
    return ((w, cy), (3 * w / 4, h), (w / 4, h), (0.0, cy), (w / 4, 0.0), (3 * w / 4, 0.0))
