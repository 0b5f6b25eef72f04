"""Game-agnostic rules engine: state protocol, seeds, agents, match runner, statistics, report.

Game rules live in `cardsmith.games.<module>`; a set names its module with `rules:` in set.yaml.
Nothing here imports rendering.
"""

from cardsmith.engine.core import Action, Game, GameState, IllegalAction

__all__ = ["Action", "Game", "GameState", "IllegalAction"]
