"""Print-shop profiles and exports: pixel sizes, formats, order, and the proof label."""

from __future__ import annotations


import pytest
from PIL import Image

from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.sets.loader import YamlError
from cardsmith.sets.model import Card, CardSet, Deck
from cardsmith.printing.shops import export_for_shop, list_profiles, load_profile
from cardsmith.base.project import Project
from tests.pdf_support import BLUE, RED, make_rendered, mark_centre

pypdf = pytest.importorskip("pypdf")


@pytest.fixture
def project(tmp_path):
    proj = Project(tmp_path)
    ids = ["alpha", "beta", "gamma"]
    cardset = CardSet(id="demo", name="Demo", path=tmp_path / "cards" / "demo", version="1.2.0",
                      cards=tuple(Card(id=i, name=i.title(), type="unit", copies=c) for i, c in zip(ids, (1, 3, 2))))
    manifest = make_rendered(proj.set_output("demo"), ids=ids, dpi=300)
    return proj, cardset, manifest


def test_shipped_profiles_are_valid_and_listed():
    names = list_profiles()
    assert {"makeplayingcards", "printerstudio", "thegamecrafter", "drivethrucards"} <= set(names)
    for n in names:
        load_profile(n)


@pytest.mark.parametrize("shop,pixels", [("makeplayingcards", (822, 1122)), ("thegamecrafter", (825, 1125)),
                                         ("printerstudio", (822, 1122))])
def test_image_shops_get_one_file_per_design_at_their_pixel_size(project, shop, pixels):
    proj, cardset, manifest = project
    result = export_for_shop(proj, cardset, shop, manifest=manifest)
    assert result.folder == proj.set_output("demo") / "shops" / shop
    fronts = sorted(f for f in result.files if not f.name.startswith("back-"))
    backs = [f for f in result.files if f.name.startswith("back-")]
    assert len(fronts) == 3 and len(backs) == 1 and result.cards == 6
    for f in result.files:
        with Image.open(f) as im:
            assert im.size == pixels and im.mode == "RGB" and im.format == "PNG"
            assert im.info.get("dpi", (0, 0))[0] == pytest.approx(300, abs=1)
    # the trim centre stays the image centre (bleed cropped evenly)
    with Image.open(fronts[0]) as im:
        w_mm, h_mm = pixels[0] / 300 * 25.4, pixels[1] / 300 * 25.4
        c = mark_centre(im, (10, 25, w_mm - 20, h_mm - 50), RED, 300, h_mm)
        assert c == pytest.approx((w_mm / 2, h_mm / 2), abs=0.3)
    order = (result.folder / "order.csv").read_text().splitlines()
    assert order[0] == "front,card,name,back,quantity"
    assert [line.split(",")[-1] for line in order[1:]] == ["1", "3", "2"]
    readme = (result.folder / "README.txt").read_text()
    assert f"each image is {pixels[0]} x {pixels[1]} px" in readme and "63.5 x 88.9 mm trim" in readme
    assert "6 cards to print from 3 front images" in readme and "One back design, back-plain.png" in readme


def test_drivethrucards_gets_a_back_front_pdf_per_copy_labelled_a_proof(project):
    proj, cardset, manifest = project
    result = export_for_shop(proj, cardset, "drivethrucards", manifest=manifest)
    (pdf,) = result.files
    assert "PROOF" in pdf.name
    assert any("PROOF" in w and "PDF/X-1a" in w for w in result.warnings)
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 12  # 6 cards, a back then a front each
    assert "PROOF" in reader.metadata.title
    inch = [float(v) / 72 for v in reader.pages[0].mediabox.upper_right]
    assert inch == pytest.approx([2.75, 3.75], abs=0.005)
    assert reader.pages[0].trimbox is not None
    # page 1 is the back of card 1 (blue marks), page 2 its front (red)
    import shutil, subprocess
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "100", "-f", "1", "-l", "2", str(pdf), str(proj.root / "p")], check=True)
        first, second = sorted(proj.root.glob("p-*.ppm"))
        box = (0, 0, 69.85, 95.25)
        assert mark_centre(Image.open(first), box, BLUE, 100, 95.25) is not None
        assert mark_centre(Image.open(first), box, RED, 100, 95.25) is None
        assert mark_centre(Image.open(second), box, RED, 100, 95.25) is not None


