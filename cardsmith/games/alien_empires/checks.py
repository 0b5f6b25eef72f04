"""What `RULES` (in __init__.py) is made of: the `play:` settings, card fields, the effect handlers
Race and Event cards may name, and the set checks `cardsmith validate` runs."""

from __future__ import annotations

from typing import Any, Iterator

from cardsmith.engine.contract import EffectSpec, Problem
from cardsmith.games.alien_empires.cards import EVENT_TIMINGS, CardError, card_info
from cardsmith.games.alien_empires.powers import IMPLEMENTED, NOT_IMPLEMENTED_WHY, playable
from cardsmith.sets.model import CardSet

_INT: dict[str, Any] = {"type": "integer"}
_AMOUNT = {"amount": _INT}
_SIDE = {"enum": ["attack", "defend", "any"], "default": "any"}
_WHERE = {"enum": ["world", "space", "any"], "default": "any"}

# handler -> (params, doc). Race powers first, then the Event effects.
_HANDLERS: dict[str, tuple[dict[str, Any], str]] = {
    "token_force": ({"amount": _INT, "side": _SIDE, "where": _WHERE}, "each of your tokens taking part +amount Force (when side/where match)"),
    "pair_force": ({"amount": _INT, "per": {"type": "integer", "minimum": 1}}, "+amount Force per `per` of your tokens taking part"),
    "move_range": (_AMOUNT, "tokens move `amount` more spaces (negative: fewer; at least 1)"),
    "move_times": (_AMOUNT, "tokens move `amount` times: the range is multiplied"),
    "genesis": (_AMOUNT, "each colonised world gains `amount` tokens in Genesis"),
    "hand_size": ({"amount": _INT, "who": {"enum": ["self", "opponents"]}}, "hand size +amount (yours, or every opponent's)"),
    "fate_draw": (_AMOUNT, "draw `amount` more in the Fate phase"),
    "unlimited_attacks": ({}, "any number of conflicts in your Conflict phase"),
    "conflict_draw": (_AMOUNT, "draw `amount` at the start of a conflict"),
    "force_card_limit": (_AMOUNT, "the opponent reveals at most one Force card"),
    "jinx": (_AMOUNT, "`amount` opposing tokens are worth 0"),
    "win_tokens": (_AMOUNT, "gain `amount` tokens in the space when you win"),
    "win_draw": (_AMOUNT, "draw `amount` when you win"),
    "double_force_card": ({}, "your highest Force card counts double"),
    "ally_range": (_AMOUNT, "your tokens ally from up to `amount` spaces away"),
    "discard_for_force": (_AMOUNT, "once a conflict: discard a card for +amount Force"),
    "conflict_discard": (_AMOUNT, "the opponent discards `amount` at the start of a conflict"),
    "neutralize": ({}, "cancel one of the opponent's powers for the conflict"),
    "sacrifice_discard": (_AMOUNT, "once a conflict: sacrifice a token, the opponent discards `amount` at random"),
    "spies": ({}, "see the opponent's hand once the defender has drawn"),
    "sacrifice_draw": (_AMOUNT, "once a conflict: sacrifice a token to draw `amount`"),
    "emulate": ({}, "copy a power of a player not in the conflict"),
    "copycat": ({}, "copy a power of the opponent when both have tokens on the contested world"),
    "booby_trap": ({"divisor": {"type": "integer", "minimum": 1}}, "when you lose: 1/divisor of the winner's tokens taking part die"),
    "resurrection": ({}, "once a round in Fate: sacrifice a token, take the top discard"),
    "rearguard": ({"keep": {"type": "integer", "minimum": 1}}, "as defender: all but `keep` tokens of the stack retreat"),
    "mind_control": (_AMOUNT, "`amount` opposing tokens taking part become yours"),
    "opportunists": (_AMOUNT, "steal `amount` random cards from the opponent"),
    "reinforcement": ({"amount": _INT, "range": _INT}, "`amount` tokens from up to `range` away join the conflict"),
    "escape": (_AMOUNT, "when you lose, one token retreats"),
    "gatherer": (_AMOUNT, "moves to one world a turn get +amount range"),
    "breeder": ({"amount": _INT, "cost": _INT}, "once a turn in Genesis: discard a card, +amount tokens on a colonised world"),
    "projection": ({"amount": _INT, "cost": _INT}, "once a turn in Migration: sacrifice `cost` tokens, place one on any world"),
    "psychic": (_AMOUNT, "after the Fate draw, see the top `amount` cards of the deck this turn"),
    "worldships": ({}, "once a round: move a world you control one space (your tokens go with it)"),
    "martyr": (_AMOUNT, "once a conflict: sacrifice a token, your other tokens taking part +amount"),
    "precognition": ({}, "choose your Force cards after the opponent's are revealed"),
    "repulsion": (_AMOUNT, "move up to `amount` opposing tokens one space each in your Migration"),
    "anarchy": ({}, "you may exchange hands with the opponent at the start of a conflict"),
    "minimalist": ({}, "the side with the lowest Force card wins"),
    "pacifist": ({"min": _INT}, "as defender, discard a Force card of `min`+ to prevent the conflict"),
    "second_chance": ({}, "once a conflict: when you lose, fight again (reveal again)"),
    "clean_slate": (_AMOUNT, "at the start of a conflict discard and redraw up to `amount`"),
    "lose_steal": (_AMOUNT, "when you lose, steal `amount` random cards from the winner"),
    "diplomat": (_AMOUNT, "an opponent discards `amount` cards to attack you"),
    "deporter": (_AMOUNT, "once a turn in Migration: `amount` enemy tokens on a world you share retreat"),
    "trader": (_AMOUNT, "once a turn in Fate: give a card, take one at random"),
    "inconspicuous": ({}, "a lone token of yours cannot be attacked"),
    "foundation": ({}, "give a card to another player (in your Fate phase)"),
    "distress_call": ({}, "others may give you a card at the start of your conflicts"),
    "toll_keeper": ({}, "opposing tokens on a world with yours cannot move"),
    "contraceptives": ({}, "opposing tokens on a world with yours do not breed"),
    "plea_maker": (_AMOUNT, "force up to `amount` non-primary tokens to ally with you"),
    "propagandist": (_AMOUNT, "once a turn in Migration: one opposing token on a world you share becomes yours"),
    "time_control": ({}, "at the start of a round, choose who starts it"),
    "assassination": (_AMOUNT, "once a turn in Migration: kill `amount` token anywhere"),
    "feedback": ({}, "in the card play: sacrifice a token to get the effect of a conflict Event the opponent played in this conflict"),
    "strategy": ({}, "after your Conflict phase one stack moves again and fights a second Conflict phase"),
    "contagion": ({}, "when an opponent moves tokens from a space with yours, up to as many of yours may go along"),
    "teaser": (_AMOUNT, "as one of your conflicts: an enemy stack on a world you share must attack you at -amount Force"),
    # Event effects
    "force": ({"amount": _INT, "side": _SIDE, "where": _WHERE}, "+amount Force to your side"),
    "enemy_force": (_AMOUNT, "-amount Force to the opposing side"),
    "kill_tokens": (_AMOUNT, "destroy `amount` opposing tokens taking part"),
    "convert_token": (_AMOUNT, "`amount` opposing tokens taking part become yours"),
    "enemy_discard": (_AMOUNT, "the opposing primary discards `amount` at random"),
    "ceasefire": ({}, "the conflict ends with no winner"),
    "null_field": ({}, "the opposing primary's Race powers do not work in this conflict"),
    "evacuate": ({}, "if you lose, your tokens in the space retreat instead"),
    "draw": (_AMOUNT, "draw `amount`"),
    "warp": (_AMOUNT, "move one of your stacks that has not moved to any space"),
    "add_tokens": (_AMOUNT, "add `amount` tokens to a world you have colonised"),
}
EFFECT_SPECS = {name: EffectSpec(name, params=params, doc=doc) for name, (params, doc) in _HANDLERS.items()}

