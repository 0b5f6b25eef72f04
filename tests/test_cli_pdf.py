"""`cardsmith pdf`, `cardsmith export --shop` and the build stage, run as a user runs them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")


@pytest.fixture(scope="module")
def rendered_demo(tmp_path_factory) -> Path:
    """A project holding the scaffolded demo set (4 cards), rendered once for the module."""
    from cardsmith.sets.scaffold import scaffold_set
    from conftest import run_in_process

    root = tmp_path_factory.mktemp("rendered")
    scaffold_set(root / "cards" / "demo")
    r = run_in_process("render", "demo", cwd=root)
    assert r.returncode == 0, r.stderr
    return root


@pytest.fixture
def project(rendered_demo: Path, tmp_path: Path) -> Path:
    """A copy of that project, its cards drawn (and left alone by the commands: copytree keeps the
    times the render recorded), so a test pays for the PDF it checks, not for drawing the cards."""
    shutil.copytree(rendered_demo, tmp_path / "proj")
    return tmp_path / "proj"


def test_pdf_writes_the_set_into_output(demo_set: Path, cli):
    project = demo_set.parent.parent  # nothing rendered yet: pdf draws the cards on the way
    r = cli("pdf", "demo", "--paper", "letter", cwd=project)
    assert r.returncode == 0, r.stderr
    path = project / "output" / "demo" / "grid-letter.pdf"
    assert path.is_file() and str(path.name) in r.stdout
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 1
    assert "Demo 0.1.0" in reader.pages[0].extract_text()
    assert (project / "output" / "demo" / "cards" / "dawn-scout.png").is_file()  # rendered on the way


def test_pdf_with_duplex_backs_uses_the_rendered_backs(project: Path, cli):
    r = cli("pdf", "demo", "--backs", "short", cwd=project)
    assert r.returncode == 0, r.stderr
    reader = pypdf.PdfReader(project / "output" / "demo" / "grid-a4-duplex-short.pdf")
    assert len(reader.pages) == 2
    images = {ref.idnum for page in reader.pages for ref in page["/Resources"]["/XObject"].values()}
    assert len(images) == 5  # four fronts and the set's one back, stored once


def test_pdf_only_and_name(project: Path, cli):
    r = cli("pdf", "demo", "--only", "eclipse,night-heron", "--layout", "single", "--name", "two", cwd=project)
    assert r.returncode == 0, r.stderr
    assert len(pypdf.PdfReader(project / "output" / "demo" / "two.pdf").pages) == 2
    # a name ending in .pdf is still a file name under output/<set>/, not in the current folder
    r = cli("pdf", "demo", "--name", "x.pdf", cwd=project)
    assert r.returncode == 0, r.stderr
    assert (project / "output" / "demo" / "x.pdf").is_file() and not (project / "x.pdf").exists()


def test_a_sheet_without_room_for_crop_marks_says_it_drew_cut_lines(project: Path, cli):
    # a 73.5 mm margin leaves one card across Letter only if its bleed and marks give way
    r = cli("pdf", "demo", "--paper", "letter", "--margin", "73.5", cwd=project)
    assert r.returncode == 0, r.stderr
    assert "note: no room for crop marks beside" in r.stdout and "cut lines" in r.stdout
    r = cli("pdf", "demo", "--paper", "a4", cwd=project)
    assert "note:" not in r.stdout


@pytest.mark.parametrize("args,code,words", [
    (["--only", "dawn-scot"], 2, "did you mean"),
    (["--paper", "b7-ish"], 2, "unknown paper"),
    (["--back-offset", "1;2"], 2, "X,Y"),
    (["--paper", "50x60mm"], 1, "does not fit"),
    (["--type", "dragon"], 2, "no card type 'dragon'"),
    (["--deck", "decks/missing.yaml"], 2, "no deck file"),
    (["--gutter", "nan"], 2, "'nan' is not a length in mm"),
    (["--margin", "inf"], 2, "'inf' is not a length in mm"),
    (["--gutter", "-1"], 2, "between 0 and"),
])
def test_bad_input_is_a_message_and_leaves_no_pdf(project: Path, cli, args, code, words):
    before = set((project / "output" / "demo").glob("*.pdf"))
    r = cli("pdf", "demo", *args, cwd=project)
    assert r.returncode == code, (r.stdout, r.stderr)
    assert words in r.stderr and "Traceback" not in r.stderr
    assert set((project / "output" / "demo").glob("*.pdf")) == before


def test_offset_off_the_page_is_refused(project: Path, cli):
    r = cli("pdf", "demo", "--backs", "long", "--back-offset", "40,0", cwd=project)
    assert r.returncode == 1 and "off the page" in r.stderr
    assert not list((project / "output" / "demo").glob("*.pdf"))


def test_offset_without_backs_is_a_usage_error_not_ignored(project: Path, cli):
    r = cli("pdf", "demo", "--back-offset", "1,0", cwd=project)
    assert r.returncode == 2 and "prints no backs" in r.stderr and "--backs long" in r.stderr
    assert not list((project / "output" / "demo").glob("*.pdf"))


def test_calibration_sheet(project: Path, cli):
    r = cli("pdf", "--calibration", "--paper", "letter", "--backs", "short", cwd=project)
    assert r.returncode == 0, r.stderr
    assert len(pypdf.PdfReader(project / "output" / "calibration-letter-short.pdf").pages) == 2


def test_export_for_a_shop_and_unknown_shop(project: Path, cli):
    r = cli("export", "demo", "--shop", "thegamecrafter", cwd=project)
    assert r.returncode == 0, r.stderr
    folder = project / "output" / "demo" / "shops" / "thegamecrafter"
    assert len(list(folder.glob("*-front.png"))) == 4 and (folder / "order.csv").is_file()
    r = cli("export", "demo", "--shop", "thegamecrafters", cwd=project)
    assert r.returncode == 2 and "did you mean 'thegamecrafter'" in r.stderr
    r = cli("export", "--list-shops", cwd=project)
    assert "drivethrucards" in r.stdout


def test_build_writes_a4_and_letter_sheets(project: Path, cli):
    r = cli("build", "demo", cwd=project)
    assert r.returncode == 0, r.stdout + r.stderr
    out = project / "output" / "demo"
    pdfs = sorted(p.name for p in out.glob("*.pdf"))
    assert any("a4" in p for p in pdfs) and any("letter" in p for p in pdfs)


def test_pdf_of_a_deck_prints_each_card_as_often_as_the_deck_holds_it(project: Path, cli):
    (project / "duel.txt").write_text("3x Dawn Scout\n2x Eclipse\n")
    r = cli("pdf", "demo", "--deck", "duel.txt", "--layout", "single", cwd=project)
    assert r.returncode == 0, r.stderr
    path = project / "output" / "demo" / "duel-single-a4.pdf"
    assert len(pypdf.PdfReader(path).pages) == 5


def test_a_deck_naming_unknown_cards_is_an_error_with_its_line(project: Path, cli):
    (project / "typo.txt").write_text("1x Eclipse\n3x Dawn Scot\n")
    r = cli("pdf", "demo", "--deck", "typo.txt", cwd=project)
    assert r.returncode == 1
    assert "typo.txt:2" in r.stderr and "Dawn Scot" in r.stderr and "Traceback" not in r.stderr
    assert not list((project / "output" / "demo").glob("*.pdf"))


def test_an_unwritable_output_path_is_a_message(project: Path, cli):
    (project / "not-a-folder").write_text("")
    r = cli("pdf", "demo", "--name", "not-a-folder/sheet.pdf", cwd=project)
    assert r.returncode == 1 and "cannot write" in r.stderr and "Traceback" not in r.stderr
    assert (project / "not-a-folder").read_text() == ""


def test_a_set_without_cards_says_so_instead_of_blaming_the_selection(project: Path, cli):
    (project / "cards" / "demo" / "cards.yaml").unlink()
    r = cli("pdf", "demo", cwd=project)
    assert r.returncode == 2 and "nothing to print: set demo has no cards" in r.stderr
    assert "--type" not in r.stderr and "cards:" in r.stderr


def test_a_landscape_sheet_keeps_its_own_file_beside_the_portrait_one(project: Path, cli):
    for orientation in ("portrait", "landscape"):
        r = cli("pdf", "demo", "--orientation", orientation, cwd=project)
        assert r.returncode == 0, r.stderr
    out = project / "output" / "demo"
    portrait, landscape = pypdf.PdfReader(out / "grid-a4-portrait.pdf"), pypdf.PdfReader(out / "grid-a4-landscape.pdf")
    box = lambda reader: reader.pages[0].mediabox  # noqa: E731
    assert box(portrait).width < box(portrait).height and box(landscape).width > box(landscape).height


def test_render_only_takes_a_comma_list_as_pdf_only_does(project: Path, cli):
    from cardsmith.sets.validate import load_set

    ids = [c.id for c in load_set(project / "cards" / "demo").cards][:2]
    r = cli("render", "demo", "--only", ",".join(ids), "--force", cwd=project)
    assert r.returncode == 0, r.stderr
    assert "2 card(s) (2 drawn" in r.stdout + r.stderr