def test_deck_export_counts_the_deck_in_a_folder_named_by_slug(project):
    proj, cardset, manifest = project
    deck = Deck("Chain Swarm", "demo", {"main": {"gamma": 4}})
    result = export_for_shop(proj, cardset, "drivethrucards", manifest=manifest, deck=deck)
    assert result.folder.name == "drivethrucards-chain-swarm"
    assert len(pypdf.PdfReader(result.files[0]).pages) == 8
    readme = (result.folder / "README.txt").read_text()
    assert "plus 3.175 mm bleed on each side" in readme and "of 8 pages" in readme and "front files" not in readme


def test_a_readme_names_every_back_design(project, tmp_path):
    proj, cardset, manifest = project
    out = proj.set_output("demo")
    from tests.pdf_support import BLUE, face

    face(BLUE, (250, 220, 220), 300).save(out / "backs" / "other.png")
    manifest = {**manifest, "backs": {**manifest["backs"], "other": {"file": "backs/other.png"}},
                "cards": {**manifest["cards"], "gamma": {**manifest["cards"]["gamma"], "back": "other"}}}
    result = export_for_shop(proj, cardset, "makeplayingcards", manifest=manifest)
    readme = (result.folder / "README.txt").read_text()
    assert "2 back designs: back-plain.png (4 cards), back-other.png (2 cards)" in readme
    assert "the common back" not in readme
    # the PDF shop writes no order.csv: its README must not send the buyer to one, and each card's back
    # is already in the PDF, so there is no deck per back design to order
    result = export_for_shop(proj, cardset, "drivethrucards", manifest=manifest)
    readme = (result.folder / "README.txt").read_text()
    assert not (result.folder / "order.csv").exists()
    assert "order.csv" not in readme and "its own deck" not in readme, readme
    assert "2 back designs: plain (4 cards), other (2 cards)" in readme and "the page before its front" in readme


def test_a_project_profile_shadows_and_adds_shops(project):
    proj, cardset, manifest = project
    (proj.root / "printshops").mkdir()
    (proj.root / "printshops" / "localcopyshop.yaml").write_text(
        "name: Local Copy Shop\nkind: images\ndpi: 150\nformat: jpg\nsizes:\n"
        "  poker: {trim_mm: [63.5, 88.9], pixels: [400, 550]}\nfiles:\n  front: \"{card}-x{copy}.{ext}\"\ncopies: expand\n")
    assert "localcopyshop" in list_profiles(proj.root)
    result = export_for_shop(proj, cardset, "localcopyshop", manifest=manifest)
    fronts = [f for f in result.files if not f.name.startswith("back-")]
    assert len(fronts) == 6 and {f.suffix for f in fronts} == {".jpg"}
    assert (result.folder / "beta-x3.jpg").is_file()
    with Image.open(fronts[0]) as im:
        assert im.size == (400, 550) and im.format == "JPEG"


def test_bad_profiles_and_names_get_clear_errors(project, tmp_path):
    proj, cardset, manifest = project
    with pytest.raises(UsageError, match="no print-shop profile 'makeplayingcard'") as e:
        load_profile("makeplayingcard", proj.root)
    assert "did you mean 'makeplayingcards'?" in e.value.hint
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad\nkind: images\nsizes:\n  poker: {trim_mm: [63.5, 88.9], pixels: [100, 1122]}\n")
    with pytest.raises(YamlError, match="smaller than the trim") as e:
        load_profile(str(bad))
    assert e.value.line == 4
    odd = tmp_path / "odd.yaml"
    odd.write_text("name: Odd\nkind: fax\n")
    with pytest.raises(YamlError, match="'kind' must be one of"):
        load_profile(str(odd))


