"""A small set for the sharing tests: a set folder on disk, its CardSet, and rendered-looking images.

The images follow the rendering contract (trim + bleed, `cards/manifest.json`) but are drawn here so
the sharing tests do not depend on the layout engine: a race-coloured face with the card's name.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cardsmith.sets.model import CardSet
from cardsmith.sets.validate import load_set

SET_YAML = """\
id: mini
name: Mini Empires
version: 1.0.0
card_size: poker
races:
  terracorp: {name: Terracorp, color: "#2f6db5"}
  chain: {name: The Chain, color: "#b53a2f"}
keywords:
  shield: {name: Shield, param: int, reminder: "Reduce enemy damage rolls by X."}
  accurate: {name: Accurate, reminder: "Re-roll one miss."}
types:
  ship:
    name: Ship
    fields:
      class: {kind: enum, values: [fighter, cruiser, battleship], required: true}
      attack: {kind: int, min: 0, max: 30, required: true}
      armour: {kind: int, min: 1, max: 30, required: true}
      energy: {kind: int, min: 0, max: 9, default: 0}
  event:
    name: Event
    fields:
      energy: {kind: int, min: 0, max: 9, default: 0}
"""

SHIPS_YAML = """\
defaults:
  type: ship
cards:
  - id: tcs-13-rapier
    name: TCS-13 Rapier
    race: terracorp
    class: fighter
    attack: 2
    armour: 6
    energy: 1
    keywords: [Shield 3]
    text: "Interceptor of the **home fleet**."
  - id: tcs-40-broadsword
    name: TCS-40 Broadsword
    race: terracorp
    class: cruiser
    attack: 5
    armour: 12
    energy: 3
    copies: 2
  - id: chain-reaver
    name: Chain Reaver
    race: chain
    class: battleship
    attack: 9
    armour: 20
    energy: 5
    keywords: [Accurate, Shield 1]
    text: "When this ship attacks, draw a card."
    flavor: "Nothing escapes the Chain."
  - id: chain-skiff
    name: Chain Skiff
    race: chain
    class: fighter
    attack: 1
    armour: 3
"""

EVENTS_YAML = """\
defaults:
  type: event
cards:
  - id: solar-flare
    name: Solar Flare
    energy: 2
    text: "Every fighter loses 1 armour.\\nThen draw a card."
  - id: blackest-night
    name: Blackest Night
    race: chain
    energy: 4
    text: "Destroy a cruiser."
"""

COLORS = {"terracorp": (47, 109, 181), "chain": (181, 58, 47), None: (120, 120, 120)}


def make_set(root: Path) -> tuple[Path, CardSet]:
    """Write the set folder under `root/cards/mini` and return it with its validated CardSet."""
    set_dir = root / "cards" / "mini"
    set_dir.mkdir(parents=True, exist_ok=True)
    (set_dir / "set.yaml").write_text(SET_YAML)
    (set_dir / "ships.yaml").write_text(SHIPS_YAML)
    (set_dir / "events.yaml").write_text(EVENTS_YAML)
    return set_dir, load_set(set_dir)


def fake_render(out_dir: Path, cardset: CardSet, *, dpi: int = 100, bleed_mm: float = 3.175,
                changed: dict[str, tuple[int, int, int]] | None = None) -> Path:
    """Draw card images and a manifest as `render_set` would (smaller dpi keeps tests fast)."""
    tw, th = cardset.card_size
    w = round((tw + 2 * bleed_mm) / 25.4 * dpi)
    h = round((th + 2 * bleed_mm) / 25.4 * dpi)
    bleed_px = round(bleed_mm / 25.4 * dpi)
    (out_dir / "cards").mkdir(parents=True, exist_ok=True)
    (out_dir / "backs").mkdir(parents=True, exist_ok=True)
    font = ImageFont.load_default(size=max(10, dpi // 8))
    cards = {}
    for card in cardset.cards:
        color = (changed or {}).get(card.id, COLORS.get(card.race, COLORS[None]))
        im = Image.new("RGB", (w, h), (30, 30, 30))  # the bleed is dark so a crop that keeps it is visible
        d = ImageDraw.Draw(im)
        d.rectangle([bleed_px, bleed_px, w - bleed_px - 1, h - bleed_px - 1], fill=color)
        d.text((bleed_px + 8, bleed_px + 8), card.name, fill="white", font=font)
        d.text((bleed_px + 8, h // 2), card.type, fill="white", font=font)
        im.save(out_dir / "cards" / f"{card.id}.png")
        cards[card.id] = {"file": f"cards/{card.id}.png", "back": "fleet" if card.type == "ship" else None,
                          "name": card.name, "type": card.type}
    back = Image.new("RGB", (w, h), (20, 20, 60))
    ImageDraw.Draw(back).text((w // 3, h // 2), "BACK", fill="white", font=font)
    back.save(out_dir / "backs" / "fleet.png")
    manifest = {"set": cardset.id, "dpi": dpi, "format": "png", "trim_mm": [tw, th], "bleed_mm": bleed_mm,
                "safe_mm": 3.175, "cards": cards, "backs": {"fleet": {"file": "backs/fleet.png"}}}
    (out_dir / "cards" / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return out_dir
