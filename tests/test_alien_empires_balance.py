"""Alien Empires' balance report (issue 14, item 5): per seat and per Race power, holders against the
others with corrected p-values, on the terminal, in balance.json and on the report page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import main_in_process as cs

ROOT = Path(__file__).resolve().parents[1]


def test_balance_for_three_players_reports_race_powers_on_every_output(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "cards" / "alien-empires", tmp_path / "cards" / "alien-empires")
    monkeypatch.chdir(tmp_path)
    code, out, err = cs("balance", "alien-empires", "--players", "3", "--games", "4", "--budget", "0", "--jobs", "1")
    assert code == 0, err
    assert "Race powers, holders against the others" in out
    out_dir = tmp_path / "output" / "alien-empires" / "balance"
    figures = json.loads((out_dir / "balance.json").read_text())
    powers = figures["game_figures"]["powers"]
    assert powers and {"holders", "others", "holm_p", "bh_p"} <= set(powers[0])
    assert len(figures["game_figures"]["seat_wins"]) == 3
    page = (out_dir / "report.html").read_text()
    assert "the game's own figures" in page
    assert powers[0]["name"] in page and "Benjamini-Hochberg" in page
