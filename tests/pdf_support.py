"""Rendered-card stand-ins for the PDF tests: images with registration marks, and a manifest.

Each image is the trim plus bleed at `dpi`, like the renderer's. The bleed is dark green, the trim
light; a square marks the card's centre and a bar its top edge (red on fronts, blue on backs), so
a rasterised page tells where each face landed and which way up it is.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageStat

TRIM = (63.5, 88.9)
BLEED = 3.175
RED = (230, 0, 0)
BLUE = (0, 0, 230)


def px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


def face(mark: tuple[int, int, int], body: tuple[int, int, int], dpi: int = 100, label: str = "") -> Image.Image:
    w, h = px(TRIM[0] + 2 * BLEED, dpi), px(TRIM[1] + 2 * BLEED, dpi)
    im = Image.new("RGB", (w, h), (20, 110, 40))
    d = ImageDraw.Draw(im)
    b = px(BLEED, dpi)
    d.rectangle([b, b, w - b - 1, h - b - 1], fill=body)
    cx, cy = w / 2, h / 2
    s = px(2.5, dpi)
    # PIL's rectangles include their last row and column: end one pixel short, so the marks are centred
    d.rectangle([round(cx - s), round(cy - s), round(cx + s) - 1, round(cy + s) - 1], fill=mark)  # centre square, 5 mm
    top = b + px(3, dpi)
    d.rectangle([round(cx - px(6, dpi)), top, round(cx + px(6, dpi)) - 1, top + px(3, dpi)], fill=mark)  # top bar
    if label:
        d.text((b + 10, h / 2 + s + 10), label, fill=(0, 0, 0))
    return im


def make_rendered(out_dir: Path, n: int = 11, dpi: int = 100, backs: bool = True, types: tuple[str, ...] = ("unit",),
                  ids: list[str] | None = None) -> dict:
    """Write output/<set>/cards/*.png, backs/*.png and cards/manifest.json; return the manifest."""
    (out_dir / "cards").mkdir(parents=True, exist_ok=True)
    (out_dir / "backs").mkdir(parents=True, exist_ok=True)
    cards = {}
    ids = ids or [f"card-{i:02d}" for i in range(n)]
    for i, cid in enumerate(ids):
        body = (250, 245 - (i * 9) % 80, 200 + (i * 13) % 50)
        face(RED, body, dpi, cid).save(out_dir / "cards" / f"{cid}.png")
        cards[cid] = {"file": f"cards/{cid}.png", "back": "plain" if backs else None, "name": f"Card {i}",
                      "type": types[i % len(types)]}
    face(BLUE, (235, 235, 250), dpi).save(out_dir / "backs" / "plain.png")
    manifest = {"set": out_dir.name, "dpi": dpi, "format": "png", "trim_mm": list(TRIM), "bleed_mm": BLEED,
                "safe_mm": BLEED, "cards": cards, "backs": {"plain": {"file": "backs/plain.png"}} if backs else {}}
    (out_dir / "cards" / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def mark_centre(page: Image.Image, box_mm: tuple[float, float, float, float], colour: tuple[int, int, int],
                dpi: int, page_height_mm: float) -> tuple[float, float] | None:
    """Centre (mm, PDF coordinates) of the `colour` pixels inside box (x, y, w, h in mm, PDF coordinates)."""
    x, y, w, h = box_mm
    left, right = px(x, dpi), px(x + w, dpi)
    top, bottom = px(page_height_mm - (y + h), dpi), px(page_height_mm - y, dpi)
    crop = page.crop((max(0, left), max(0, top), min(page.width, right), min(page.height, bottom))).convert("RGB")
    r, g, b = crop.split()
    cr, cg, cb = colour

    def near(channel, v):
        return channel.point(lambda p: 255 if abs(p - v) < 60 else 0)

    from PIL import ImageChops

    mask = ImageChops.multiply(ImageChops.multiply(near(r, cr), near(g, cg)), near(b, cb))
    bbox = mask.getbbox()
    if bbox is None:
        return None
    cx = (max(0, left) + (bbox[0] + bbox[2]) / 2) / dpi * 25.4
    cy_top = (max(0, top) + (bbox[1] + bbox[3]) / 2) / dpi * 25.4
    return cx, page_height_mm - cy_top


def raster(pdf: Path, folder: Path) -> list[Image.Image]:
    """Every page of `pdf` at 40 dpi."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "40", str(pdf), str(folder / "page")], check=True)  # PPM: no PNG compression
    return [Image.open(p).convert("RGB") for p in sorted(folder.glob("page-*.ppm"))]


def same_pages(a: list[Image.Image], b: list[Image.Image]) -> bool:
    """Same page count, and every page within a grey level on average of the other (rasteriser noise)."""
    return len(a) == len(b) and all(x.size == y.size and max(ImageStat.Stat(ImageChops.difference(x, y)).mean) < 1.0
                                    for x, y in zip(a, b))
