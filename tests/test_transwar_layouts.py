"""TransWar's layouts: every face renders with no overflow or safe-area warning, and no line is
drawn within 3 mm of the trim (the bands next to the cut hold only the smooth background)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardsmith.base.project import Project
from cardsmith.render.batch import render_set
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parent.parent
DPI = 100


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    root = tmp_path_factory.mktemp("transwar")
    shutil.copytree(ROOT / "cards" / "transwar", root / "cards" / "transwar")
    project = Project(root)
    cardset = load_set(root / "cards" / "transwar")
    result = render_set(project, cardset, dpi=DPI, jobs=1, strict=True)
    return cardset, result, project.set_output("transwar")


def test_every_face_renders_without_warnings(rendered):
    cardset, result, out = rendered
    assert [d.message for d in result.diagnostics] == []
    assert len(list((out / "cards").glob("*.png"))) == len(cardset.cards) == 59
    assert (out / "backs" / "transwar.png").is_file()   # the one shared back
    assert {c.back for c in cardset.cards} <= {None, "transwar"}


def _band_is_smooth(img: Image.Image, bleed: int, band: int) -> bool:
    """Each row of the left and right bands (trim to trim + band) is one colour: no vertical line."""
    w, h = img.size
    px = img.load()
    for y in range(bleed + band, h - bleed - band, 3):
        for x0 in (bleed, w - bleed - band):
            row = [px[x, y] for x in range(x0, x0 + band)]
            if max(max(c[i] for c in row) - min(c[i] for c in row) for i in range(3)) > 6:
                return False
    for y in list(range(bleed, bleed + band)) + list(range(h - bleed - band, h - bleed)):
        row = [px[x, y] for x in range(bleed, w - bleed)]
        if max(max(c[i] for c in row) - min(c[i] for c in row) for i in range(3)) > 6:
            return False
    return True


def test_nothing_is_drawn_within_3mm_of_the_trim(rendered):
    cardset, _, out = rendered
    bleed = round(cardset.bleed / 25.4 * DPI)
    band = int(3 / 25.4 * DPI)
    faces = [out / "cards" / f"{c.id}.png" for c in cardset.cards] + [out / "backs" / "transwar.png"]
    bad = [f.name for f in faces if not _band_is_smooth(Image.open(f).convert("RGB"), bleed, band)]
    assert bad == []


def _mm_box(img: Image.Image, bleed_px: int, box_mm: tuple[float, float, float, float]) -> Image.Image:
    x0, y0, x1, y1 = (round(v / 25.4 * DPI) + bleed_px for v in box_mm)
    return img.crop((x0, y0, x1, y1))


def test_every_form_shows_its_own_animal(rendered):
    """Each of the 21 Forms draws a silhouette in its picture, and no two Forms draw the same one."""
    cardset, _, out = rendered
    bleed = round(cardset.bleed / 25.4 * DPI)
    masks = {}
    for card in (c for c in cardset.cards if c.type == "form"):
        # the picture above its ground strip (the first row, under the name bar, that is all dark)
        art = _mm_box(Image.open(out / "cards" / f"{card.id}.png").convert("RGB"), bleed, (6, 14, 57.5, 62))
        w = art.width
        dark_px = art.convert("L").point(lambda v: 255 if v < 26 else 0).tobytes()
        rows = [[1 if b else 0 for b in dark_px[y * w:(y + 1) * w]] for y in range(art.height)]
        ground = next(y for y, row in enumerate(rows) if y > 3 and sum(row) > 0.9 * w)
        dark = [v for row in rows[:ground] for v in row]
        assert sum(dark) > 0.04 * len(dark), f"{card.id}: no animal in the picture"
        masks[card.id] = tuple(dark)
    assert len(masks) == 21
    assert len(set(masks.values())) == 21


def test_attack_cards_take_their_modes_colour(rendered):
    """A hand reads by colour: every Attack card of a mode has that mode's field, and the seven modes differ."""
    cardset, _, out = rendered
    field: dict[str, set] = {}
    for card in (c for c in cardset.cards if c.type == "attack"):
        img = Image.open(out / "cards" / f"{card.id}.png").convert("RGB")
        field.setdefault(card.fields["mode"], set()).add(img.getpixel((2, img.height // 2)))
    assert all(len(colours) == 1 for colours in field.values())
    assert len({next(iter(c)) for c in field.values()}) == len(field) == 7
