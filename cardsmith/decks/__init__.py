"""Decks: deck files (YAML and "3x Name" text), deck rules as data, legality checks, statistics and
random legal decks.

    deck = load_deck("cards/solar-empires/decks/terracorp.yaml", cardset)
    for v in check_deck(deck, cardset):      # every broken rule, empty if legal
        print(v.rule, v.message, v.cards, v.counts)
    deck = random_deck(cardset, seed=7, faction="chain")
    account = chosen_card(deck, rules, cardset.by_id())      # played_by: the one card of its zone
    terms = play_terms(card, account, rules, cardset, zone_cards(deck, rules, cardset.by_id()))
    terms.playable, terms.paid                   # may the account play it, and what it pays

The rules are the set's `deck_rules:` (see docs/decks.md); a rules package can add checks and cost
functions that data cannot say (`RULES.deck_predicates`, `RULES.cost_functions`, or `register_predicate`).
"""

from __future__ import annotations

import importlib
from typing import Any

# Each public name and the module that defines it. The modules are imported on first use (PEP 562), so
# validation, which needs only `cardsmith.decks.rules`, does not load deck files, generation and charts.
_WHERE = {
    "Violation": "check", "check_deck": "check",
    "DeckFileError": "files", "LoadedDeck": "files", "deck_files": "files", "deck_set_name": "files",
    "dump_deck": "files", "load_deck": "files", "parse_line": "files", "set_folder_of": "files",
    "random_deck": "generate",
    "PlayTerms": "plays", "chosen_card": "plays", "play_terms": "plays", "zone_cards": "plays",
    "Problem": "predicates", "register_predicate": "predicates", "registered_predicates": "predicates",
    "unregister_predicate": "predicates",
    "DeckRules": "rules", "RulesInvalid": "rules", "parse_rules": "rules",
    "build_stage": "stage",
    "DeckStats": "stats", "deck_stats": "stats", "write_chart": "stats",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'cardsmith.decks' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"cardsmith.decks.{where}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "DeckFileError", "DeckRules", "DeckStats", "LoadedDeck", "PlayTerms", "Problem", "RulesInvalid", "Violation",
    "build_stage", "check_deck", "chosen_card", "deck_files", "deck_set_name", "deck_stats", "dump_deck", "load_deck",
    "parse_line", "parse_rules", "play_terms", "random_deck", "register_predicate", "registered_predicates",
    "set_folder_of", "unregister_predicate", "write_chart", "zone_cards",
]
