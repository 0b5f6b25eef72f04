"""Contact sheets: every card once, cut to its trim, labelled, on as many pages as needed."""

from __future__ import annotations

from PIL import Image

from cardsmith.share.contact_sheet import contact_sheets
from cardsmith.share.images import read_manifest
from cardsmith.base.project import Project
from share_fixture import COLORS, fake_render, make_set


def test_pages_hold_every_card_trimmed(tmp_path):
    _, cs = make_set(tmp_path)
    out = fake_render(Project(tmp_path).set_output("mini"), cs)
    pages = contact_sheets(cs, read_manifest(out), out / "sheets", cols=2, rows=2, thumb_width=120)
    assert [p.name for p in pages] == ["contact-01.png", "contact-02.png"]  # 6 cards, 4 a page
    with Image.open(pages[0]) as im:
        im = im.convert("RGB")
        # The first card's thumbnail starts at (16, 48); its corner pixel is the face colour, not the dark bleed.
        assert im.getpixel((17, 49)) == COLORS[cs.cards[0].race]
        # Below each thumbnail sits a label: dark ink on the light page.
        label_row = [im.getpixel((x, 48 + round(120 * 88.9 / 63.5) + 14)) for x in range(16, 136)]
        assert min(sum(p) for p in label_row) < 200
    # Fewer cards later: stale pages go away.
    pages = contact_sheets(cs, read_manifest(out), out / "sheets", cols=6, rows=3, thumb_width=120)
    assert sorted(p.name for p in (out / "sheets").glob("*.png")) == ["contact-01.png"]


def test_cli_sheet_and_gallery_with_existing_images(tmp_path, cli):
    _, cs = make_set(tmp_path)
    fake_render(Project(tmp_path).set_output("mini"), cs)
    r = cli("sheet", "mini", "--no-render", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "mini" / "sheets" / "contact-01.png").is_file()
    r = cli("gallery", "mini", "--no-render", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "mini" / "gallery" / "index.html").is_file()
    assert (tmp_path / "output" / "index.html").is_file()
    r = cli("gallery", "mini", "--no-render", "--compare", "nowhere", cwd=tmp_path)
    assert r.returncode == 1 and "neither a folder nor a git revision" in r.stderr and "Traceback" not in r.stderr
