"""Draw the pictures of docs/components.md from the star-map example set (tests/fixtures/star-map).

    python scripts/components_pictures.py      # writes docs/components/*.png

Each picture is made by cardsmith itself: the rendered board and tokens, and PDF pages rasterised
with pdftoppm (poppler-utils), so the documentation shows what a user gets.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardsmith.components.pages import ComponentPrintOptions, write_board_pdf, write_tokens_pdf  # noqa: E402
from cardsmith.components.drawing import render_components  # noqa: E402
from cardsmith.base.project import Project  # noqa: E402
from cardsmith.sets.validate import load_set  # noqa: E402

OUT = ROOT / "docs" / "components"


def _page(pdf: Path, page: int, dpi: int, work: Path) -> Image.Image:
    prefix = work / f"{pdf.stem}-{page}"
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(prefix)], check=True)
    im = Image.open(f"{prefix}.png").convert("RGB")
    ImageDraw.Draw(im).rectangle([0, 0, im.width - 1, im.height - 1], outline=(160, 160, 160))  # the paper's edge
    return im


def _row(images: list[Image.Image], gap: int = 16) -> Image.Image:
    h = max(i.height for i in images)
    row = Image.new("RGB", (sum(i.width for i in images) + gap * (len(images) - 1), h), (255, 255, 255))
    x = 0
    for im in images:
        row.paste(im, (x, 0))
        x += im.width + gap
    return row


def _save(im: Image.Image, name: str, width: int) -> None:
    if im.width > width:
        im = im.resize((width, round(im.height * width / im.width)), Image.LANCZOS)
    im.save(OUT / name, optimize=True)
    print(f"wrote {OUT / name} ({im.width} x {im.height})")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "tests" / "fixtures" / "star-map", work / "cards" / "star-map")
        project = Project(work)
        cardset = load_set(work / "cards" / "star-map")
        result = render_components(project, cardset, dpi=150)
        assert not result.errors, result.errors
        comp = project.set_output("star-map") / "components"
        _save(Image.open(comp / "boards" / "starmap.png").convert("RGB"), "hex-map.png", 900)
        _save(Image.open(comp / "boards" / "damage.png").convert("RGB"), "damage-track.png", 700)
        tokens = [Image.open(comp / "tokens" / n).convert("RGB") for n in
                  ("control-red.png", "back-control-red.png", "control-blue.png", "world-sol.png", "world-rigel.png",
                   "back-world.png")]
        _save(_row(tokens), "tokens.png", 800)
        options = ComponentPrintOptions(paper="a4", dpi=150)
        tiled = write_board_pdf(project, cardset, "starmap", "tiled", options)
        _save(_row([_page(tiled, n, 40, work) for n in (1, 2, 3)]), "tiled-a4.png", 900)
        sheet = write_tokens_pdf(project, cardset, ComponentPrintOptions(paper="a4", backs="long", dpi=150))
        _save(_row([_page(sheet, n, 40, work) for n in (1, 2)]), "token-sheet-a4.png", 700)
        zoom = _page(sheet, 1, 200, work).crop((0, 0, 700, 420))
        _save(zoom, "token-sheet-detail.png", 700)


if __name__ == "__main__":
    main()
