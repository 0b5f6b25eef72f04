"""Benchmark: a 360-card print-and-play PDF against a plain ReportLab baseline in the same run.

    python benchmarks/pdf.py [--cards 360] [--designs 360] [--repeat 2]

Makes `--designs` distinct 300 dpi poker card images (trim + 1/8 in bleed, flat frames, text and a
noisy "art" area so they compress like real cards), then times
  baseline: ReportLab's own drawImage(path) in a 3 x 3 grid on A4, one page per 9 cards, defaults;
  cardsmith: `cardsmith.printing.pdf.print_pdf` on the same cards, same grid, with crop marks and footer;
  duplex: the same with a back page per sheet (twice the pages; reported, not targeted);
  decoding: cardsmith with PNG pass-through off (each image decoded and recompressed, as ReportLab does).
Times are the best of `--repeat` runs in this process. Peak memory (VmHWM, peak resident set) is measured in a fresh
child process per pipeline, so one pipeline's peak cannot hide another's.
Targets (issue 4): cardsmith within 1.3x the baseline's time; peak under 400 MB.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DPI = 300
TRIM = (63.5, 88.9)
BLEED = 3.175


def make_cards(folder: Path, designs: int) -> dict:
    from PIL import Image, ImageDraw, ImageFilter

    px = lambda mm: round(mm / 25.4 * DPI)  # noqa: E731
    w, h = px(TRIM[0] + 2 * BLEED), px(TRIM[1] + 2 * BLEED)
    (folder / "cards").mkdir(parents=True, exist_ok=True)
    (folder / "backs").mkdir(parents=True, exist_ok=True)
    rng = random.Random(4)
    noise = Image.effect_noise((px(55), px(40)), 40).filter(ImageFilter.GaussianBlur(1.2))
    cards = {}
    for i in range(designs):
        hue = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        im = Image.new("RGB", (w, h), hue)
        d = ImageDraw.Draw(im)
        b = px(BLEED)
        d.rounded_rectangle([b + 20, b + 20, w - b - 20, h - b - 20], radius=30, fill=(245, 240, 230), outline=(30, 30, 30), width=6)
        art = Image.merge("RGB", [noise.point(lambda v, k=k: (v + hue[k]) % 256) for k in range(3)])
        im.paste(art, (px(BLEED + 4), px(BLEED + 14)))
        for line in range(8):
            d.text((px(BLEED + 6), px(BLEED + 58) + line * 40), f"Card {i} rules text line {line} " * 2, fill=(20, 20, 20))
        name = f"c{i:03d}"
        im.save(folder / "cards" / f"{name}.png", compress_level=6)
        cards[name] = {"file": f"cards/{name}.png", "back": "std", "name": name, "type": "unit"}
    back = Image.new("RGB", (w, h), (40, 40, 120))
    ImageDraw.Draw(back).ellipse([w // 4, h // 4, 3 * w // 4, 3 * h // 4], fill=(200, 180, 60))
    back.save(folder / "backs" / "std.png")
    manifest = {"set": "bench", "dpi": DPI, "format": "png", "trim_mm": list(TRIM), "bleed_mm": BLEED, "safe_mm": BLEED,
                "cards": cards, "backs": {"std": {"file": "backs/std.png"}}}
    (folder / "cards" / "manifest.json").write_text(json.dumps(manifest))
    return manifest


def card_files(folder: Path, manifest: dict, n: int) -> list[Path]:
    names = list(manifest["cards"])
    return [folder / manifest["cards"][names[i % len(names)]]["file"] for i in range(n)]


def baseline(folder: Path, manifest: dict, n: int, target: Path) -> None:
    """What a user of plain ReportLab writes: drawImage by path in a 3 x 3 grid."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(target), pagesize=A4)
    cw, ch = TRIM[0] * mm, TRIM[1] * mm
    x0, y0 = (A4[0] - 3 * cw) / 2, (A4[1] - 3 * ch) / 2
    b = BLEED * mm
    for i, path in enumerate(card_files(folder, manifest, n)):
        slot = i % 9
        if i and slot == 0:
            c.showPage()
        col, row = slot % 3, slot // 3
        c.drawImage(str(path), x0 + col * cw - b, y0 + (2 - row) * ch - b, cw + 2 * b, ch + 2 * b)
    c.showPage()
    c.save()


