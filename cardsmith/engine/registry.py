"""Find a set's rules: bundled packages `cardsmith.games.<name>` and installed entry points.

A bundled game is a package `cardsmith/games/<name>/` whose `__init__` exposes `RULES` (a
`RulesModule`). A game from outside cardsmith is any installed distribution that declares an entry
point in the group `cardsmith.games`, `name = "package.module:RULES"`. `rules: <name>` in set.yaml
names `RULES.name` (hyphens read as underscores). `register()` adds a game in-process (tests, scripts).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import TYPE_CHECKING, Callable

import cardsmith.games
from cardsmith.engine.contract import Game, RulesModule
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import CardSet

if TYPE_CHECKING:
    from importlib import metadata

GROUP = "cardsmith.games"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_EXTRA: dict[str, RulesModule] = {}  # registered in-process


def canonical(name: str) -> str:
    """`solar-empires` and `Solar_Empires ` both name `solar_empires`."""
    return name.strip().replace("-", "_").lower()


def _bundled() -> dict[str, str]:
    """Bundled game name -> module path (found without importing them)."""
    return {m.name: f"cardsmith.games.{m.name}" for m in pkgutil.iter_modules(cardsmith.games.__path__)
            if not m.name.startswith("_")}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    from importlib import metadata  # only when a game is not bundled: importing it costs validation 30 ms

    return {canonical(ep.name): ep for ep in metadata.entry_points(group=GROUP)}


def known_games() -> list[str]:
    """Every name `rules:` may say: bundled games, entry points and games registered in-process."""
    return sorted(set(_bundled()) | set(_entry_points()) | set(_EXTRA))


def register(rules: RulesModule) -> Callable[[], None]:
    """Make `rules` known under `rules.name` in this process; returns a function that undoes it."""
    key = canonical(rules.name)
    before = _EXTRA.get(key)
    _EXTRA[key] = rules

    def forget() -> None:
        if before is None:
            _EXTRA.pop(key, None)
        else:
            _EXTRA[key] = before
    return forget


def _rules_of(obj: object, where: str) -> RulesModule:
    if isinstance(obj, RulesModule):
        return obj
    rules = getattr(obj, "RULES", None)
    if isinstance(rules, RulesModule):
        return rules
    raise CardsmithError(f"{where} exposes no RULES (a cardsmith.engine.contract.RulesModule)",
                         hint="see docs/engine.md: a game package exposes `RULES = RulesModule(...)`")


def get_rules(name: str) -> RulesModule | None:
    """The rules registered as `name`, or None when no game has that name."""
    key = canonical(name)
    if not _NAME.match(key):
        return None
    if key in _EXTRA:
        return _EXTRA[key]
    bundled = _bundled()
    if key in bundled:
        return _rules_of(importlib.import_module(bundled[key]), bundled[key])
    ep = _entry_points().get(key)
    if ep is not None:
        try:
            loaded = ep.load()
        except Exception as e:  # a broken third-party package must not crash validate with a traceback
            raise CardsmithError(f"the game '{key}' (entry point {ep.value}) cannot be loaded: {e}",
                                 hint="reinstall the package that provides it, or fix its entry point") from None
        return _rules_of(loaded, ep.value)
    return None


def _where(cardset: CardSet) -> str:
    return str(cardset.source.file) if cardset.source else str(cardset.path / "set.yaml")


def unknown_rules_hint(name: str) -> str:
    """A did-you-mean over the registered games, else the list of them."""
    from cardsmith.base.diagnostics import did_you_mean

    known = known_games()
    return did_you_mean(canonical(name), known) or f"games cardsmith knows: {', '.join(known) or 'none yet'}"


def rules_for(cardset: CardSet) -> RulesModule:
    """The set's `RulesModule`; CardsmithError when the set names none, or one nobody registered."""
    if not cardset.rules:
        raise CardsmithError(
            f"set '{cardset.id}' has no rules module, so it cannot be played ({_where(cardset)})",
            hint=f"add `rules: <game>` to set.yaml; games cardsmith knows: {', '.join(known_games()) or 'none yet'}",
        )
    rules = get_rules(cardset.rules)
    if rules is None:
        raise CardsmithError(
            f"set '{cardset.id}' names rules '{cardset.rules}', which cardsmith does not have: a game that is not "
            f"installed, so it cannot be played yet ({_where(cardset)})",
            hint=(f"install the game's package (`pip install -e path/to/your-game`; docs/tutorial-game.md shows how to "
                  f"write one); {unknown_rules_hint(cardset.rules)}"),
        )
    return rules


def load_game(cardset: CardSet) -> Game:
    """The `Game` for this set, made by its rules' `make_game(cardset)`."""
    return rules_for(cardset).make_game(cardset)


def has_rules(cardset: CardSet) -> bool:
    """True when the set names a game cardsmith knows (the build's balance stage uses it)."""
    return cardset.rules is not None and canonical(cardset.rules) in known_games()
