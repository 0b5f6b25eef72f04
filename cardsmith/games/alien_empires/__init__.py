"""Alien Empires (Warpspawn Games): two to six races breed, migrate and fight over a hex map of 20
worlds with Force, Race and Event cards from one common deck; whoever controls every world wins.

`RULES` is the package's `RulesModule` (cardsmith.engine.contract). The readings of the text are in
docs/rules/alien-empires.md; the set is cards/alien-empires/.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import PlayerSpec, RulesModule
from cardsmith.games.alien_empires.decisions import KINDS as DECISION_KINDS
from cardsmith.engine.kit.fillers import hands_cards
from cardsmith.games.alien_empires.checks import CARD_FIELDS, EFFECT_SPECS, PLAY_SCHEMA, validate
from cardsmith.sets.model import CardSet


def make_game(cardset: CardSet) -> Any:
    """The rules bound to `cardset`: a `game.AlienGame` (the game module loads only when a game is made)."""
    from cardsmith.games.alien_empires.game import AlienGame

    return AlienGame(cardset, RULES)


def _conqueror(game: Any, **options: Any) -> Any:
    from cardsmith.games.alien_empires.players import Conqueror

    return Conqueror(game, **options)


def _raider(game: Any, **options: Any) -> Any:
    from cardsmith.games.alien_empires.players import Conqueror

    return Conqueror(game, plan=False, **options)


AGENTS = {
    "conqueror": PlayerSpec(make=_conqueror, options={"margin": int},
                            doc="rules that colonise free worlds, gather stacks and attack only where it wins"),
    "raider": PlayerSpec(make=_raider, options={"margin": int},
                         doc="the conqueror's fights and cards, random moves"),
}

RULES = RulesModule(
    name="alien_empires",
    title="Alien Empires",
    players=(2, 6),
    make_game=make_game,
    play_schema=PLAY_SCHEMA,
    card_fields=CARD_FIELDS,
    effects=EFFECT_SPECS,
    effect_types=("race", "event"),
    validate=validate,
    cards_in_hand=hands_cards,
    agents=AGENTS,
    ladder=("random", "raider", "conqueror"),
    competent="conqueror",
    doc="Two to six alien races spread over a hex map of 20 worlds with a common deck of Force, Race and Event cards.",
    decisions=DECISION_KINDS,
)

__all__ = ["RULES", "make_game"]
