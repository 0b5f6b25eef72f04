"""`cardsmith new`: a small, valid set to start from."""

from __future__ import annotations

from pathlib import Path

from cardsmith.base.atomic import write_text
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.validate import slugify

SCHEMA_DIR = "schemas"  # inside the set folder, so the set stays self-contained and can be shared

SET_YAML = """\
# yaml-language-server: $schema=schemas/set.schema.json
# (editors with the YAML extension complete and check this file from that schema; cardsmith wrote
#  schemas/ beside it, and `cardsmith schema --out cards/<set>/schemas` writes it again after an update)
id: {id}
name: {name}
version: 0.1.0
description: A new card game.
card_size: poker          # poker, bridge, tarot, mini-euro, mini-american, square, square-large, business
bleed: 0.125in
safe: 0.125in

factions:
  sun: {{name: Sun Court, color: "#d9a021"}}
  moon: {{name: Moon Court, color: "#4a5fb0"}}

keywords:
  swift: {{name: Swift, reminder: "Swift creatures may act the turn they arrive."}}
  ward: {{name: Ward, param: int, reminder: "Prevent the first X damage dealt to this each turn."}}

types:
  creature:
    name: Creature
    fields:
      cost:   {{kind: int, min: 0, max: 10, required: true}}
      power:  {{kind: int, min: 0, max: 20, required: true}}
      health: {{kind: int, min: 1, max: 20, required: true}}
  spell:
    name: Spell
    fields:
      cost:   {{kind: int, min: 0, max: 10, required: true}}
      speed:  {{kind: enum, values: [slow, fast], default: slow}}

deck_rules:
  zones:
    main:
      size: {{min: 6, max: 20}}
  copies: 3
"""

CARDS_YAML = """\
# yaml-language-server: $schema=schemas/card.schema.json
defaults:
  type: creature
cards:
  - id: dawn-scout
    name: Dawn Scout
    faction: sun
    cost: 1
    power: 1
    health: 2
    keywords: [Swift]
    text: When Dawn Scout arrives, look at the top card of your deck.
    flavor: First to the hill, last to leave.
  - id: lantern-keeper
    name: Lantern Keeper
    faction: sun
    cost: 3
    power: 2
    health: 4
    keywords: [Ward 1]
    text: Your other creatures have **Ward 1**.
  - id: night-heron
    name: Night Heron
    faction: moon
    cost: 2
    power: 3
    health: 1
    keywords: [Swift]
  - id: eclipse
    name: Eclipse
    type: spell
    faction: moon
    cost: 4
    speed: fast
    text: Every creature gets *-1 power* until the end of the turn.
"""

DECK_YAML = """\
# yaml-language-server: $schema=../schemas/deck.schema.json
name: Starter
main:
  Dawn Scout: 3
  Lantern Keeper: 2
  Night Heron: 3
  Eclipse: 2
"""


def scaffold_set(directory: Path, name: str | None = None) -> list[Path]:
    """Write a new set into `directory` (which must not already hold a set); return the files written."""
    directory = Path(directory)
    if (directory / "set.yaml").exists():
        raise CardsmithError(f"{directory} already holds a set (set.yaml exists)", hint="choose a new folder name")
    if directory.exists() and not directory.is_dir():
        raise CardsmithError(f"{directory} exists and is not a folder")
    set_id = slugify(directory.resolve().name)
    display = name or directory.resolve().name.replace("-", " ").replace("_", " ").title()
    display = display.replace('"', "'")
    files = [
        (directory / "set.yaml", SET_YAML.format(id=set_id, name=f'"{display}"')),
        (directory / "cards.yaml", CARDS_YAML),
        (directory / "decks" / "starter.yaml", DECK_YAML),
    ]
    from cardsmith.sets._schema_check import schema_names, schema_text

    files += [(directory / SCHEMA_DIR / f"{n}.schema.json", schema_text(n)) for n in schema_names()]
    for path, text in files:
        write_text(path, text)
    (directory / "art").mkdir(exist_ok=True)
    return [p for p, _ in files if p.suffix != ".json"] + [directory / SCHEMA_DIR]