PLAY_SCHEMA = {
    "type": "object",
    "properties": {
        "turn_cap": {"type": "integer", "minimum": 1, "description": "turns (of all players) after which the game is a draw"},
        "map": {"type": "string", "description": "the id of the hex board the rules play on"},
        "worlds": {"type": "integer", "minimum": 1},
        "markers": {"type": "integer", "minimum": 1},
        "hand": {"type": "integer", "minimum": 1},
        "fate_draw": {"type": "integer", "minimum": 0},
        "move": {"type": "integer", "minimum": 1},
        "attacks": {"type": "integer", "minimum": 0},
        "destiny": {"type": "integer", "minimum": 0},
        "conflicting": {"type": "array", "items": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}},
    },
    "additionalProperties": False,
}

CARD_FIELDS: dict[str, dict[str, dict[str, Any]]] = {
    "force": {"value": {"type": "integer", "minimum": 0}},
    "event": {"timing": {"enum": list(EVENT_TIMINGS)}},
}


def validate(cardset: CardSet) -> Iterator[Problem]:
    """Cards the rules cannot read, Race powers not yet played, conflicting pairs naming unknown
    cards, and a map the rules cannot play on."""
    ids = {c.id for c in cardset.cards}
    for card in cardset.cards:
        try:
            info = card_info(card)
        except CardError as e:
            yield Problem(str(e), card=card.id, hint="see docs/rules/alien-empires.md for the fields each type needs")
            continue
        if info.kind == "race" and not playable(info.effects):
            missing = [d for d in info.does if d not in IMPLEMENTED]
            why = "; ".join(NOT_IMPLEMENTED_WHY.get(d, "not yet played") for d in missing)
            yield Problem(f"Race card {card.id}: the rules do not play {', '.join(missing)} yet ({why}); "
                          "it is left out of simulated games", card=card.id, path=("effect",), severity="warning",
                          hint="docs/rules/alien-empires.md lists every power and whether it is played")
    play = dict(cardset.meta.get("play") or {})
    for i, pair in enumerate(play.get("conflicting") or ()):
        for j, cid in enumerate(pair):
            if cid not in ids:
                yield Problem(f"play.conflicting names {cid!r}, which is not a card of the set", setting=("conflicting", i, j),
                              hint="use Race card ids (races.yaml)")
    comps = getattr(cardset, "components", None)
    board = play.get("map")
    if board is not None:
        boards = getattr(comps, "boards", {}) or {}
        if board not in boards:
            yield Problem(f"play.map names board {board!r}, which the set does not have", setting=("map",),
                          hint="name a hex board under `boards:`")
        elif boards[board].grid != "hex":
            yield Problem(f"play.map: board {board!r} is a {boards[board].grid} grid, not a hex map", setting=("map",))
        elif len(boards[board].cells) < int(play.get("worlds", 20)):
            yield Problem(f"play.map: board {board!r} has fewer hexes than worlds", setting=("map",))
