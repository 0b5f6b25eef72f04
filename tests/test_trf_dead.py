"""TRF's dead position: "Play continues until one player's homeworld is taken!" A table where no
sequence of legal actions can ever take either homeworld is a draw ("dead position", not a cap).

Each test builds a position at the end of a turn (phase `post`), passes, and checks whether the
game ended. Seat 0 (Tessaly, Dominion) holds Kethra Prime (homeworld value 13) unless a test says
otherwise; seat 1 (Mira, Drifters) holds Calder (homeworld value 9). Capture: Militia 1, Heavy
Cruiser Group 4, Guild Flagship 6 (Unique, Trade Guild), Azguard Warfleet 5 (tag azguard).
"""

from __future__ import annotations

from cardsmith.engine.contract import Outcome
from tests.trf_positions import char, play, player, position, state

DEAD = Outcome.draw(2, "dead position", capped=False)


def end_turn(p0: dict | None = None, p1: dict | None = None, chars: list[dict] = (), turn: int = 5):
    p0 = p0 or player("tessaly", "kethra-prime", deck=["militia"] * 3, seat=0)
    p1 = p1 or player("mira", "calder", deck=["militia"] * 3, seat=1)
    s = state(position(p0, p1, chars=chars, phase="post", turn=turn))
    assert not s.is_terminal()
    return play(s, ("pass",))


def tessaly(**kw) -> dict:
    return player("tessaly", "kethra-prime", seat=0, **kw)


def test_a_dead_position_is_a_draw_not_a_cap():
    """Three Militia a side (capture 3) against homeworld values 13 and 9; individuals capture nothing."""
    s = end_turn(chars=[char(1, "darth-vexis", 0), char(2, "wayfarer", 1)])
    assert s.is_terminal() and s.outcome() == DEAD and s.returns() == (0.5, 0.5)
    assert s.decision() is None and s.legal_actions() == ()


def test_one_side_that_can_still_win_keeps_the_game_going():
    """Fleets in play: 4 + 4 + 1 = 9 reaches Calder's 9, so seat 0 may still win (seat 1 never can)."""
    fleets = [char(1, "heavy-cruiser-group", 0), char(2, "heavy-cruiser-group", 0), char(3, "militia", 0)]
    assert not end_turn(chars=fleets).is_terminal()
    assert end_turn(chars=fleets[1:]).outcome() == DEAD  # 4 + 1 + three Militia still to draw = 8


def test_cards_left_in_the_deck_or_the_hand_count():
    assert not end_turn(tessaly(deck=["militia"] * 3 + ["heavy-cruiser-group"] * 2)).is_terminal()  # 3 + 8
    assert not end_turn(tessaly(deck=["militia"], hand=["heavy-cruiser-group"] * 2)).is_terminal()  # 1 + 8


def test_a_unique_fleet_in_the_discard_pile_can_be_revived_by_a_buy():
    """"the controlling player may pay double ... to return it to life": Mira may play the Guild Flagship."""
    low = player("tessaly", "lantern", seat=0)  # Lantern: homeworld value 8
    mira = player("mira", "calder", deck=["militia"] * 2, seat=1)
    assert end_turn(low, {**mira, "discard": ["guild-mercenaries"]}).outcome() == DEAD  # not Unique: 2 (+4 lost)
    assert not end_turn(low, {**mira, "discard": ["guild-flagship"]}).is_terminal()  # 2 + 6 = 8


def test_a_fleet_the_account_may_not_play_does_not_come_back():
    """Tessaly (darkside) may never play the Guild Flagship (neutral): 3 + 6 would reach 9, but it stays discarded."""
    assert end_turn(tessaly(deck=["militia"] * 3, discard=["guild-flagship"])).outcome() == DEAD


def test_each_back_from_vacation_brings_back_one_fleet():
    """"A character from your discard pile returns to play": one card, one fleet (1 + 4 < 9; 1 + 4 + 4 = 9)."""
    gone = ["heavy-cruiser-group"] * 2
    one = tessaly(deck=["militia", "back-from-vacation"], discard=gone)
    assert end_turn(one).outcome() == DEAD
    assert not end_turn({**one, "hand": ["back-from-vacation"]}).is_terminal()


def test_azguard_revives_its_fleets_for_dolash_only_two_cards_a_time():
    """Azguard, Dolash's homeworld: "revive any Azguard card by discarding two cards from your hand";
    a hand refills only from the deck, so four cards left pay for 5 + 5 (reaching 9), three for 5."""
    gone = ["azguard-warfleet"] * 2
    four = ["5000-words"] * 4
    assert not end_turn(player("dolash", "azguard", hand=four[:2], deck=four[2:], discard=gone, seat=0)).is_terminal()
    assert end_turn(player("dolash", "azguard", hand=four[:3], discard=gone, seat=0)).outcome() == DEAD
    assert end_turn(player("dolash", "meridian", hand=four, discard=gone, seat=0)).outcome() == DEAD
    assert end_turn(player("kaelis", "azguard", hand=four, discard=gone, seat=0)).outcome() == DEAD


def test_capture_bonus_cards_still_to_come_count_for_every_fleet():
    """Off-Topic: "Your fleets get +3 capture this turn": three Militia become 3 + 9 = 12."""
    assert not end_turn(tessaly(deck=["militia"] * 3, hand=["off-topic"])).is_terminal()
    assert end_turn(tessaly(deck=["militia"] * 3, discard=["off-topic"])).outcome() == DEAD  # played: gone


def test_a_fortified_homeworld_is_still_within_reach_of_its_printed_value():
    """Thread Lock (+3) can be countered or expire: 9 against Calder's printed 9 keeps the game going."""
    fleets = [char(1, "heavy-cruiser-group", 0), char(2, "heavy-cruiser-group", 0), char(3, "militia", 0)]
    mira = player("mira", "calder", deck=["militia"] * 3, seat=1,
                  persistent=[{"card": "thread-lock", "until": "planet_lost", "rank": 1}])
    assert not end_turn(p1=mira, chars=fleets).is_terminal()


def test_a_game_one_side_could_win_stays_a_cap():
    """Where a win exists but nobody takes it, the turn cap ends the game as a capped draw (the players' failing)."""
    fleets = [char(1, "heavy-cruiser-group", 0), char(2, "heavy-cruiser-group", 0), char(3, "militia", 0)]
    s = end_turn(chars=fleets, turn=120)
    assert s.outcome() == Outcome.draw(2, "turn cap", capped=True)
