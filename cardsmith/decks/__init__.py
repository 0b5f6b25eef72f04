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

from cardsmith.decks.check import Violation, check_deck
from cardsmith.decks.files import (DeckFileError, LoadedDeck, deck_files, deck_set_name, dump_deck, load_deck, parse_line,
                                   set_folder_of)
from cardsmith.decks.generate import random_deck
from cardsmith.decks.plays import PlayTerms, chosen_card, play_terms, zone_cards
from cardsmith.decks.predicates import Problem, register_predicate, registered_predicates, unregister_predicate
from cardsmith.decks.rules import DeckRules, RulesInvalid, parse_rules
from cardsmith.decks.stage import build_stage
from cardsmith.decks.stats import DeckStats, deck_stats, write_chart

__all__ = [
    "DeckFileError", "DeckRules", "DeckStats", "LoadedDeck", "PlayTerms", "Problem", "RulesInvalid", "Violation",
    "build_stage", "check_deck", "chosen_card", "deck_files", "deck_set_name", "deck_stats", "dump_deck", "load_deck",
    "parse_line", "parse_rules", "play_terms", "random_deck", "register_predicate", "registered_predicates",
    "set_folder_of", "unregister_predicate", "write_chart", "zone_cards",
]
