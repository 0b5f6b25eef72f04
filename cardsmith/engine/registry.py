"""Find a set's rules: `rules: <module>` in set.yaml names `cardsmith.games.<module>`."""

from __future__ import annotations

import importlib
import pkgutil
import re

import cardsmith.games
from cardsmith.engine.core import Game
from cardsmith.errors import CardsmithError
from cardsmith.model import CardSet

_MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def known_games() -> list[str]:
    """Names of the rules modules cardsmith ships (what `rules:` may say)."""
    return sorted(m.name for m in pkgutil.iter_modules(cardsmith.games.__path__) if not m.name.startswith("_"))


def _where(cardset: CardSet) -> str:
    return str(cardset.source) if cardset.source else str(cardset.path / "set.yaml")


def load_game(cardset: CardSet) -> Game:
    """The `Game` for this set, made by its rules module's `make_game(cardset)`.

    Raises CardsmithError when the set names no rules module, or one cardsmith does not have.
    """
    known = known_games()
    known_text = ", ".join(known) if known else "none yet"
    if not cardset.rules:
        raise CardsmithError(
            f"set '{cardset.id}' has no rules module, so it cannot be played ({_where(cardset)})",
            hint=f"add `rules: <module>` to set.yaml; rules modules cardsmith has: {known_text}",
        )
    name = cardset.rules.strip().replace("-", "_")
    if not _MODULE_NAME.match(name) or name not in known:
        raise CardsmithError(
            f"set '{cardset.id}' names rules module '{cardset.rules}', which cardsmith does not have ({_where(cardset)})",
            hint=f"rules modules cardsmith has: {known_text}",
        )
    module = importlib.import_module(f"cardsmith.games.{name}")
    make_game = getattr(module, "make_game", None)
    if make_game is None:
        raise CardsmithError(
            f"rules module cardsmith.games.{name} has no make_game(cardset) function",
            hint="a rules module must expose make_game(cardset) -> Game (see cardsmith/engine/core.py)",
        )
    return make_game(cardset)


def has_rules(cardset: CardSet) -> bool:
    """True when the set names a rules module cardsmith has (the build's balance stage uses it)."""
    return bool(cardset.rules) and cardset.rules.strip().replace("-", "_") in known_games()
