"""Game-agnostic rules engine: the game contract, chance, the shared kit, agents, the runner and
statistics. It never opens files or writes HTML (that is `cardsmith.simulation`) and imports no
rendering.

Games are packages `cardsmith.games.<name>` exposing `RULES`, or installed packages registering an
entry point in the group `cardsmith.games`; a set names its game with `rules:` in set.yaml. See
docs/engine.md.
"""

from cardsmith.engine.contract import (Action, Event, Game, GameState, IllegalAction, Outcome, PositionError, Problem,
                                       RulesModule)

__all__ = ["Action", "Event", "Game", "GameState", "IllegalAction", "Outcome", "PositionError", "Problem", "RulesModule"]
