"""Lengths and boxes: `3mm`, `0.125in`, `9pt`, `40px`, `50%`, measured from the trim.

A bare number is millimetres. `px` is a pixel at 300 dpi (so a layout looks the same at any
output dpi). `%` is a share of the trim width (x) or height (y). A negative value is measured from
the far edge (`-4mm` is 4 mm inside the right or bottom edge; `-0` is the edge itself).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardsmith.base.limits import MAX_LAYOUT_MM, MAX_TEXT_PT

from cardsmith.sets.lengths import MM_PER_UNIT, UnitError, parse_length, to_mm  # noqa: F401 (the one parser; re-exported for layouts)

_BOXES: dict[tuple, "Box"] = {}  # the same few boxes recur on every card: build each once


def pt_to_px(pt: float, dpi: float) -> float:
    return pt / 72.0 * dpi


def _bounded(mm: float, value: object) -> float:
    """`mm` when it is a number a layout can mean (not .nan, .inf or 1e308mm, which no card holds)."""
    if not math.isfinite(mm) or abs(mm) > MAX_LAYOUT_MM:
        raise UnitError(f"length {value!r} is beyond any card (at most {MAX_LAYOUT_MM:g} mm either way)")
    return mm


def coordinate_mm(value: object, extent_mm: float) -> float:
    """A position along an axis of length `extent_mm`, from the near edge (negative: from the far edge)."""
    length = parse_length(value)
    mm = _bounded(length.mm(extent_mm), value)
    return extent_mm - mm if length.from_end else mm


@dataclass(frozen=True)
class Box:
    """A rectangle in millimetres from the trim's top-left corner."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def inset(self, dx: float, dy: float | None = None) -> "Box":
        dy = dx if dy is None else dy
        return Box(self.left + dx, self.top + dy, self.right - dx, self.bottom - dy)

    def contains(self, other: "Box", tolerance: float = 1e-6) -> bool:
        return (other.left >= self.left - tolerance and other.top >= self.top - tolerance
                and other.right <= self.right + tolerance and other.bottom <= self.bottom + tolerance)


def parse_box(value: object, trim_mm: tuple[float, float]) -> Box:
    """`[left, top, right, bottom]` (negative = from the far edge) or `{x, y, w, h}` into a Box.

    A box whose right edge is left of its left edge (or bottom above top) is an error.
    """
    if isinstance(value, list) and len(value) == 4 and all(type(v) in (str, int, float) for v in value):
        key = (tuple((type(v), v) for v in value), tuple(trim_mm))  # the type keeps True apart from 1
        box = _BOXES.get(key)
        if box is None:
            box = _parse_box(value, trim_mm)
            if len(_BOXES) > 10_000:
                _BOXES.clear()
            _BOXES[key] = box
        return box
    return _parse_box(value, trim_mm)


def _parse_box(value: object, trim_mm: tuple[float, float]) -> Box:
    w, h = trim_mm
    if isinstance(value, dict):
        unknown = set(value) - {"x", "y", "w", "h"}
        if unknown or not {"x", "y", "w", "h"} <= set(value):
            raise UnitError("a box map needs exactly x, y, w and h, e.g. {x: 4mm, y: 4mm, w: 20mm, h: 8mm}")
        left, top = coordinate_mm(value["x"], w), coordinate_mm(value["y"], h)
        box = Box(left, top, left + _bounded(to_mm(value["w"], w), value["w"]), top + _bounded(to_mm(value["h"], h), value["h"]))
    elif isinstance(value, (list, tuple)) and len(value) == 4:
        box = Box(coordinate_mm(value[0], w), coordinate_mm(value[1], h),
                  coordinate_mm(value[2], w), coordinate_mm(value[3], h))
    else:
        raise UnitError(f"a box is [left, top, right, bottom], e.g. [4mm, 4mm, -4mm, 12mm]; got {value!r}")
    if box.width < -1e-9 or box.height < -1e-9:
        raise UnitError(f"box {list(value) if not isinstance(value, dict) else value} has a negative size "
                        f"({box.width:.2f} x {box.height:.2f} mm): its right/bottom edge comes before its left/top edge")
    return box


def parse_point(value: object, trim_mm: tuple[float, float]) -> tuple[float, float]:
    """`[x, y]` into millimetres from the trim's top-left corner."""
    if not (isinstance(value, (list, tuple)) and len(value) == 2):
        raise UnitError(f"a point is [x, y], e.g. [4mm, 10mm]; got {value!r}")
    return coordinate_mm(value[0], trim_mm[0]), coordinate_mm(value[1], trim_mm[1])


def font_size_pt(value: object) -> float:
    """A text size in points (`9pt`, `3mm`, or a bare number of points)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not value > 0:
            raise UnitError(f"text size {value} must be more than zero")
        pt = float(value)
    else:
        length = parse_length(value)
        if length.unit == "%":
            raise UnitError(f"text size '{value}' cannot be a percentage: use pt or mm")
        if length.from_end or length.value == 0:
            raise UnitError(f"text size '{value}' must be more than zero")
        pt = length.mm() / MM_PER_UNIT["pt"]
    if not pt <= MAX_TEXT_PT:  # FreeType refuses larger, and the message then blamed the font
        raise UnitError(f"text size '{value}' is more than {MAX_TEXT_PT:g} pt (letters taller than any card)")
    return pt


def offset_mm(value: object) -> float:
    """A signed length (`-2mm`, `1.5`): how far to move something, not a coordinate."""
    if not isinstance(value, (str, int, float)):
        return to_mm(value)  # not a length at all: to_mm raises the UnitError that says so
    text = str(value).strip()
    sign = -1.0 if text.startswith("-") else 1.0
    return sign * _bounded(to_mm(text.lstrip("-").strip() if isinstance(value, str) else abs(float(value))), value)


def _move(props: dict) -> tuple[float, float]:
    move = props.get("move")
    if not move:
        return 0.0, 0.0
    if not (isinstance(move, (list, tuple)) and len(move) == 2):
        raise UnitError(f"move is [x, y], e.g. [0, 2mm]; got {move!r}")
    return offset_mm(move[0]), offset_mm(move[1])


def layer_box(props: dict, trim_mm: tuple[float, float]) -> Box:
    """A layer's `box`, shifted by its `move: [x, y]` (so a child layout moves it without restating it)."""
    box = parse_box(props["box"], trim_mm)
    dx, dy = _move(props)
    return Box(box.left + dx, box.top + dy, box.right + dx, box.bottom + dy) if dx or dy else box


def layer_points(props: dict, trim_mm: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """A line layer's `from` and `to`, shifted by its `move`."""
    (ax, ay), (bx, by) = parse_point(props["from"], trim_mm), parse_point(props["to"], trim_mm)
    dx, dy = _move(props)
    return (ax + dx, ay + dy), (bx + dx, by + dy)
