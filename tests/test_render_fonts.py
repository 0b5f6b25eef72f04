"""The bundled fonts: several families with regular, bold and italic, each with its licence,
loadable by both Pillow (cards) and ReportLab (PDFs)."""

from pathlib import Path

import pytest
from PIL import ImageFont
from reportlab.pdfbase.pdfmetrics import registerFont, stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from cardsmith.base.errors import CardsmithError
from cardsmith.layout.fonts import FontLibrary
from cardsmith.base.project import BUNDLED_FONTS

FILES = sorted(BUNDLED_FONTS.rglob("*.ttf"))


def test_several_families_with_regular_bold_and_italic():
    lib = FontLibrary([BUNDLED_FONTS])
    assert {"liberation-sans", "liberation-serif", "lato"} <= set(lib.families)
    for fam in lib.families.values():
        assert {"regular", "bold", "italic"} <= set(fam.files)


def test_every_font_folder_has_its_licence():
    for folder in {p.parent for p in FILES}:
        licences = [p for p in folder.iterdir() if p.suffix == ".txt" and ("LICENSE" in p.name.upper() or "OFL" in p.name.upper())]
        assert licences and "Open Font License" in licences[0].read_text(encoding="utf-8")


def test_bundle_stays_modest():
    assert sum(p.stat().st_size for p in FILES) < 5.5 * 1024 * 1024


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pillow_and_reportlab_load_it(path: Path):
    assert ImageFont.truetype(str(path), 24).getlength("Solar Empires") > 0
    name = "cs-" + path.stem
    registerFont(TTFont(name, str(path)))
    assert stringWidth("Solar Empires", name, 12) > 0


def test_a_missing_font_suggests_a_close_one():
    with pytest.raises(CardsmithError, match="not installed") as e:
        FontLibrary([BUNDLED_FONTS]).family("liberation-san")
    assert "liberation-sans" in e.value.hint


def test_characters_a_font_lacks_are_named_not_silently_dropped():
    from cardsmith.layout.fonts import missing_chars

    regular = FontLibrary([BUNDLED_FONTS]).family("Liberation Sans").path("regular")
    assert missing_chars(regular, "Café – Ünïcødé") == ""
    assert missing_chars(regular, "Le Fou ☃ 愚者 愚") == "☃愚者"


def test_rendering_warns_per_card_and_field_about_missing_characters(tmp_path):
    from cardsmith.base.project import Project
    from cardsmith.render.batch import render_set
    from cardsmith.sets.scaffold import scaffold_set
    from cardsmith.sets.validate import load_set

    set_dir = tmp_path / "cards" / "demo"
    scaffold_set(set_dir)
    cards = set_dir / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Night Heron", 'name: "Night Heron 愚者"'))
    result = render_set(Project(tmp_path), load_set(set_dir), jobs=1, only=["night-heron"])
    notes = [d for d in result.diagnostics if "cannot draw" in d.message]
    assert len(notes) == 1 and notes[0].severity == "warning"
    assert "card 'night-heron'" in notes[0].message and "'name'" in notes[0].message and "'愚', '者'" in notes[0].message
    assert notes[0].file.name == "cards.yaml"
