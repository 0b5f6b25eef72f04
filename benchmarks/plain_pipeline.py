"""The plain Pillow + ReportLab script that `cardsmith pdf` is measured against (benchmarks/pipeline.py).

    python benchmarks/plain_pipeline.py SET_DIR OUT_DIR [--jobs 2]

What a careful script writer does for 300 dpi print-and-play, made as fast as we could without a
content cache or a layout engine: `--jobs` worker processes draw the cards with plain Pillow calls
(benchmarks/plain.py), save each as a level-1 PNG and send the raw pixels to the parent, which
places them 3 x 3 on A4 with ReportLab as they arrive (no decoding of the PNGs, no ASCII85).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

_PLAIN = None
_OUT: Path | None = None


def _init(set_dir: str, out: str) -> None:
    global _PLAIN, _OUT
    from plain import PlainCards

    _PLAIN, _OUT = PlainCards(Path(set_dir)), Path(out)


def _draw(index: int) -> tuple[int, int, int, bytes]:
    assert _PLAIN is not None and _OUT is not None
    card = _PLAIN.cards[index]
    im = _PLAIN.draw(card)
    im.save(_OUT / f"{card.id}.png", "PNG", compress_level=1, dpi=(300, 300))
    return index, im.width, im.height, im.tobytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set_dir", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    from PIL import Image
    from reportlab import rl_config
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    from cardsmith.sets.validate import load_set

    rl_config.useA85 = 0
    args.out.mkdir(parents=True, exist_ok=True)
    n = len(load_set(args.set_dir).cards)
    c = Canvas(str(args.out / "cards.pdf"), pagesize=A4)
    trim_w, trim_h, bleed = 63.5 * mm, 88.9 * mm, 3.175 * mm
    x0, y0 = (A4[0] - 3 * trim_w) / 2, (A4[1] - 3 * trim_h) / 2
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs, initializer=_init, initargs=(str(args.set_dir), str(args.out))) as pool:
        for i, (_index, w, h, raw) in enumerate(pool.imap(_draw, range(n), chunksize=2)):
            slot = i % 9
            if i and slot == 0:
                c.showPage()
            col, row = slot % 3, slot // 3
            c.drawImage(ImageReader(Image.frombytes("RGB", (w, h), raw)), x0 + col * trim_w - bleed,
                        y0 + (2 - row) * trim_h - bleed, trim_w + 2 * bleed, trim_h + 2 * bleed)
    c.showPage()
    c.save()


if __name__ == "__main__":
    main()
