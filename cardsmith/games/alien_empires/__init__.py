"""Alien Empires (Warpspawn Games): two to six races breed, migrate and fight over a hex map of 20
worlds with Force, Race and Event cards from one common deck; whoever controls every world wins.

`RULES` is the package's `RulesModule` (cardsmith.engine.contract). The readings of the text are in
docs/rules/alien-empires.md; the set is cards/alien-empires/.
"""

from cardsmith.games.alien_empires.rules import RULES

__all__ = ["RULES"]
