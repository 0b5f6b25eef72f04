"""`cardsmith play` and `cardsmith balance` end to end on the Skirmish fixture set, and the build stage."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import main_in_process

pytest.importorskip("cardsmith.decks")  # the decks API (branch decks) loads and checks deck files

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "engine"


@pytest.fixture
def project(tmp_path, monkeypatch, skirmish_rules):
    """A project holding the Skirmish set, whose rules are the test game (registered as `skirmish`)."""
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    return root


cs = main_in_process


def test_play_prints_win_rates_with_intervals(project):
    code, out, err = cs("play", "skirmish", "--deck", "aggro", "--deck", "turtle", "--agents", "greedy,random",
                        "--games", "20", "--jobs", "1", "--log", "game.log")
    assert code == 0, err
    assert "aggro" in out and "wins" in out and "[" in out and "first player won" in out
    assert "draws" in out and "game length" in out
    log = (project / "game.log").read_text()
    assert "Seat 0: aggro played by greedy" in log or "Seat 0 (goes first): aggro played by greedy" in log
    assert "(goes first)" in log and "-- Turn 2" in log and "Result:" in log


def test_play_json_is_the_same_whatever_the_number_of_jobs(project):
    args = ["play", "skirmish", "--deck", "aggro", "--deck", "turtle", "--agents", "greedy", "--games", "16", "--seed", "4", "--json"]
    code1, out1, _ = cs(*args, "--jobs", "1")
    code2, out2, _ = cs(*args, "--jobs", "2")
    assert code1 == code2 == 0
    assert out1 == out2
    figures = json.loads(out1)
    assert figures["games"] == 16 and figures["seed"] == 4
    assert {"draws", "capped", "first_player_wins", "length", "decks", "deck_names", "card_impact"} <= set(figures)
    assert figures["deck_names"] == ["aggro", "turtle"]


def test_play_refuses_an_illegal_deck_with_the_checkers_message(project):
    code, out, err = cs("play", "skirmish", "--deck", "aggro", "--deck", "illegal/all-in.yaml", "--games", "2")
    assert code == 1
    assert "not legal" in err and "Strike 3" in err and "all-in.yaml" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("args, code, message", [
    (["--agents", "alphago"], 2, "unknown agent 'alphago'"),
    (["--games", "0"], 2, "at least 1"),
    (["--agents", "mcts:budget=3"], 2, "bad option"),
])
def test_play_bad_input_gets_a_clear_error(project, args, code, message):
    got, out, err = cs("play", "skirmish", "--deck", "aggro", "--deck", "turtle", *args)
    assert got == code and message in err and "Traceback" not in err


def test_play_unknown_set_and_deck_and_one_deck(project):
    code, _, err = cs("play", "chess", "--deck", "a", "--deck", "b")
    assert code == 2 and "no set named 'chess'" in err and "skirmish" in err
    code, _, err = cs("play", "skirmish", "--deck", "aggro", "--deck", "zoo")
    assert code == 1 and "no deck 'zoo'" in err and "aggro, turtle" in err
    code, _, err = cs("play", "skirmish", "--deck", "aggro")
    assert code == 2 and "give 2 to 4 decks" in err
    code, _, err = cs("play", "skirmish", "--players", "5", "--deck", "aggro")
    assert code == 2 and "2 to 4 players" in err
    code, _, err = cs("play", "skirmish", "--players", "3")
    assert code == 2 and "none named default" in err and "aggro, turtle" in err


def test_balance_writes_report_and_json(project):
    code, out, err = cs("balance", "skirmish", "--games", "10", "--agents", "random", "--jobs", "1")
    assert code == 0, err
    out_dir = project / "output" / "skirmish" / "balance"
    figures = json.loads((out_dir / "balance.json").read_text())
    assert figures["decks"] == ["aggro", "turtle"] and figures["games"] == 10
    page = (out_dir / "report.html").read_text()
    assert page.count("<svg") == 5 and "Per-card impact" in page and "Win rate per seat" in page
    assert "report:" in out


def test_balance_with_random_decks(project):
    code, out, err = cs("balance", "skirmish", "--random-decks", "--games", "6", "--agents", "random", "--jobs", "1", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert figures["random_decks"] and len(figures["decks"]) == 2 and figures["games"] == 6


def test_play_with_three_decks_and_with_one_deck_in_every_seat(project):
    code, out, err = cs("play", "skirmish", "--deck", "aggro", "--deck", "turtle", "--deck", "aggro",
                        "--agents", "random,greedy,random", "--games", "6", "--jobs", "1", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert figures["deck_names"] == ["aggro", "turtle", "aggro (2)"] and figures["seats"] == 3
    assert [d["games"] for d in figures["decks"]] == [6, 6, 6] and len(figures["seat_wins"]) == 3
    code, out, err = cs("play", "skirmish", "--players", "4", "--deck", "turtle", "--agents", "random", "--games", "4",
                        "--jobs", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["deck_names"] == ["turtle", "turtle (2)", "turtle (3)", "turtle (4)"]


def test_play_logs_the_final_position_and_continues_from_a_position(project):
    code, out, err = cs("play", "skirmish", "--deck", "aggro", "--deck", "turtle", "--agents", "random", "--games", "1",
                        "--jobs", "1", "--log", "game.log", "--log-position", "end.yaml")
    assert code == 0, err
    import yaml
    end = yaml.safe_load((project / "end.yaml").read_text())
    assert end["game"] == "skirmish" and end["ended"] is not None
    # A position in mid-game: the start of a game, written by hand from a finished one's shape.
    mid = dict(end, ended=None, life=[3, 3], shield=[0, 0], out_order=[], plays_left=2)
    mid["turn_order"] = {"order": [0, 1], "active": 0, "out": [], "turn": 5, "round": 3}
    mid["zones"]["hand:0"]["cards"] = ["strike-3", "strike-3"]
    (project / "mid.yaml").write_text(yaml.safe_dump(mid))
    code, out, err = cs("play", "skirmish", "--from", "mid.yaml", "--agents", "greedy,random", "--games", "6",
                        "--jobs", "1", "--json", "--log", "mid.log")
    assert code == 0, err
    figures = json.loads(out)
    # Seat 0 acts first from the position, with two sure hits of 4 against 3 life: greedy wins every game.
    assert figures["decks"][0]["wins"]["k"] == 6 and figures["deck_names"] == ["seat 0", "seat 1"]
    assert all(r == 0 for r in [x["acted_first"] for x in figures["seat_wins"]][1:])
    assert "P0 plays strike-3 at P1" in (project / "mid.log").read_text()


def test_play_from_a_bad_position_says_what_is_wrong(project):
    (project / "bad.yaml").write_text("game: skirmish\nformat: 1\nseats: 2\nzones: {}\n")
    code, _, err = cs("play", "skirmish", "--from", "bad.yaml", "--games", "1")
    assert code == 1 and "bad.yaml" in err and "skirmish position" in err and "Traceback" not in err
    (project / "chess.yaml").write_text("game: chess\nformat: 1\nseats: 2\n")
    code, _, err = cs("play", "skirmish", "--from", "chess.yaml", "--games", "1")
    assert code == 1 and "'chess' game" in err


def test_build_stage_runs_a_short_balance(project):
    from cardsmith.cli._stages import BuildContext
    from cardsmith.simulation.report import build_stage
    from cardsmith.base.project import Project
    from cardsmith.sets.validate import load_set

    cardset = load_set(project / "cards" / "skirmish")
    ctx = BuildContext(Project(project), cardset, {"balance_games": 6})
    build_stage(ctx)
    assert [w for w, _ in ctx.outputs] == ["balance report", "balance figures"]
    assert all(p.is_file() for _, p in ctx.outputs)
    figures = json.loads(ctx.outputs[1][1].read_text())
    assert figures["games_per_pairing"] == 6
    # Played by the game's competent player (not random), and the verdict says how little it measured.
    from cardsmith.engine.registry import load_game

    assert figures["agent"] == load_game(cardset).rules.competent_player()
    first = figures["verdict"]["sentences"][0]
    assert first.startswith("A short build run: 6 games per table by ") and "cardsmith balance skirmish" in first
