"""Which layout draws which face: a card's layout, the backs a set declares and the back each card uses.

Read by the renderer, the print-rule check of `cardsmith validate` and the PDF writer alike, so it lives
with the layouts (the layout package never imports the renderer)."""

from __future__ import annotations

from typing import Any

from cardsmith.sets.model import Card, CardSet


def card_layout(cardset: CardSet, card: Card, layouts: Any) -> str:
    """The layout of a card: set.yaml `layouts:` for its type, else a layout named after the type, else `card`."""
    name = cardset.layouts.get(card.type)
    if name:
        return str(name)
    return card.type if layouts.exists(card.type) else "card"


def back_specs(cardset: CardSet) -> dict[str, dict[str, Any]]:
    """Declared backs as maps (a bare string is a layout name); a set without backs gets `default`."""
    if not cardset.backs:
        return {"default": {"name": cardset.name}}
    out = {}
    for bid, spec in cardset.backs.items():
        if isinstance(spec, str):
            out[bid] = {"layout": spec}
        elif isinstance(spec, dict) or hasattr(spec, "items"):
            out[bid] = dict(spec)
        else:
            out[bid] = {}
    return out


def card_back(cardset: CardSet, card: Card) -> str | None:
    """The back a card prints with: its own `back:`, its type's, or `default` when the set declares none."""
    if card.back:
        return card.back
    ctype = cardset.types.get(card.type)
    if ctype and ctype.back:
        return ctype.back
    return "default" if not cardset.backs else None


def back_layout(back_id: str, spec: dict[str, Any], layouts: Any) -> str:
    if spec.get("layout"):
        return str(spec["layout"])
    return f"back-{back_id}" if layouts.exists(f"back-{back_id}") else "back"
