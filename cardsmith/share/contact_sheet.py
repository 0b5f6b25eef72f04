"""Contact sheets: every card of a set as labelled thumbnails on a few PNG pages, for a quick look."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from cardsmith.base.atomic import atomic_path
from cardsmith.share.images import RenderedSet, fit_width, trimmed
from cardsmith.sets.model import CardSet

BACKGROUND = (245, 245, 242)
INK = (25, 25, 30)
MUTED = (95, 95, 105)


def _font(size: int, font_dirs: list[Path] | None = None, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A bundled sans font if the project has one, else Pillow's own scalable default."""
    wanted = ("Bold",) if bold else ("Regular", "")
    for folder in font_dirs or []:
        for path in sorted(Path(folder).glob("**/*Sans*.ttf")):
            if any(path.stem.endswith(w) for w in wanted if w) or (not bold and "-" not in path.stem):
                try:
                    return ImageFont.truetype(str(path), size)
                except OSError:
                    continue
    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Any, width: int) -> str:
    """`text`, shortened with an ellipsis until it fits in `width` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def contact_sheets(cardset: CardSet, rs: RenderedSet, out_dir: Path, *, cols: int = 6, rows: int = 3,
                   thumb_width: int = 240, font_dirs: list[Path] | None = None) -> list[Path]:
    """Write `contact-01.png`, `contact-02.png`... into `out_dir`: thumbnails labelled with name, id and type."""
    cards = list(cardset.cards)
    per_page = cols * rows
    pages = max(1, math.ceil(len(cards) / per_page))
    tw, th = rs.trim_mm
    thumb_h = round(thumb_width * th / tw)
    pad, label_h, header_h = 16, 44, 48
    cell_w, cell_h = thumb_width + pad, thumb_h + label_h + pad
    title_font, name_font, small_font = _font(22, font_dirs, True), _font(15, font_dirs, True), _font(12, font_dirs)
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("contact-*.png"):  # a smaller set must not leave stale pages behind
        old.unlink()
    written = []
    for page in range(pages):
        chunk = cards[page * per_page:(page + 1) * per_page]
        used_rows = max(1, math.ceil(len(chunk) / cols))
        sheet = Image.new("RGB", (cols * cell_w + pad, header_h + used_rows * cell_h + pad), BACKGROUND)
        d = ImageDraw.Draw(sheet)
        d.text((pad, 12), f"{cardset.name} {cardset.version}", fill=INK, font=title_font)
        right = f"page {page + 1} of {pages} - {len(cards)} cards"
        d.text((sheet.width - pad - d.textlength(right, font=small_font), 20), right, fill=MUTED, font=small_font)
        for i, card in enumerate(chunk):
            x = pad + (i % cols) * cell_w
            y = header_h + (i // cols) * cell_h
            thumb = fit_width(trimmed(rs.cards[card.id].file, rs), thumb_width)
            sheet.paste(thumb, (x, y))
            d.rectangle([x - 1, y - 1, x + thumb.width, y + thumb.height], outline=(200, 200, 200))
            ctype = cardset.types.get(card.type)
            kind = ctype.name if ctype else card.type
            copies = f" x{card.copies}" if card.copies > 1 else ""
            d.text((x, y + thumb.height + 6), _fit(d, card.name + copies, name_font, thumb_width), fill=INK, font=name_font)
            d.text((x, y + thumb.height + 25), _fit(d, f"{card.id} - {kind}", small_font, thumb_width), fill=MUTED, font=small_font)
        target = out_dir / f"contact-{page + 1:02d}.png"
        with atomic_path(target) as tmp:
            sheet.save(tmp, "PNG", optimize=False, compress_level=6)
        written.append(target)
    written += _components_page(cardset, rs, out_dir, title_font, small_font)
    return written


def _components_page(cardset: CardSet, rs: RenderedSet, out_dir: Path, title_font: Any, small_font: Any) -> list[Path]:
    """`contact-components.png` when the set has boards or tokens that have been rendered."""
    from cardsmith.components.drawing import components_of, load_components_manifest
    from cardsmith.components.exports import components_contact_sheet
    from cardsmith.base.errors import CardsmithError

    if not components_of(cardset):
        return []
    src = rs.out_dir / "components"
    try:
        manifest = load_components_manifest(src)
    except CardsmithError:
        return []  # not rendered yet: `cardsmith components render` (or build) makes them
    return [components_contact_sheet(f"{cardset.name} {cardset.version}", manifest, src,
                                     out_dir / "contact-components.png", title_font, small_font)]


def build_stage(ctx: Any) -> None:
    """Build stage: contact sheets of the set into output/<set>/sheets/ (skipped when the set, the card
    and component images and cardsmith are unchanged: `cardsmith.cache.stages`)."""
    from cardsmith.cache.stages import files_under, unless_unchanged

    unless_unchanged(ctx, "sheets", _build, reads=[ctx.out / "cards", ctx.out / "components"],
                     outputs=lambda wrote: files_under(ctx.out / "sheets"))


def _build(ctx: Any) -> None:
    from cardsmith.share.images import rendered_for_build

    rs = rendered_for_build(ctx)
    pages = contact_sheets(ctx.cardset, rs, ctx.out / "sheets", font_dirs=ctx.project.font_dirs)
    ctx.wrote(f"{len(pages)} contact sheet page(s)", ctx.out / "sheets")
