"""One bundled set for a game's tests: the set (loaded once), its game, its standard deck, and states
built from positions with scripted chance. TransWar's and Alien Empires' test helpers share it."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from cardsmith.decks import load_deck
from cardsmith import ScriptedChance
from cardsmith.engine.contract import RulesModule
from cardsmith.sets.validate import load_set

CARDS = Path(__file__).resolve().parents[1] / "cards"


class BundledSet:
    """The set in cards/<folder>/ played by `rules`."""

    def __init__(self, folder: str, rules: RulesModule):
        self.dir = CARDS / folder
        self.rules = rules

    @cached_property
    def cardset(self) -> Any:
        return load_set(self.dir)

    @cached_property
    def game(self) -> Any:
        return self.rules.make_game(self.cardset)

    def standard_deck(self) -> Any:
        return load_deck(self.dir / "decks" / "standard.yaml", self.cardset)

    def start(self, pos: dict[str, Any], **chance: Any) -> Any:
        """The state of a position, with scripted chance (an unscripted draw of chance is an error)."""
        return self.game.from_position(pos, chance=ScriptedChance(**chance))
