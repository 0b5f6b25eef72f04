"""A set's cards as JSON (for programs) and CSV (for spreadsheets, one row per card, fields flattened).

The CSV is what `cardsmith import-csv` reads back: columns are the keys every card may carry (with
one column per group dimension the set declares: race, faction, class...), then every field the
set's types declare, in declaration order. Lists (keywords, tags, list fields) are
joined with "; ", booleans are `true`/`false`, and an empty cell means "no value".
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from cardsmith.base.atomic import write_text
from cardsmith.base.untrusted import csv_cell
from cardsmith.sets.model import Card, CardSet

LIST_SEP = "; "
# The keys every card may carry, in the order a spreadsheet shows them.
BASE_COLUMNS = ("id", "name", "type", "race", "faction", "copies", "keywords", "effect", "text", "flavor", "art", "tags",
                "back")


def field_columns(cardset: CardSet) -> list[str]:
    """Every field the set's types declare, each once, in declaration order."""
    seen: dict[str, None] = {}
    for ctype in cardset.types.values():
        for name in ctype.fields:
            if name not in BASE_COLUMNS:
                seen.setdefault(name, None)
    return list(seen)


def dimension_columns(cardset: CardSet) -> list[str]:
    """One column per group dimension: the declared ones in order, then any group key a card carries
    that the set does not declare (a set built in code)."""
    return list(dict.fromkeys([*cardset.dimensions, *(d for c in cardset.cards for d in c.groups)]))


def columns(cardset: CardSet) -> list[str]:
    """The CSV header: id, name, type, a column per group dimension, the other card keys (`effect`
    only when a card has one), then the set's declared fields."""
    used = {"effect": any(c.effects for c in cardset.cards)}
    head = list(BASE_COLUMNS[:3])
    tail = [c for c in BASE_COLUMNS[3:] if c not in ("race", "faction") and used.get(c, True)]
    return head + dimension_columns(cardset) + tail + field_columns(cardset)


def _art(card: Card, cardset: CardSet) -> str:
    if card.art is None:
        return ""
    art = Path(card.art)
    try:
        return art.resolve().relative_to(Path(cardset.path).resolve()).as_posix()
    except ValueError:
        return art.as_posix()


def card_record(card: Card, cardset: CardSet) -> dict[str, Any]:
    """One card as plain JSON data (keywords as "Shield 3" strings, art relative to the set folder)."""
    group = cardset.group_of(card)
    record: dict[str, Any] = {
        "id": card.id, "name": card.name, "type": card.type,
        "type_name": cardset.types[card.type].name if card.type in cardset.types else card.type,
        "race": card.race, "faction": card.faction, "group_name": group.name if group else None,
        "groups": dict(card.groups),
        "copies": card.copies,
        "keywords": [keyword_text(k.id, k.value, cardset) for k in card.keywords],
        "text": card.text, "flavor": card.flavor, "art": _art(card, cardset) or None,
        "tags": list(card.tags), "back": card.back, "effect": effect_data(card),
        "fields": {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in ordered_fields(card, cardset).items()},
    }
    return record


def effect_data(card: Card) -> Any:
    """The card's `effect:` as its YAML wrote it: one mapping, a list of them, or None."""
    effects = [dict(e) for e in card.effects]
    return None if not effects else effects[0] if len(effects) == 1 else effects


def ordered_fields(card: Card, cardset: CardSet) -> dict[str, Any]:
    """The card's field values in the order its type declares them (file defaults may come first otherwise)."""
    ctype = cardset.types.get(card.type)
    order = list(ctype.fields) if ctype else []
    return {k: card.fields[k] for k in [*order, *card.fields] if k in card.fields}


def keyword_text(keyword_id: str, value: int | None, cardset: CardSet) -> str:
    """'Shield 3' for a keyword use, by the keyword's declared name."""
    kw = cardset.keywords.get(keyword_id)
    name = kw.name if kw else keyword_id
    return name if value is None else f"{name} {value}"


def set_record(cardset: CardSet) -> dict[str, Any]:
    """The whole set as JSON data: declarations a reader needs to understand the cards, then the cards."""
    return {
        "id": cardset.id, "name": cardset.name, "version": cardset.version, "description": cardset.description,
        "card_size_mm": list(cardset.card_size),
        "types": {t.id: {"name": t.name, "fields": {f.name: {"kind": f.kind, "label": f.label or f.name}
                                                     for f in t.fields.values()}}
                  for t in cardset.types.values()},
        "races": {g.id: {"name": g.name, "color": g.color} for g in cardset.races.values()},
        "factions": {g.id: {"name": g.name, "color": g.color} for g in cardset.factions.values()},
        "groups": {d.id: {"name": d.name, "attributes": {a.name: {"kind": a.kind, "values": list(a.values)} for a in d.attributes.values()},
                          "members": {g.id: {"name": g.name, "color": g.color, **dict(g.attributes)} for g in d.groups.values()}}
                   for d in cardset.dimensions.values()},
        "keywords": {k.id: {"name": k.name, "reminder": k.reminder, "param": k.param} for k in cardset.keywords.values()},
        "cards": [card_record(c, cardset) for c in cardset.cards],
        **_components(cardset),
    }


def _components(cardset: CardSet) -> dict[str, Any]:
    """Players, boards and tokens, for a set that declares any (see cardsmith.components)."""
    if not cardset.components:
        return {}
    from cardsmith.components.exports import components_record

    return components_record(cardset.components)


def cell(value: Any) -> str:
    """A value as a CSV cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return LIST_SEP.join(cell(v) for v in value)
    return str(value)


def card_row(card: Card, cardset: CardSet, header: list[str]) -> dict[str, str]:
    rec = card_record(card, cardset)
    row: dict[str, str] = {}
    for col in header:
        if col in card.fields:
            row[col] = cell(card.fields[col])
        elif col in card.groups:
            row[col] = card.groups[col]
        elif col == "effect":
            # one cell in YAML flow style (JSON is YAML), read back by the CSV import
            row[col] = "" if rec["effect"] is None else json.dumps(rec["effect"], ensure_ascii=False)
        elif col in BASE_COLUMNS:
            row[col] = cell(rec.get(col))
        else:
            row[col] = ""
    return row


def csv_text(cardset: CardSet) -> str:
    """The set's cards as CSV text, one row per card."""
    header = columns(cardset)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    for card in cardset.cards:
        writer.writerow({k: csv_cell(v) for k, v in card_row(card, cardset, header).items()})
    return buf.getvalue()


def export_json(cardset: CardSet, target: Path) -> Path:
    """Write the set as JSON to `target`."""
    return write_text(target, json.dumps(set_record(cardset), indent=2, ensure_ascii=False) + "\n")


def export_csv(cardset: CardSet, target: Path) -> Path:
    """Write the set's cards as CSV to `target` (UTF-8 with a byte-order mark, so Excel reads accents)."""
    return write_text(target, "\ufeff" + csv_text(cardset))
