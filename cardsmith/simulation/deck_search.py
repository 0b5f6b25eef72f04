"""Deck search: the strongest legal deck against the field, found by seeded hill-climbing.

Starting from each of the set's decks in turn, a mutation replaces one copy of a card by another
card of a type the zone already holds; a mutant the deck rules refuse is dropped. A deck's fitness
is its mean result (a win 1, a draw half) against every deck of the field over the same seeds for
every candidate (common random numbers, so two candidates are compared on the same games). The
search keeps a mutant that does at least as well. The best deck is then played again on fresh
seeds, so its reported win rate is not flattered by the search having picked it on its own games.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from cardsmith.engine.chance import derive_seed, game_seed
from cardsmith.engine.contract import Game
from cardsmith.engine.runner import GameTask, run_tasks
from cardsmith.sets.model import CardSet, Deck, frozen_map
from cardsmith.simulation._inference import Effect, paired_effect

FINAL_SHARE = 0.25  # of the budget: the best deck and its start played again on fresh seeds


def search_needs(n_decks: int, games: int = 20) -> int:
    """The smallest budget that gives every starting deck one step (its start, one mutant) and the
    final re-measurement: below it a search would try nothing."""
    per_eval = games * n_decks
    return math.ceil((3 * n_decks * per_eval) / (1 - FINAL_SHARE))


@dataclass
class Candidate:
    deck: Deck
    fitness: float


def _pools(cardset: CardSet, decks: Sequence[Deck]) -> dict[str, list[str]]:
    """Per zone, the set's cards of the types that zone holds in any of the decks."""
    types = {c.id: c.type for c in cardset.cards}
    out: dict[str, list[str]] = {}
    for zone in dict.fromkeys(z for d in decks for z in d.zones):
        held = {types.get(c) for d in decks for c in d.zones.get(zone, {})}
        out[zone] = sorted(c.id for c in cardset.cards if c.type in held and "~" not in c.id)
    return out


def mutate(deck: Deck, pools: dict[str, list[str]], rng: random.Random) -> Deck:
    """One copy of one card replaced by another card of the zone's pool (kept in place)."""
    zones = [z for z in deck.zones if deck.zones[z] and pools.get(z)]
    zone = rng.choice(zones)
    cards = dict(deck.zones[zone])
    out_card = rng.choice(sorted(cards))
    in_card = rng.choice(pools[zone])
    cards[out_card] -= 1
    if not cards[out_card]:
        del cards[out_card]
    cards[in_card] = cards.get(in_card, 0) + 1
    zs = {z: frozen_map(cards if z == zone else dict(c)) for z, c in deck.zones.items()}
    return Deck(name=deck.name, set_id=deck.set_id, zones=frozen_map(zs))


def _results(game: Game, factory: Callable[[], Game] | None, deck: Deck, field: Sequence[Deck], agent: str, games: int,
             seed: int, jobs: int | None) -> list[float]:
    """The deck's results against each field deck, `games` games each, seats alternating."""
    decks = [deck, *field]
    tasks: list[GameTask] = []
    for k in range(len(field)):
        for j in range(games):
            seats = (0, k + 1) if j % 2 == 0 else (k + 1, 0)
            tasks.append(GameTask(len(tasks), game_seed(derive_seed("search", seed, k), j), seats, (agent, agent)))
    records = run_tasks(factory, decks, tasks, jobs=jobs, game=game)
    return [r.returns()[r.deck_ids.index(0)] for r in records]


def search_decks(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck], agent: str, *,
                 seed: int, budget: int, games: int = 20, jobs: int | None = None) -> dict[str, Any]:
    """Hill-climb from each deck within `budget` games; the best legal deck found, re-measured."""
    from cardsmith.decks import check_deck, parse_rules

    rules = parse_rules(cardset)
    pools = _pools(cardset, decks)
    rng = random.Random(derive_seed("deck search", seed))
    per_eval = games * len(decks)
    final = max(games, int(budget * FINAL_SHARE) // (2 * len(decks)) // 2 * 2)  # games per field deck, each side
    steps = max(0, int(budget * (1 - FINAL_SHARE)) // per_eval - 2 * len(decks))
    best: Candidate | None = None
    start_of: dict[int, Deck] = {}
    tried = kept = refused = 0
    for i, start in enumerate(decks):
        current = Candidate(start, sum(_results(game, factory, start, decks, agent, games, seed, jobs)) / per_eval)
        for _ in range(steps // len(decks)):
            mutant = mutate(current.deck, pools, rng)
            if check_deck(mutant, cardset, rules):
                refused += 1
                continue
            tried += 1
            fit = sum(_results(game, factory, mutant, decks, agent, games, seed, jobs)) / per_eval
            if fit >= current.fitness:
                current, kept = Candidate(mutant, fit), kept + 1
        if best is None or current.fitness > best.fitness:
            best = current
            start_of[id(best)] = start
    assert best is not None
    origin = start_of[id(best)]
    # Both decks on the same fresh seeds: the gain is a paired difference, game by game.
    fresh = _results(game, factory, best.deck, decks, agent, final, derive_seed("fresh", seed), jobs)
    base = _results(game, factory, origin, decks, agent, final, derive_seed("fresh", seed), jobs)
    gain: Effect = paired_effect([a - b for a, b in zip(fresh, base)])
    measurable = gain.low > 0 or gain.high < 0
    before, after = Counter(origin.cards()), Counter(best.deck.cards())
    names = {c.id: c.name for c in cardset.cards}
    added = {names.get(c, c): n for c, n in (after - before).most_common()}
    removed = {names.get(c, c): n for c, n in (before - after).most_common()}
    mean = sum(fresh) / len(fresh)
    return {
        "start": origin.name, "mutants_tried": tried, "refused_by_deck_rules": refused, "kept": kept,
        "result_against_field": round(mean, 6), "games": len(fresh), "gain_over_start": gain.to_dict(),
        "added": added, "removed": removed,
        "deck": {z: dict(c) for z, c in best.deck.zones.items()},
        "measurable": measurable, "agent": agent,
        "sentence": (f"Deck search ({tried} legal mutants, played by {agent}): from {origin.name}, a legal deck that scores "
                     f"{100 * mean:.1f}% against the field on {len(fresh)} fresh games, {gain.text()} over the deck it "
                     f"started from on the same games"
                     + ("" if measurable else " (the interval includes zero: no measurable gain at this budget)")
                     + "; it leans on " + (", ".join(f"+{n} {c}" for c, n in list(added.items())[:4]) or "no change")
                     + (" (cutting " + ", ".join(f"{n} {c}" for c, n in list(removed.items())[:4]) + ")." if removed else ".")),
    }
