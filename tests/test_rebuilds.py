"""Rebuilds that cost what changed, through the command line as a designer runs it: `render` then `pdf`
with nothing changed does no work (and imports nothing heavy), and any change to what a card is made
of (a card, a layout, a font, an image, set.yaml) is seen; a stale record is never used."""

from __future__ import annotations

import importlib
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cardsmith.cache import freshness
from cardsmith.cache import setcache
from cardsmith.cli._group import COMMAND_MODULES, LAZY_COMMANDS, cli
from cardsmith.base.project import Project
from tests.conftest import ROOT, run_in_process

HERE = Path(__file__).resolve().parent
SET = "mini-empires"


@pytest.fixture
def project(tmp_path) -> Path:
    shutil.copytree(HERE / "fixtures" / SET, tmp_path / "cards" / SET)
    return tmp_path


def render_then_pdf(root: Path) -> tuple[str, str]:
    r = run_in_process("render", SET, cwd=root)
    assert r.returncode == 0, r.stderr
    p = run_in_process("pdf", SET, cwd=root)
    assert p.returncode == 0, p.stderr
    return r.stderr, p.stdout


def pdf_of(root: Path) -> Path:
    return root / "output" / SET / "grid-a4.pdf"


def _bump(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---- the command table ----------------------------------------------------------------------------

def test_the_lazy_command_table_matches_the_command_modules():
    found = {}
    for module in COMMAND_MODULES:
        for command in importlib.import_module(module).COMMANDS:
            found[command.name] = (module, command)
    assert set(found) == set(LAZY_COMMANDS), "add the new command to cardsmith.cli._group.LAZY_COMMANDS"
    for name, (module, command) in found.items():
        assert LAZY_COMMANDS[name][0] == module
        stub = click.Command(name, help=LAZY_COMMANDS[name][1])
        for limit in (30, 45, 60, 200):  # --help shows the same words as the loaded command would
            assert stub.get_short_help_str(limit) == command.get_short_help_str(limit), name


def test_help_lists_every_command_with_its_short_help():
    r = run_in_process("--help")
    assert r.returncode == 0
    for name in LAZY_COMMANDS:
        assert f"\n  {name} " in r.stdout
    assert "Draw card images into output/<set>/cards/" in r.stdout
    assert cli.get_command(click.Context(cli), "nope") is None


HEAVY = ("PIL", "reportlab", "jinja2", "jsonschema", "yaml", "rich")


def _imported_by(args: list[str], cwd: Path, modules: tuple[str, ...] = HEAVY) -> set[str]:
    code = (f"import sys; sys.argv = ['cardsmith', *{args!r}]\n"
            "from cardsmith.cli import main\n"
            "try:\n    main(sys.argv[1:])  # from Python: it exits through SystemExit, so this probe runs on\n"
            "except SystemExit:\n    pass\n"
            f"print('loaded:', *(m for m in {modules!r} if m in sys.modules), file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("loaded:"), p.stderr
    return set(last.split()[1:])


def test_help_and_an_unchanged_render_and_pdf_import_nothing_heavy(project):
    assert _imported_by(["--help"], project) == set()
    render_then_pdf(project)
    assert _imported_by(["render", SET], project) == set()
    assert _imported_by(["pdf", SET], project) == set()


# ---- unchanged and changed sets -------------------------------------------------------------------

def test_an_unchanged_set_renders_nothing_and_keeps_its_pdf(project):
    err, out = render_then_pdf(project)
    assert "(7 drawn, 0 unchanged)" in err and "wrote" in out
    before = pdf_of(project).stat().st_mtime_ns
    err, out = render_then_pdf(project)
    assert "7 card(s) (0 drawn, 7 unchanged), 2 back(s)" in err
    assert "is up to date" in out and pdf_of(project).stat().st_mtime_ns == before


@pytest.mark.parametrize("change", ["card", "layout", "font", "image", "icon", "set.yaml"])
def test_every_kind_of_change_is_seen_by_render_and_pdf(project, change):
    render_then_pdf(project)
    render_then_pdf(project)  # stamps recorded and used
    set_dir = project / "cards" / SET
    old_pdf = pdf_of(project).read_bytes()
    if change == "card":  # the same number of bytes: only the modification time tells
        _bump(set_dir / "cards.yaml", "attack: 2", "attack: 3")
    elif change == "layout":  # the project's own layout for relics, in place of the default one
        tdir = project / "templates" / SET
        tdir.mkdir(parents=True)
        (tdir / "relic.yaml.j2").write_text("extends: card\nlayers:\n  - text: {name: title, size: 10pt}\n")
    elif change == "font":  # a project font folder appears (fonts are looked up there first)
        shutil.copytree(ROOT / "fonts" / "lato", project / "fonts" / "lato")
    elif change == "image":
        from PIL import Image

        with Image.open(set_dir / "art" / "nebula.png") as im:
            im.convert("RGB").transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(set_dir / "art" / "nebula.png")
    elif change == "icon":  # recoloured in place, the same size (this process has drawn it: no raster may be reused)
        _bump(set_dir / "icons" / "energy.svg", 'fill="#f4b400"', 'fill="#00a0f4"')
    else:
        _bump(set_dir / "set.yaml", "version: 0.1.0", "version: 0.1.1")
    err, out = render_then_pdf(project)
    assert "(0 drawn," not in err, err
    if change == "font":  # the same Lato again: every card is drawn anew, to the same pixels, so the PDF stays
        assert "(7 drawn, 0 unchanged)" in err and "is up to date" in out
    else:
        assert "wrote" in out and pdf_of(project).read_bytes() != old_pdf


def test_a_deleted_or_retouched_output_is_never_trusted(project):
    render_then_pdf(project)
    card = project / "output" / SET / "cards" / "rapier.png"
    card.unlink()
    err, out = render_then_pdf(project)
    assert "(1 drawn, 6 unchanged)" in err and card.is_file()
    pdf_of(project).write_bytes(b"%PDF-1.4 damaged")
    _, out = render_then_pdf(project)
    assert "wrote" in out and pdf_of(project).read_bytes().startswith(b"%PDF-1.3\n%")


def test_an_edit_made_while_a_command_runs_is_seen_next_time(project):
    """The inputs are fingerprinted before the set is read: an edit after that point makes the record stale."""
    render_then_pdf(project)
    p = Project(project)
    set_dir = p.cards_dir / SET
    inputs = freshness.snapshot_set(p, set_dir)
    _bump(set_dir / "cards.yaml", "attack: 2", "attack: 3")  # lands while the (pretend) render runs
    stamp = freshness.stamp_for(p, set_dir, "render")
    key = freshness.render_key(300, "png", False)
    stamp.record(key, inputs, freshness.manifest_outputs(p.set_output(SET)), {"set_id": SET})
    assert stamp.fresh(key) is None
    err, _ = render_then_pdf(project)
    assert "(1 drawn, 6 unchanged)" in err


def test_other_pdf_options_are_other_pdfs(project):
    render_then_pdf(project)
    p = run_in_process("pdf", SET, "--paper", "letter", "--backs", "long", cwd=project)
    assert p.returncode == 0 and "wrote" in p.stdout
    p = run_in_process("pdf", SET, "--paper", "letter", "--backs", "long", cwd=project)
    assert "is up to date" in p.stdout and "grid-letter-duplex-long.pdf" in p.stdout


# ---- the validated-set cache ----------------------------------------------------------------------

def test_the_validated_set_comes_back_equal_and_a_planted_cache_cannot_run_code(project, tmp_path):
    p = Project(project)
    set_dir = p.cards_dir / SET
    first, diags = setcache.validated_set(p, set_dir)
    again, diags2 = setcache.validated_set(p, set_dir)
    assert first == again and diags == diags2 and again is not first

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'pwned'}",))

    stamp = freshness.stamp_for(p, set_dir, "set").path
    blob = stamp.with_name(stamp.stem + "-model.json")
    assert blob.read_bytes().startswith(b"cardsmith-cache-json")
    blob.write_bytes(pickle.dumps(Evil()))
    with pytest.raises(ValueError):
        setcache.loads(blob.read_bytes())
    # the stamp no longer vouches for the replaced file: the set is validated again
    cardset, _ = setcache.validated_set(p, set_dir)
    assert cardset == first and not (tmp_path / "pwned").exists()


def test_a_changed_set_is_validated_again(project):
    p = Project(project)
    set_dir = p.cards_dir / SET
    assert setcache.validated_set(p, set_dir)[0] is not None
    _bump(set_dir / "cards.yaml", "attack: 2", "attack: two")
    cardset, diags = setcache.validated_set(p, set_dir)
    assert cardset is None and any(d.is_error for d in diags)


# ---- one pass: images embedded as they are drawn --------------------------------------------------

def test_one_pass_pdf_embeds_while_rendering_and_equals_a_pdf_written_afterwards(project, monkeypatch, tmp_path):
    from cardsmith.printing import _pdfstream as pdfstream
    from cardsmith.printing.pdf import PdfOptions, print_pdf, select_items
    from cardsmith.cache.freshness import load_manifest
    from cardsmith.sets.validate import load_set

    seen = []
    finish = pdfstream.PdfWriter.finish

    def watched(self):
        seen.append((self.drawn, len(self.pages)))  # pages drawn before the last card came back
        return finish(self)

    monkeypatch.setattr(pdfstream.PdfWriter, "finish", watched)
    r = run_in_process("pdf", SET, "--backs", "long", "--jobs", "2", cwd=project)
    assert r.returncode == 0 and "wrote" in r.stdout, r.stderr
    assert seen == [(2, 2)]  # both pages were drawn as their images arrived, none was left for the end

    cs = load_set(project / "cards" / SET)
    out = project / "output" / SET
    manifest = load_manifest(out)
    items = select_items(cs, manifest, out)
    plain = print_pdf(items, manifest, PdfOptions(backs="long"), tmp_path / "plain.pdf",
                      title=f"{cs.name} {cs.version}", footer=f"{cs.name} {cs.version}")
    assert (out / "grid-a4-duplex-long.pdf").read_bytes() == plain.read_bytes()


def test_a_card_that_fails_to_render_leaves_no_pdf(project):
    tdir = project / "templates" / SET
    tdir.mkdir(parents=True)
    (tdir / "relic.yaml.j2").write_text("layers:\n  - text: {box: [0, 0, 1, 1], value: \"{{ card.name \"}\n")
    r = run_in_process("pdf", SET, cwd=project)
    assert r.returncode == 1 and "could not be rendered" in r.stderr
    assert not pdf_of(project).exists()
    assert not [p for p in (project / "output" / SET).iterdir() if p.suffix == ".pdf"]


def test_build_records_its_render_so_its_pdf_stage_and_a_later_render_do_not_hash_again(project, monkeypatch):
    import cardsmith.render.batch as render_module

    skip = [a for s in ("components", "decks", "gallery", "sheets", "balance") for a in ("--skip", s)]
    r = run_in_process("build", SET, *skip, cwd=project)
    assert r.returncode == 0, r.stderr
    assert freshness.last_render(Project(project), project / "cards" / SET) is not None

    def no_hashing(*args, **kwargs):
        raise AssertionError("render_set ran for an unchanged set")

    monkeypatch.setattr(render_module, "render_set", no_hashing)
    r = run_in_process("render", SET, cwd=project)
    assert "(0 drawn, 7 unchanged)" in r.stderr
    p = run_in_process("pdf", SET, "--paper", "letter", "--backs", "long", cwd=project)
    assert p.returncode == 0 and "is up to date" in p.stdout, p.stderr  # build wrote it; nothing was hashed


# ---- pdf after render: the PDF written again whole, showing the changed card ------------------------

def _and_whole(project: Path, target: Path, tmp_path: Path, *args: str) -> Path:
    """`target` as the last run left it, moved aside (returned), and written again from the same images
    by `cardsmith pdf SET ARGS` with its stamps deleted."""
    aside = tmp_path / f"as-left-{target.name}"
    shutil.move(target, aside)
    (target.parent / ".pdf-cache.json").unlink()
    r = run_in_process("pdf", SET, *args, cwd=project)
    assert r.returncode == 0 and f"wrote {target}" in r.stdout, r.stderr
    return aside


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) not installed")
def test_pdf_after_a_one_card_render_shows_the_changed_card_and_then_is_up_to_date(project, tmp_path):
    import hashlib

    from tests.pdf_support import raster, same_pages

    def images() -> dict[str, str]:  # each card image's name in the PDF (by its content hash)
        return {p.name: f"Img{hashlib.sha1(p.read_bytes()).hexdigest()[:20]}"
                for p in (project / "output" / SET / "cards").glob("*.png")}

    render_then_pdf(project)
    before = images()
    _bump(project / "cards" / SET / "cards.yaml", "attack: 2", "attack: 3")
    r = run_in_process("render", SET, cwd=project)
    assert "(1 drawn, 6 unchanged)" in r.stderr
    p = run_in_process("pdf", SET, cwd=project)
    assert p.returncode == 0 and f"wrote {pdf_of(project)}" in p.stdout, p.stderr
    after = images()
    (changed,) = [name for name in after if after[name] != before[name]]
    written = pdf_of(project).read_bytes()
    assert after[changed].encode() in written and before[changed].encode() not in written  # the new card, not the old
    mtime = pdf_of(project).stat().st_mtime_ns
    p = run_in_process("pdf", SET, cwd=project)
    assert "is up to date" in p.stdout and pdf_of(project).stat().st_mtime_ns == mtime
    aside = _and_whole(project, pdf_of(project), tmp_path)
    assert same_pages(raster(aside, tmp_path / "a"), raster(pdf_of(project), tmp_path / "b"))


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftoppm, pdftotext (poppler) not installed")
@pytest.mark.parametrize("change", ["copies", "version", "other options wrote the file"])
def test_pdf_after_render_lays_pages_out_again_when_what_they_show_changed(project, tmp_path, change):
    """Not only images: more copies, the set's version in the footer, or the same file written meanwhile
    by a command line with other options. The PDF then shows what a whole write shows."""
    from tests.pdf_support import raster, same_pages

    run_in_process("render", SET, cwd=project)
    args = ("--name", "proof")
    assert run_in_process("pdf", SET, *args, cwd=project).returncode == 0
    cards = project / "cards" / SET / "cards.yaml"
    if change == "other options wrote the file":
        assert run_in_process("pdf", SET, *args, "--no-footer", "--cut-lines", cwd=project).returncode == 0
    _bump(cards, "attack: 2", "attack: 3")
    if change == "copies":
        _bump(cards, "    attack: 3\n", "    attack: 3\n    copies: 5\n")
    elif change == "version":
        _bump(project / "cards" / SET / "set.yaml", "version: 0.1.0", "version: 0.2.0")
    r = run_in_process("render", SET, cwd=project)
    assert r.returncode == 0 and "(0 drawn," not in r.stderr, r.stderr
    p = run_in_process("pdf", SET, *args, cwd=project)
    assert p.returncode == 0 and "wrote" in p.stdout, p.stderr
    target = project / "output" / SET / "proof.pdf"
    aside = _and_whole(project, target, tmp_path, *args)
    got = raster(aside, tmp_path / "a")
    assert same_pages(got, raster(target, tmp_path / "b"))
    assert len(got) == (2 if change == "copies" else 1)
    if change == "version":  # the footer's few pixels are below same_pages' tolerance: read its words
        text = subprocess.run(["pdftotext", str(aside), "-"], capture_output=True, text=True, check=True).stdout
        assert "0.2.0" in text and "0.1.0" not in text


