"""The conformance suite on any set: `cardsmith check-game SET` holds the set's game to the game
contract, the same checks `tests/test_game_conformance.py` runs on the games cardsmith ships.

Each check is a title and the problems found (plain sentences, "seed S, action N: ..."); a game
that passes has none. The checks play random games with the set's own decks, at the smallest and
the largest table the rules allow, the decks seated in turn (so that seats hold different decks).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable, Sequence

from cardsmith.engine.checks import deck_problems, hook_problems, playout_problems, protocol_problems
from cardsmith.engine.contract import Outcome, RulesModule
from cardsmith.sets.model import CardSet, Deck, frozen_map

# A game whose random games at its largest table run long plays that table with this turn cap (its
# end is still checked, as a capped draw); the smallest table plays to a real end.
LARGEST_TABLE_TURN_CAP = {"alien_empires": 40}
# Random games per table whose determinizations are played out (12 playouts or so a game).
PLAYOUT_SEEDS = 3


def tables(rules: RulesModule, decks: Sequence[Deck]) -> list[list[Deck]]:
    """The smallest and the largest table, seats filled from the decks in turn."""
    lo, hi = rules.players
    return [[decks[i % len(decks)] for i in range(n)] for n in sorted({lo, hi})]


def capped_game(rules: RulesModule, cardset: CardSet, cap: int) -> Any:
    """The set's game with `play.turn_cap` set to `cap`."""
    play = dict(cardset.meta.get("play") or {})
    return rules.make_game(dataclasses.replace(cardset, meta=frozen_map({**cardset.meta, "play": {**play, "turn_cap": cap}})))


def declaration_problems(rules: RulesModule, game: Any) -> list[str]:
    from cardsmith.engine.registry import canonical

    out = []
    if rules.name != canonical(rules.name):
        out.append(f"the rules' name {rules.name!r} is not lower case with underscores ({canonical(rules.name)!r})")
    if getattr(game, "rules", None) is not rules:
        out.append("make_game(cardset) gave a game whose `rules` is not the RULES that made it")
    if not 2 <= rules.players[0] <= rules.players[1] <= 6:
        out.append(f"players {rules.players} is not (lo, hi) with 2 <= lo <= hi <= 6")
    if "turn_cap" not in rules.play_schema.get("properties", {}):
        out.append("play_schema has no `turn_cap` property: every game supports play: {turn_cap: N}")
    out += [f"effects[{name!r}] is named {spec.name!r}" for name, spec in rules.effects.items() if spec.name != name]
    return out


def _random_games(rules: RulesModule, game: Any, decks: Sequence[Deck], cardset: CardSet) -> list[str]:
    out = []
    for i, table in enumerate(tables(rules, decks)):
        cap = LARGEST_TABLE_TURN_CAP.get(rules.name) if i else None
        at = capped_game(rules, cardset, cap) if cap else game
        for seed in range(2) if i == 0 else range(1):
            seated = [decks[(j + seed) % len(decks)] for j in range(len(table))]
            out += [f"{len(table)} seats: {p}" for p in protocol_problems(at, seated, seeds=[seed], position_every=5)]
    return out


def _positions_read_back(rules: RulesModule, game: Any, decks: Sequence[Deck]) -> list[str]:
    from cardsmith.engine.kit import dump_position, parse_position

    for table in tables(rules, decks):
        state, rng = game.new_game(table, 5), random.Random(5)
        for step in range(12):
            if state.is_terminal():
                break
            back = game.from_position(parse_position(dump_position(state.position()), rules.name))
            if back.position() != state.position() or back.legal_actions() != state.legal_actions():
                return [f"{len(table)} seats, action {step}: a position written as YAML and read back is another position"]
            state.apply(rng.choice(state.legal_actions()))
    return []


def _turn_cap(rules: RulesModule, decks: Sequence[Deck], cardset: CardSet) -> list[str]:
    capped, table, ends = capped_game(rules, cardset, 2), tables(rules, decks)[0], []
    for seed in range(4):
        state, rng = capped.new_game(table, seed), random.Random(seed)
        for _ in range(10_000):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        ends.append(state.outcome())
        if state.turn > 3:
            return [f"seed {seed}: with play: {{turn_cap: 2}} the game went on to turn {state.turn}"]
    if Outcome.draw(len(table), "turn cap", capped=True) not in ends:
        return ["with play: {turn_cap: 2} no game ended as a capped draw (Outcome.draw(n, 'turn cap', capped=True))"]
    return []


def _playouts(rules: RulesModule, game: Any, decks: Sequence[Deck]) -> list[str]:
    """Random play from determinizations at the smallest table, the decks seated in turn and as a
    mirror (the first deck at every seat: both sides hold the same cards, a path of its own)."""
    seated = tables(rules, decks)[0]
    out = []
    for what, table in (("decks in turn", seated), ("a mirror", [decks[0]] * len(seated))):
        out += [f"{what}: {p}" for p in playout_problems(game, table, seeds=range(PLAYOUT_SEEDS))]
    return out


def checks(rules: RulesModule, game: Any, decks: Sequence[Deck], cardset: CardSet) -> list[tuple[str, Callable[[], list[str]]]]:
    """The suite: (what is checked, a function returning the problems found)."""
    small = tables(rules, decks)[0]
    seated = [decks[i % len(decks)] for i in range(len(small))]
    return [
        ("the rules declare what the contract asks", lambda: declaration_problems(rules, game)),
        ("random games keep the contract (legal actions, clones, replays, hiding, positions, returns)",
         lambda: _random_games(rules, game, decks, cardset)),
        ("a determinization gives no seat a card it could not hold (per-seat decks)",
         lambda: deck_problems(game, seated, seeds=range(2))),
        ("random play from a determinization goes on to an end (a legal action wherever a seat is to act)",
         lambda: _playouts(rules, game, decks)),
        ("the optional hooks the game offers keep their promise", lambda: hook_problems(game, small, seeds=range(2))),
        ("positions read back from YAML text", lambda: _positions_read_back(rules, game, decks)),
        ("play: {turn_cap: N} ends a game as a capped draw", lambda: _turn_cap(rules, decks, cardset)),
    ]


def check_game(rules: RulesModule, game: Any, decks: Sequence[Deck], cardset: CardSet) -> list[tuple[str, list[str]]]:
    """Every check with the problems it found (empty lists: the game keeps the contract). A check that
    crashes is a problem of its own, named with the exception."""
    from cardsmith.engine.blame import describe

    out = []
    for title, run in checks(rules, game, decks, cardset):
        try:
            problems = run()
        except Exception as e:  # noqa: BLE001 - the crash is the finding; the other checks still run
            problems = [describe(e) or f"it crashed: {type(e).__name__}: {e}"]
        out.append((title, problems))
    return out
