"""`cardsmith play` and `cardsmith balance` end to end on the Skirmish fixture set, and the build stage."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("cardsmith.decks")  # the decks API (branch decks) loads and checks deck files

import cardsmith.games

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "engine"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project holding the Skirmish set, whose rules module is the test game."""
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    monkeypatch.setattr(cardsmith.games, "__path__", [*cardsmith.games.__path__, str(HERE)])
    return root


def cs(*args):
    """Run the cardsmith entry point; (exit code, stdout, stderr)."""
    import contextlib
    import io

    from cardsmith.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as e:
            code = e.code or 0
    return code, out.getvalue(), err.getvalue()


def test_play_prints_win_rates_with_intervals(project):
    code, out, err = cs("play", "skirmish", "--deck", "aggro", "--deck", "turtle", "--agents", "greedy,random",
                        "--games", "20", "--jobs", "1", "--log", "game.log")
    assert code == 0, err
    assert "aggro" in out and "wins" in out and "[" in out and "first player won" in out
    assert "draws" in out and "game length" in out
    log = (project / "game.log").read_text()
    assert "Seat 0 (goes first): aggro played by greedy" in log and "-- Turn 2" in log and "Result:" in log


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
    assert code == 2 and "two decks" in err


def test_balance_writes_report_and_json(project):
    code, out, err = cs("balance", "skirmish", "--games", "10", "--agents", "random", "--jobs", "1")
    assert code == 0, err
    out_dir = project / "output" / "skirmish" / "balance"
    figures = json.loads((out_dir / "balance.json").read_text())
    assert figures["decks"] == ["aggro", "turtle"] and figures["games"] == 10
    page = (out_dir / "report.html").read_text()
    assert page.count("<svg") == 4 and "Per-card impact" in page
    assert "report:" in out


def test_balance_with_random_decks(project):
    code, out, err = cs("balance", "skirmish", "--random-decks", "--games", "6", "--agents", "random", "--jobs", "1", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert figures["random_decks"] and len(figures["decks"]) == 2 and figures["games"] == 6


def test_build_stage_runs_a_short_balance(project):
    from cardsmith.build import BuildContext
    from cardsmith.engine.report import build_stage
    from cardsmith.project import Project
    from cardsmith.validate import load_set

    cardset = load_set(project / "cards" / "skirmish")
    ctx = BuildContext(Project(project), cardset, {"balance_games": 6})
    build_stage(ctx)
    assert [w for w, _ in ctx.outputs] == ["balance report", "balance figures"]
    assert all(p.is_file() for _, p in ctx.outputs)
    assert json.loads(ctx.outputs[1][1].read_text())["games_per_pairing"] == 6
