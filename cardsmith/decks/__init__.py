"""Decks: deck files (YAML and "3x Name" text), deck rules as data, legality checks, statistics and
random legal decks.

    deck = load_deck("cards/solar-empires/decks/terracorp.yaml", cardset)
    for v in check_deck(deck, cardset):      # every broken rule, empty if legal
        print(v.rule, v.message, v.cards, v.counts)
    deck = random_deck(cardset, seed=7, faction="chain")

The rules are the set's `deck_rules:` (see docs/decks.md); a rules module can add checks that data
cannot say with `register_predicate`.
"""

from cardsmith.decks.check import Violation, check_deck
from cardsmith.decks.files import (DeckFileError, LoadedDeck, deck_files, deck_set_name, dump_deck, load_deck, parse_line,
                                   set_folder_of)
from cardsmith.decks.generate import random_deck
from cardsmith.decks.predicates import Problem, register_predicate, registered_predicates, unregister_predicate
from cardsmith.decks.rules import DeckRules, RulesInvalid, parse_rules
from cardsmith.decks.stage import build_stage
from cardsmith.decks.stats import DeckStats, deck_stats, write_chart

__all__ = [
    "DeckFileError", "DeckRules", "DeckStats", "LoadedDeck", "Problem", "RulesInvalid", "Violation",
    "build_stage", "check_deck", "deck_files", "deck_set_name", "deck_stats", "dump_deck", "load_deck",
    "parse_line", "parse_rules", "random_deck", "register_predicate", "registered_predicates",
    "set_folder_of", "unregister_predicate", "write_chart",
]
