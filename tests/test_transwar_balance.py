"""TransWar's balance figures: per seat and per starting Form win rates, ally figures, length."""

from __future__ import annotations

import random

from cardsmith.engine.contract import Outcome
from cardsmith.games.transwar.balance import Finished, figures, finished, text
from tests.transwar_support import game, standard_deck


def tally(first, asks=(0, 0, 0), asked=(0, 0, 0), joined=(0, 0, 0), won=(0, 0, 0), lost=(0, 0, 0), reward=(0, 0, 0)):
    return {"first_form": list(first), "asks": list(asks), "asked": list(asked), "joined": list(joined),
            "ally_won": list(won), "ally_lost": list(lost), "reward_cards": list(reward)}


def test_figures_count_seats_forms_and_allies():
    games = [
        Finished(tally(["wolf", "rat", "bat"], asks=(2, 0, 0), asked=(0, 1, 1), joined=(0, 1, 0), won=(0, 1, 0),
                       reward=(0, 2, 0)), Outcome.placing([[0], [1], [2]], 3, "last player standing"), 40),
        Finished(tally(["rat", "wolf", "bat"]), Outcome((0, 0, 1), "turn cap", capped=True), 400),
    ]
    f = figures(games)
    assert [(r["k"], r["n"]) for r in f["seat_wins"]] == [(1, 2), (0, 2), (0, 2)]
    forms = {r["form"]: (r["k"], r["n"]) for r in f["form_wins"]}
    assert forms == {"wolf": (1, 2), "rat": (0, 2), "bat": (0, 2)}
    assert f["allies"]["asked_per_game"] == 1.0
    assert (f["allies"]["accepted"]["k"], f["allies"]["accepted"]["n"]) == (1, 2)
    assert f["allies"]["reward_cards_per_help"] == 2.0
    assert (f["ended_before_cap"]["k"], f["ended_before_cap"]["n"]) == (1, 2)
    assert "wolf" in text(f) and "P0: 50.0%" in text(f)


def test_figures_from_played_games():
    ended = []
    for seed in range(4):
        st = game().new_game([standard_deck()] * 3, seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        ended.append(finished(st))
    f = figures(ended)
    assert f["games"] == 4 and sum(r["n"] for r in f["form_wins"]) == 12
    assert sum(r["k"] for r in f["seat_wins"]) == sum(1 for g in ended if g.outcome.winner is not None)


def test_balance_runs_carry_the_per_form_and_ally_figures():
    # The runner keeps each game's summary, so `cardsmith balance transwar --players N` reports them.
    from cardsmith.engine.runner import play_game
    from cardsmith.simulation.match import add_game_figures

    g = game()
    records = [play_game(g, [standard_deck()] * 3, ["random"] * 3, seed, index=seed) for seed in range(3)]
    figs = add_game_figures({}, g, records)["game_figures"]
    assert figs["games"] == 3 and sum(r["n"] for r in figs["form_wins"]) == 9
    assert "win rate per starting Form" in g.balance_text(figs) and "allies:" in g.balance_text(figs)


def test_balance_plays_the_one_common_deck_in_every_seat(tmp_path):
    # `cardsmith balance transwar` with no --players: the set's single deck fills both seats.
    import shutil

    from conftest import ROOT, run_in_process

    shutil.copytree(ROOT / "cards" / "transwar", tmp_path / "cards" / "transwar")
    r = run_in_process("balance", "transwar", "--games", "2", "--budget", "0", "--jobs", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "win rate per starting Form" in r.stdout
