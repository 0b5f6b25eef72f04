"""#rm2k_anime: edge cases of the text an outside checker would try, each a hand-written position
played through the public API, beside the clause tests in test_rm2k_anime_rules.py."""

from __future__ import annotations

from tests.rm2k_positions import play, seat, start, table, user, users
from tests.test_rm2k_anime_rules import _challenge


def test_equal_negative_totals_are_an_all_fail_not_a_draw():
    """3.4.1.1: "If both players ... have negative scores, regardless of whose is higher, both sides are
    declared the Loser" -- read as covering equal negative scores too, which 3.4.1's "If both player's
    scores are equal, the Challenge is a draw" would otherwise discard. Collab Project (Script, -2 per
    User): Chibi Sage 1 - 2 = -1 against Fansubber Rin 1 - 2 = -1."""
    s = _challenge("collab-project", ["chibi-sage"], ["fansubber-rin"])
    play(s, ("attacker", 0), ("done",), ("defender", 0), ("pass",), ("pass",))
    assert "-1 to -1: All-Fail" in "\n".join(s.log)
    assert users(s, 0)[0]["lag"] == 2 and users(s, 1)[0]["lag"] == 2


def test_a_personal_challenge_equal_to_its_defense_value_is_a_draw():
    """3.4.1: "If both player's scores are equal, the Challenge is a draw and is discarded without
    effect" -- for a Personal Challenge the Defense Value is the other score: Speedrun Sam's Gamer 6
    against Beat the Final Boss's 6. Nobody scores, nobody takes Lag, and Sam has still attacked."""
    s = _challenge("beat-the-final-boss", ["speedrun-sam"], ["lurker-lord"])
    play(s, ("attacker", 0), ("pass",), ("pass",))
    assert "6 to 6: a draw, discarded without effect" in "\n".join(s.log)
    assert seat(s, 0)["vp"] == 0 and users(s, 0)[0]["lag"] == 0 and users(s, 0)[0]["attacked"]
    assert "beat-the-final-boss" in seat(s, 0)["discard"]


def test_instantaneous_sync_with_free_bandwidth_exactly_the_cost():
    """2.4.1: "that User has sufficent Free Bandwidth to pay for the card by himself": NekoPixel
    (Bandwidth 3) pays Netsplit (Cost 3) alone with no Lag, not with 1 Lag."""
    s = start(table(["nekopixel"], ["lurker-lord"], hands=(["netsplit"], [])))
    assert ("instant", "netsplit", 0, 0) in s.legal_actions()
    s = start(table([user("nekopixel", lag=1)], ["lurker-lord"], hands=(["netsplit"], [])))
    assert not any(a[:2] == ("instant", "netsplit") for a in s.legal_actions())


def test_the_opponent_reaching_ten_in_the_active_players_victory_phase_wins():
    """2.3: "You have 10 or more Victory Points at the end of any players Victory Phase": the seat
    whose turn it is not wins at the end of the other's Victory Phase."""
    s = start(table(["nekopixel"], ["lurker-lord"], decision="victory", vp=(4, 10)))
    play(s, ("end",), ("end",))
    assert s.outcome().winner == 1 and s.outcome().reason == "accomplishment"
    assert s.returns() == (0.0, 1.0)
