"""Solar Empires (Norgoth, 2009): the complete two-player rules on the cardsmith game contract.

Every choice a player makes is an action (a plain tuple such as ``("play", "tcs-13-rapier")`` or
``("damage", 12, "drone")``, where an int is a card instance of the game); the rules resolve what is
left to chance or to no one. A decision with a single legal option is taken automatically.
Readings of ambiguous sentences are in docs/rules/solar-empires.md.

Modules: `cards` (card records and a game's table), `effects` (the effect handlers cards name),
`state` (the state and its zones), `flow` (the turn), `combat`, `resolve` (playing cards and their
effects), `observation`, `heuristics`, `positions`, `game`.
"""

from __future__ import annotations

from cardsmith.engine.contract import RulesModule
# State first: in the compiled build, flow, combat and resolve import it as they load (see state.py).
from cardsmith.games.solar_empires.state import SolarState
from cardsmith.games.solar_empires.effects import EFFECTS
from cardsmith.games.solar_empires.filler import cards_in_hand, filler
from cardsmith.games.solar_empires.game import PLAY_SCHEMA, SolarEmpires, set_problems
from cardsmith.games.solar_empires.names import ORDERINGS, SHOT_CAP
from cardsmith.games.solar_empires.observation import Observation
from cardsmith.model import CardSet


def make_game(cardset: CardSet) -> SolarEmpires:
    """The Solar Empires rules for `cardset` (the registry calls it)."""
    return SolarEmpires(cardset, RULES)


RULES = RulesModule(
    name="solar_empires",
    title="Solar Empires",
    players=(2, 2),
    make_game=make_game,
    play_schema=PLAY_SCHEMA,
    effects=EFFECTS,
    effect_types=("event",),
    validate=set_problems,
    filler=filler,
    cards_in_hand=cards_in_hand,
    doc="Space battles over a random solar system (Norgoth, 2009); docs/rules/solar-empires.md.",
)

__all__ = ["EFFECTS", "ORDERINGS", "Observation", "RULES", "SHOT_CAP", "SolarEmpires", "SolarState", "make_game"]