def test_a_changed_deck_and_a_card_changed_after_it_are_printed_again(project):
    pypdf = pytest.importorskip("pypdf")
    deck = project / "duel.txt"
    deck.write_text("[deck]\n3x TCS-13 Rapier\n", encoding="utf-8")
    args = ("pdf", SET, "--deck", "duel.txt", "--layout", "single")
    target = project / "output" / SET / "duel-single-a4.pdf"
    assert "wrote" in run_in_process(*args, cwd=project).stdout
    assert "is up to date" in run_in_process(*args, cwd=project).stdout
    deck.write_text("[deck]\n3x TCS-13 Rapier\n2x Ion Storm\n", encoding="utf-8")
    assert "wrote" in run_in_process(*args, cwd=project).stdout
    assert len(pypdf.PdfReader(target).pages) == 5
    before = target.read_bytes()
    _bump(project / "cards" / SET / "cards.yaml", "attack: 2", "attack: 3")
    assert "(1 drawn, 6 unchanged)" in run_in_process("render", SET, cwd=project).stderr
    p = run_in_process(*args, cwd=project)
    assert "wrote" in p.stdout and target.read_bytes() != before
    assert len(pypdf.PdfReader(target).pages) == 5
    # a render of its own since: its record knows nothing of the deck, which changes once more
    _bump(project / "cards" / SET / "cards.yaml", "attack: 3", "attack: 4")
    assert "(1 drawn, 6 unchanged)" in run_in_process("render", SET, cwd=project).stderr
    assert "wrote" in run_in_process(*args, cwd=project).stdout
    deck.write_text("[deck]\n1x TCS-13 Rapier\n", encoding="utf-8")
    p = run_in_process(*args, cwd=project)
    assert "wrote" in p.stdout, p.stdout
    assert len(pypdf.PdfReader(target).pages) == 1



def test_pdf_after_render_never_takes_the_manifest_s_hash_of_an_image_retouched_since(project):
    """`pdf` trusts render's hashes only while the image is as render left it: an image changed by hand
    after the render is hashed again and printed as it is now."""
    import hashlib

    from PIL import Image

    render_then_pdf(project)
    _bump(project / "cards" / SET / "cards.yaml", "attack: 2", "attack: 3")
    assert "(1 drawn, 6 unchanged)" in run_in_process("render", SET, cwd=project).stderr
    retouched = project / "output" / SET / "cards" / "mines.png"
    with Image.open(retouched) as im:
        im.convert("RGB").transpose(Image.Transpose.ROTATE_180).save(retouched)
    p = run_in_process("pdf", SET, cwd=project)
    assert p.returncode == 0 and "wrote" in p.stdout, p.stderr
    # images are named in the PDF by their content hash: the one embedded is the file as it is now
    assert f"Img{hashlib.sha1(retouched.read_bytes()).hexdigest()[:20]}".encode() in pdf_of(project).read_bytes()
