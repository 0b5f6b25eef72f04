"""What the balance report needs from Alien Empires beyond play.

Every seat draws from one common deck, so there is no deck to swap a card out of and no filler:
the report measures a card through the game's own shuffle instead (the holder's result when the
card was in its opening hand against when it was not, a natural experiment), and gives the
observational figures (win rate when drawn, in the opening hand, never seen) from the hands.
"""

from __future__ import annotations

from typing import Any


def cards_in_hand(state: Any, seat: int) -> frozenset[str]:
    """The card ids `seat` holds in hand now (straight after setup: its opening deal)."""
    return frozenset(state.hands[seat])
