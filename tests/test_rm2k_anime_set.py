"""The #rm2k_anime set: invented from the rules' card anatomy, effects as data, deck rules as data,
the starting-Users budget a `play:` setting the rules read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import jsonschema

from cardsmith.decks.check import check_deck
from cardsmith.engine.chance import ScriptedChance
from cardsmith.games import rm2k_anime as rm
from cardsmith.sets.model import Deck, frozen_map
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parents[1]
CS = load_set(ROOT / "cards" / "rm2k-anime")


def test_the_set_has_every_card_type_and_challenge_kind_and_validates_clean():
    types = Counter(c.type for c in CS.cards)
    assert sum(types.values()) == 60 and set(types) == {"user", "attach", "event", "challenge", "victory"}
    kinds = Counter(c.fields["kind"] for c in CS.cards if c.type == "challenge")
    assert set(kinds) == {"attack", "multi_tech", "duel", "team", "personal"}
    assert any(c.has_keyword("react") for c in CS.cards)
    assert any("-" in (c.fields[s] for s in ("roleplay", "otaku", "argue", "script", "gamer"))
               for c in CS.cards if c.type == "user"), "some Users have an immunity"
    assert list(rm.RULES.validate(CS)) == []
    for c in CS.cards:
        if c.type in ("event", "challenge", "victory", "user"):
            assert c.effects, c.id


def test_everything_invented_is_listed_including_the_deck_size_and_budget():
    invented = " ".join(str(x["what"]) for x in CS.meta["invented"])
    for what in ("deck size", "start_budget", "turn_cap", "copies"):
        assert what in invented


def test_play_settings_fit_the_rules_schema_and_the_budget_is_read():
    jsonschema.validate(CS.meta["play"], rm.RULES.play_schema)
    game = rm.make_game(CS)
    assert game.budget == CS.meta["play"]["start_budget"] == 8


def _deck(cards: dict[str, int]) -> Deck:
    return Deck("t", CS.id, frozen_map({"deck": frozen_map(cards)}))


def test_deck_rules_size_copies_unique_users_and_user_count():
    from cardsmith.decks.files import load_deck
    for path in sorted((ROOT / "cards" / "rm2k-anime" / "decks").glob("*.yaml")):
        assert check_deck(load_deck(path, CS), CS) == [], path.name
    users = [c.id for c in CS.cards if c.type == "user"][:6]
    ok = {**{u: 1 for u in users}, "all-nighter": 3, "netsplit": 3, "pm-war": 3, "pen-tablet": 3, "ddos": 3,
          "walkthrough": 3, "ctrl-z": 3, "flame-war": 3, "spoiler-bomb": 3, "banhammer": 3, "caffeine-rush": 3, "ban-vote": 1}
    assert check_deck(_deck(ok), CS) == []
    rules = {v.rule for v in check_deck(_deck({**ok, users[0]: 2, "ban-vote": 0}), CS)}
    assert rules == {"unique"}, "one copy of each User"
    rules = {v.rule for v in check_deck(_deck({**ok, "ban-vote": 2}), CS)}
    assert rules == {"deck-size"}
    rules = {v.rule for v in check_deck(_deck({**ok, "pm-war": 4, "ban-vote": 0}), CS)}
    assert rules == {"copies"}


def test_a_budget_setting_changes_which_main_users_may_be_chosen():
    from dataclasses import replace
    cs = replace(CS, meta={**CS.meta, "play": {"start_budget": 2, "turn_cap": 60}})
    game = rm.make_game(cs)
    deck = _deck({"nekopixel": 1, "night-owl": 1, "lurker-lord": 1, "mod-hammer": 1, "all-nighter": 10})
    s = game.new_game([deck, deck], chance=ScriptedChance(fallback=1))
    assert {a[1] for a in s.legal_actions()} == {"night-owl", "lurker-lord"}
