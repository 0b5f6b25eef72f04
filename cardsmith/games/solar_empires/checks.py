"""What validation asks of Solar Empires, without loading the game itself: its `play:` settings and
the set's problems for play (`RULES.validate`). Light on purpose: validating a set imports this,
not the state, the turn and the engine the game needs to be played."""

from __future__ import annotations

from typing import Any, Mapping

from cardsmith.engine.contract import Problem
import cardsmith.games.solar_empires.effects as effects
from cardsmith.games.solar_empires.names import DEFAULT_TURN_CAP
from cardsmith.sets.model import CardSet

PLAY_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "turn_cap": {"type": "integer", "minimum": 1, "default": DEFAULT_TURN_CAP,
                     "description": "Games still running after this turn's clean-up end as draws (\"turn cap\")."},
    },
}


def set_problems(cardset: CardSet) -> list[Problem]:
    """What keeps the set from being played honestly: an event without an effect, an effect the rules
    do not know, an effect on a card type it does not act on, a `play:` setting out of range."""
    out = list(effects.solar_problems(cardset))
    for card in cardset.cards:
        for i, e in enumerate(card.effects):
            if e.get("do") not in effects.EFFECTS:
                out.append(Problem(f"unknown effect '{e.get('do')}'", card=card.id, path=("effect", i, "do"),
                                   hint="effects Solar Empires knows: " + ", ".join(sorted(effects.EFFECTS))))
        if card.type == "event" and not card.effects:
            out.append(Problem(f"event '{card.name}' has no `effect:`, so the rules cannot play it", card=card.id,
                               hint="add e.g. `effect: {do: damage, amount: 3, target: ship, when: played}`"))
    play = cardset.meta.get("play") or {}
    cap = play.get("turn_cap", DEFAULT_TURN_CAP) if isinstance(play, Mapping) else DEFAULT_TURN_CAP
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
        out.append(Problem(f"play.turn_cap must be a positive whole number, not {cap!r}", setting=("turn_cap",),
                           hint="write e.g. `play: {turn_cap: 40}` in set.yaml"))
    return out
