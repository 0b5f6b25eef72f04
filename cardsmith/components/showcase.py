"""The gallery's components section: each board zoomable (click to see it at full size and scroll),
each token kind as its fronts and backs, with links to the printed PDFs that exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import jinja2
from PIL import Image, ImageDraw

from cardsmith.base.atomic import atomic_path
from cardsmith.components.drawing import components_dir, components_of, load_components_manifest, render_components
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import CardSet

BOARD_WIDTH = 2400  # px of the zoomable board image
TOKEN_WIDTH = 160

SECTION = jinja2.Template("""
<section class="components" id="components" aria-labelledby="components-title">
<h2 id="components-title">Boards and tokens</h2>
<style>
.components { padding: 1rem 1.5rem; }
.components figure { margin: 0 0 1.5rem; }
.components .zoom { overflow: auto; max-height: 85vh; border: 1px solid #ccc; background: #eee; }
.components .zoom img { display: block; width: 100%; cursor: zoom-in; }
.components .zoom.zoomed img { width: auto; max-width: none; cursor: zoom-out; }
.components .tokens { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; }
.components .tokens li { text-align: center; font-size: .8rem; }
.components .tokens img { width: {{ token_width // 2 }}px; height: auto; }
</style>
{% for b in boards %}
<figure>
  <div class="zoom" id="zoom-{{ b.id }}"><img src="{{ b.src }}" alt="{{ b.name }}: {{ b.alt }}" loading="lazy"
     onclick="this.parentElement.classList.toggle('zoomed')"></div>
  <figcaption><strong>{{ b.name }}</strong> - {{ b.alt }}; {{ b.size }}. Click the board to zoom.
  {% for label, href in b.pdfs %}<a href="{{ href }}">{{ label }}</a>{% if not loop.last %}, {% endif %}{% endfor %}</figcaption>
</figure>
{% endfor %}
{% for t in tokens %}
<h3>{{ t.name }} <small>({{ t.shape }}, {{ t.size }}, {{ t.count }} in all)</small></h3>
{% if t.sheet %}<figure><img src="{{ t.sheet }}" alt="The first A4 sheet of {{ t.name }}" loading="lazy" style="max-width: 420px; border: 1px solid #ccc">
  <figcaption>The first A4 sheet, as printed (cut guides included)</figcaption></figure>{% endif %}
<ul class="tokens">
{% for f in t.faces %}
  <li><img src="{{ f.front }}" alt="{{ f.name }} front">{% if f.back %}<img src="{{ f.back }}" alt="{{ f.name }} back">{% endif %}
  <br>{{ f.name }}{% if f.player %} - {{ f.player }}{% endif %} &times;{{ f.copies }}</li>
{% endfor %}
</ul>
{% endfor %}
{% if sheets %}<p>Token sheets: {% for label, href in sheets %}<a href="{{ href }}">{{ label }}</a>{% if not loop.last %}, {% endif %}{% endfor %}</p>{% endif %}
</section>
""", autoescape=True)


def sheet_preview(manifest: dict[str, Any], src: Path, kind: str, target: Path, px_per_mm: float = 3.0) -> Path | None:
    """A picture of the first A4 sheet of a token kind, drawn from the same page plan as the PDF."""
    from cardsmith.components.pages import ComponentPrintOptions, token_sheet_pages

    try:
        pages, images = token_sheet_pages(manifest, src, kind, ComponentPrintOptions(paper="a4"))
    except CardsmithError:
        return None
    page = pages[0]
    k = px_per_mm
    sheet = Image.new("RGB", (round(page.width * k), round(page.height * k)), "white")
    for p in page.placements:
        r, c = p.image_rect, p.clip
        im = Image.open(images[p.key]).convert("RGB").resize((round(r.w * k), round(r.h * k)), Image.Resampling.LANCZOS)
        box = (round((c.x - r.x) * k), round((r.top - c.top) * k), round((c.right - r.x) * k), round((r.top - c.y) * k))
        sheet.paste(im.crop(box), (round(c.x * k), round((page.height - c.top) * k)))
    draw = ImageDraw.Draw(sheet)
    for line in page.lines:
        draw.line([(line.x1 * k, (page.height - line.y1) * k), (line.x2 * k, (page.height - line.y2) * k)], fill=(90, 90, 90))
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(target) as tmp:
        sheet.save(tmp, "PNG")
    return target


def components_section(project: Any, cardset: CardSet, make_image: Callable[..., str], gallery: Path | None = None) -> str:
    """The section's HTML (empty for a set without components).

    `make_image(src, rel, width, None)` writes a JPEG of `src` at most `width` px wide to
    `gallery/rel` when it is out of date (the gallery's image cache); with `gallery`, a picture of
    each token kind's first sheet is drawn there too."""
    comps = components_of(cardset)
    if not comps:
        return ""
    src = components_dir(project, cardset)
    try:
        manifest = load_components_manifest(src)
    except CardsmithError:
        render_components(project, cardset)
        manifest = load_components_manifest(src)
    out = project.set_output(cardset.id)
    boards = []
    for bid, info in manifest["boards"].items():
        rel = f"components/board-{bid}.jpg"
        make_image(src / info["file"], rel, BOARD_WIDTH, None)
        w, h = info["trim_mm"]
        board = comps.boards.get(bid)
        grid = f"{board.grid} grid of {len(board.cells)} cells" if board and board.grid != "track" else f"track of {info['cells']} spaces"
        pdfs = [(p.stem, f"../{p.name}") for p in sorted(out.glob(f"board-{bid}-*.pdf"))]
        boards.append({"id": bid, "name": info["name"], "src": rel, "alt": grid, "size": f"{w:.0f} x {h:.0f} mm", "pdfs": pdfs})
    tokens = []
    for kid, info in manifest["tokens"].items():
        faces = []
        for f in info["faces"]:
            front = f"components/{Path(f['front']).stem}.jpg"
            make_image(src / f["front"], front, TOKEN_WIDTH, None)
            back = None
            if f.get("back"):
                back = f"components/{Path(f['back']).stem}.jpg"
                make_image(src / f["back"], back, TOKEN_WIDTH, None)
            player = comps.players[f["player"]].name if f.get("player") in comps.players else None
            faces.append({"name": f["name"], "player": player, "copies": f["copies"], "front": front, "back": back})
        w, h = info["trim_mm"]
        sheet = f"components/sheet-{kid}.png"
        preview = sheet_preview(manifest, src, kid, gallery / sheet) if gallery is not None else None
        tokens.append({"name": info["name"], "shape": info["shape"], "size": f"{min(w, h):g} mm",
                       "count": sum(f["copies"] for f in info["faces"]), "faces": faces,
                       "sheet": sheet if preview else None})
    sheets = [(p.stem, f"../{p.name}") for p in sorted(out.glob("tokens-*.pdf"))]
    return SECTION.render(boards=boards, tokens=tokens, sheets=sheets, token_width=TOKEN_WIDTH)
