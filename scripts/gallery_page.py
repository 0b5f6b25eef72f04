"""Draw docs/gallery.md: one card of each type from every bundled set, side by side at print size.

    python scripts/gallery_page.py      # writes docs/gallery.md and docs/gallery/*.jpg

Each set folder under cards/ is copied to a scratch project and rendered by cardsmith itself (so the
page shows what `cardsmith render` makes); the first card of each type in file order is shown, unless
PICKS names another. Images are cut to the trim and kept as JPEG at 150 dpi (about 40 KB a card), and
the page shows them at their print width: 2.5 in is 240 CSS px at the CSS 96 px to the inch.
"""

from __future__ import annotations

import html
import shutil
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardsmith.base.project import Project  # noqa: E402
from cardsmith.render.batch import render_set  # noqa: E402
from cardsmith.sets.model import Card, CardSet  # noqa: E402
from cardsmith.sets.validate import load_set  # noqa: E402

OUT = ROOT / "docs" / "gallery"
PAGE = ROOT / "docs" / "gallery.md"
DPI = 150
CSS_PX_PER_IN = 96
# set id -> {type: card id}: a card that shows its type better than the first one
PICKS: dict[str, dict[str, str]] = {"solar-empires": {"ship": "tcs-39-defender", "building": "missile-silos"}}


def _chosen(cardset: CardSet) -> list[Card]:
    """One card per type, in the order the types are declared."""
    picks = PICKS.get(cardset.id, {})
    first: dict[str, Card] = {}
    for card in cardset.cards:
        if card.id == picks.get(card.type) or (card.type not in first and card.type not in picks):
            first[card.type] = card
    return [first[t] for t in cardset.types if t in first]


def _draw_set(set_dir: Path, work: Path) -> tuple[CardSet, list[tuple[Card, Path]]]:
    """Render the chosen cards of one set; returns the set and (card, trimmed image file) pairs."""
    shutil.copytree(set_dir, work / "cards" / set_dir.name)
    project = Project(work)
    cardset = load_set(work / "cards" / set_dir.name)
    cards = _chosen(cardset)
    result = render_set(project, cardset, dpi=DPI, only=[c.id for c in cards], jobs=1, force=True)
    if not result.ok:
        raise SystemExit(f"{cardset.id}: " + "; ".join(d.message for d in result.errors))
    bleed = round(cardset.bleed / 25.4 * DPI)
    out = []
    for card in cards:
        im = Image.open(project.set_output(cardset.id) / "cards" / f"{card.id}.png").convert("RGB")
        trimmed = im.crop((bleed, bleed, im.width - bleed, im.height - bleed))
        target = OUT / f"{cardset.id}-{card.id}.jpg"
        trimmed.save(target, quality=85, optimize=True, progressive=True)
        out.append((card, target))
    return cardset, out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.jpg"):
        old.unlink()
    lines = ["# Gallery: one card of each type from every bundled set",
             "",
             "Drawn by `python scripts/gallery_page.py` (run it again after changing a layout). Each card is",
             "shown at its print width on a screen of 96 px to the inch, cut at the trim; the images are",
             f"{DPI} dpi JPEG, so look at `output/<set>/cards/` after `cardsmith render` for print detail.",
             "docs/layouts.md explains how each effect is made.", ""]
    for set_dir in sorted(p for p in (ROOT / "cards").iterdir() if (p / "set.yaml").is_file()):
        with tempfile.TemporaryDirectory() as tmp:
            cardset, shown = _draw_set(set_dir, Path(tmp))
        width = round(cardset.card_size[0] / 25.4 * CSS_PX_PER_IN)
        lines += [f"## {cardset.name}", ""]
        labels = [html.escape(f"{c.name} ({cardset.types[c.type].name})") for c, _ in shown]
        lines.append(" ".join(f'<img src="gallery/{f.name}" width="{width}" alt="{label}" title="{label}">'
                              for (_, f), label in zip(shown, labels)))
        lines += ["", " · ".join(f"{cardset.types[c.type].name}: {c.name}" for c, _ in shown), ""]
    PAGE.write_text("\n".join(lines), encoding="utf-8")
    total = sum(f.stat().st_size for f in OUT.glob("*.jpg"))
    print(f"wrote {PAGE.relative_to(ROOT)} and {len(list(OUT.glob('*.jpg')))} images ({total / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
