"""The card study of a balance run: which cards change results, by intervention where the rules
offer a filler and by the game's own randomness for cards it deals; Benjamini-Hochberg over all of
them; too strong and too weak flagged apart, ranked by the interval's bound.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

from cardsmith.engine.contract import Game
from cardsmith.engine.runner import GameRecord
from cardsmith.sets.model import CardSet, Deck
from cardsmith.simulation._inference import FDR, MARGIN, flag_rows
from cardsmith.simulation._observed import Hands
from cardsmith.simulation._intervention import (
    DEFAULT_BUDGET, Arm, FillerGameFactory, dealt_effects, fillers, run_interventions, swap, with_fillers)


def card_study(cardset: CardSet, game: Game, decks: Sequence[Deck], tables: Sequence[tuple[int, ...]], agent: str, *,
               seed: int, budget: int = DEFAULT_BUDGET, jobs: int | None = None, progress: bool = False,
               factory: Callable[[], Game] | None = None, records: Sequence[GameRecord] = (),
               hands: Hands | None = None, where: Any = None, deadline: float | None = None) -> dict[str, Any]:
    """Every card test of the decks at these tables, as report figures (`card_tests` and its notes).
    `records` are the run's round-robin games (the decks as they are), which the natural experiment
    for dealt cards uses beside the first look's baseline games; `where` (a runs.Where) sends the
    tests to the round robin's cluster."""
    in_decks = sorted({c for d in decks for c in d.cards()})
    made = fillers(cardset, game.rules, in_decks)
    all_decks = list(decks)
    arms: list[Arm] = []
    for d, deck in enumerate(decks):
        for card in dict.fromkeys(deck.cards()):
            if card in made:
                all_decks.append(swap(deck, card, made[card].id))
                arms.append(Arm(d, card, made[card].id, len(all_decks) - 1))
    played = game.rules.make_game(with_fillers(cardset, made)) if made else game
    if factory is None and made:
        factory = FillerGameFactory(cardset.path, tuple(in_decks))
    run = run_interventions(played, factory, all_decks, arms, tables, agent, seed=seed, budget=budget, jobs=jobs,
                            progress=progress, where=where, deadline=deadline)
    names = {c.id: c.name for c in cardset.cards}
    rows: list[dict[str, Any]] = []
    for a, arm in enumerate(run.arms):
        if run.tables_of(arm):
            rows.append({"deck": decks[arm.deck].name, "card": arm.card, "name": names.get(arm.card, arm.card),
                         "method": "intervention", "filler": made[arm.card].name, **run.effect(a).to_dict()})
    baseline = [run.baseline[k] for k in sorted(run.baseline)]
    fixed = list(records) + [run.baseline[k] for k in sorted(run.baseline) if k[1] < run.first]
    for row in dealt_effects(game, decks, fixed, skip=frozenset(a.card for a in run.arms), hands=hands or Hands(game, decks)):
        rows.append({"deck": decks[row["deck"]].name, "card": row["card"], "name": names.get(row["card"], row["card"]),
                     "method": "dealt by the game", "filler": None, **row["effect"].to_dict()})
    flag(rows)
    untested = sorted({c for c in in_decks if c not in made} - {r["card"] for r in rows})
    return {
        "card_tests_note": None if rows else no_tests_reason(game.rules, made),
        "card_tests": rank(rows), "fdr": FDR, "margin": MARGIN, "budget": budget, "study_games": run.games_played(),
        "stopped_for_time": run.stopped_for_time,
        # Looks matter only for intervention rows (dealt-card rows rest on a fixed sample).
        "looks": max((r["looks"] for r in rows), default=1), "first_look": run.first, "dealt_games": len(fixed), "filler_rule": filler_rule(game.rules),
        "baseline_games": len(baseline), "study_capped": sum(r.capped for r in baseline),
        "untested_cards": [{"card": c, "name": names.get(c, c)} for c in untested],
    }


def no_tests_reason(rules: Any, made: Any) -> str:
    """Why a balance run has no card tests, in the report's words."""
    if getattr(rules, "filler", None) is None:
        return (f"No card tests: the rules of {rules.name} define no `filler` (the neutral stand-in a card is tested "
                "against, docs/engine.md) and the game deals no card at random at setup, so there is no causal "
                "measure of single cards; the deck win rates are measured as usual and the per-card figures below "
                "are observational only.")
    if not made:
        return "No card tests: the rules' filler gives no card of these decks a stand-in (it returned None for each)."
    return "No card tests: no card of these decks could be tested at the tables played."


def filler_rule(rules: Any) -> str | None:
    """The rules module's own account of its fillers (its filler module's notes), for the report."""
    hook = getattr(rules, "filler", None)
    if hook is None:
        return None
    module = inspect.getmodule(hook)
    return inspect.cleandoc(module.__doc__) if module is not None and module.__doc__ else None


def flag(rows: list[dict[str, Any]], q: float = FDR, margin: float = MARGIN) -> None:
    """Mark each row 'too strong', 'too weak' or None: Benjamini-Hochberg at `q` over every row, on
    the test that its effect lies beyond +-`margin` (`_inference.flag_rows`)."""
    flag_rows(rows, margin, q)


def rank(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Too strong first (highest lower bound first), then too weak (lowest upper bound first), then
    the rest by the bound nearest to a flag."""
    def key(r: dict[str, Any]) -> tuple:
        if r["flag"] == "too strong":
            return (0, -r["low"], r["deck"], r["card"])
        if r["flag"] == "too weak":
            return (1, r["high"], r["deck"], r["card"])
        return (2, -max(r["low"], -r["high"]), r["deck"], r["card"])
    return sorted(rows, key=key)
