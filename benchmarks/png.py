"""Writing a card's PNG: cardsmith's writer (`cardsmith.render._pngwrite`) against Pillow's own, in one run.

    python benchmarks/png.py [--repeat 15]

Draws the Solar Empires cards once (300 dpi, into a temporary project), then times, on those
images, best of `--repeat`:
  pillow level 1   `Image.save(..., "PNG", compress_level=1)`: adaptive row filters, one core;
  cardsmith        cardsmith's writer: every row with filter 0 (None), zlib level 1;
and prints each one's milliseconds a card, bytes a card, and its ratio to Pillow's. Every image is
checked to decode to exactly the pixels drawn.
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def drawn_cards(base: Path, limit: int) -> list:
    """The first `limit` Solar Empires card faces, drawn in this process, as images."""
    from PIL import Image

    from cardsmith.base.project import Project
    from cardsmith.render.batch import render_set
    from cardsmith.sets.validate import load_set

    shutil.copytree(ROOT / "cards" / "solar-empires", base / "cards" / "solar-empires")
    project = Project(base)
    cardset = load_set(project.cards_dir / "solar-empires")
    ids = [c.id for c in cardset.cards][:limit]
    render_set(project, cardset, jobs=1, only=ids)
    images = []
    for cid in ids:
        with Image.open(project.set_output("solar-empires") / "cards" / f"{cid}.png") as im:
            images.append(im.convert("RGB"))
    return images


def best_ms(write, images: list, repeat: int) -> tuple[float, float]:
    """Best of `repeat` passes over `images`: milliseconds a card and bytes a card."""
    times, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = sum(len(write(im)) for im in images)
        times.append(time.perf_counter() - start)
    return min(times) / len(images) * 1000, size / len(images)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--cards", type=int, default=12, help="how many cards to write each pass")
    args = ap.parse_args()
    from PIL import Image

    from cardsmith.render import _pngwrite as pngwrite

    with tempfile.TemporaryDirectory(prefix="cardsmith-png-") as tmp:
        images = drawn_cards(Path(tmp), args.cards)

    def pillow(im):
        buf = io.BytesIO()
        im.save(buf, "PNG", compress_level=1)
        return buf.getvalue()

    writers = {"pillow level 1": pillow, "cardsmith": pngwrite.encode_png}
    for name, write in writers.items():  # every writer gives back exactly the pixels drawn
        for im in images:
            back = Image.open(io.BytesIO(write(im)))
            back.load()
            assert back.tobytes() == im.tobytes(), name
    w, h = images[0].size
    print(f"{len(images)} Solar Empires cards, {w} x {h} px RGB; best of {args.repeat} passes")
    base = None
    for name, write in writers.items():
        ms, size = best_ms(write, images, args.repeat)
        base = base or ms
        print(f"  {name:15} {ms:6.2f} ms a card  {size / 1024:7.1f} KiB a card  {ms / base:5.2f}x Pillow's time")
    print(f"(median card size {statistics.median(len(pillow(im)) for im in images) / 1024:.1f} KiB from Pillow)")


if __name__ == "__main__":
    main()
