"""cardsmith: card games from YAML to print-ready cards, PDFs, galleries, deck checks and simulated play.

The public API, stable however the package's folders move (docs/engine.md, "Public API"):

    import cardsmith
    cardset = cardsmith.load_set("cards/solar-empires")          # SetInvalid lists every problem
    game = cardsmith.load_game(cardset)                          # the rules the set names
    decks = [cardsmith.load_deck(p, cardset) for p in ("cards/solar-empires/decks/chain.yaml",
                                                       "cards/solar-empires/decks/shadow.yaml")]
    state = game.new_game(decks, seed=7)                         # or chance=cardsmith.ScriptedChance(rolls=[6, 1])
    state.apply(state.legal_actions()[0])                        # cardsmith.IllegalAction if not offered
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# Each public name and the module that defines it, imported on first use (PEP 562): `import cardsmith`
# stays light (the CLI imports it before every command), and no module here imports another at load,
# so the root takes part in no import cycle.
_WHERE = {
    "load_set": "cardsmith.sets.validate",
    "SetInvalid": "cardsmith.sets.validate",
    "load_game": "cardsmith.engine.registry",
    "load_deck": "cardsmith.decks.files",
    "DeckFileError": "cardsmith.decks.files",
    "ScriptedChance": "cardsmith.engine.chance",
    "SeededChance": "cardsmith.engine.chance",
    "IllegalAction": "cardsmith.engine.contract",
    "CardsmithError": "cardsmith.base.errors",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'cardsmith' has no attribute '{name}'")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = sorted(_WHERE)
