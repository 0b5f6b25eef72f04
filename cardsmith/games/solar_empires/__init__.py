"""Solar Empires (Norgoth, 2009): the complete two-player rules on the cardsmith game contract.

Every choice a player makes is an action (a plain tuple such as ``("play", "tcs-13-rapier")`` or
``("damage", 12, "drone")``, where an int is a card instance of the game); the rules resolve what is
left to chance or to no one. A decision with a single legal option is taken automatically.
Readings of ambiguous sentences are in docs/rules/solar-empires.md.

Modules: `cards` (card records and a game's table), `effects` (the effect handlers cards name),
`checks` (what validation asks: play settings, the set's problems), `board` (the table: zones and
the moves between them), `state` (the game contract on the board), `flow` (the turn), `combat`, `resolve` (playing cards and their effects), `observation`,
`heuristics`, `players` (its own players and ladder), `positions`, `game`.

Importing the package loads only what validating a set needs (`RULES` with its effects, settings and
checks); the state, the turn and the engine load when a game is made or one of their names is asked
for (`SolarState`, `SolarEmpires`, `Observation`), as validation after every edit does not need them.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import RulesModule
from cardsmith.games.solar_empires.decisions import KINDS as DECISION_KINDS
from cardsmith.games.solar_empires.checks import PLAY_SCHEMA, set_problems
from cardsmith.games.solar_empires.effects import EFFECTS
from cardsmith.games.solar_empires.names import ORDERINGS, SHOT_CAP
from cardsmith.games.solar_empires.players import AGENTS, COMPETENT, LADDER
from cardsmith.sets.model import CardSet

_LAZY = {"SolarState": "state", "SolarEmpires": "game", "Observation": "observation"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)


def make_game(cardset: CardSet) -> Any:
    """The Solar Empires rules for `cardset` (the registry calls it): a `game.SolarEmpires`."""
    return __getattr__("SolarEmpires")(cardset, RULES)


_FILLER: Any = None  # cardsmith.games.solar_empires.filler, once a game asks for it


def _filler_module() -> Any:
    global _FILLER
    if _FILLER is None:
        import cardsmith.games.solar_empires.filler as filler

        _FILLER = filler
    return _FILLER


def _filler(*args: Any, **kwargs: Any) -> Any:
    return _filler_module().filler(*args, **kwargs)


def _cards_in_hand(state: Any, seat: int) -> frozenset[str]:
    return _filler_module().cards_in_hand(state, seat)  # after every action of a tracked game: one call, no import


RULES = RulesModule(
    name="solar_empires",
    title="Solar Empires",
    players=(2, 2),
    make_game=make_game,
    play_schema=PLAY_SCHEMA,
    effects=EFFECTS,
    effect_types=("event",),
    validate=set_problems,
    filler=_filler,
    cards_in_hand=_cards_in_hand,
    agents=AGENTS,
    ladder=LADDER,
    competent=COMPETENT,
    doc="Space battles over a random solar system (Norgoth, 2009); docs/rules/solar-empires.md.",
    decisions=DECISION_KINDS,
)

__all__ = ["EFFECTS", "ORDERINGS", "Observation", "RULES", "SHOT_CAP", "SolarEmpires", "SolarState", "make_game"]