def test_a_card_size_the_shop_does_not_print_is_refused(project):
    proj, cardset, manifest = project
    tarot = {**manifest, "trim_mm": [70, 120]}
    with pytest.raises(CardsmithError, match="no card size for 70 x 120 mm"):
        export_for_shop(proj, cardset, "makeplayingcards", manifest=tarot)
    assert not (proj.set_output("demo") / "shops" / "makeplayingcards").exists()


def test_cards_without_backs_cannot_go_to_drivethrucards_and_nothing_is_left(project, tmp_path):
    proj, cardset, _ = project
    manifest = make_rendered(proj.set_output("demo"), ids=["alpha", "beta", "gamma"], dpi=300, backs=False)
    with pytest.raises(CardsmithError, match="back for every card"):
        export_for_shop(proj, cardset, "drivethrucards", manifest=manifest)
    shops = proj.set_output("demo") / "shops"
    assert not shops.exists() or not list(shops.iterdir())


def test_the_export_folder_is_readable_by_others_like_any_folder(project):
    import os
    import stat

    proj, cardset, manifest = project
    result = export_for_shop(proj, cardset, "printerstudio", manifest=manifest)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(result.folder.stat().st_mode) == 0o777 & ~umask


def test_a_safe_margin_smaller_than_the_shops_is_a_warning(project):
    proj, cardset, manifest = project
    assert not export_for_shop(proj, cardset, "thegamecrafter", manifest=manifest).warnings
    narrow = {**manifest, "safe_mm": 1.0}
    result = export_for_shop(proj, cardset, "thegamecrafter", manifest=narrow)
    assert any("safe margin (1.00 mm) is smaller than The Game Crafter" in w for w in result.warnings)


@pytest.mark.parametrize("size, files, words, line", [
    ("{trim_mm: [63.5, 88.9], pixels: [100000, 100000]}", "", "larger than the trim plus", 4),
    ("{trim_mm: [6350, 88.9], pixels: [822, 1122]}", "", "trim_mm", 4),
    ("{trim_mm: [63.5, 88.9], pixels: [822, 1122]}", '  back: "{n:>1000000000}"\n', "too wide", 6),
    ("{trim_mm: [63.5, 88.9], pixels: [822, 1122]}", '  front: "../../{card}.{ext}"\n', "a file name", 6),
    ("{trim_mm: [63.5, 88.9], pixels: [822, 1122]}", '  front: "sub/{card}.{ext}"\n', "a file name", 6),
])
def test_a_profile_that_would_exhaust_memory_or_write_outside_its_folder_is_refused(tmp_path, size, files, words, line):
    """A shared profile asked for 100000 x 100000-pixel faces or a 1 GB file name (both hung the export) or
    a file pattern leaving the export folder (an internal error); each is now an error at its line."""
    profile = tmp_path / "evil.yaml"
    profile.write_text(f"name: Evil\nkind: images\nsizes:\n  poker: {size}\nfiles:\n{files or '  back: b.{ext}' + chr(10)}")
    with pytest.raises(YamlError, match=words) as e:
        load_profile(str(profile))
    assert e.value.line == line


def test_a_pdf_shop_warns_when_the_sets_bleed_is_less_than_the_pages(project):
    """A set with no bleed sent to DriveThruCards left the page's 1/8 in bleed white, without a word."""
    proj, cardset, manifest = project
    thin = dict(manifest, bleed_mm=0.5)
    result = export_for_shop(proj, cardset, "drivethrucards", manifest=thin)
    assert any("bleed (0.50 mm) is less than DriveThruCards' page bleed (3.17 mm)" in w for w in result.warnings), result.warnings
    ok = export_for_shop(proj, cardset, "drivethrucards", manifest=manifest)
    assert not any("bleed" in w for w in ok.warnings)
