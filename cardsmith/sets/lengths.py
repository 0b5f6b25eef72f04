"""Physical lengths written by designers (`3mm`, `0.125in`, `9pt`, `40px`, `50%`) and named card sizes.

One parser serves set.yaml (card size, bleed, safe area), layouts (`cardsmith.layout._boxes` builds
boxes on it) and print settings. A bare number is millimetres; `px` is a pixel at 300 dpi (so a
layout looks the same at any output dpi); `%` is a share of a reference length; a leading `-`
marks a length counted from the far edge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "px": 25.4 / 300}

# Trim sizes in mm (width, height), portrait. See shared/reference/print-and-export.md.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (69.85, 120.65),
    "mini-euro": (44.0, 67.0),
    "mini-american": (41.275, 63.5),
    "square": (63.5, 63.5),
    "square-large": (88.9, 88.9),
    "business": (50.8, 88.9),
}

# numbers may carry an exponent, because a layout's arithmetic can print 1e-06
_LENGTH = re.compile(r"^\s*(-)?\s*((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(mm|cm|in|pt|px|%)?\s*$")


class UnitError(ValueError):
    """A length that cannot be read; the message says what was given and what is allowed."""


LengthError = UnitError


@dataclass(frozen=True)
class Length:
    """A parsed length: magnitude, unit, and whether it counts from the far edge."""

    value: float
    unit: str  # mm, cm, in, pt, px or %
    from_end: bool = False

    def mm(self, reference_mm: float = 0.0) -> float:
        """The magnitude in millimetres (`%` of `reference_mm`), ignoring `from_end`."""
        if self.unit == "%":
            return self.value / 100.0 * reference_mm
        return self.value * MM_PER_UNIT[self.unit]


_PARSED: dict[str, Length] = {}  # the same few lengths recur on every card: read each once


def parse_length(value: object) -> Length:
    """Read `3mm`, `-4mm`, `50%`, `12` (mm) or a number."""
    if isinstance(value, bool):
        raise UnitError(f"expected a length such as 3mm, got {value!r}")
    if isinstance(value, (int, float)):
        return Length(abs(float(value)), "mm", value < 0)
    if isinstance(value, str):
        hit = _PARSED.get(value)
        if hit is not None:
            return hit
        m = _LENGTH.match(value)
        if m:
            if len(_PARSED) > 10_000:
                _PARSED.clear()
            length = _PARSED[value] = Length(float(m.group(2)), m.group(3) or "mm", bool(m.group(1)))
            return length
    raise UnitError(f"'{value}' is not a length: write a number with a unit, such as 3mm, 0.125in, 9pt, 40px or 50%")


def to_mm(value: object, reference_mm: float = 0.0) -> float:
    """A size (never counted from an edge) in millimetres; negative sizes are refused."""
    length = parse_length(value)
    if length.from_end:
        raise UnitError(f"'{value}' is a negative size: sizes must be zero or more")
    return length.mm(reference_mm)


def parse_length_mm(value: object) -> float:
    """An absolute, non-negative length in millimetres (no `%`: set.yaml sizes have no reference)."""
    if parse_length(value).unit == "%":
        raise UnitError(f"'{value}' is a percentage: give this length in mm, in, pt or px")
    return to_mm(value)
