"""TRF deck legality through `cardsmith deck check`: the acceptance decks of issue 11 are refused,
each naming the card and the rule it breaks."""

from __future__ import annotations

import pytest

from cardsmith.cli import main
from tests.trf_positions import ROOT

DECKS = ROOT / "tests" / "data" / "trf-decks"


def deck_check(capsys, *args: str) -> tuple[int, str]:
    """`cardsmith deck ARGS` in process: (exit code, what it printed)."""
    try:
        main(["deck", *args])
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("name,rule,card", [
    ("ten-planets", "no-more-than-nine-planet-cards", "Calder"),
    ("two-regrads", "unique", "Regrad"),
    ("darkside-under-coalition", "other-alignment", "Sith Raiders"),
    ("gash-under-coalition", "off-alignment-character", "Gash"),
])
def test_acceptance_decks_are_refused_naming_card_and_rule(capsys, name, rule, card):
    code, out = deck_check(capsys, "check", str(DECKS / f"{name}.yaml"), "--set", str(ROOT / "cards" / "trf"))
    assert code == 1, out
    assert f": {rule}:" in out and card in out


def test_every_sample_deck_is_legal_for_its_account(capsys):
    for path in sorted((ROOT / "cards" / "trf" / "decks").glob("*.yaml")):
        code, out = deck_check(capsys, "check", str(path))
        assert code == 0 and "legal" in out, out


def test_stats_show_the_doubled_cost_of_another_faction_of_the_same_alignment(capsys):
    """Xarn (Sith, darkside) pays double for Dominion cards (darkside, another faction)."""
    code, out = deck_check(capsys, "stats", str(ROOT / "cards" / "trf" / "decks" / "xarn.yaml"), "--json")
    assert code == 0
    import json

    paid = {row["card"]: row for row in json.loads(out)["surcharges"]}
    assert (paid["dominion-pickets"]["printed"], paid["dominion-pickets"]["paid"]) == (200, 400)
    assert "sith-raiders" not in paid  # own faction: normal cost


def test_the_game_charges_what_the_deck_rules_say():
    """One source: the engine's costs come from the set's `played_by` rules."""
    from cardsmith.games.trf.game import TRFGame
    from tests.trf_positions import trf_game

    g: TRFGame = trf_game()
    assert g.costs("xarn", "dominion-pickets") == 400 and g.costs("xarn", "sith-raiders") == 300
    assert g.costs("dolash", "gash") is None and g.costs("dolash", "jedi-sentinels") == 300  # Affinity (Jedi)
    assert g.costs("kaelis", "jedi-sentinels") == 300 and g.costs("kaelis", "gash") == 300
