"""Units and boxes of the layout language: what a designer writes and where it lands."""

import pytest
from hypothesis import given, strategies as st

from cardsmith.layout._boxes import Box, UnitError, font_size_pt, offset_mm, parse_box, parse_length, parse_point, to_mm

TRIM = (63.5, 88.9)


@pytest.mark.parametrize("text, mm", [("3mm", 3.0), ("1in", 25.4), ("0.125in", 3.175), ("72pt", 25.4), ("300px", 25.4),
                                      ("1cm", 10.0), ("12", 12.0), (4, 4.0), (" 2.5 mm ", 2.5), (".5mm", 0.5)])
def test_lengths_in_every_unit(text, mm):
    assert to_mm(text) == pytest.approx(mm)


def test_percent_is_a_share_of_the_axis():
    assert to_mm("50%", 63.5) == pytest.approx(31.75)


def test_negative_positions_count_from_the_far_edge():
    box = parse_box(["4mm", "10%", "-4mm", "-0"], TRIM)
    assert box == Box(4, pytest.approx(8.89), pytest.approx(59.5), pytest.approx(88.9))
    assert parse_point(["-1in", "-50%"], TRIM) == (pytest.approx(63.5 - 25.4), pytest.approx(44.45))


def test_box_map_form():
    box = parse_box({"x": "5mm", "y": "-20mm", "w": "10mm", "h": "8mm"}, TRIM)
    assert (box.left, box.top, box.width, box.height) == (5, pytest.approx(68.9), 10, pytest.approx(8))


@pytest.mark.parametrize("value", ["3 apples", "mm", "--3mm", "3mmm", True, None, "3px2"])
def test_bad_lengths_say_what_is_allowed(value):
    with pytest.raises(UnitError, match="length|box"):
        parse_length(value) if not isinstance(value, type(None)) else parse_box(value, TRIM)


def test_a_box_with_negative_size_is_refused():
    with pytest.raises(UnitError, match="negative size"):
        parse_box(["40mm", "10mm", "20mm", "30mm"], TRIM)
    with pytest.raises(UnitError, match="negative size"):
        to_mm("-3mm")


def test_an_offset_that_is_no_length_is_refused_in_words():
    assert offset_mm("-2mm") == -2 and offset_mm(1.5) == 1.5 and offset_mm(-3) == -3
    for bad in ([1], None, {"x": "2mm"}):  # e.g. `move: [[1], 2mm]` in a layout: was a TypeError
        with pytest.raises(UnitError, match="not a length"):
            offset_mm(bad)


def test_font_sizes():
    assert font_size_pt("9pt") == pytest.approx(9)
    assert font_size_pt(12) == 12
    assert font_size_pt("25.4mm") == pytest.approx(72)
    for bad in ("0pt", "50%", -3):
        with pytest.raises(UnitError):
            font_size_pt(bad)


@given(st.floats(0, 200), st.sampled_from(["mm", "in", "pt", "px"]))
def test_far_edge_and_near_edge_agree(value, unit):
    near = parse_box([f"{value}{unit}", 0, "100%", "100%"], (300.0, 300.0)) if to_mm(f"{value}{unit}") <= 300 else None
    if near is None:
        return
    far = parse_box([0, 0, f"-{value}{unit}", "100%"], (300.0, 300.0))
    assert near.left == pytest.approx(300 - far.right, abs=1e-9)
