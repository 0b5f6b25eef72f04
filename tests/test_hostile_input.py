"""Hostile input: each case is an error naming the file (exit 1), quickly, with nothing written outside output/."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from cardsmith.base.errors import CardsmithError
from cardsmith.base.limits import MAX_PRINTED
from cardsmith.sets.validate import check_set


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _errors(set_dir: Path) -> list:
    cardset, diags = check_set(set_dir)
    assert cardset is None
    return [d for d in diags if d.is_error]


def test_a_name_nested_thousands_of_levels_deep_is_an_error_not_a_recursion_crash(demo_set, cli):
    _edit(demo_set / "cards.yaml", "name: Dawn Scout", "name: " + "[" * 5000 + "x" + "]" * 5000)
    (err,) = _errors(demo_set)
    assert err.file.name == "cards.yaml" and err.line == 6 and "nested more than 100 levels" in err.message
    r = cli("validate", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and "cards.yaml:6" in r.stderr + r.stdout and "RecursionError" not in r.stderr


def test_nesting_within_the_limit_is_still_read():
    from cardsmith.sets.loader import parse_yaml

    assert parse_yaml("a: " + "[" * 99 + "1" + "]" * 99).data["a"] is not None


def test_a_huge_copies_count_is_refused_at_validation(demo_set, cli):
    _edit(demo_set / "cards.yaml", "    cost: 1\n", "    cost: 1\n    copies: 1000000000000\n")
    (err,) = _errors(demo_set)
    assert err.file.name == "cards.yaml" and "copies" in err.message and "999" in err.message
    project = demo_set.parent.parent
    for args in (("pdf", "demo"), ("export", "demo", "--tts")):
        r = cli(*args, cwd=project)
        assert r.returncode == 1 and "cards.yaml" in r.stderr
    assert not (project / "output").exists() or not any((project / "output").rglob("*.pdf"))


@pytest.mark.parametrize("old,new,words", [
    ("card_size: poker ", "card_size: {width: 63000, height: 88} ", "larger than"),
    ("bleed: 0.125in", "bleed: 5000mm", "bleed of 5000 mm"),
])
def test_sizes_beyond_reason_are_refused_at_validation(demo_set, old, new, words):
    _edit(demo_set / "set.yaml", old, new)
    errors = _errors(demo_set)
    assert any(words in e.message and e.file.name == "set.yaml" for e in errors), errors


def test_a_deck_of_more_cards_than_any_table_holds_is_refused(demo_set):
    from cardsmith.decks import load_deck
    from cardsmith.decks.files import DeckFileError
    from cardsmith.sets.validate import load_set

    deck = demo_set / "decks" / "huge.txt"
    deck.write_text("".join(f"999x {n}\n" for n in ("Dawn Scout", "Lantern Keeper", "Night Heron", "Eclipse") * 4))
    with pytest.raises(DeckFileError) as e:
        load_deck(deck, load_set(demo_set))
    assert "huge.txt" in str(e.value) and "at most 9,999" in str(e.value)


def test_commands_that_multiply_copies_refuse_a_product_too_large_to_lay_out(tmp_path):
    from cardsmith.printing.pdf import select_items
    from tests.pdf_support import make_rendered

    manifest = make_rendered(tmp_path / "demo", n=2)

    from types import SimpleNamespace

    cards = [SimpleNamespace(id=f"card-{i:02d}", type="unit", copies=999) for i in range(2)]
    fake = SimpleNamespace(cards=cards * (MAX_PRINTED // 999))  # 20 x 999 copies of each of two cards
    with pytest.raises(CardsmithError, match="at most 20,000"):
        select_items(fake, manifest, tmp_path / "demo")


@pytest.mark.parametrize("export", [("--tts",), ("--shop", "makeplayingcards")])
def test_an_export_of_too_many_copies_is_refused_before_any_card_is_drawn(demo_set, cli, monkeypatch, export):
    """`export --tts` drew every card image and only then found the piles too large to lay out (7 s
    for a set of 86 cards with 999 copies of each ship)."""
    from cardsmith.base import limits

    monkeypatch.setattr(limits, "MAX_PRINTED", 4)  # the demo set holds 4 cards; one more copy is too many
    _edit(demo_set / "cards.yaml", "    cost: 1\n", "    cost: 1\n    copies: 2\n")
    project = demo_set.parent.parent
    r = cli("export", "demo", *export, cwd=project)
    assert r.returncode == 1 and "at most 4 at once" in r.stderr, r.stderr
    assert not list((project / "output").rglob("*.png")) if (project / "output").exists() else True


@pytest.mark.parametrize("command", [("pdf", "demo"), ("pdf", "--calibration", "--backs", "long"), ("components", "pdf", "demo")])
def test_paper_larger_than_a_pdf_page_is_a_bad_command_line(demo_set, cli, command):
    """`pdf --paper 100000x100000mm` laid out 1.8 million card slots and ran for minutes; a PDF page
    is at most 200 in (5080 mm) a side in Acrobat and most viewers."""
    from cardsmith.base.errors import UsageError
    from cardsmith.printing.paper import parse_paper

    assert parse_paper("5080x5080mm") == (5080.0, 5080.0)
    with pytest.raises(UsageError, match="at most 5080 mm"):
        parse_paper("100000x100000mm")
    project = demo_set.parent.parent
    r = cli(*command, "--paper", "100000x100000mm", cwd=project)
    assert r.returncode == 2 and "100000 x 100000 mm" in r.stderr and "at most 5080 mm" in r.stderr, r.stderr
    assert not (project / "output").exists() or not list((project / "output").rglob("*.pdf"))


def test_render_only_on_an_invalid_set_lists_its_errors_and_exits_1(demo_set, cli):
    _edit(demo_set / "cards.yaml", "    power: 1\n", "    power: many\n")
    r = cli("render", "demo", "--only", "dawn-scout", cwd=demo_set.parent.parent)
    assert r.returncode == 1, r.stderr
    assert "cards.yaml" in r.stderr and "no card" not in r.stderr


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A small PNG file that declares `width` x `height` pixels (the classic decompression bomb's header)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                     + chunk(b"IEND", b""))


@pytest.mark.parametrize("size", [(12000, 12000), (40000, 40000)])
def test_a_decompression_bomb_as_art_is_refused_at_validation(demo_set, size):
    _png_header_only(demo_set / "art" / "bomb.png", *size)
    _edit(demo_set / "cards.yaml", "    cost: 1\n", "    cost: 1\n    art: art/bomb.png\n")
    (err,) = _errors(demo_set)
    assert err.file.name == "cards.yaml" and "bomb.png" in err.message and "scale it down" in err.message


def test_a_misspelt_tag_in_a_deck_rule_is_a_warning_with_did_you_mean(demo_set):
    _edit(demo_set / "cards.yaml", "    keywords: [Swift]\n    text: When", "    keywords: [Swift]\n    tags: [off-alignment]\n    text: When")
    _edit(demo_set / "set.yaml", "  copies: 3\n", "  copies: 3\n  limits:\n    - cards: {tag: off-alignmen}\n      max: 1\n"
          "    - cards: {fields: {speed: fsat}}\n      max: 2\n    - cards: {keyword: ward}\n      max: 3\n")
    cardset, diags = check_set(demo_set)
    assert cardset is not None
    warnings = [d for d in diags if d.severity == "warning"]
    by_text = {w.message.split("'")[1]: w for w in warnings}
    assert set(by_text) == {"off-alignmen", "fsat"}, warnings  # the keyword is used by a card: no warning
    assert "off-alignment" in by_text["off-alignmen"].hint and by_text["off-alignmen"].file.name == "set.yaml"
    assert "fast" in by_text["fsat"].hint


@pytest.mark.parametrize("board", ["{grid: hex, cols: 100000, rows: 100000}", "{grid: square, cols: 100000, rows: 3}",
                                   "{grid: hex, radius: 100000}"])
def test_a_board_of_absurd_size_is_refused_before_its_cells_are_laid_out(demo_set, monkeypatch, board):
    """A board of 10**10 hexes hung validation for minutes while it laid the cells out; the schema's
    bounds (200 cells a side, radius 60) are reported without building any of them."""
    from cardsmith.components import geometry

    def refuse(*args, **kw):
        raise AssertionError(f"cells laid out for an out-of-bounds board {args}")
    for name in ("hex_rectangle", "square_grid", "hex_radius"):
        monkeypatch.setattr(geometry, name, refuse)
    (demo_set / "set.yaml").write_text((demo_set / "set.yaml").read_text() + f"boards:\n  map: {board}\n")
    errors = _errors(demo_set)
    assert errors and all(e.file.name == "set.yaml" for e in errors)
    assert any("at most" in e.message for e in errors), [e.message for e in errors]


def test_a_card_face_too_large_for_memory_at_the_asked_dpi_is_refused_before_drawing(demo_set, cli):
    """card_size 600 x 600 mm is allowed (50 megapixels at 300 dpi), but at --dpi 1200 one face is 800
    megapixels, gigabytes per render worker; it is refused as boards already are."""
    _edit(demo_set / "set.yaml", "card_size: poker ", "card_size: {width: 600mm, height: 600mm} ")
    project = demo_set.parent.parent
    r = cli("render", "demo", "--dpi", "1200", "--jobs", "1", cwd=project)
    assert r.returncode == 1 and "million pixels" in r.stderr and "--dpi" in r.stderr, r.stderr
    assert not list((project / "output").rglob("*.png"))


def test_a_text_longer_than_any_card_shows_is_refused_at_validation(demo_set, cli):
    cards = demo_set / "cards.yaml"
    _edit(cards, "text: When Dawn Scout arrives", "text: " + "Draw a card. " * 2000 + "When Dawn Scout arrives")
    (err,) = _errors(demo_set)
    assert err.file.name == "cards.yaml" and err.line == 12 and "26,059 characters long" in err.message
    r = cli("render", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and "cards.yaml:12" in r.stderr


@pytest.mark.skipif(not hasattr(__import__("os"), "symlink"), reason="symbolic links")
def test_a_loop_of_links_in_the_set_folder_is_walked_once(demo_set, cli):
    (demo_set / "loop").mkdir()
    (demo_set / "loop" / "up").symlink_to("..")
    (demo_set / "self1").symlink_to("self2")
    (demo_set / "self2").symlink_to("self1")
    project = demo_set.parent.parent
    for args in (("validate", "demo"), ("list", "demo"), ("render", "demo", "--jobs", "1")):
        r = cli(*args, cwd=project)
        assert r.returncode == 0, (args, r.stderr)
    assert (project / "output" / "demo" / "cards" / "manifest.json").is_file()


BILLION_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE svg [\n <!ENTITY a "aaaaaaaaaa">\n'
                  + "".join(f' <!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">\n' for i in range(8))
                  + ']>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&i;</text></svg>\n')


def test_an_svg_icon_that_declares_entities_is_refused_at_validation(demo_set, cli):
    (demo_set / "icons").mkdir(exist_ok=True)
    (demo_set / "icons" / "laughs.svg").write_text(BILLION_LAUGHS, encoding="utf-8")
    _edit(demo_set / "set.yaml", "keywords:\n", "icons:\n  sun: icons/laughs.svg\n\nkeywords:\n")
    (err,) = _errors(demo_set)
    assert err.file.name == "set.yaml" and "laughs.svg" in err.message and "ENTITY" in err.message
    r = cli("render", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and "set.yaml" in r.stderr
