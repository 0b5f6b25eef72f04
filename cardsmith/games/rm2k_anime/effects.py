"""The effects #rm2k_anime cards may name (`effect: {do: NAME, ...}` in a card's YAML), as `EffectSpec`s.

Timings (`when:`): `turn_start` / `turn_end` (a User's ability, at the start of your Connect or Draw
Phase), `attacking` / `defending` (a static bonus when the card's User takes part in a Challenge),
`played` (an Event in your Main Phase or during a Challenge), `challenge` (an Event only during a
Challenge), `react` (a React Event). Challenge effects (`winner_*`, `loser_*`) and a Victory
Condition's `score` or a User's `goal` take no `when`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from cardsmith.engine.contract import EffectSpec, Problem
from cardsmith.sets.model import CardSet

SKILLS = ("roleplay", "otaku", "argue", "script", "gamer")
REQUIREMENTS = ("users", "attached", "skill", "opponent_lag", "challenges_won", "vp", "hand", "lag_free")
_N: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 20}
_BONUS: dict[str, Any] = {"type": "integer", "minimum": -9, "maximum": 9}
_SKILL: dict[str, Any] = {"enum": list(SKILLS)}
_REQUIRE: dict[str, Mapping[str, Any]] = {"require": {"enum": list(REQUIREMENTS)}, "at_least": {"type": "integer", "minimum": 0, "maximum": 99},
            "skill": {**_SKILL, "default": None}}

EFFECTS: dict[str, EffectSpec] = {spec.name: spec for spec in (
    EffectSpec("draw", {"cards": _N}, when=("played", "turn_start", "turn_end"), doc="Draw `cards` cards."),
    EffectSpec("clear_lag", {"amount": _N}, when=("played", "turn_start", "turn_end"),
               doc="Remove `amount` Lag from this User (an Event: the User that Synced it)."),
    EffectSpec("idle_vp", {"amount": _N}, when=("turn_start",),
               doc="If this User has no Lag, gain `amount` Victory Points."),
    EffectSpec("lag", {"amount": _N}, when=("played",), doc="Put `amount` Lag on target opposing User in play."),
    EffectSpec("ping", {"amount": _N}, when=("played",),
               doc="Target opposing User in play loses `amount` Bandwidth permanently."),
    EffectSpec("delete_sync", when=("played",), doc="Delete the Syncing card on target opposing User (tokens lost)."),
    EffectSpec("vp", {"amount": _N}, when=("played",), doc="Gain `amount` Victory Points."),
    EffectSpec("challenge_bonus", {"amount": _BONUS}, when=("challenge", "attacking", "defending"), doc=(
        "An Event during a Challenge: `amount` added to your total. On a User or Attach card: added once to "
        "your total when the User attacks (`attacking`) or defends (`defending`).")),
    EffectSpec("skill_bonus", {"skill": _SKILL, "amount": _BONUS}, doc="An Attach card: its User's `skill` changes by `amount`."),
    EffectSpec("bandwidth_bonus", {"amount": _BONUS}, doc="An Attach card: its User's Bandwidth changes by `amount` (not permanently)."),
    EffectSpec("cancel", when=("react",), doc="React: the Event just played is discarded without effect."),
    EffectSpec("cancel_challenge", when=("react",), doc="React during a Challenge: it is discarded without effect."),
    EffectSpec("winner_vp", {"amount": _N}, doc="A Challenge: the winner gains `amount` Victory Points."),
    EffectSpec("winner_draw", {"cards": _N}, doc="A Challenge: the winner draws `cards` cards."),
    EffectSpec("loser_lag", {"amount": _N}, doc="A Challenge: each losing User gets `amount` Lag."),
    EffectSpec("loser_ping", {"amount": _N}, doc="A Challenge: each losing User loses `amount` Bandwidth permanently."),
    EffectSpec("loser_delete", doc="A Challenge: each losing User is deleted (leaves play)."),
    EffectSpec("loser_discard", {"cards": _N}, doc="A Challenge: each losing player discards `cards` cards at random."),
    EffectSpec("score", _REQUIRE, doc=(
        "A Victory Condition: may be activated in your Victory Phase while `require` is at least `at_least` "
        "(users in play, attached cards, total `skill`, Lag on opposing Users, challenges won, Victory "
        "Points, cards in hand, Users with no Lag); it scores the card's `vp`.")),
    EffectSpec("goal", _REQUIRE, doc="A User's Goal: when your Main User's `require` is at least `at_least`, you win."),
)}

# Which card types each handler acts on (the rules look for it only there).
HANDLER_TYPES: dict[str, tuple[str, ...]] = {
    "draw": ("user", "event"), "clear_lag": ("user", "event"), "idle_vp": ("user",), "lag": ("event",),
    "ping": ("event",), "delete_sync": ("event",), "vp": ("event",),
    "challenge_bonus": ("user", "attach", "event"), "skill_bonus": ("attach",), "bandwidth_bonus": ("attach",),
    "cancel": ("event",), "cancel_challenge": ("event",), "winner_vp": ("challenge",), "winner_draw": ("challenge",),
    "loser_lag": ("challenge",), "loser_ping": ("challenge",), "loser_delete": ("challenge",),
    "loser_discard": ("challenge",), "score": ("victory",), "goal": ("user",),
}
TARGETED = ("lag", "ping", "delete_sync")  # Events that name an opposing User


def defaults() -> dict[str, dict[str, Any]]:
    """Each handler's parameter defaults."""
    return {name: {k: s["default"] for k, s in spec.params.items() if "default" in s} for name, spec in EFFECTS.items()}


