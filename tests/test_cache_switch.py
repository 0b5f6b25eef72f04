"""One switch for every cache (`CARDSMITH_NO_CACHE=1`, `cardsmith.cache.off`), the drawing code in every
face key (`cardsmith.cache.code`)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cardsmith.cache.code import drawing_code

ROOT = Path(__file__).resolve().parent.parent
SET = "trf"  # a small bundled set


def _project(tmp_path: Path, name: str) -> Path:
    project = tmp_path / name
    shutil.copytree(ROOT / "cards" / SET, project / "cards" / SET)
    return project


def _cardsmith(project: Path, *args: str, package_root: Path = ROOT, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != "CARDSMITH_NO_CACHE"}
    full.update({"PYTHONPATH": str(package_root), "COLUMNS": "200", **env})
    r = subprocess.run([sys.executable, "-m", "cardsmith", *args], cwd=project, env=full, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r


def _pdf_pages(path: Path) -> list[tuple]:
    """Each page's size, content stream and the bytes of the images it shows."""
    from pypdf import PdfReader

    pages = []
    for page in PdfReader(path).pages:
        images = sorted(hashlib.sha1(im.data).hexdigest() for im in page.images)
        pages.append((tuple(page.mediabox), page.get_contents().get_data(), tuple(images)))
    return pages


def _kept_files(project: Path) -> list[Path]:
    out = project / "output"
    return sorted(p for p in out.rglob("*") if p.is_file() and (".cache" in p.parts or p.name.startswith(".")))


def test_a_build_without_caches_makes_the_same_cards_and_pdf_and_keeps_nothing(tmp_path):
    cached, uncached = _project(tmp_path, "cached"), _project(tmp_path, "uncached")
    for args in (("render", SET), ("pdf", SET)):
        _cardsmith(cached, *args)
        _cardsmith(uncached, *args, CARDSMITH_NO_CACHE="1")
    a, b = cached / "output" / SET, uncached / "output" / SET
    pngs = sorted(p.relative_to(a) for p in a.rglob("*.png"))
    assert len(pngs) > 10 and pngs == sorted(p.relative_to(b) for p in b.rglob("*.png"))
    assert all((a / p).read_bytes() == (b / p).read_bytes() for p in pngs)
    pdfs = sorted(a.glob("*.pdf"))
    assert pdfs and [p.name for p in pdfs] == [p.name for p in sorted(b.glob("*.pdf"))]
    for p in pdfs:
        assert _pdf_pages(p) == _pdf_pages(b / p.name)
    assert _kept_files(cached)  # stamps, keys and kept results
    assert _kept_files(uncached) == []
    # and nothing kept is read: the same render with caches off draws every card again
    again = _cardsmith(cached, "render", SET, CARDSMITH_NO_CACHE="1")
    assert " 0 drawn" not in again.stderr + again.stdout and "unchanged)" in again.stderr + again.stdout


def test_an_edit_to_the_drawing_code_draws_every_card_again(tmp_path):
    package = tmp_path / "copy"
    shutil.copytree(ROOT / "cardsmith", package / "cardsmith", ignore=shutil.ignore_patterns("__pycache__"))
    for bundled in ("fonts", "templates"):  # what the package finds beside itself
        shutil.copytree(ROOT / bundled, package / bundled)
    project = _project(tmp_path, "project")
    _cardsmith(project, "render", SET, "--dpi", "60", package_root=package)
    same = _cardsmith(project, "render", SET, "--dpi", "60", package_root=package)
    assert "(0 drawn," in same.stderr + same.stdout
    with open(package / "cardsmith" / "layout" / "_fit.py", "a", encoding="utf-8") as f:
        f.write("\nHARMLESS_NEW_CONSTANT = 1\n")
    redrawn = _cardsmith(project, "render", SET, "--dpi", "60", package_root=package)
    assert "(0 drawn," not in redrawn.stderr + redrawn.stdout and " 0 unchanged)" in redrawn.stderr + redrawn.stdout


def test_the_drawing_code_digest_covers_the_painter_and_the_png_writer():
    from cardsmith.cache.code import drawing_files

    files = drawing_files()
    for module in ("layout/template.py", "layout/paint.py", "layout/_fit.py", "layout/_masks.py", "layout/fonts.py",
                   "layout/_textcache.py", "layout/memo.py", "render/_pngwrite.py", "render/draw.py"):
        assert module in files
    assert len(drawing_code()) == 64


def test_an_unchanged_build_leaves_its_contact_sheets_and_gallery_as_they_were(tmp_path):
    project = _project(tmp_path, "project")
    skip = [a for s in ("balance", "decks", "pdf") for a in ("--skip", s)]
    first = _cardsmith(project, "build", SET, *skip)
    out = project / "output" / SET
    made = {p: p.stat().st_mtime_ns for p in [*(out / "sheets").glob("*.png"), out / "gallery" / "index.html", *out.glob("tokens-*.pdf")]}
    again = _cardsmith(project, "build", SET, *skip)
    assert {p: p.stat().st_mtime_ns for p in made} == made
    assert "contact sheet page(s)" in again.stdout and "gallery" in again.stdout and "token sheets" in again.stdout, first.stdout
    assert len(made) > 3
    cards = sorted((project / "cards" / SET).glob("*.yaml"))[-1]
    cards.write_text(cards.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # an edit: both made again
    _cardsmith(project, "build", SET, *skip)
    assert all(p.stat().st_mtime_ns != t for p, t in made.items())
