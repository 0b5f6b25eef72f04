"""TRF: The Card Game (a Rebel Faction forum game): the complete two-player rules.

The text says "2 players, could be modified to account for more" and gives no rule for more, so
the module plays two. Readings of its ambiguous sentences: docs/rules/trf.md.
"""

from __future__ import annotations

from typing import Any, Iterable, cast

from cardsmith.engine.contract import Game, PlayerSpec, Problem, RulesModule
from cardsmith.games.trf.decisions import KINDS as DECISION_KINDS
from cardsmith.games.trf.effects import SPECS, TARGETED
from cardsmith.games.trf.filler import cards_in_hand, filler
from cardsmith.games.trf.game import TRFGame
from cardsmith.games.trf.players import make_planner
from cardsmith.sets.model import CardSet

PLAY_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "turn_cap": {"type": "integer", "minimum": 1},
        "starting_hand": {"type": "integer", "minimum": 0, "maximum": 20},
    },
}

_INT = {"type": "integer", "minimum": 0}
CARD_FIELDS: dict[str, dict[str, dict[str, Any]]] = {
    "account": {"titles": {"type": "array", "items": {"type": "string"}}},
    "planet": {"meters": _INT, "words": _INT, "capture": _INT, "homeworld": _INT},
    "character": {"kind": {"enum": ["fleeter", "individual"]}, "cost": _INT, "combat": _INT, "capture": _INT},
    "ooc": {"cost": _INT, "timing": {"enum": ["non-combat", "combat", "post-combat"]}},
}


def validate(cardset: CardSet) -> Iterable[Problem]:
    """Checks the effect schema cannot make: OOC effects fit the card's timing and Persistent mark,
    at most one targeted effect per card, named factions exist."""
    for card in cardset.cards:
        effects = list(getattr(card, "effects", ()) or ())
        if card.type == "ooc":
            timing, lasting = card.get("timing"), any(e.get("until") for e in effects)
            for i, e in enumerate(effects):
                if e.get("when") != timing:
                    yield Problem(f"OOC card '{card.id}' is a {timing} card but its effect says when: {e.get('when')}",
                                  card=card.id, path=("effect", i, "when"))
            if bool(card.get("persistent")) != lasting:
                yield Problem(f"OOC card '{card.id}': `persistent` and an effect with `until:` must go together",
                              card=card.id, path=("persistent",))
        if sum(1 for e in effects if e.get("do") in TARGETED) > 1:
            yield Problem(f"card '{card.id}' has more than one effect that needs a target", card=card.id, path=("effect",))
        for i, e in enumerate(effects):
            faction = e.get("faction")
            if faction and faction not in cardset.factions:
                yield Problem(f"card '{card.id}': effect names unknown faction '{faction}'", card=card.id, path=("effect", i, "faction"))


def _make_game(cardset: CardSet) -> Game:
    return cast(Game, TRFGame(cardset, RULES))


RULES: RulesModule = RulesModule(
    name="trf",
    title="TRF: The Card Game",
    players=(2, 2),
    make_game=_make_game,
    play_schema=PLAY_SCHEMA,
    card_fields=CARD_FIELDS,
    effects=SPECS,
    validate=validate,
    filler=filler,
    cards_in_hand=cards_in_hand,
    agents={"planner": PlayerSpec(make=make_planner, doc="rule-based: buys the strongest force, attacks when the "
                                  "fleets the blockers cannot cover would take a planet, blocks what would capture, "
                                  "sends fleets where they take most")},
    ladder=("random", "greedy", "planner"),
    competent="planner",
    doc=__doc__ or "",
    decisions=DECISION_KINDS,
)

__all__ = ["RULES", "TRFGame"]
