"""Rules modules for the bundled games, one per game.

A set names its module in set.yaml (`rules: solar_empires`); the module exposes
`make_game(cardset) -> cardsmith.engine.core.Game`. See cardsmith/engine/registry.py.
"""
