"""TransWar (Quentin Long and Michael Bard, 2006): two to six sorcerers in animal Forms fight with
cards from one common deck, asking each other for help; the last one standing wins.

`RULES` is the package's `RulesModule` (cardsmith.engine.contract). The rules' readings of the
text are in docs/rules/transwar.md; the set is cards/transwar/.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import PlayerSpec, RulesModule
from cardsmith.games.transwar.decisions import KINDS as DECISION_KINDS
from cardsmith.engine.kit.fillers import hands_cards
from cardsmith.games.transwar.checks import CARD_FIELDS, EFFECT_SPECS, PLAY_SCHEMA, validate
from cardsmith.sets.model import CardSet


def make_game(cardset: CardSet) -> Any:
    """The rules bound to `cardset`: a `game.TransWarGame` (the game module loads only when a game is made)."""
    from cardsmith.games.transwar.game import TransWarGame

    return TransWarGame(cardset, RULES)


def _brawler(game: Any, **options: Any) -> Any:
    from cardsmith.games.transwar.players import Brawler

    return Brawler(game, **options)


def _scrapper(game: Any, **options: Any) -> Any:
    from cardsmith.games.transwar.players import Brawler

    return Brawler(game, pick=False, **options)


AGENTS = {
    "brawler": PlayerSpec(make=_brawler, options={"edge": int},
                          doc="rules that attack where the damage gets through, defend when it matters, build otherwise"),
    "scrapper": PlayerSpec(make=_scrapper, options={"edge": int},
                           doc="the brawler's fights and cards, its turn's action at random"),
}

RULES = RulesModule(
    name="transwar",
    title="TransWar",
    players=(2, 6),
    make_game=make_game,
    play_schema=PLAY_SCHEMA,
    card_fields=CARD_FIELDS,
    effects=EFFECT_SPECS,
    effect_types=("special",),
    validate=validate,
    cards_in_hand=hands_cards,
    agents=AGENTS,
    ladder=("random", "scrapper", "brawler"),
    competent="brawler",
    doc="Two to six players in animal Forms fight with cards from one common deck; allies on both sides.",
    decisions=DECISION_KINDS,
)

__all__ = ["RULES", "make_game"]
