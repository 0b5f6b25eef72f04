"""TransWar (Quentin Long and Michael Bard, 2006): two to six sorcerers in animal Forms fight with
cards from one common deck, asking each other for help; the last one standing wins.

`RULES` is the package's `RulesModule` (cardsmith.engine.contract). The rules' readings of the
text are in docs/rules/transwar.md; the set is cards/transwar/.
"""

from cardsmith.games.transwar.rules import RULES

__all__ = ["RULES"]
