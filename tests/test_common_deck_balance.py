"""Balance for common-deck games (issue 33): sized runs over table sizes, every card tested or listed
with its reason, a planted strong card flagged too strong, and a report without deck standing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import main_in_process as cs

from cardsmith.engine.registry import load_game
from cardsmith.simulation import sets
from cardsmith.simulation._common_deck import table_sizes, unresolved
from cardsmith.simulation.balance import balance_run

ROOT = Path(__file__).resolve().parents[1]


def _copy(tmp_path: Path, name: str, old: str = "", new: str = "", file: str = "") -> Path:
    dst = tmp_path / "cards" / name
    shutil.copytree(ROOT / "cards" / name, dst)
    if old:
        text = (dst / file).read_text()
        assert old in text
        (dst / file).write_text(text.replace(old, new))
    return dst


def _run(path: Path, budget: int, sizes: tuple[int, ...]) -> dict:
    cardset = sets.load_set_checked(path)
    game = load_game(cardset)
    decks = [sets.load_checked_deck(cardset, p) for p in sets.deck_files(cardset.path)]
    figures, _ = balance_run(cardset, game, None, decks, "random", games=10, seed=3, budget=budget, jobs=1,
                             sizes=sizes, seconds=None)
    return figures


def test_a_planted_strong_form_is_flagged_too_strong_with_where_it_holds(tmp_path):
    # The Sheep (13 HP, cost 0) made a monster: any seat dealt it should win far more often.
    path = _copy(tmp_path, "transwar", "{id: sheep, name: Sheep, hp: 13, cost: 0, attack: 2, defense: 3, kick: 2, gore: 2}",
                 "{id: sheep, name: Sheep, hp: 60, cost: 0, attack: 12, defense: 20, kick: 12, gore: 12}", "forms.yaml")
    figures = _run(path, 480, (2, 4))
    sheep = next(r for r in figures["card_tests"] if r["card"] == "sheep")
    assert sheep["flag"] == "too strong" and sheep["kind"] == "Form"
    assert set(sheep["by_size"]) == {"2", "4"}
    assert any(s.startswith("Too strong: ") and "Sheep (Form)" in s for s in figures["verdict"]["sentences"])
    # Every distinct card of the deck is a row of card_tests or an untested card with a reason.
    deck = sets.load_checked_deck(sets.load_set_checked(path), sets.deck_files(path)[0])
    listed = {r["card"] for r in figures["card_tests"]} | {u["card"] for u in figures["untested_cards"]}
    assert listed == set(deck.cards())
    assert all(u["reason"] for u in figures["untested_cards"])
    assert "deck_win_rates" in figures and not figures["deck_win_rates"]


def test_a_planted_strong_race_power_is_flagged_too_strong(tmp_path):
    # Limit (an opponent discards one card) becomes +6 Force for every token, everywhere.
    path = _copy(tmp_path, "alien-empires", "    effect: {do: conflict_discard, amount: 1}",
                 "    effect: {do: token_force, amount: 6, side: any, where: any}", "races.yaml")
    figures = _run(path, 240, (2,))
    limit = next(r for r in figures["card_tests"] if r["card"] == "limit")
    assert limit["flag"] == "too strong" and limit["kind"] == "Race power"


def test_a_spent_budget_names_the_unresolved_cards_and_the_games_they_need(tmp_path):
    figures = _run(_copy(tmp_path, "transwar"), 48, (2,))
    cd = figures["common_deck"]
    assert cd["stopped"] == "game budget spent" and cd["games_by_size"] == {"2": 48}
    assert cd["unresolved"] and all(u["games_needed"] > 48 for u in cd["unresolved"])
    assert any(s.startswith("Unresolved (game budget spent)") for s in figures["verdict"]["sentences"])


def test_games_needed_grow_with_the_square_of_the_interval():
    rows = [{"card": "a", "name": "A", "low": -0.2, "high": 0.2}, {"card": "b", "name": "B", "low": 0.0, "high": 0.1}]
    out = unresolved(rows, 100)
    assert [u["card"] for u in out] == ["a"] and out[0]["games_needed"] == 400


def test_table_sizes_default_to_two_three_four_and_all_sizes_plays_every_one():
    rules = load_game(sets.open_set("transwar")).rules
    assert table_sizes(rules) == (2, 3, 4)
    assert table_sizes(rules, all_sizes=True) == (2, 3, 4, 5, 6)
    assert table_sizes(rules, players=5) == (5,)


def test_cli_report_has_per_seat_and_per_card_sections_and_no_deck_standing(tmp_path, monkeypatch):
    _copy(tmp_path, "transwar")
    monkeypatch.chdir(tmp_path)
    code, out, err = cs("balance", "transwar", "--budget", "96", "--players", "2", "--jobs", "1")
    assert code == 0, err
    assert "common deck Standard Mix" in out and "Standard Mix wins" not in out
    out_dir = tmp_path / "output" / "transwar" / "balance"
    figures = json.loads((out_dir / "balance.json").read_text())
    assert len(figures["card_tests"]) + len(figures["untested_cards"]) == 59
    assert all("flag" in r for r in figures["card_tests"])
    page = (out_dir / "report.html").read_text()
    assert "Per seat, per table size" in page and "the seats dealt it against the others" in page
    assert "Matchups" not in page
    code, _, err = cs("balance", "transwar", "--time-budget", "-1", "--jobs", "1")
    assert code != 0 and "--time-budget" in err
