"""The rendered card images of a set, as the sharing outputs see them.

Rendering (`cardsmith.render.batch.render_set`) writes `output/<set>/cards/<id>.png` and
`output/<set>/cards/manifest.json`; this module reads that manifest (a contract between render, pdf
and share) and offers the few image operations every sharing output needs (cut the bleed off,
flatten to RGB, make thumbnails).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from PIL import Image

from cardsmith.base.errors import CardsmithError

MANIFEST = Path("cards") / "manifest.json"


@dataclass(frozen=True)
class RenderedCard:
    id: str
    file: Path  # absolute path of the front image
    back: str | None
    name: str
    type: str


@dataclass(frozen=True)
class RenderedSet:
    """`output/<set>/cards/manifest.json`, with absolute file paths."""

    set_id: str
    out_dir: Path
    dpi: int
    trim_mm: tuple[float, float]
    bleed_mm: float
    cards: dict[str, RenderedCard] = field(default_factory=dict)
    backs: dict[str, Path] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()  # what rendering warned about just now (text overflow, missing art...)

    def back_file(self, back_id: str | None) -> Path | None:
        return self.backs.get(back_id) if back_id else None


def read_manifest(out_dir: Path) -> RenderedSet:
    """Read `out_dir/cards/manifest.json`; a missing or damaged one is a clear error."""
    out_dir = Path(out_dir)
    path = out_dir / MANIFEST
    if not path.is_file():
        raise CardsmithError(f"no rendered cards in {out_dir}: {path} does not exist",
                             hint="render the set first: cardsmith render SET (or use cardsmith build)")
    def inside(rel: str) -> Path:
        # a manifest handed over as an "earlier build" must not point the gallery at files elsewhere
        target = out_dir / rel
        if Path(rel).is_absolute() or not target.resolve().is_relative_to(out_dir.resolve()):
            raise ValueError(f"it names a file outside its folder: {rel}")
        return target

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        cards = {
            cid: RenderedCard(cid, inside(entry["file"]), entry.get("back"), entry.get("name", cid), entry.get("type", ""))
            for cid, entry in data["cards"].items()
        }
        backs = {bid: inside(entry["file"]) for bid, entry in (data.get("backs") or {}).items()}
        trim = data["trim_mm"]
        return RenderedSet(data["set"], out_dir, int(data["dpi"]), (float(trim[0]), float(trim[1])),
                           float(data.get("bleed_mm", 0.0)), cards, backs)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError, RecursionError) as e:
        raise CardsmithError(f"{path} is damaged ({type(e).__name__}: {e})",
                             hint="render the set again: cardsmith render SET --force") from e


def rendered(project: Any, cardset: Any, *, render: bool = True, only: Iterable[str] | None = None) -> RenderedSet:
    """The set's rendered images: render first (the render cache skips unchanged cards) unless `render` is False."""
    out_dir = project.set_output(cardset.id)
    if render:
        try:
            from cardsmith.render.batch import render_set
        except ImportError as e:  # rendering not installed in this checkout
            if not (out_dir / MANIFEST).is_file():
                raise CardsmithError("cannot render cards: cardsmith.render.batch is not available", hint=str(e)) from e
        else:
            result = render_set(project, cardset, only=list(only) if only is not None else None)
            diagnostics = getattr(result, "diagnostics", [])
            errors = [d.format(project.root) for d in diagnostics if d.is_error]
            if errors:
                raise CardsmithError(f"{len(errors)} card face(s) of {cardset.id} could not be drawn:\n" + "\n".join(errors),
                                     hint="fix the layout or the card named above, then run the command again")
            warnings = tuple(d.format(project.root) for d in diagnostics if not d.is_error)
            return dataclasses.replace(_checked(read_manifest(out_dir), cardset), warnings=warnings)
    return _checked(read_manifest(out_dir), cardset)


def _checked(rs: RenderedSet, cardset: Any) -> RenderedSet:
    missing = [c.id for c in cardset.cards if c.id not in rs.cards or not rs.cards[c.id].file.is_file()]
    if missing:
        raise CardsmithError(f"{len(missing)} card(s) of {cardset.id} have no rendered image: {', '.join(missing[:5])}",
                             hint="render the set again: cardsmith render SET")
    return rs


def open_rgb(path: Path) -> Image.Image:
    """An image file as RGB; transparency is flattened onto white (Tabletop Simulator and JPEG want RGB)."""
    im: Image.Image  # opened as an ImageFile, replaced by its RGBA conversion below
    try:
        with Image.open(path) as im:
            im.load()
    except (OSError, Image.DecompressionBombError) as e:
        raise CardsmithError(f"cannot read image {path}: {e}", hint="render the set again: cardsmith render SET --force") from e
    if im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
        flat = Image.new("RGB", im.size, "white")
        flat.paste(im, mask=im.getchannel("A"))
        return flat
    return im.convert("RGB")


def trim_box(size: tuple[int, int], rs: RenderedSet) -> tuple[int, int, int, int]:
    """The pixel box of the trim inside an image that is trim plus bleed on every side."""
    w, h = size
    tw, th = rs.trim_mm
    if rs.bleed_mm <= 0:
        return (0, 0, w, h)
    bx = round(w * rs.bleed_mm / (tw + 2 * rs.bleed_mm))
    by = round(h * rs.bleed_mm / (th + 2 * rs.bleed_mm))
    return (bx, by, w - bx, h - by)


def trimmed(path: Path, rs: RenderedSet) -> Image.Image:
    """A card image cut to its trim (what a player sees), as RGB."""
    im = open_rgb(path)
    return im.crop(trim_box(im.size, rs))


def fit_width(im: Image.Image, width: int) -> Image.Image:
    """Scaled (down or up) to `width` pixels wide, keeping the aspect ratio."""
    height = max(1, round(im.height * width / im.width))
    return im.resize((width, height), Image.Resampling.LANCZOS)


def rendered_for_build(ctx: Any) -> RenderedSet:
    """For a build stage: the images the render stage made, rendering only if they are missing or stale."""
    out_dir = ctx.out
    if (out_dir / MANIFEST).is_file():
        rs = read_manifest(out_dir)
        if all(c.id in rs.cards and rs.cards[c.id].file.is_file() for c in ctx.cardset.cards):
            return rs
    return rendered(ctx.project, ctx.cardset)
