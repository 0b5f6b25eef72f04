"""Round robin figures and the balance report (HTML with inline plots, JSON), on the Skirmish test game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from cardsmith.engine.chance import game_seed
from cardsmith.simulation.match import balance_tasks, play_match, run_balance
from cardsmith.simulation.report import render_html, write_report
from cardsmith.simulation.sets import unique_names
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Card, CardSet

import engine_testgame as sk
from engine_testgame import AGGRO, TURTLE, make_game

MID = sk.deck("midrange", strike_1=2, strike_2=4, strike_3=3, guard=2, heal=1)
DECKS = [AGGRO, TURTLE, MID]
CARDSET = CardSet(id="skirmish", name="Skirmish <Test>", path=Path("."),
                  cards=tuple(Card(id=c, name=c.replace("-", " ").title(), type="card") for c in sk.CARDS))


@pytest.fixture(scope="module")
def figures():
    result = run_balance(CARDSET, make_game(), make_game, DECKS, "greedy:samples=1", games=16, seed=3, jobs=1)
    return result.figures(DECKS)


def test_round_robin_plays_every_pair_with_alternating_seats():
    tasks = balance_tasks(3, "random", 4, seed=10)
    assert len(tasks) == 12 and [t.index for t in tasks] == list(range(12))
    assert [t.seed for t in tasks] == [game_seed(10, i) for i in range(12)]
    pairs = {frozenset(t.deck_ids) for t in tasks}
    assert pairs == {frozenset({0, 1}), frozenset({0, 2}), frozenset({1, 2})}
    firsts = [t.deck_ids[0] for t in tasks if set(t.deck_ids) == {0, 2}]
    assert sorted(firsts) == [0, 0, 2, 2]
    with pytest.raises(CardsmithError, match="at least two decks"):
        balance_tasks(1, "random", 4, seed=1)


def test_balance_figures_add_up(figures):
    assert figures["games"] == 48
    assert len(figures["tables"]) == 3
    for p in figures["tables"]:
        assert p["games"] == 16
        wins = sum(d["wins"]["k"] for d in p["decks"])
        assert wins + p["draws"]["k"] == 16
    for i, row in enumerate(figures["matchups"]):
        for j, cell in enumerate(row):
            if i != j:
                assert cell["n"] == 16
                assert cell["k"] + figures["matchups"][j][i]["k"] <= 16
    assert sum(d["wins"]["n"] for d in figures["deck_win_rates"]) == 96
    json.dumps(figures)  # everything is plain JSON


def test_report_is_self_contained_with_plots_and_escaped_text(figures, tmp_path):
    html_path, json_path = write_report(tmp_path / "balance", figures, CARDSET)
    page = html_path.read_text()
    assert "Skirmish &lt;Test&gt;" in page and "<Test>" not in page
    assert "src=" not in page and "href=" not in page  # nothing to fetch: plots are inline
    svgs = re.findall(r"<svg.*?</svg>", page, re.S)
    assert len(svgs) == 5  # heatmap, win rates per deck and per seat, first player, length histogram
    for s in svgs:
        ElementTree.fromstring(s)  # well-formed SVG
    assert "Per-card impact" in page and "Strike 3" in page
    assert json.loads(json_path.read_text()) == figures
    assert not list((tmp_path / "balance").glob(".*"))  # no temporary files left behind


def test_the_report_is_readable_on_a_phone(figures):
    page = render_html(figures, CARDSET)
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in page


def test_significant_cards_are_highlighted(figures):
    page = render_html(figures, CARDSET)
    flagged = sum(1 for c in figures["card_impact"] if c["significant"])
    assert page.count("<tr class='sig'>") == flagged


def test_match_figures_and_mirror_names():
    result = play_match(CARDSET, make_game(), make_game, [AGGRO, AGGRO], ("greedy", "random"), games=10, seed=1, jobs=1)
    assert result.deck_names == ["aggro", "aggro (2)"]
    d = result.to_dict()
    assert d["games"] == 10 and d["agents"] == ["greedy", "random"] and "card_impact" in d
    assert unique_names([TURTLE, AGGRO, TURTLE]) == ["turtle", "aggro", "turtle (2)"]


def test_a_three_player_balance_run_rotates_seats_and_reports_per_seat():
    four = DECKS + [sk.deck("healer", strike_1=4, strike_2=2, heal=6)]
    tasks = balance_tasks(4, "random", 3, seed=1, players=3)
    assert len(tasks) == 12  # C(4, 3) tables of 3 games
    for table in {tuple(sorted(t.deck_ids)) for t in tasks}:
        games = [t for t in tasks if tuple(sorted(t.deck_ids)) == table]
        for d in table:
            assert sorted(t.deck_ids.index(d) for t in games) == [0, 1, 2]
    result = run_balance(CARDSET, make_game(), make_game, four, "random", games=3, seed=1, jobs=1, players=3)
    figures = result.figures(four)
    assert figures["players"] == 3 and len(figures["seat_wins"]) == 3 and len(figures["tables"]) == 4
    assert sum(d["wins"]["n"] for d in figures["deck_win_rates"]) == 36
    page = render_html(figures, CARDSET)
    assert "3 seats, rotating" in page and "fair share (33%)" in page


def test_matchup_and_interval_labels_show_whole_deck_names():
    # A designer tells decks apart by their whole names: "Dolash's Azguard Fle" was once all a row showed.
    from cardsmith.simulation.report import LABEL_MOST, heatmap_svg, intervals_svg

    names = ["Dolash's Azguard Fleet of the Outer Rim", "Omnae's Admin Tools", "X" * (LABEL_MOST + 10)]
    cell = {"rate": 0.5, "low": 0.4, "high": 0.6, "k": 5, "n": 10}
    svg = heatmap_svg(names, [[None if i == j else cell for j in range(3)] for i in range(3)])
    root = ElementTree.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("Dolash's Azguard Fleet of the Outer Rim") == 2  # column and row
    assert texts.count("X" * (LABEL_MOST - 1) + "\u2026") == 2  # only a very long name is shortened...
    assert "X" * (LABEL_MOST + 10) in svg  # ...and its cells' tooltips keep it whole
    # Row labels end at the grid; the longest starts inside the picture (about 7.5 px a character at 12 px).
    rows = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("text-anchor") == "end"]
    assert all(float(t.get("x")) - 7.5 * len(t.text or "") >= 0 for t in rows)
    pair = "Dolash's Azguard Fleet of the Outer Rim vs Omnae's Admin Tools"
    svg = intervals_svg([(pair, cell)])
    label = next(t for t in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}text") if t.get("text-anchor") == "end")
    assert label.text == pair and float(label.get("x")) - 7.5 * len(pair) >= 0
