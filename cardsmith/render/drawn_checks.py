"""The print rules only a drawing can judge, for `cardsmith validate`.

`validate` checks the layer trees without drawing (sizes, hairlines, the safe line). Two rules need
the drawn ink: text contrast against what lies under it (a gradient, a shape, art) and text drawn
past the true outline of its panel (an ellipse's curve, a rounded corner). Each distinct face (the
same layer tree is drawn once, however many cards share it) is painted at `DPI`, in memory, with
the painter `render` uses; only those two kinds of note are kept, since the tree checks give the
rest. 150 dpi is a quarter of the pixels of a 300 dpi render, fine enough to measure 0.2 mm of ink
past a panel (0.17 mm a pixel); `render` measures again at its own dpi.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import CardSet

DPI = 150
DRAWN_KINDS = ("contrast", "past-panel")


def drawn_checker(project: Any, cardset: CardSet) -> Callable[[dict[str, Any], str], list[tuple[str, str, str]]]:
    """A function (layer tree, who) -> [(kind, message, layer label)] for the drawn rules."""
    from cardsmith.cache import kept
    from cardsmith.cache.freshness import CACHE_DIR
    from cardsmith.layout.fonts import library_for
    from cardsmith.layout.paint import Page, Painter

    kept.keep_in(project.output_dir / CACHE_DIR / "kept")  # font character tables, shared with render
    icons = {k: (Path(v) if Path(v).is_absolute() else Path(cardset.path) / v) for k, v in cardset.icons.items()}
    painter = Painter(Page(DPI, (cardset.card_size[0], cardset.card_size[1]), cardset.bleed, cardset.safe),
                      library_for(tuple(str(d) for d in project.font_dirs)), icons, Path(cardset.path))
    seen: dict[str, list[tuple[str, str, str]]] = {}

    def check(tree: dict[str, Any], who: str) -> list[tuple[str, str, str]]:
        key = json.dumps(tree, sort_keys=True, default=str)
        if key not in seen:
            try:
                _, notes = painter.paint(tree, who)
            except CardsmithError:  # a face that cannot be drawn: `render` reports it with its cause
                notes = []
            seen[key] = [(n.kind, n.message, n.layer) for n in notes if n.kind in DRAWN_KINDS]
        return seen[key]

    return check