def cardsmith_pdf(folder: Path, manifest: dict, n: int, target: Path, backs: str = "none", passthrough: bool = True) -> None:
    from cardsmith.printing import _pdfstream
    from cardsmith.printing.pdf import PdfOptions, print_pdf, select_items

    _pdfstream.PNG_PASSTHROUGH = passthrough

    items = select_items(None, manifest, folder)
    items = [items[i % len(items)] for i in range(n)]
    print_pdf(items, manifest, PdfOptions(paper="a4", backs=backs), target, title="bench", footer="Bench 1.0")


PIPELINES = ("baseline", "cardsmith", "duplex", "decoding")


def run(which: str, folder: Path, manifest: dict, n: int, out: Path) -> None:
    if which == "baseline":
        baseline(folder, manifest, n, out)
    else:
        cardsmith_pdf(folder, manifest, n, out, "long" if which == "duplex" else "none", passthrough=which != "decoding")


def _child(which: str, folder: str, n: int, out: str, q) -> None:
    manifest = json.loads((Path(folder) / "cards" / "manifest.json").read_text())
    start = time.perf_counter()
    run(which, Path(folder), manifest, n, Path(out))
    q.put((time.perf_counter() - start, _high_water_mb()))


def _high_water_mb() -> float:
    """This process's peak resident memory. VmHWM starts afresh at exec; ru_maxrss on Linux keeps
    the forked parent's size from before the exec, which would give every child the parent's peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak(which: str, folder: Path, n: int, out: Path) -> tuple[float, float]:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(which, str(folder), n, str(out), q))
    p.start()
    result = q.get()
    p.join()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=360)
    ap.add_argument("--designs", type=int, default=360, help="distinct card images (the rest are copies)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--rendered", type=Path, metavar="OUTPUT/SET",
                    help="use a rendered set (e.g. output/solar-empires after `cardsmith render`) instead of made-up cards")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardsmith-bench-") as tmp:
        if args.rendered:
            folder = args.rendered.resolve()
            manifest = json.loads((folder / "cards" / "manifest.json").read_text())
            args.designs = len(manifest["cards"])
            print(f"using {args.designs} rendered cards from {folder}")
        else:
            folder = Path(tmp) / "bench"
            t = time.perf_counter()
            manifest = make_cards(folder, args.designs)
            print(f"made {args.designs} card images in {time.perf_counter() - t:.1f} s")
        times: dict[str, list[float]] = {w: [] for w in PIPELINES}
        for _ in range(args.repeat):
            for which in times:
                out = Path(tmp) / f"{which}.pdf"
                t = time.perf_counter()
                run(which, folder, manifest, args.cards, out)
                times[which].append(time.perf_counter() - t)
        sizes = {w: (Path(tmp) / f"{w}.pdf").stat().st_size / 1e6 for w in times}
        peaks = {w: peak(w, folder, args.cards, Path(tmp) / f"peak-{w}.pdf")[1] for w in times}
        best = {w: min(v) for w, v in times.items()}
        print(f"{args.cards} cards ({args.designs} distinct images), A4 3 x 3, best of {args.repeat}:")
        print(f"{'pipeline':18} {'time s':>8} {'ratio':>7} {'peak MB':>9} {'file MB':>8}")
        for w in times:
            print(f"{w:18} {best[w]:8.2f} {best[w] / best['baseline']:7.2f} {peaks[w]:9.0f} {sizes[w]:8.1f}")
        ratio = best["cardsmith"] / best["baseline"]
        print(f"target: cardsmith <= 1.3x baseline time: {'met' if ratio <= 1.3 else 'MISSED'} ({ratio:.2f}x); "
              f"peak < 400 MB: {'met' if peaks['cardsmith'] < 400 else 'MISSED'} ({peaks['cardsmith']:.0f} MB)")
        print("(2 shared cores: other work on the machine makes these figures noisy)")


if __name__ == "__main__":
    main()
