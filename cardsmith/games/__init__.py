"""The bundled games, one package each: `cardsmith/games/<name>/__init__.py` exposes `RULES`, a
`cardsmith.engine.contract.RulesModule`, and a set says `rules: <name>`. See docs/engine.md and
cardsmith/engine/registry.py (which also finds games installed through entry points).
"""
