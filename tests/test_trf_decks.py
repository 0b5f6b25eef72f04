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
])
def test_acceptance_decks_are_refused_naming_card_and_rule(capsys, name, rule, card):
    code, out = deck_check(capsys, "check", str(DECKS / f"{name}.yaml"), "--set", str(ROOT / "cards" / "trf"))
    assert code == 1, out
    assert f": {rule}:" in out and card in out