def _card_problems(cid: str, ctype: str, effects: tuple[Mapping[str, Any], ...], react: bool) -> Iterable[Problem]:
    names = [str(e.get("do")) for e in effects]
    for i, e in enumerate(effects):
        allowed = HANDLER_TYPES.get(names[i])
        if allowed is None:
            yield Problem(f"unknown effect '{names[i]}'", card=cid, path=("effect", i, "do"),
                          hint="effects #rm2k_anime knows: " + ", ".join(sorted(EFFECTS)))
        elif ctype not in allowed:
            yield Problem(f"effect '{names[i]}' acts only on {' or '.join(allowed)} cards, not on a {ctype}",
                          card=cid, path=("effect", i, "do"), hint="move the effect to a card of that type")
        if names[i] in ("score", "goal") and e.get("require") == "skill" and not e.get("skill"):
            yield Problem("a `skill` requirement names the skill it adds up", card=cid, path=("effect", i),
                          hint="add e.g. `skill: otaku`")
        if ctype == "event" and (e.get("when") == "react") != react:
            yield Problem("a React event has `when: react` effects and the React keyword, both or neither",
                          card=cid, path=("effect", i, "when"), hint="add `keywords: [react]` or change `when:`")
    if ctype == "user" and names.count("goal") != 1:
        yield Problem("a User has one Goal: one `{do: goal, ...}` effect", card=cid, path=("effect",),
                      hint="add e.g. `{do: goal, require: vp, at_least: 8}`")
    if ctype in ("event", "challenge", "victory") and not effects:
        yield Problem(f"this {ctype} has no `effect:`, so the rules cannot play it", card=cid, path=("effect",),
                      hint="add an effect, e.g. `effect: {do: draw, cards: 1, when: played}`")
    if ctype == "victory" and names.count("score") != 1:
        yield Problem("a Victory Condition has one `{do: score, ...}` effect", card=cid, path=("effect",))


def set_problems(cardset: CardSet) -> list[Problem]:
    """What keeps the set from being played: effects on the wrong card type or missing, a Personal
    challenge without a Defense Value, another kind without a Defender Bonus, a bad `play:` setting."""
    out: list[Problem] = []
    for card in cardset.cards:
        out += _card_problems(card.id, card.type, tuple(card.effects), card.has_keyword("react"))
        if card.type == "challenge":
            personal = card.fields.get("kind") == "personal"
            need = "defense_value" if personal else "defender_bonus"
            if card.fields.get(need) is None:
                out.append(Problem(f"a {'Personal' if personal else str(card.fields.get('kind'))} challenge needs `{need}`",
                                   card=card.id, path=(need,), hint=f"add `{need}: 0`"))
    return out
